#!/bin/sh
# README's five-minute tour runs as written: every line of the ```sh blocks of
# its "A five-minute tour" section, in order, in one shell, in a fresh directory
# holding a link to fixtures/, with perfdb on PATH and PERFDB_DB a new database.
# A line exits 0 unless it ends with "# exits N"; "# prints WORD" checks that
# WORD is on its stdout. Contract: 0 pass, 77 skip, else fail.
set -u
: "${PERFDB:?}" "${ROOT:?}"
case $PERFDB in /*) ;; *) PERFDB=$PWD/$PERFDB ;; esac
case $ROOT in /*) ;; *) ROOT=$PWD/$ROOT ;; esac
readme="$ROOT/README.md"
[ -f "$readme" ] || { echo "readme-tour: no $readme" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/readme-tour.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/bin" "$tmp/work"
ln -s "$PERFDB" "$tmp/bin/perfdb"
ln -s "$ROOT/fixtures" "$tmp/work/fixtures"

# The tour's commands, one a line: from the section's heading to the next "## ".
awk '
  /^## / { intour = ($0 == "## A five-minute tour") ; next }
  intour && /^```sh$/ { insh = 1; next }
  insh && /^```/ { insh = 0; next }
  insh && NF { print }
' "$readme" > "$tmp/commands"
n=$(wc -l < "$tmp/commands")
[ "$n" -ge 8 ] || { echo "readme-tour: only $n commands found in README's tour" >&2; exit 1; }

# One script: each command, its status and stdout checked, the shell's state
# (cd, export) kept from one to the next as a reader's terminal keeps it. The
# command is a line of its own inside { }, so that its trailing comment ends there.
{
  echo 'fail=0'
  echo 'say() { echo "readme-tour: $1: $(sed -n "$2p" "$T/commands")" >&2; sed "s/^/  /" "$3" >&2; fail=1; }'
  i=0
  while IFS= read -r line; do
    i=$((i + 1))
    want=0
    case "$line" in *"# exits "[0-9]*) want=${line##*# exits }; want=${want%% *} ;; esac
    word=""
    case "$line" in *"# prints "*) word=${line##*# prints }; word=${word%% *} ;; esac
    printf '{ %s\n} > "$T/out%s" 2> "$T/err%s"\n' "$line" "$i" "$i"
    printf 's=$?; [ $s -eq %s ] || say "exit $s, expected %s" %s "$T/err%s"\n' "$want" "$want" "$i" "$i"
    [ -z "$word" ] ||
      printf 'grep -qw -- "%s" "$T/out%s" || say "does not print %s" %s "$T/out%s"\n' "$word" "$i" "$word" "$i" "$i"
  done < "$tmp/commands"
  echo 'exit $fail'
} > "$tmp/tour.sh"

cd "$tmp/work" || exit 1
PATH="$tmp/bin:$PATH" PERFDB_DB="$tmp/work/perfdb.db" T="$tmp" \
  sh "$tmp/tour.sh"
status=$?
[ $status -eq 0 ] && echo "readme-tour: $n commands of README's tour ran as written"
exit $status
