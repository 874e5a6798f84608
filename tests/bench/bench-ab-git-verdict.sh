#!/bin/sh
# make bench: tests/sh/ab-git.sh with its timing verdicts: the regression of HEAD~1 against a commit doing 10 % more work found (exit 1).
# make check runs the same test wanting a verdict only (exit 0 or 1).
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
export PERFDB=${PERFDB:-$ROOT/build/perfdb} BUILD=${BUILD:-$ROOT/build} ROOT BENCH_BOUNDS=1
sh "$ROOT/tests/sh/ab-git.sh"
rc=$?
[ $rc = 77 ] && { echo "ab-git-verdict: skipped"; exit 0; }
exit $rc
