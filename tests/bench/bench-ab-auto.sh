#!/bin/sh
# Adaptive A/B runs (--repeat auto) beside a bursting CPU hog
# (tests/bench/hog.sh on every CPU): TRIES times each, the same build as
# base and candidate (A/A) and a build doing 10 % more work, gated on all
# metrics at alpha 0.01 (Bonferroni over the looks) with a 120 s budget.
# Prints, per try, the verdict, exit status, pairs and seconds to it.
# Target (issue 27): A/A ends unchanged (exit 0), 10 % ends regression
# (exit 1), each within 120 s.
PERFDB=${PERFDB:?} ROOT=${ROOT:?}
TRIES=${TRIES:-3} BUDGET=${BUDGET:-120} MAX_REPEAT=${MAX_REPEAT:-600}
command -v cc >/dev/null || { echo "skip: no cc"; exit 0; }
work=$(mktemp -d) || exit 1
hog=
trap '[ -n "$hog" ] && kill $hog; rm -rf "$work"' EXIT
export PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off
cat > "$work/spin.c" <<'C'
/* a fixed amount of work: LOOPS additions the compiler cannot drop */
int main(void)
{
	volatile unsigned long sum = 0;
	for (unsigned long i = 0; i < LOOPS; i++)
		sum += i;
	return sum == 1;
}
C
cc -O1 -DLOOPS=12000000UL -o "$work/base" "$work/spin.c" &&
cc -O1 -DLOOPS=13200000UL -o "$work/slow" "$work/spin.c" || exit 1
cat > "$work/spec.yaml" <<'YAML'
warmup: 1
repeat: auto
benchmarks:
  - name: spin
    command: ["{bin}"]
YAML
cpus=$(nproc)
sh "$ROOT/tests/bench/hog.sh" $((TRIES * 2 * (BUDGET + 30))) "$cpus" &
hog=$!
sleep 1
ok=0 total=0
# one A/B run: its verdicts, exit, pairs and seconds; counts it when want holds
one() { # NAME CAND WANT_STATUS WANT_VERDICT
	start=$(date +%s)
	"$PERFDB" run "$work/spec.yaml" --variant base:bin="$work/base" --variant cand:bin="$2" \
		--repeat auto --budget "$BUDGET" --max-repeat "$MAX_REPEAT" --compare --format csv \
		>"$work/out" 2>"$work/err"
	s=$? t=$(($(date +%s) - start))
	verdicts=$(awk -F, 'NR > 1 && $21 == "" { printf "%s%s %s", sep, $3, $18; sep = ", " }' "$work/out")
	wall=$(awk -F, '$3 == "wall_time" { printf "%+.1f %% [%+.1f, %+.1f]", $12, $13, $14 }' "$work/out")
	ended=$(sed -n 's/^perfdb: run: adaptive: ended at look \([^ ]*\) (\([0-9]*\) pairs.*: /look \1, \2 pairs: /p' "$work/err")
	pass=no
	[ "$s" = "$3" ] && [ -z "$(echo "$verdicts" | tr ',' '\n' | grep -v "$4\|unchanged")" ] &&
		echo "$verdicts" | grep -q "$4" && [ "$t" -le "$BUDGET" ] && pass=yes || pass=no
	total=$((total + 1))
	[ $pass = yes ] && ok=$((ok + 1))
	printf "  %-13s try %d: exit %d in %3d s, %s; wall_time %s; %s [%s]\n" "$1" "$i" "$s" "$t" "$ended" \
		"$wall" "$verdicts" "$pass"
}
echo "adaptive A/B beside a bursting CPU hog on all $cpus CPUs (alpha 0.01, budget $BUDGET s, max_repeat $MAX_REPEAT):"
for i in $(seq "$TRIES"); do
	one "A/A" "$work/base" 0 unchanged
	one "10 % slower" "$work/slow" 1 regression
done
echo "  $ok of $total ended as they should within $BUDGET s"
