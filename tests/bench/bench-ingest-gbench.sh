#!/bin/sh
# make bench: perfdb ingest of a 131 MB Google Benchmark JSON (40,000
# benchmarks, 280,000 rows; tests/bench/make-gbench-json.py from a real
# output's structure) against a C program that only parses it with jansson's
# json_load_file, in the same run. Targets: time ratio <= 3 (perfdb also stores
# 120,000 series; read whole it was about 4: 41.6 s against 10.1 s), perfdb's
# peak RSS <= 1.5 x the file's size (it reads a row at a time; whole, 6 x).
# Exit 1 when one is missed.
PERFDB=${PERFDB:-build/perfdb}
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v /usr/bin/time >/dev/null 2>&1 || apt-get install -y time >/dev/null 2>&1 ||
  { echo "ingest-gbench: skipped (time is missing)"; exit 0; }
command -v python3 >/dev/null 2>&1 || { echo "ingest-gbench: skipped (python3 is missing)"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 "$ROOT/tests/bench/make-gbench-json.py" "$ROOT/fixtures/google-benchmark/repetitions.json" \
  40000 "$dir/gbench.json" || exit 1
. "$(dirname "$0")/ingest-pairs.sh"
ingest_peer "$dir" ingest-gbench
ingest_pairs ingest-gbench google-benchmark "$dir/gbench.json" 3 "280000 rows" 3
