#!/bin/sh
# measure: [instructions]: the count of a small C program (hardware
# counters, else valgrind's cachegrind, which this machine's lack of
# counters needs) agrees within 0.1 % from repetition to repetition, the
# same program doing 2 % more loop work counts 2 % (+-0.3 %) more, a shell
# running both counts the sum of each alone (within 0.5 %), and a
# `python3 -c` counts the same (within 0.5 %) in two runs, the second
# given a larger environment; the times are of a plain run (under
# cachegrind they would be ten times longer).
: "${PERFDB:?}"
command -v cc >/dev/null || { echo "no cc: skipped"; exit 77; }
# the interpreter itself, not a wrapper (pyenv's shim is a bash script)
python=$(python3 -c 'import sys; print(sys.executable)') || { echo "no python3: skipped"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
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
cc -O1 -DLOOPS=8000000UL -o "$work/base" "$work/spin.c" &&
cc -O1 -DLOOPS=8160000UL -o "$work/more" "$work/spin.c" || exit 1
cat > "$work/spec.yaml" <<YAML
repeat: 3
measure: [instructions]
benchmarks:
  - {name: base, command: ["$work/base"]}
  - {name: more, command: ["$work/more"]}
  - {name: both, command: "$work/base; $work/more", repeat: 1}
  - {name: py, command: ["$python", "-S", "-c", "d = {str(i): i for i in range(20000)}"], repeat: 1}
YAML
fail=0
"$PERFDB" run "$work/spec.yaml" >"$work/out" 2>"$work/err" || { echo "FAIL: perfdb run"; cat "$work/err"; exit 1; }
grep -q '^perfdb: run: instructions: counted by ' "$work/err" || { echo "FAIL: the instrument is not said"; cat "$work/err"; fail=1; }
EXTRA=$(head -c 3000 /dev/zero | tr '\0' x) "$PERFDB" run "$work/spec.yaml" --only py >"$work/out" 2>"$work/err" ||
	{ echo "FAIL: perfdb run --only py"; cat "$work/err"; exit 1; }
"$PERFDB" export --metric 'instructions' >"$work/csv" || exit 1
"$PERFDB" export --metric 'cpu_time' >"$work/cpu.csv" || exit 1
kind=$(sqlite3 "$PERFDB_DB" "SELECT group_concat(DISTINCT value) FROM run_attrs WHERE key = 'instrument.instructions'")
awk -F, -v kind="$kind" '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { b = $col["benchmark"]; v = $col["value"]; run = $col["run"]
    n[b]++; if (!(b in lo) || v < lo[b]) lo[b] = v; if (!(b in hi) || v > hi[b]) hi[b] = v; sum[b] += v
    if (b == "py") py[run] = v; unit[b] = $col["unit"] $col["direction"] }
  function pct(x) { return sprintf("%+.3f %%", 100 * x) }
  END {
    bad = 0
    for (b in n) if (b != "py") {
      spread = (hi[b] - lo[b]) / lo[b]
      printf "%s: %d repetitions, %.0f to %.0f instructions (%s), spread %.4f %%\n", b, n[b], lo[b], hi[b], kind, 100 * spread
      if (spread > 0.001) { print "FAIL: " b "'"'"'s repetitions differ by more than 0.1 %"; bad = 1 }
      if (unit[b] != "countlower") { print "FAIL: " b ": unit and direction " unit[b] ", expected count lower"; bad = 1 }
    }
    more = sum["more"] / n["more"] / (sum["base"] / n["base"]) - 1
    printf "2 %% more loop work: %s instructions\n", pct(more)
    if (more < 0.017 || more > 0.023) { print "FAIL: expected +2 % (+-0.3 %)"; bad = 1 }
    both = sum["both"] / (sum["base"] / n["base"] + sum["more"] / n["more"]) - 1
    printf "a shell running both: %s against the sum of each alone\n", pct(both)
    if (both < -0.005 || both > 0.005) { print "FAIL: expected the sum (+-0.5 %)"; bad = 1 }
    k = 0; for (r in py) v2[++k] = py[r]
    d = k == 2 ? v2[2] / v2[1] - 1 : 1
    printf "python3 -c in two runs, the second with a 3000-byte larger environment: %.0f and %.0f, %s\n", v2[1], v2[2], pct(d)
    if (d < -0.005 || d > 0.005) { print "FAIL: expected the same count (+-0.5 %)"; bad = 1 }
    exit bad
  }' "$work/csv" || fail=1
# the times are a plain run's: under cachegrind base takes 0.3 s of CPU and more
awk -F, -v kind="$kind" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["benchmark"] == "base" { n++; s += $col["value"] }
  END { printf "base: CPU time %.1f ms a repetition\n", 1000 * s / n
        if (s / n > 0.15) { print "FAIL: the CPU time looks measured under cachegrind"; exit 1 } }' "$work/cpu.csv" || fail=1
exit $fail
