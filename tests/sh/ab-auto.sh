#!/bin/sh
# Adaptive A/B runs (repeat: auto) on commands whose times are fixed by
# sleep: 100 ms against 120 ms (+20 %) ends a regression (exit 1) before
# max_repeat; the same sleep twice ends unchanged (exit 0, not
# inconclusive); a budget too small for a second look ends inconclusive
# and says that the budget ended. Each stored run holds every repetition
# made; the pairs are tested paired at the Bonferroni-corrected alpha.
: "${PERFDB:?}"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off
cat > "$work/spec.yaml" <<'YAML'
repeat: auto
max_repeat: 100
benchmarks:
  - name: nap
    command: [sleep, "{s}"]
YAML
fail=0
# verdict, n and reason of the wall_time row of a CSV comparison
row() { awk -F, '$3 == "wall_time" { print $18 " " $6 "/" $7 ": " $19 }' "$work/out"; }
ended() { sed -n 's/^perfdb: run: adaptive: ended at //p' "$work/err"; }

start=$(date +%s)
"$PERFDB" run "$work/spec.yaml" --variant base:s=0.1 --variant cand:s=0.12 --compare \
	--metric wall_time --format csv >"$work/out" 2>"$work/err"
status=$?
echo "100 ms against 120 ms: exit $status, $(row); ended at $(ended) ($(($(date +%s) - start)) s)"
pairs=$(ended | sed -n 's/.*(\([0-9]*\) pairs.*/\1/p')
case $status:$(row) in
1:regression*) ;;
*) echo "FAIL: expected exit 1 and a regression"; cat "$work/out" "$work/err"; fail=1 ;;
esac
[ -n "$pairs" ] && [ "$pairs" -lt 100 ] || { echo "FAIL: expected fewer pairs than max_repeat (100)"; fail=1; }
grep -q '^perfdb: run: adaptive: .* looks at .* pairs, alpha 0.01/[0-9]* each; budget 300 s$' "$work/err" &&
	grep -q '^perfdb: run: look 1/[0-9]*: [0-9]* pairs, [0-9]* s: wall_time [-+][0-9.]* % \[' "$work/err" ||
	{ echo "FAIL: no schedule or look lines on stderr"; cat "$work/err"; fail=1; }
n=$(sqlite3 "$PERFDB_DB" "SELECT count(*) FROM runs")
samples=$(sqlite3 "$PERFDB_DB" "SELECT group_concat(r.n, ' ') FROM results r JOIN series s ON s.id = r.series_id
	WHERE s.metric = 'wall_time' ORDER BY r.run_id")
echo "stored: $n runs, wall_time samples $samples"
[ "$n" = 2 ] && [ "$samples" = "$pairs $pairs" ] || { echo "FAIL: expected 2 runs of $pairs samples each"; fail=1; }
"$PERFDB" compare latest~1 latest --metric wall_time --alpha 0.002 >"$work/cmp" 2>&1
grep -q 'paired = Wilcoxon signed-rank test' "$work/cmp" || { echo "FAIL: the stored pair is not tested paired"; cat "$work/cmp"; fail=1; }
# one interval per comparison: compared again later, the pair gets the
# interval and verdict the gate gave (at the looks' alpha)
"$PERFDB" compare latest~1 latest --metric wall_time --format csv >"$work/again" 2>/dev/null
gate=$(awk -F, '$3 == "wall_time" { print $12, $13, $14, $18 }' "$work/out")
again=$(awk -F, '$3 == "wall_time" { print $12, $13, $14, $18 }' "$work/again")
echo "the gate's interval: $gate; compared again: $again"
[ -n "$gate" ] && [ "$gate" = "$again" ] || { echo "FAIL: a later compare of the A/B pair gives another interval"; fail=1; }

# the gate fails already while another gated series is still open: the run
# stops there (a random count, 1-256, stays inconclusive at every look)
cat > "$work/noisy.yaml" <<'YAML'
repeat: auto
max_repeat: 200
benchmarks:
  - name: nap
    command: [sh, -c, 'sleep {s}; echo "n: $(($(od -An -N1 -tu1 /dev/urandom) + 1))"']
    metrics:
      - {name: n, regex: 'n: ([0-9]+)', direction: lower}
YAML
"$PERFDB" run "$work/noisy.yaml" --variant base:s=0.1 --variant cand:s=0.15 --compare \
	--metric '[wn]*' --format csv >"$work/out" 2>"$work/err"
status=$?
echo "a regression beside an open series: exit $status, ended at $(ended)"
case $status:$(ended) in
1:*"the gate failed already"*) ;;
*) echo "FAIL: expected exit 1, stopped as the gate failed"; cat "$work/err"; fail=1 ;;
esac

# the same sleep twice: the interval narrows look by look to within ±10 %
start=$(date +%s)
"$PERFDB" run "$work/spec.yaml" --variant base:s=0.1 --variant cand:s=0.1 --compare \
	--metric wall_time --threshold 10 --format csv >"$work/out" 2>"$work/err"
status=$?
echo "100 ms twice: exit $status, $(row); ended at $(ended) ($(($(date +%s) - start)) s)"
case $status:$(row) in
0:unchanged*) ;;
*) echo "FAIL: expected exit 0 and unchanged"; cat "$work/out" "$work/err"; fail=1 ;;
esac

# a budget of 1 s: the first look's pairs take it all (a threshold of 0.01 %,
# 10 µs of 100 ms, no 11 pairs of exec jitter can be shown within)
"$PERFDB" run "$work/spec.yaml" --variant base:s=0.1 --variant cand:s=0.1 --compare \
	--metric wall_time --threshold 0.01 --budget 1 --format csv >"$work/out" 2>"$work/err"
status=$?
echo "a 1 s budget: exit $status, $(row); ended at $(ended)"
case $status:$(row) in
0:inconclusive*"the budget (1 s) ended at "*) ;;
*) echo "FAIL: expected exit 0, inconclusive, the budget said"; cat "$work/out" "$work/err"; fail=1 ;;
esac
ended | grep -q 'the budget ended, 1 series inconclusive$' &&
	grep -q "^perfdb: run: adaptive: the next look's [0-9]* pairs would take about" "$work/err" ||
	{ echo "FAIL: stderr does not say the budget ended"; cat "$work/err"; fail=1; }
"$PERFDB" run "$work/spec.yaml" --variant base:s=0.1 --variant cand:s=0.1 --compare \
	--metric wall_time --threshold 0.01 --budget 1 >"$work/out" 2>/dev/null
grep -q '^adaptive: .* alpha 0.01/[0-9]* each; ended at look 1/.*: the budget ended' "$work/out" ||
	{ echo "FAIL: the table does not say the correction and the end"; cat "$work/out"; fail=1; }
exit $fail
