#!/bin/sh
# The man pages, made from the manual's sources without running perfdb
# (a cross build makes them too): docs/cmd/perfdb.md is perfdb(1),
# docs/cmd/COMMAND.md perfdb-COMMAND(1), docs/cmd/perfdb-formats.md
# perfdb-formats(7); the section is the one the source's title names.
# Usage: gen-man.sh ROOT OUTDIR (OUTDIR is replaced as a whole)
set -e
root=$1 out=$2
version=$(sed -n 's/^#define PDB_VERSION "\(.*\)"$/\1/p' "$root/cmd/cmd.h")
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
for src in "$root"/docs/cmd/*.md; do
  title=$(sed -n 's/^# \([a-z-]*\)(\([0-9]\))$/\1.\2/p' "$src")
  [ -n "$title" ] || { echo "gen-man.sh: $src has no '# NAME(S)' title" >&2; exit 1; }
  awk -v version="$version" -f "$root/scripts/md2man.awk" "$src" >"$out.tmp/$title"
done
rm -rf "$out"
mv "$out.tmp" "$out"
