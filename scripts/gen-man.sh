#!/bin/sh
# The man pages, printed by perfdb from the tables that parse its options:
# perfdb(1), perfdb-COMMAND(1) for every command, perfdb-formats(7).
# Usage: gen-man.sh PERFDB OUTDIR (OUTDIR is replaced as a whole)
set -e
perfdb=$1 out=$2
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
"$perfdb" --generate man >"$out.tmp/perfdb.1"
"$perfdb" --generate man-formats >"$out.tmp/perfdb-formats.7"
for c in $("$perfdb" --generate options | cut -f1 | uniq); do
  "$perfdb" --generate "man-$c" >"$out.tmp/perfdb-$c.1"
done
rm -rf "$out"
mv "$out.tmp" "$out"
