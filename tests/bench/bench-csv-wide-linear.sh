#!/bin/sh
# make bench: tests/sh/csv-wide.sh with its timing bound: for hyperfine-csv,
# JMeter and Locust, 400,000 CSV columns ingest in at most 8 times the CPU
# time of 100,000 (linear: 4, quadratic: 16). make check runs the same test
# for the columns stored only. Exit 1 when the bound is missed.
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
export PERFDB=${PERFDB:-$ROOT/build/perfdb} BUILD=${BUILD:-$ROOT/build} ROOT BENCH_BOUNDS=1
exec sh "$ROOT/tests/sh/csv-wide.sh"
