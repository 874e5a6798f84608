#!/bin/sh
# perfdb bisect on throw-away repositories of 16 commits of a small C
# program, counted exactly (measure: [instructions]: hardware counters, or
# valgrind's cachegrind here), so that the verdicts do not depend on the
# load: one commit adding 20 % work is named, measuring at most 8
# revisions, exit 1, every run stored with its commit and the bisect id;
# nothing changed between good and bad: exit 0, said with the margin (the
# count's threshold, 1 %); two adjacent commits of +10 % each: reported as
# that range, and no change under --threshold 25; by time, a commit of ten times
# the work named from triples of runs by cpu_time, each revision built once;
# Ctrl-C: exit 130; a failing build: exit 4. No worktree and no temporary
# folder is left behind in any case.
: "${PERFDB:?}" "${ROOT:?}"
command -v cc >/dev/null || { echo "no cc: skipped"; exit 77; }
command -v git >/dev/null || { echo "no git: skipped"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_FINGERPRINT=off TMPDIR="$work/tmp"
mkdir "$TMPDIR"
fail=0
# repo NAME L1 .. L16: a repository whose commit i loops L_i million times
repo() {
	name=$1
	shift
	mkdir "$work/$name" && cd "$work/$name" || exit 1
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
	i=1
	for l in "$@"; do
		echo "#define LOOPS ${l}00000UL /* commit $i */" > loops.h
		git add -A && git commit -qm "commit $i" || exit 1
		i=$((i + 1))
	done
}
cat > "$work/spec.yaml" <<'Y'
build: "cc -O1 -o {dir}/spin {dir}/spin.c"
repeat: 1
measure: [instructions]
benchmarks:
  - {name: spin, command: ["{dir}/spin"]}
Y
# bisect NAME ARGS...: run in repository NAME, output in $work/out, status in $status
bisect() {
	name=$1
	shift
	(cd "$work/$name" && PERFDB_DB="$work/$name.db" "$PERFDB" bisect "$work/spec.yaml" --good HEAD~15 --bad HEAD "$@" \
		>"$work/out" 2>"$work/err")
	status=$?
}
left_behind() { # nothing of perfdb's in TMPDIR, no worktree but the repository's own
	if [ -n "$(ls -A "$TMPDIR")" ] || [ "$(cd "$work/$1" && git worktree list | wc -l)" != 1 ]; then
		echo "FAIL: $1: left behind: $(ls -A "$TMPDIR") $(cd "$work/$1" && git worktree list)"
		fail=1
	fi
}

# one commit (the 9th) adds 20 % work
repo one 20 20 20 20 20 20 20 20 24 24 24 24 24 24 24 24
culprit=$(cd "$work/one" && git rev-parse HEAD~7)
bisect one --format json
measured=$(grep -c '"commit"' "$work/out")
echo "one commit: exit $status, $(grep -A1 '"first_bad"' "$work/out" | tail -1 | tr -d ' ')"
if [ "$status" != 1 ] || ! grep -A1 '"first_bad"' "$work/out" | grep -q "\"commit\": \"$culprit\""; then
	echo "FAIL: one commit: expected exit 1 and first_bad $culprit"; cat "$work/out" "$work/err"; fail=1
fi
# every revision measured is a run with its commit and the bisect id
runs=$(PERFDB_DB="$work/one.db" "$PERFDB" sql "SELECT count(*) FROM run_attrs WHERE key = 'bisect'" 2>&1 | tail -1)
commits=$(PERFDB_DB="$work/one.db" "$PERFDB" sql "SELECT count(DISTINCT value) FROM run_attrs WHERE key = 'commit'" 2>&1 | tail -1)
echo "one commit: $commits revisions measured, $runs runs with a bisect attribute"
case $commits in
[1-8]) ;;
*) echo "FAIL: one commit: at most 8 revisions measured, got '$commits'"; fail=1 ;;
esac
[ "$runs" = "$commits" ] || { echo "FAIL: one commit: $runs runs with bisect, $commits commits"; fail=1; }
left_behind one
bisect one --format markdown
grep -q "^\*\*first bad commit: \`$(echo "$culprit" | cut -c1-12)\` commit 9;" "$work/out" ||
	{ echo "FAIL: markdown"; cat "$work/out"; fail=1; }

# one commit (the 9th) removes a sixth of the work: an improvement, said, exit 0
repo faster 24 24 24 24 24 24 24 24 20 20 20 20 20 20 20 20
culprit=$(cd "$work/faster" && git rev-parse --short=12 HEAD~7)
bisect faster
echo "an improvement: exit $status, $(head -1 "$work/out")"
[ "$status" = 0 ] && grep -q "^first commit of the improvement: $culprit commit 9;" "$work/out" ||
	{ echo "FAIL: an improvement: expected exit 0, named"; cat "$work/out" "$work/err"; fail=1; }
left_behind faster

# nothing changed between good and bad
repo none 20 20 20 20 20 20 20 20 20 20 20 20 20 20 20 20
bisect none
echo "nothing changed: exit $status, $(head -1 "$work/out")"
[ "$status" = 0 ] && grep -q "^no change: good and bad differ by less than 1 % (instructions of spin 0.00 %): nothing to bisect" "$work/out" ||
	{ echo "FAIL: nothing changed: expected exit 0, said"; cat "$work/out" "$work/err"; fail=1; }
left_behind none

