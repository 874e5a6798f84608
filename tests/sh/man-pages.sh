#!/bin/sh
# The man pages (scripts/gen-man.sh, as make build makes them): one for
# perfdb, one per command, perfdb-formats(7); man --warnings says nothing
# of any; each command's page has every long option of its -h; the
# formats page has every format of ingest --list-formats (the registry).
: "${PERFDB:?}" "${ROOT:?}"
command -v man >/dev/null || { echo "no man(1)"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
sh "$ROOT/scripts/gen-man.sh" "$PERFDB" "$work/man" || { echo "FAIL: gen-man.sh"; exit 1; }
cmds=$("$PERFDB" --generate options | cut -f1 | uniq)
[ -n "$cmds" ] || { echo "FAIL: no commands"; exit 1; }
for page in perfdb.1 perfdb-formats.7 $(for c in $cmds; do echo "perfdb-$c.1"; done); do
  f="$work/man/$page"
  [ -s "$f" ] || { echo "FAIL: no page $page"; fail=1; continue; }
  warnings=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$f" 2>&1 >"$work/text")
  [ -z "$warnings" ] || { echo "FAIL: $page: $warnings"; fail=1; }
  grep -q '^NAME' "$work/text" || { echo "FAIL: $page renders no NAME section"; fail=1; }
done
for c in $cmds; do
  MANWIDTH=200 man -l "$work/man/perfdb-$c.1" 2>/dev/null >"$work/text"
  for long in $("$PERFDB" "$c" -h | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    grep -q -- "$long\b" "$work/text" || { echo "FAIL: perfdb-$c(1) lacks $long"; fail=1; }
  done
  MANWIDTH=200 man -l "$work/man/perfdb.1" 2>/dev/null | grep -q "perfdb-$c(1)" ||
    { echo "FAIL: perfdb(1) does not point to perfdb-$c(1)"; fail=1; }
done
MANWIDTH=200 man -l "$work/man/perfdb-formats.7" 2>/dev/null >"$work/text"
n=0
for f in $("$PERFDB" ingest --list-formats | awk '{ print $1 }'); do
  n=$((n + 1))
  grep -q "^       $f\b" "$work/text" || { echo "FAIL: perfdb-formats(7) lacks $f"; fail=1; }
done
[ "$n" -gt 30 ] || { echo "FAIL: only $n formats listed"; fail=1; }
# ... and the warnings check can fail: a page with a broken macro warns
printf '.TH X 1\n.SH NAME\nx \\- y\n.nosuchmacro\n' >"$work/bad.1"
[ -n "$(man --warnings -l "$work/bad.1" 2>&1 >/dev/null)" ] || { echo "FAIL: man --warnings quiet on a bad page"; fail=1; }
[ $fail = 0 ] && echo "$(ls "$work/man" | wc -l) pages, no warnings; every option of every -h, $n formats"
exit $fail
