#!/bin/sh
# The man pages (scripts/gen-man.sh, as make build makes them from
# docs/cmd/*.md, without running perfdb): one for perfdb, one per command,
# perfdb-formats(7); man --warnings says nothing of any; each command's
# page is its manual (a DESCRIPTION of more than the -h text), has every
# long option of its -h with the default the table gives; perfdb-compare(1)
# explains the verdicts and the tests and has examples; the formats page
# has every format of ingest --list-formats (the registry); and
# docs/commands.md is the sources in one file (scripts/gen-commands-md.sh).
: "${PERFDB:?}" "${ROOT:?}"
command -v man >/dev/null || { echo "no man(1)"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
# no perfdb on the PATH nor in the arguments: the pages are made from the sources alone
PATH=/usr/bin:/bin sh "$ROOT/scripts/gen-man.sh" "$ROOT" "$work/man" || { echo "FAIL: gen-man.sh"; exit 1; }
cmds=$("$PERFDB" --generate options | cut -f1 | uniq)
[ -n "$cmds" ] || { echo "FAIL: no commands"; exit 1; }
pages="perfdb.1 perfdb-formats.7 $(for c in $cmds; do echo "perfdb-$c.1"; done)"
for page in $pages; do
  f="$work/man/$page"
  [ -s "$f" ] || { echo "FAIL: no page $page"; fail=1; continue; }
  warnings=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$f" 2>&1 >"$work/text")
  [ -z "$warnings" ] || { echo "FAIL: $page: $warnings"; fail=1; }
  grep -q '^NAME' "$work/text" || { echo "FAIL: $page renders no NAME section"; fail=1; }
  # Markdown left in the text (code blocks, indented further, may show it)
  md='^( {7}| {14})[^ ].*(\*\*|```|\]\()'
  grep -Eq "$md" "$work/text" && { echo "FAIL: $page shows Markdown:"; grep -Em3 "$md" "$work/text"; fail=1; }
done
[ "$(ls "$work/man" | wc -l)" = "$(echo $pages | wc -w)" ] || { echo "FAIL: pages beyond the commands':"; ls "$work/man"; fail=1; }
for c in $cmds; do
  MANWIDTH=200 man -l "$work/man/perfdb-$c.1" 2>/dev/null >"$work/text"
  for long in $("$PERFDB" "$c" -h | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    grep -q -- "$long\b" "$work/text" || { echo "FAIL: perfdb-$c(1) lacks $long"; fail=1; }
  done
  # the defaults of the table, on the option's lines
  "$PERFDB" --generate options | awk -F'\t' -v c="$c" '$1 == c && $6 != "-" { print $3 "\t" $6 }' |
  while IFS='	' read -r long def; do
    awk -v o="--$long" -v d="(default $def)" 'index($0, o) && $1 ~ /^-/ { getline; if (index($0, d)) f = 1 } END { exit !f }' "$work/text" ||
      { echo "FAIL: perfdb-$c(1) does not give --$long's default $def"; exit 1; }
  done || fail=1
  desc=$(sed -n '/^DESCRIPTION/,/^OPTIONS/p' "$work/text" | grep -c .)
  [ "$desc" -gt 1 ] || { echo "FAIL: perfdb-$c(1) has a DESCRIPTION of $desc lines"; fail=1; }
  MANWIDTH=200 man -l "$work/man/perfdb.1" 2>/dev/null | grep -q "perfdb-$c(1)" ||
    { echo "FAIL: perfdb(1) does not point to perfdb-$c(1)"; fail=1; }
done
# man perfdb-compare is the manual of the gate: the verdicts, the tests, examples
MANWIDTH=200 man -l "$work/man/perfdb-compare.1" 2>/dev/null >"$work/text"
[ "$(grep -c . "$work/text")" -gt 100 ] || { echo "FAIL: perfdb-compare(1) has $(grep -c . "$work/text") lines"; fail=1; }
for v in failed insufficient regression improvement unchanged inconclusive; do
  grep -q "^       $v\b" "$work/text" || { echo "FAIL: perfdb-compare(1) does not explain the verdict $v"; fail=1; }
done
for t in Mann–Whitney Hodges–Lehmann Wilcoxon Welch 'history (N runs)'; do
  grep -q "$t" "$work/text" || { echo "FAIL: perfdb-compare(1) does not name the test $t"; fail=1; }
done
sed -n '/^EXAMPLES/,/^SEE ALSO/p' "$work/text" | grep -q '^ *perfdb compare run' ||
  { echo "FAIL: perfdb-compare(1) has no examples"; fail=1; }
MANWIDTH=200 man -l "$work/man/perfdb-formats.7" 2>/dev/null >"$work/text"
n=0
for f in $("$PERFDB" ingest --list-formats | awk '{ print $1 }'); do
  n=$((n + 1))
  grep -q "^       $f\b" "$work/text" || { echo "FAIL: perfdb-formats(7) lacks $f"; fail=1; }
done
[ "$n" -gt 30 ] || { echo "FAIL: only $n formats listed"; fail=1; }
# docs/commands.md: the sources in one file, as gen-commands-md.sh writes it
sh "$ROOT/scripts/gen-commands-md.sh" "$ROOT" >"$work/commands.md" &&
  diff -u "$ROOT/docs/commands.md" "$work/commands.md" >"$work/docs.diff" ||
  { echo "FAIL: docs/commands.md is not docs/cmd/*.md in one file (make docs):"; head -20 "$work/docs.diff"; fail=1; }
# ... and the warnings check can fail: a page with a broken macro warns
printf '.TH X 1\n.SH NAME\nx \\- y\n.nosuchmacro\n' >"$work/bad.1"
[ -n "$(man --warnings -l "$work/bad.1" 2>&1 >/dev/null)" ] || { echo "FAIL: man --warnings quiet on a bad page"; fail=1; }
[ $fail = 0 ] && echo "$(ls "$work/man" | wc -l) pages from docs/cmd/, no warnings; every option of every -h with its default; compare's verdicts, tests and examples; $n formats; docs/commands.md current"
exit $fail
