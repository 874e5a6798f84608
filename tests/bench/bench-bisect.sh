#!/bin/sh
# make bench: perfdb bisect by wall time under a bursting CPU hog on both
# CPUs (tests/bench/hog.sh, bounded, stopped by its PID): a throw-away
# repository of 16 commits of a small C program (about 60 ms a run), one
# commit adding 20 % work. Bisect must name that commit (exit 1), measuring
# at most 8 revisions, within 240 s, and leave no worktree behind.
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
PERFDB=${PERFDB:-$ROOT/build/perfdb}
command -v cc >/dev/null && command -v git >/dev/null || { echo "bisect: no cc or git: skipped"; exit 0; }
work=$(mktemp -d) || exit 1
hog=
trap '[ -n "$hog" ] && kill $hog 2>/dev/null; wait; rm -rf "$work"' EXIT
export PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off TMPDIR="$work/tmp"
mkdir "$TMPDIR" "$work/repo" && cd "$work/repo" || exit 1
git init -q && git config user.email t@example.com && git config user.name t
cat > spin.c <<'C'
#include "loops.h"
int main(void)
{
	volatile unsigned long sum = 0;
	for (unsigned long i = 0; i < LOOPS; i++)
		sum += i;
	return sum == 1;
}
C
for i in $(seq 1 16); do
	l=100; [ "$i" -ge 11 ] && l=120
	echo "#define LOOPS ${l}000000UL /* commit $i */" > loops.h
	git add -A && git commit -qm "commit $i" || exit 1
done
culprit=$(git rev-parse HEAD~5)
cat > "$work/spec.yaml" <<'Y'
build: "cc -O1 -o {dir}/spin {dir}/spin.c"
benchmarks:
  - {name: spin, command: ["{dir}/spin"]}
Y
sh "$ROOT/tests/bench/hog.sh" 300 2 &
hog=$!
start=$(date +%s)
"$PERFDB" bisect "$work/spec.yaml" --good HEAD~15 --bad HEAD --budget 220 --format json >"$work/out" 2>"$work/err"
status=$?
took=$(( $(date +%s) - start ))
measured=$("$PERFDB" sql "SELECT count(DISTINCT value) FROM run_attrs WHERE key = 'commit'" | tail -1)
echo "bisect under the hog: exit $status in $took s, $measured revisions measured, load $(cut -d' ' -f1-3 /proc/loadavg)"
fail=0
if [ "$status" != 1 ] || ! grep -A1 '"first_bad"' "$work/out" | grep -q "\"commit\": \"$culprit\""; then
	echo "FAIL: expected exit 1 and first_bad $culprit"; cat "$work/out"; tail -5 "$work/err"; fail=1
fi
[ "$measured" -le 8 ] || { echo "FAIL: $measured revisions measured, more than 8"; fail=1; }
[ "$took" -le 240 ] || { echo "FAIL: $took s, more than 240"; fail=1; }
[ "$(git worktree list | wc -l)" = 1 ] && [ -z "$(ls -A "$TMPDIR")" ] || { echo "FAIL: a worktree left behind"; fail=1; }
exit $fail
