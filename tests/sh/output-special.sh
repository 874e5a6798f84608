#!/bin/sh
# Outputs (export -o, plot -o, report -o's files): a regular file is replaced whole,
# a FIFO or a device is written in place (a write error is exit 4); a symlink is
# never replaced: followed to what it names when the user named it (export -o,
# plot -o: a file there replaced, the link kept), refused inside an output folder
# (report's files: exit 4, its target untouched).
work=$(mktemp -d) || exit 1
trap 'kill $reader 2>/dev/null; rm -rf "$work"' EXIT
export PERFDB_FINGERPRINT=off
db="$work/p.db"
p() { "$PERFDB" --db "$db" "$@"; }
p ingest "$ROOT/fixtures/plot/compare/base.json" >/dev/null &&
  p ingest "$ROOT/fixtures/plot/compare/cand.json" >/dev/null || exit 1
fail() { echo "$*"; [ -s "$work/err" ] && cat "$work/err"; exit 1; }
mknod "$work/null" c 1 3 2>/dev/null && mknod "$work/full" c 1 7 2>/dev/null ||
  { echo "mknod is not allowed here"; exit 77; }

check() { # $1: what, $2: the path written, $3: follow or refuse (a symlink), then the command
  what=$1 out=$2 link=$3; shift 3
  # a FIFO read by a background cat: the output arrives there, the FIFO stays
  rm -f "$out" "$work/got"; mkfifo "$out"
  timeout 10 cat "$out" >"$work/got" & reader=$!
  "$@" >/dev/null 2>"$work/err" || fail "$what to a FIFO: exit $?"
  [ -p "$out" ] || fail "$what replaced the FIFO"
  wait $reader
  [ -s "$work/got" ] || fail "$what wrote nothing into the FIFO"
  cp "$work/got" "$work/expected"
  # a device node like /dev/null: written in place, still a device
  rm -f "$out"; mknod "$out" c 1 3
  "$@" >/dev/null 2>"$work/err" || fail "$what to a copy of /dev/null: exit $?"
  [ -c "$out" ] || fail "$what replaced the device node"
  # like /dev/full: exit 4 and one line
  rm -f "$out"; mknod "$out" c 1 7
  "$@" >/dev/null 2>"$work/err"; status=$?
  [ $status = 4 ] || fail "$what to a copy of /dev/full: exit $status, not 4"
  [ "$(wc -l <"$work/err")" = 1 ] || fail "$what to /dev/full: not one line"
  [ -c "$out" ] || fail "$what replaced the /dev/full node"
  # a symlink to a file: the file replaced, or refused; the link kept
  rm -f "$out" "$work/target"; echo old >"$work/target"; ln -s "$work/target" "$out"
  "$@" >/dev/null 2>"$work/err"; status=$?
  [ -L "$out" ] || fail "$what replaced the symlink"
  if [ $link = follow ]; then
    [ $status = 0 ] || fail "$what to a symlink: exit $status"
    cmp -s "$work/target" "$work/expected" || fail "$what did not write the symlink's target"
  else
    [ $status = 4 ] || fail "$what to a symlink in its folder: exit $status, not 4"
    [ "$(cat "$work/target")" = old ] || fail "$what wrote through a symlink in its folder"
  fi
  # a symlink to nothing: refused, nothing made
  rm -f "$out" "$work/target"; ln -s "$work/target" "$out"
  "$@" >/dev/null 2>"$work/err"; status=$?
  [ $status = 4 ] || fail "$what to a dangling symlink: exit $status, not 4"
  [ -L "$out" ] && [ ! -e "$work/target" ] || fail "$what to a dangling symlink changed it"
  rm -f "$out"
}
check "export -o" "$work/out.csv" follow p export -o "$work/out.csv"
check "plot -o" "$work/out.svg" follow p plot compare run1 run2 -o "$work/out.svg"
mkdir "$work/rep"
check "report -o (index.md)" "$work/rep/index.md" refuse p report run2 --baseline run1 -F markdown -o "$work/rep"
[ -z "$(find "$work" -name '.*.??????')" ] || fail "temporary files left: $(find "$work" -name '.*.??????')"
exit 0
