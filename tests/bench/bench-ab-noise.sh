#!/bin/sh
# A/B runs under a bursting neighbour: the same binary as base and candidate
# (A/A), while a CPU hog started and stopped by this script keeps every CPU
# busy in bursts of 200-500 ms with pauses of 200-500 ms. Each of TRIALS
# trials runs it REPEAT times a side in two ways and gates on wall time:
#   interleaved: perfdb run --variant base:... --variant cand:... --compare
#                (ABBA pairs, the paired signed-rank test)
#   sequential:  two perfdb runs, all base repetitions then all candidate
#                ones, and perfdb compare of the two (Mann-Whitney)
# and prints how often each gate fails (exit 1): the false-alarm rate. The
# trials alternate the two ways, so that both see the same machine.
# Target: interleaved at or under 1 %, sequential higher.
PERFDB=${PERFDB:?} ROOT=${ROOT:?}
TRIALS=${TRIALS:-100} REPEAT=${REPEAT:-15}
command -v cc >/dev/null || { echo "skip: no cc"; exit 0; }
work=$(mktemp -d) || exit 1
hog=
trap '[ -n "$hog" ] && kill $hog; rm -rf "$work"' EXIT
export PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off

cat > "$work/spin.c" <<'C'
/* a fixed amount of work, about 5 ms: additions the compiler cannot drop */
int main(void)
{
	volatile unsigned long sum = 0;
	for (unsigned long i = 0; i < 2400000UL; i++)
		sum += i;
	return sum == 1;
}
C
cat > "$work/hog.c" <<'C'
/* A CPU hog in bursts: N processes (argv[1]) on one seeded schedule, busy
 * for 200-500 ms, then asleep for 200-500 ms, until the first is killed. */
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	double t;

	for (int i = 1; i < n; i++)
		if (fork() == 0) {
			prctl(PR_SET_PDEATHSIG, SIGTERM); /* the first one's end ends them all */
			break;
		}
	srand(1);
	t = now();
	for (;;) {
		double on = 0.2 + 0.3 * rand() / RAND_MAX, off = 0.2 + 0.3 * rand() / RAND_MAX;
		struct timespec until;
		for (t += on; now() < t;)
			;
		t += off;
		until.tv_sec = (time_t)t;
		until.tv_nsec = (long)((t - (double)until.tv_sec) * 1e9);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
	}
}
C
cc -O1 -o "$work/spin" "$work/spin.c" && cc -O1 -o "$work/hog" "$work/hog.c" || exit 1
cat > "$work/spec.yaml" <<YAML
warmup: 1
repeat: $REPEAT
benchmarks:
  - name: spin
    command: ["{bin}"]
YAML
cat > "$work/one.yaml" <<YAML
warmup: 1
repeat: $REPEAT
benchmarks:
  - name: spin
    command: ["$work/spin"]
YAML

cpus=$(nproc)
"$work/hog" "$cpus" &
hog=$!
start=$(date +%s)
inter=0 seq=0
for i in $(seq "$TRIALS"); do
	"$PERFDB" run "$work/spec.yaml" --variant base:bin="$work/spin" --variant cand:bin="$work/spin" \
		--compare --metric wall_time --format csv >"$work/inter.csv" 2>/dev/null
	s=$?
	[ $s -le 1 ] || { echo "interleaved trial $i: exit $s"; exit 1; }
	[ $s = 1 ] && inter=$((inter + 1)) && awk -F, -v i="$i" '$3 == "wall_time" {
		printf "  interleaved trial %d failed: wall time %+.1f %% [%+.1f %%, %+.1f %%], p %.4f\n", i, $12, $13, $14, $16 }' "$work/inter.csv"
	a=$("$PERFDB" run "$work/one.yaml" 2>/dev/null) && b=$("$PERFDB" run "$work/one.yaml" 2>/dev/null) ||
		{ echo "sequential trial $i: perfdb run failed"; exit 1; }
	"$PERFDB" compare "$a" "$b" --metric wall_time >"$work/seq.out" 2>/dev/null
	s=$?
	[ $s = 1 ] && seq=$((seq + 1))
	[ $s -le 1 ] || { echo "sequential trial $i: exit $s"; exit 1; }
done
kill $hog
hog=
"$PERFDB" compare "$a" "$b" --metric wall_time | grep -q "paired = Wilcoxon signed-rank test" &&
	{ echo "the sequential runs were tested paired"; exit 1; }
"$PERFDB" compare latest~3 latest~2 --metric wall_time | grep -q "paired = Wilcoxon signed-rank test" ||
	{ echo "the interleaved runs were not tested paired"; exit 1; }
awk -v n="$TRIALS" -v r="$REPEAT" -v i="$inter" -v s="$seq" -v cpus="$cpus" -v t=$(($(date +%s) - start)) 'BEGIN {
	printf "A/A, %d repetitions a side, a CPU hog in bursts on all %d CPUs, %d trials each (%d s):\n", r, cpus, n, t
	printf "  interleaved (ABBA, paired):            %2d of %d gates failed: false-alarm rate %4.1f %%\n", i, n, 100 * i / n
	printf "  sequential (all base, then all cand):  %2d of %d gates failed: false-alarm rate %4.1f %%\n", s, n, 100 * s / n
}'
