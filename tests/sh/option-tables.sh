#!/bin/sh
# The option tables (perfdb --generate options) against what is made of
# them and what is written beside them: no short letter means two things
# across the commands; getopt takes every long option and letter of every
# table; every option is in its command's -h; docs/commands.md's option
# lists are the commands' -h (scripts/docs-options.sh), and its table of
# short letters is the tables' letters.
: "${PERFDB:?}" "${ROOT:?}"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/db"
fail=0
"$PERFDB" --generate options >"$work/options" || { echo "FAIL: --generate options"; exit 1; }
[ "$(wc -l <"$work/options")" -gt 100 ] || { echo "FAIL: too few options:"; cat "$work/options"; exit 1; }

# one meaning per letter: a letter names the same long option everywhere
awk -F'\t' '$2 != "-" {
  if (($2 in name) && name[$2] != $3) { print "FAIL: -" $2 " is --" name[$2] " in " cmd[$2] " but --" $3 " in " $1; bad = 1 }
  name[$2] = $3; cmd[$2] = $1
} END { exit bad }' "$work/options" || fail=1

# getopt knows each option: given before an unknown one, it is never the one refused
while IFS='	' read -r cmd letter long arg choices; do
  value=; [ "$arg" = - ] || value=1
  opts="--$long"; [ "$letter" = - ] || opts="$opts -$letter"
  for opt in $opts; do
    err=$(cd "$work" && timeout 10 "$PERFDB" $cmd $opt $value --not-an-option </dev/null 2>&1 >/dev/null)
    case $err in
      *"unknown option '$opt'"*|*"option '$opt' takes no value"*)
        echo "FAIL: perfdb $cmd does not take $opt: $err"; fail=1;;
    esac
  done
  "$PERFDB" $cmd -h | grep -q -- "--$long\b" || { echo "FAIL: perfdb $cmd -h lacks --$long"; fail=1; }
done <"$work/options"
# ... and the test can fail: an option no table has is refused
"$PERFDB" show --not-an-option 2>&1 | grep -q "unknown option '--not-an-option'" ||
  { echo "FAIL: an unknown option was not refused"; fail=1; }

# docs/commands.md: its option lists are what docs-options.sh writes
sh "$ROOT/scripts/docs-options.sh" "$PERFDB" "$ROOT/docs/commands.md" >"$work/commands.md" &&
  diff -u "$ROOT/docs/commands.md" "$work/commands.md" >"$work/docs.diff" ||
  { echo "FAIL: docs/commands.md's option lists are not the commands' -h (make docs):"; head -40 "$work/docs.diff"; fail=1; }
for cmd in $(cut -f1 "$work/options" | uniq); do
  [ "$cmd" = help ] && continue
  grep -q "^<!-- perfdb $cmd -h: " "$ROOT/docs/commands.md" || { echo "FAIL: docs/commands.md has no option list of $cmd"; fail=1; }
done
# ... and its table of short letters: "| `-X` | `--NAME ...` |" pairs, two a row
sed -n 's/^| `-\(.\)` | `--\([a-z-]*\).*| `-\(.\)` | `--\([a-z-]*\).*/\1 \2\n\3 \4/p; s/^| `-\(.\)` | `--\([a-z-]*\)[^|]*| | |$/\1 \2/p' \
  "$ROOT/docs/commands.md" | sort -u >"$work/doc-letters"
awk -F'\t' '$2 != "-" { print $2 " " $3 }' "$work/options" | sort -u >"$work/letters"
diff "$work/letters" "$work/doc-letters" >"$work/letters.diff" ||
  { echo "FAIL: docs/commands.md's short letters (>) are not the tables' (<):"; cat "$work/letters.diff"; fail=1; }
[ $fail = 0 ] && echo "$(wc -l <"$work/options") options of $(cut -f1 "$work/options" | uniq | wc -l) commands: one meaning per letter, all taken, documented"
exit $fail
