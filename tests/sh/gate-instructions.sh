#!/bin/sh
# Issue 39's proof: a gate on instruction counts under a bursting CPU hog on
# both CPUs (tests/bench/hog.sh, bounded, stopped by its PID). A C program's
# pushes to main, measure: [instructions], gated one after the other as
# ci-examples/ gate main (compare latest~1:branch=main latest, on the
# instructions): none fails, and every instructions row is unchanged; pull
# requests running the same program with 2 % more loop work fail, each with
# instructions a regression of +2 %, from the first pair on and with a
# history. The counts repeat whatever the load: the interval is their spread.
: "${PERFDB:?}" "${ROOT:?}"
command -v cc >/dev/null || { echo "no cc: skipped"; exit 77; }
work=$(mktemp -d) || exit 1
hog=
trap '[ -n "$hog" ] && kill $hog 2>/dev/null; wait; rm -rf "$work"' EXIT
export PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off
cat > "$work/spin.c" <<'C'
int main(void)
{
	volatile unsigned long sum = 0;
	for (unsigned long i = 0; i < LOOPS; i++)
		sum += i;
	return sum == 1;
}
C
cc -O1 -DLOOPS=4000000UL -o "$work/base" "$work/spin.c" &&
cc -O1 -DLOOPS=4080000UL -o "$work/more" "$work/spin.c" || exit 1
for p in base more; do
	printf 'repeat: 3\nmeasure: [instructions]\nbenchmarks:\n  - {name: spin, command: ["%s"]}\n' \
		"$work/$p" > "$work/$p.yaml"
done
sh "$ROOT/tests/bench/hog.sh" 120 2 &
hog=$!
fail=0
# verdict and change of the instructions row of the last comparison
row() { awk -F, '$3 == "instructions" { print $18 " " $12 }' "$work/out"; }
gate() { # gate BASE CAND: exit status, output in $work/out
	"$PERFDB" compare "$1" "$2" --metric instructions --format csv >"$work/out" 2>/dev/null
}
pr() { # pr N: a pull request of the 2 % more work, gated against main's newest
	"$PERFDB" run "$work/more.yaml" --attr branch=pr-$1 >/dev/null 2>"$work/err" ||
		{ echo "FAIL: run pr-$1"; cat "$work/err"; fail=1; return; }
	gate latest:branch=main latest:branch=pr-$1
	status=$?
	echo "pr-$1 (+2 % work): exit $status, instructions $(row)"
	case $status:$(row) in
	1:"regression "2.*|1:"regression "1.9*) ;;
	*) echo "FAIL: pr-$1: expected exit 1, instructions a regression of +2 %"; cat "$work/out"; fail=1 ;;
	esac
}
"$PERFDB" run "$work/base.yaml" --attr branch=main --attr commit=c1 >/dev/null 2>"$work/err" ||
	{ echo "FAIL: run c1"; cat "$work/err"; exit 1; }
pr 1
for i in 2 3 4 5 6 7; do
	"$PERFDB" run "$work/base.yaml" --attr branch=main --attr commit=c$i >/dev/null 2>"$work/err" ||
		{ echo "FAIL: run c$i"; cat "$work/err"; fail=1; continue; }
	gate latest~1:branch=main latest:branch=main
	status=$?
	echo "c$i (unchanged): exit $status, instructions $(row)"
	case $status:$(row) in
	0:"unchanged "*) ;;
	*) echo "FAIL: c$i: expected exit 0, instructions unchanged"; cat "$work/out"; fail=1 ;;
	esac
done
pr 2
pr 3
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $fail
