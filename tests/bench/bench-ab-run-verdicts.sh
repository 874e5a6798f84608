#!/bin/sh
# make bench: tests/sh/ab-run.sh with its timing verdicts: the regression of 10 % more work found (exit 1) and the same build twice passing 6 runs of 6.
# make check runs the same test wanting a verdict only (exit 0 or 1).
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
export PERFDB=${PERFDB:-$ROOT/build/perfdb} BUILD=${BUILD:-$ROOT/build} ROOT BENCH_BOUNDS=1
sh "$ROOT/tests/sh/ab-run.sh"
rc=$?
[ $rc = 77 ] && { echo "ab-run-verdicts: skipped"; exit 0; }
exit $rc
