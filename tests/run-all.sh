#!/bin/sh
# The whole suite for each build directory given: cmocka unit tests, golden
# CLI cases, facts tests (tests/facts: every fixture checked series by series
# against an independent reader), and shell tests (tests/sh/*.sh: exit 0 pass, 77 skip, else fail).
# Ends with the line "N passed, N failed".
root=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0 skip=0
log=$(mktemp)
add() { # add "passed failed skipped" from a "...: N passed, N failed[, N skipped]" line
  line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
  f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
  s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p')
  pass=$((pass + ${p:-0})); fail=$((fail + ${f:-1})); skip=$((skip + ${s:-0}))
}
for build in "$@"; do
  build=$(cd "$build" && pwd) || exit 2   # relative to the project root, or absolute
  echo "== suite on $build"
  for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    "$t" >"$log" 2>&1
    rc=$?
    p=$(sed -nE 's/^\[  PASSED  \] ([0-9]+) test.*/\1/p' "$log" | tail -1)
    f=$(sed -nE 's/^\[  FAILED  \] ([0-9]+) test.*/\1/p' "$log" | tail -1)
    s=$(sed -nE 's/^\[  SKIPPED \] ([0-9]+) test.*/\1/p' "$log" | tail -1)
    skip=$((skip + ${s:-0}))
    if [ $rc != 0 ] && [ -z "$f" ]; then f=1; fi
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
    if [ $rc != 0 ]; then cat "$log"; echo "FAIL $(basename "$t")"; else echo "ok   $(basename "$t") (${p:-0} passed${s:+, $s skipped})"; fi
  done
  sh "$root/tests/run-cases.sh" "$build" >"$log" 2>&1
  grep -v '^ok ' "$log"
  add
  sh "$root/tests/facts/run.sh" "$build" >"$log" 2>&1
  grep -v '^ok ' "$log"
  add
  for t in "$root"/tests/sh/*.sh; do
    [ -f "$t" ] || continue
    PERFDB="$build/perfdb" BUILD="$build" ROOT="$root" sh "$t" >"$log" 2>&1
    rc=$?
    case $rc in
      0) pass=$((pass + 1)); echo "ok   $(basename "$t")";;
      77) skip=$((skip + 1)); echo "skip $(basename "$t"): $(tail -1 "$log")";;
      *) fail=$((fail + 1)); cat "$log"; echo "FAIL $(basename "$t")";;
    esac
  done
done
rm -f "$log"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
