#!/bin/sh
# The capacity searches of tests/sh/kafka-capacity.sh and
# stream-capacity.sh against their throttled pipelines, judged on what the
# suite leaves out as timing: the max_sustained_rate found within 20 % of
# the throttle's rate, and the search done in 60 s. (make check runs the
# same tests for what the load cannot move: the rates tried, the points
# stored, the verdicts.)
: "${PERFDB:?}" "${ROOT:?}"
export PERFDB ROOT BUILD="${BUILD:-$(dirname "$PERFDB")}"
status=0
for t in kafka-capacity stream-capacity; do
  out=$(sh "$ROOT/tests/sh/$t.sh" 2>&1)
  rc=$?
  [ $rc = 77 ] && { echo "$t: skipped: $(echo "$out" | tail -1)"; continue; }
  [ $rc = 0 ] || { echo "$t: FAIL (the test failed)"; echo "$out"; status=1; continue; }
  # "max_sustained_rate 430 msg/s against the throttle's 450 (-4.4 %)", "the search took 41 s"
  line=$(echo "$out" | grep '^max_sustained_rate ')
  took=$(echo "$out" | sed -n 's/^the search took \([0-9]*\) s$/\1/p')
  found=$(echo "$line" | awk '{ print $2 }')
  rate=$(echo "$line" | sed -n "s/.*the throttle's \([0-9]*\) .*/\1/p")
  [ -n "$found" ] && [ -n "$rate" ] && [ -n "$took" ] || { echo "$t: FAIL: no result in its output"; echo "$out"; status=1; continue; }
  verdict=$(awk -v f="$found" -v r="$rate" -v t="$took" 'BEGIN {
    off = (f / r - 1) * 100; a = off < 0 ? -off : off
    printf "%s: found %d against %d (%+.1f %%: %s), in %d s (%s)\n", "'"$t"'", f, r, off,
      a <= 20 ? "within 20 %" : "FAIL: not within 20 %", t, t <= 60 ? "60 at most" : "FAIL: over 60"
    exit !(a <= 20 && t <= 60) }') || status=1
  echo "$verdict"
done
exit $status
