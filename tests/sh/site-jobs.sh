#!/bin/sh
# perfdb site draws its benchmark pages in threads (--jobs): the site must
# not depend on how many, nor on what the process drew before. Checked byte
# for byte, manifest included:
#   - from scratch with 1 thread and with 4;
#   - a site brought up to date by reruns (new runs, 3 threads) and one
#     written from scratch over the same runs (1 thread): an incremental
#     site is the site, and no page was left stale;
# and --jobs 0 is a usage error (exit 2) that writes nothing.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/perfdb.db" PERFDB_FINGERPRINT=off SOURCE_DATE_EPOCH=1764000000
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $1"; }
same() { # same DIR1 DIR2 WHAT
  if diff -r "$1" "$2" >"$work/diff" 2>&1; then ok; else no "$3"; head -5 "$work/diff"; fi
}

sh "$ROOT/tests/site-scenario.sh" "$PERFDB" 1 30 || { echo "scenario failed"; exit 1; }
"$PERFDB" site -o "$work/one" -j 1 >/dev/null || no "site -j 1"
"$PERFDB" site -o "$work/four" -j 4 >/dev/null || no "site -j 4"
same "$work/one" "$work/four" "one thread and four write different sites"

"$PERFDB" site -o "$work/kept" -j 3 >/dev/null || no "site -j 3"
sh "$ROOT/tests/site-scenario.sh" "$PERFDB" 31 32 || { echo "scenario failed"; exit 1; }
"$PERFDB" site -o "$work/kept" -j 3 >"$work/out" || no "rerun -j 3"
grep -q ' written, ' "$work/out" && ! grep -q '^0 pages written' "$work/out" && ok ||
  no "the rerun after two runs wrote nothing: $(tail -1 "$work/out")"
"$PERFDB" site -o "$work/scratch" -j 1 >/dev/null || no "site -j 1 from scratch"
same "$work/kept" "$work/scratch" "the site kept up to date differs from one written from scratch"

"$PERFDB" site -o "$work/zero" -j 0 >/dev/null 2>"$work/err"
rc=$?
[ "$rc" = 2 ] && grep -q -- '--jobs' "$work/err" && [ ! -e "$work/zero" ] && ok ||
  no "--jobs 0: exit $rc, $(cat "$work/err")"

echo "site-jobs: $pass passed, $fail failed"
[ "$fail" = 0 ]
