#!/bin/sh
# make demo: the main job on the embedded default, in demo-out/ with a fresh
# database: ingest two real hyperfine runs, gate them with compare, run a
# small spec pinned to 1 and 2 vCPUs, a Kafka load against librdkafka's mock
# cluster, then charts and a release report.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
perfdb="$root/build/perfdb"
out="$root/demo-out"
rm -rf "$out"; mkdir -p "$out"
export PERFDB_DB="$out/perfdb.db"
cd "$root"
step() { printf '\n$ perfdb %s\n' "$*"; }

step ingest fixtures/plot/compare/base.json --name v1.0 --attr branch=main
"$perfdb" ingest fixtures/plot/compare/base.json --name v1.0 --attr branch=main
step ingest fixtures/plot/compare/cand.json --name v1.1 --attr branch=main
"$perfdb" ingest fixtures/plot/compare/cand.json --name v1.1 --attr branch=main
step runs
"$perfdb" runs
step compare v1.0 v1.1
status=0; "$perfdb" compare v1.0 v1.1 || status=$?
echo "(exit status $status: 1 means a regression was found)"

step run fixtures/run/demo.yaml --name scaling
"$perfdb" run fixtures/run/demo.yaml --name scaling
step plot scaling scaling --bench cpu-work --format text
"$perfdb" plot scaling scaling --bench cpu-work --format text
"$perfdb" plot scaling scaling --bench cpu-work -o "$out/scaling.svg"

step run fixtures/kafka/input-only.yaml --name kafka
if "$perfdb" run fixtures/kafka/input-only.yaml --name kafka; then
  "$perfdb" show kafka | head -20
else
  echo "(the Kafka workload did not run; see the message above)"
fi

"$perfdb" plot compare v1.0 v1.1 -o "$out/compare.png"
step report v1.1 --baseline v1.0 -o demo-out/report
"$perfdb" report v1.1 --baseline v1.0 -o "$out/report" --title "perfdb demo: v1.1 against v1.0"
echo
echo "charts: $out/scaling.svg $out/compare.png"
echo "report: $out/report/index.html and index.md"
