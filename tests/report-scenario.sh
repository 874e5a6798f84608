#!/bin/sh
# The runs behind the report tests and example: 31 nightly hyperfine runs of
# "compress" on main (a change point at run 17), then release v1.0 (baseline)
# and v1.1 (candidate), each several real result files in one run: hyperfine
# suites, fio random reads (latency percentiles) and, in v1.1, a scaling run.
# Usage: report-scenario.sh PERFDB FIXTURES (PERFDB_DB names the database).
perfdb=$1 f=$2
i=0
for h in "$f"/plot/history/h*.json; do
  i=$((i + 1))
  [ $i = 32 ] && break
  "$perfdb" ingest "$h" -a branch=main -a commit="$(printf '%07x' $((i * 7919)))" >/dev/null || exit 1
done
"$perfdb" ingest "$f/plot/compare/base.json" "$f/plot/history/h16.json" \
  "$f/fio/fio-3.33-randread-psync.json" -n v1.0 -a branch=main -a commit=1a2b3c4 \
  -a version=1.0 >/dev/null || exit 1
"$perfdb" ingest "$f/plot/compare/cand.json" "$f/plot/history/h32.json" \
  "$f/report/fio-3.33-randread-psync-2.json" "$f/plot/scaling/synthetic-usl.json" -n v1.1 \
  -a branch=main -a commit=9f8e7d6 -a version=1.1 >/dev/null || exit 1
