#!/bin/sh
# perfdb run --measure instructions against a plain perfdb run of the same
# benchmarks (a C loop of about 10 ms, gzip -6 of 2 MB of text), 5
# repetitions each: the ratio of the two runs' wall times, the cost a user
# pays for counts that a shared runner's noise cannot move. Through
# valgrind's cachegrind (no hardware counters, as here and on GitHub's
# runners) a measured repetition runs twice, as it is and under cachegrind;
# through the counters once. Then the counters alone (--measure cycles,
# which only they count) against plain, or why they are not available.
PERFDB=${PERFDB:?}
command -v cc >/dev/null || { echo "skip: no cc"; exit 0; }
command -v gzip >/dev/null || { echo "skip: no gzip"; exit 0; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off
cat > "$work/spin.c" <<'C'
int main(void)
{
	volatile unsigned long sum = 0;
	for (unsigned long i = 0; i < 10000000UL; i++)
		sum += i;
	return sum == 1;
}
C
cc -O1 -o "$work/spin" "$work/spin.c" || exit 1
seq 1 300000 | awk '{ print "line", $1, $1 * 7 % 1000, "of some text to compress" }' | head -c 2000000 >"$work/text"
cat > "$work/spec.yaml" <<YAML
repeat: 5
benchmarks:
  - {name: spin, command: ["$work/spin"]}
  - {name: gzip, command: "gzip -6 -c $work/text > /dev/null"}
YAML

now() { date +%s.%N; }
# timed OPTIONS...: the seconds of one perfdb run (stderr into $work/err)
timed() {
	t0=$(now)
	"$PERFDB" run "$work/spec.yaml" "$@" >/dev/null 2>"$work/err" || return 1
	awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'
}
plain=$(timed) || { echo "FAIL: plain run"; cat "$work/err"; exit 1; }
if measured=$(timed --measure instructions); then
	kind=$(sqlite3 "$PERFDB_DB" "SELECT value FROM run_attrs WHERE key = 'instrument.instructions' ORDER BY run_id DESC LIMIT 1")
	awk -v p="$plain" -v m="$measured" -v k="$kind" 'BEGIN {
		printf "instructions (%s): %s s against %s s plain (2 benchmarks x 5 repetitions): %.1fx\n", k, m, p, m / p }'
else
	echo "instructions: not measurable here: $(tail -1 "$work/err")"
fi
plain=$(timed) || exit 1
if counted=$(timed --measure cycles); then
	awk -v p="$plain" -v m="$counted" 'BEGIN {
		printf "hardware counters (cycles): %s s against %s s plain: %.2fx\n", m, p, m / p }'
else
	echo "hardware counters: not available here: $(tail -1 "$work/err")"
fi
