#!/bin/sh
# The option tables (perfdb --generate options) against what is made of
# them and what is written beside them: no short letter means two things
# across the commands; getopt takes every long option and letter of every
# table; every option is in its command's -h; every default a table gives
# is what -h prints, a value the option takes, and what the command does
# without it (the same output with the option at its default and without,
# for every command that runs on a small history); the blocks of the
# manual's sources (docs/cmd/*.md: NAME, SYNOPSIS, OPTIONS, the lists of
# commands and formats) are what scripts/docs-options.sh makes of the
# tables, and perfdb(1)'s table of short letters is the tables' letters.
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
while IFS='	' read -r cmd letter long arg choices def; do
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
# the defaults: -h prints each, and each is a value its option takes
awk -F'\t' '$6 != "-"' "$work/options" >"$work/defaults"
[ "$(wc -l <"$work/defaults")" -ge 15 ] || { echo "FAIL: only $(wc -l <"$work/defaults") defaults in the tables"; fail=1; }
while IFS='	' read -r cmd letter long arg choices def; do
  "$PERFDB" $cmd -h | tr '\n' ' ' | tr -s ' ' | grep -qF -- "(default $def)" ||
    { echo "FAIL: perfdb $cmd -h does not print --$long's default $def"; fail=1; }
  err=$(cd "$work" && timeout 10 "$PERFDB" $cmd "--$long" "$def" --not-an-option </dev/null 2>&1 >/dev/null)
  case $err in *"unknown option '--not-an-option'"*) ;; *) echo "FAIL: perfdb $cmd refuses --$long $def, its default: $err"; fail=1;; esac
done <"$work/defaults"
# ... and each is what the command does without the option: a history of
# 20 runs with a step of +20 % (detect), two runs (compare), a file (ingest)
for r in $(seq -w 1 20); do
  awk -v r="$r" 'BEGIN { x = (r > 10 ? 1.2 : 1) * (1 + r % 3 / 100)
    printf "{\"attrs\": {\"commit\": \"c%s\", \"branch\": \"main\"}, \"results\": [{\"benchmark\": \"a\", \"dims\": {}, \"metric\": \"time\", \"unit\": \"s\", \"direction\": \"lower\", \"samples\": [%g, %g, %g]}]}\n", r, x, x * 1.001, x * 0.999 }' >"$work/run-$r.json"
done
(cd "$work" && PERFDB_FINGERPRINT=off "$PERFDB" ingest --each run-*.json >/dev/null) || { echo "FAIL: ingest of the history"; fail=1; }
run_with() { # CMD [OPTION VALUE]: its output and status, in the history's folder
  cmd=$1; shift
  case $cmd in
    detect) set -- detect --no-cache "$@";;
    compare) set -- compare latest~1 latest "$@";;
    gc) set -- gc --dry-run "$@";;
    show) set -- show latest "$@";;
    sql) set -- sql 'select id, name from runs order by id' "$@";;
    bisect|mock-kafka|run|site|report|plot|table) return 1;;
    ingest) rm -f "$work/idb"; set -- --db "$work/idb" ingest "$work/run-01.json" "$@";;
    *) set -- $cmd "$@";;
  esac
  (cd "$work" && PERFDB_FINGERPRINT=off timeout 20 "$PERFDB" "$@" 2>&1 </dev/null; echo "exit $?")
}
checked=0
while IFS='	' read -r cmd letter long arg choices def; do
  case $cmd/$long in ingest/group|ingest/broker-timeout) continue;; esac # --from-kafka's
  without=$(run_with "$cmd") || continue
  with=$(run_with "$cmd" "--$long" "$def")
  [ "$with" = "$without" ] || { echo "FAIL: perfdb $cmd --$long $def (its default) differs from no --$long:"; echo "$with" | head -5; echo "$without" | head -5; fail=1; }
  checked=$((checked + 1))
done <"$work/defaults"
[ $checked -ge 8 ] || { echo "FAIL: only $checked defaults run with and without"; fail=1; }
# ... and that check can fail: another value than the default changes the output
[ "$(run_with detect --magnitude 50)" != "$(run_with detect)" ] || { echo "FAIL: detect --magnitude 50 is no different"; fail=1; }

# ... and the test can fail: an option no table has is refused
"$PERFDB" show --not-an-option 2>&1 | grep -q "unknown option '--not-an-option'" ||
  { echo "FAIL: an unknown option was not refused"; fail=1; }

# docs/cmd/*.md, the manual's sources: their blocks are what docs-options.sh
# writes from the tables (make docs), and every command has its page with both
for doc in "$ROOT"/docs/cmd/*.md; do
  sh "$ROOT/scripts/docs-options.sh" "$PERFDB" "$doc" >"$work/doc.md" &&
    diff -u "$doc" "$work/doc.md" >"$work/docs.diff" ||
    { echo "FAIL: ${doc#$ROOT/}'s generated blocks are not the tables' (make docs):"; head -20 "$work/docs.diff"; fail=1; }
done
for cmd in $(cut -f1 "$work/options" | uniq); do
  for kind in head options; do
    grep -q "^<!-- perfdb --generate md-$kind-$cmd: " "$ROOT/docs/cmd/$cmd.md" 2>/dev/null ||
      { echo "FAIL: docs/cmd/$cmd.md has no md-$kind-$cmd block"; fail=1; }
  done
done
# ... and perfdb(1)'s table of short letters: "| `-X` | `--NAME ...` |"
sed -n 's/^| `-\(.\)` | `--\([a-z-]*\).*/\1 \2/p' "$ROOT/docs/cmd/perfdb.md" | sort -u >"$work/doc-letters"
awk -F'\t' '$2 != "-" { print $2 " " $3 }' "$work/options" | sort -u >"$work/letters"
diff "$work/letters" "$work/doc-letters" >"$work/letters.diff" ||
  { echo "FAIL: docs/cmd/perfdb.md's short letters (>) are not the tables' (<):"; cat "$work/letters.diff"; fail=1; }
[ $fail = 0 ] && echo "$(wc -l <"$work/options") options of $(cut -f1 "$work/options" | uniq | wc -l) commands: one meaning per letter, all taken, documented; $(wc -l <"$work/defaults") defaults printed and taken, $checked run with and without"
exit $fail
