#!/bin/sh
# make bench: tests/sh/ingest-memory.sh with its memory bounds: big JSON
# results (hyperfine 40 MB, pytest-benchmark 43 MB, perfdb's export 16 MB)
# ingest with a peak RSS of at most 1.5, 1.5 and 3.5 times the file's size.
# make check runs the same test for the values only. Exit 1 when a bound is missed.
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
export PERFDB=${PERFDB:-$ROOT/build/perfdb} BUILD=${BUILD:-$ROOT/build} ROOT BENCH_BOUNDS=1
exec sh "$ROOT/tests/sh/ingest-memory.sh"