# two adjacent commits (the 6th and 7th) of +10 % each: a range
repo split 20 20 20 20 20 22 24 24 24 24 24 24 24 24 24 24
first=$(cd "$work/split" && git rev-parse --short=12 HEAD~10)
last=$(cd "$work/split" && git rev-parse --short=12 HEAD~9)
bisect split
echo "split: exit $status, $(head -1 "$work/out")"
[ "$status" = 1 ] && grep -q "^the change is split over 2 adjacent commits, $first to $last;" "$work/out" ||
	{ echo "FAIL: split: expected the range $first to $last"; cat "$work/out" "$work/err"; fail=1; }
left_behind split
# a change smaller than --threshold is no change to bisect: said, exit 0
bisect split --threshold 25
echo "split under --threshold 25: exit $status, $(head -1 "$work/out")"
[ "$status" = 0 ] && grep -q "^no change: good and bad differ by less than 25 % (instructions of spin +19\.[0-9]* %)" "$work/out" ||
	{ echo "FAIL: --threshold 25: expected exit 0, no change"; cat "$work/out" "$work/err"; fail=1; }
left_behind split

# by time (no measure:): good, each midpoint and bad run in triples, three
# runs sharing an ab attribute a step; the loop computes, so cpu_time is
# followed. One commit (the 9th) does ten times the work, a change no load
# hides: named, exit 1.
sed '/^measure:/d; s/^repeat: 1$/max_repeat: 200/' "$work/spec.yaml" > "$work/timed.yaml"
repo timed 20 20 20 20 20 20 20 20 200 200 200 200 200 200 200 200
culprit=$(cd "$work/timed" && git rev-parse --short=12 HEAD~7)
(cd "$work/timed" && PERFDB_DB="$work/timed.db" "$PERFDB" bisect "$work/timed.yaml" --good HEAD~15 --bad HEAD \
	>"$work/out" 2>"$work/err")
status=$?
abs=$(PERFDB_DB="$work/timed.db" "$PERFDB" sql "SELECT count(*) FROM run_attrs WHERE key = 'ab' GROUP BY value" \
	2>&1 | tail -n +2 | sort -u | tr '\n' ' ')
echo "by time: exit $status, $(head -1 "$work/out"); runs a step: $abs"
[ "$status" = 1 ] && grep -q "^first bad commit: $culprit commit 9; cpu_time of spin" "$work/out" ||
	{ echo "FAIL: by time: expected exit 1, named by cpu_time"; cat "$work/out" "$work/err"; fail=1; }
[ "$abs" = "3 " ] || { echo "FAIL: by time: expected three runs to each ab, got '$abs'"; fail=1; }
left_behind timed
# each revision is built once a bisection, good and bad too, though every
# step measures them
builds=$(grep -c '^perfdb: bisect: building ' "$work/err")
commits=$(PERFDB_DB="$work/timed.db" "$PERFDB" sql "SELECT count(DISTINCT value) FROM run_attrs WHERE key = 'commit'" \
	2>&1 | tail -1)
echo "by time: $builds builds, $commits revisions measured"
[ "$builds" = "$commits" ] || { echo "FAIL: by time: $builds builds for $commits revisions"; fail=1; }

# Ctrl-C during the second step (each execution slowed by a sleep so that
# it can be caught): exit 130, what finished stored, every revision built
# once and no worktree left behind
sed 's|command: \["{dir}/spin"\]|command: "sleep 0.02; {dir}/spin"|' "$work/timed.yaml" > "$work/slow.yaml"
rm -f "$work/timed.db" "$work/err"
(cd "$work/timed" && PERFDB_DB="$work/timed.db" exec "$PERFDB" bisect "$work/slow.yaml" --good HEAD~15 --bad HEAD \
	>"$work/out" 2>"$work/err") &
pid=$!
i=0
until [ "$(cat "$work/err" 2>/dev/null | grep -c '^perfdb: bisect: [0-9a-f]* between ')" -ge 2 ] || [ $i -ge 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.3
kill -INT $pid
wait $pid
status=$?
builds=$(grep -c '^perfdb: bisect: building ' "$work/err")
commits=$(PERFDB_DB="$work/timed.db" "$PERFDB" sql "SELECT count(DISTINCT value) FROM run_attrs WHERE key = 'commit'" \
	2>&1 | tail -1)
echo "Ctrl-C in the second step: exit $status, $builds builds, $commits revisions stored"
[ "$status" = 130 ] || { echo "FAIL: Ctrl-C: expected exit 130"; tail -5 "$work/err"; fail=1; }
[ "$builds" = "$commits" ] && [ "$commits" -ge 4 ] ||
	{ echo "FAIL: Ctrl-C: $builds builds for $commits revisions (4 or more)"; tail -5 "$work/err"; fail=1; }
left_behind timed

# a build that fails: exit 4, nothing left behind
sed 's/cc -O1/cc -DNOSUCH=( -O1/' "$work/spec.yaml" > "$work/broken.yaml"
(cd "$work/one" && PERFDB_DB="$work/broken.db" "$PERFDB" bisect "$work/broken.yaml" --good HEAD~15 --bad HEAD \
	>"$work/out" 2>"$work/err")
status=$?
echo "failing build: exit $status"
[ "$status" = 4 ] || { echo "FAIL: failing build: expected exit 4"; cat "$work/err"; fail=1; }
left_behind one

# errors before anything runs
(cd "$work/one" && "$PERFDB" bisect "$work/spec.yaml" --good HEAD --bad HEAD~3 >/dev/null 2>"$work/err")
status=$?
echo "good after bad: exit $status, $(cat "$work/err")"
[ "$status" = 2 ] && grep -q "is not an ancestor of --bad" "$work/err" || { echo "FAIL: good after bad"; fail=1; }
exit $fail
