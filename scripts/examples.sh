#!/bin/sh
# make examples: the charts of docs/commands.md (docs/examples/*.svg) drawn from the
# fixtures by the perfdb binary given as $1 (default build/perfdb).
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
perfdb=$(cd "$(dirname "${1:-$root/build/perfdb}")" && pwd)/$(basename "${1:-$root/build/perfdb}")
out="$root/docs/examples"
fx="$root/fixtures/plot"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/examples.db" SOURCE_DATE_EPOCH=1764000000 PERFDB_FINGERPRINT=off TZ=UTC
mkdir -p "$out"

"$perfdb" ingest "$fx/scaling/synthetic-usl.json" >/dev/null
"$perfdb" ingest "$fx/scaling/synthetic-matrix.json" >/dev/null
"$perfdb" ingest "$root/fixtures/fio/fio-3.33-randread-psync.json" -n fio >/dev/null
"$perfdb" ingest "$root/fixtures/wrk/latency.txt" -n wrk >/dev/null
"$perfdb" ingest "$fx/scaling/hyperfine-vcpus1.json" --dim vcpus=1 -n sha-1 >/dev/null
"$perfdb" ingest "$fx/scaling/hyperfine-vcpus2.json" --dim vcpus=2 -n sha-2 >/dev/null
for f in "$fx"/history/h*.json; do
  "$perfdb" ingest "$f" -n "$(basename "$f" .json)" >/dev/null
done
"$perfdb" ingest "$fx/compare/base.json" -n base >/dev/null
"$perfdb" ingest "$fx/compare/cand.json" -n cand >/dev/null

"$perfdb" plot scaling usl-synthetic -o "$out/scaling-usl.svg" \
  --title 'Scaling with a USL fit (synthetic data)'
"$perfdb" plot scaling matrix-synthetic -o "$out/scaling-matrix.svg" \
  --title 'index/bulk: vCPUs x batch size (synthetic data)'
"$perfdb" plot latency fio wrk -o "$out/latency-fio-wrk.svg" 2>/dev/null
"$perfdb" plot scaling sha-1 sha-2 -o "$out/scaling-hyperfine.svg" --theme dark \
  --title 'sha256 of 8 x 16 MB pinned to 1 and 2 vCPUs (hyperfine)'
"$perfdb" plot history --metric time -o "$out/history.svg" \
  --title 'gzip -1, then gzip -6 from h17 on (hyperfine, 32 runs)'
"$perfdb" plot compare base cand -o "$out/compare.svg" --height 420
omb="$root/../shared/corpus/omb/redpanda_blog_kafka_latency_sync-200k.json"
if [ -f "$omb" ]; then
  "$perfdb" ingest "$omb" -n omb >/dev/null
  "$perfdb" plot latency omb -o "$out/latency-omb.svg"
else
  echo "examples: $omb absent: latency-omb.svg left as it is"
fi
ls "$out"
sh "$root/scripts/examples-report.sh" "$perfdb"
sh "$root/scripts/examples-site.sh" "$perfdb"
