#!/bin/sh
# make bench: tests/sh/jmeter-stream.sh with its memory bound: a 1,000,000-row
# JMeter JTL (the corpus's rows repeated) ingests with a peak RSS below the
# file's size plus 100 MB (streamed, not held whole). make check runs the same
# test for the samples only. Needs ../shared/corpus (skipped without it).
# Exit 1 when the bound is missed.
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
export PERFDB=${PERFDB:-$ROOT/build/perfdb} BUILD=${BUILD:-$ROOT/build} ROOT BENCH_BOUNDS=1
sh "$ROOT/tests/sh/jmeter-stream.sh"
rc=$?
[ $rc = 77 ] && { echo "jmeter-stream-rss: skipped (no ../shared/corpus)"; exit 0; }
exit $rc
