#!/bin/sh
# Golden CLI cases: tests/cases/NAME/{cmd,expected,stderr,status}.
# cmd is a shell script run in a fresh directory with a fixed environment;
# its stdout must equal expected, its exit status status, and its stderr
# stderr when that file exists (paths inside the fresh directory made
# relative). REGEN=1 rewrites the files for review.
# Usage: run-cases.sh BUILD_DIR [NAME...]; prints "cases: N passed, N failed".
build=$(cd "$1" && pwd) || exit 2
shift
root=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0 skip=0
cases=${*:-$(ls "$root/tests/cases")}
# perfdb on the cases' PATH
bin=$(mktemp -d) || exit 2
trap 'rm -rf "$bin"' EXIT
ln -s "$build/perfdb" "$bin/perfdb"
for name in $cases; do
  dir="$root/tests/cases/$name"
  [ -f "$dir/cmd" ] || continue
  work=$(mktemp -d)
  ( cd "$work" &&
    env -i PATH="$bin:/usr/bin:/bin" HOME="$work" TMPDIR="$work" \
      TZ=UTC LC_ALL=C.UTF-8 NO_COLOR=1 SOURCE_DATE_EPOCH=1764000000 \
      PERFDB_FINGERPRINT=off PERFDB_DB="$work/perfdb.db" \
      ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
      UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
      FIXTURES="$root/fixtures" CORPUS="$root/../shared/corpus" ROOT="$root" \
      sh "$dir/cmd" >"$work/.stdout" 2>"$work/.stderr"
    echo $? >"$work/.status" )
  # the case's fresh directory is random: paths inside it print relative
  sed -i "s|$work/||g" "$work/.stdout" "$work/.stderr"
  if [ -n "$REGEN" ]; then
    # a stderr file is rewritten, or made for a new case (no expected yet):
    # a case without one (stderr of timings) is left without one
    if [ -f "$dir/stderr" ] || { [ ! -f "$dir/expected" ] && [ -s "$work/.stderr" ]; }; then
      cp "$work/.stderr" "$dir/stderr"
    fi
    cp "$work/.stdout" "$dir/expected"
    cp "$work/.status" "$dir/status"
    echo "regen $name"
    rm -rf "$work"
    continue
  fi
  ok=1
  read -r status <"$work/.status"
  if [ "$status" = 77 ]; then
    # a case that reads the corpus skips for want of it (tests/run-all.sh counts them)
    why=; grep -q CORPUS "$dir/cmd" && [ ! -d "$root/../shared/corpus" ] && why=" (no ../shared/corpus)"
    echo "skip $name$why"; skip=$((skip + 1)); rm -rf "$work"; continue
  fi
  want=; [ -f "$dir/status" ] && read -r want <"$dir/status"
  [ "$status" = "$want" ] || { ok=0; echo "--- $name: status $status, expected $want"; }
  cmp -s "$work/.stdout" "$dir/expected" || { ok=0; echo "--- $name: stdout differs"; diff "$dir/expected" "$work/.stdout" | head -20; }
  if [ -f "$dir/stderr" ]; then
    cmp -s "$work/.stderr" "$dir/stderr" || { ok=0; echo "--- $name: stderr differs"; diff "$dir/stderr" "$work/.stderr" | head -20; }
  elif grep -q -E "AddressSanitizer|LeakSanitizer|runtime error:" "$work/.stderr"; then
    ok=0; echo "--- $name: sanitizer report"; head -30 "$work/.stderr"
  fi
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name"; fi
  rm -rf "$work"
done
echo "cases: $pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
