#!/bin/sh
# A first site build killed (SIGKILL, at 30 moments spread over its run time)
# leaves a folder the next build takes as its own: that build succeeds, leaves no
# temporary file, and writes the same tree as a build from scratch.
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/p.db" PERFDB_FINGERPRINT=off SOURCE_DATE_EPOCH=1764000000
for i in $(seq 10 69); do
  sed "s/901234567890/9012345678$i/; s/\"demo-baseline\"/\"r$i\"/; s/0.412/0.4$i/" \
    "$ROOT/fixtures/canonical/demo.json" > "$work/r.json"
  "$PERFDB" ingest "$work/r.json" > /dev/null || exit 1
done
"$PERFDB" site -o "$work/fresh" -j 1 > /dev/null || exit 1
start=$(date +%s%N)
"$PERFDB" site -o "$work/timed" -j 1 > /dev/null || exit 1
ms=$(( ($(date +%s%N) - start) / 1000000 ))
fail=0 killed=0
for try in $(seq 1 30); do
  out="$work/try$try"
  "$PERFDB" site -o "$out" -j 1 > /dev/null 2>&1 &
  pid=$!
  sleep "$(awk -v ms="$ms" -v t="$try" 'BEGIN { printf "%.3f", ms * t / 31 / 1000 }')"
  kill -9 $pid 2>/dev/null && killed=$((killed + 1))
  wait $pid 2>/dev/null
  if ! "$PERFDB" site -o "$out" -j 1 > "$work/rerun.log" 2>&1; then
    echo "FAIL: try $try: the rerun failed: $(cat "$work/rerun.log")"; fail=1; continue
  fi
  left=$(find "$out" -name '.*.??????' | wc -l)
  [ "$left" = 0 ] || { echo "FAIL: try $try: $left temporary files left"; fail=1; }
  diff -r "$work/fresh" "$out" > /dev/null || { echo "FAIL: try $try: differs from a build from scratch"; fail=1; }
  rm -rf "$out"
done
[ "$killed" -ge 10 ] || { echo "FAIL: only $killed builds were killed before they ended"; fail=1; }
[ $fail = 0 ] && echo "site-kill: $killed of 30 builds killed mid-way (a build takes ${ms} ms); every rerun recovered"
exit $fail
