#!/bin/sh
# perfdb compare: two runs of 10,000 series x 30 samples (json output)
# against its peer, compare-scipy.py (numpy + scipy: Mann-Whitney U over
# axis 1, a vectorised Hodges-Lehmann with its interval, the same JSON
# fields), on the same samples: compare-export.py copies them out of the same
# database into a .npz before any timing. Targets: wall time <= 0.1 and peak
# RSS <= 0.25 of the peer's. Wall time and peak RSS (/usr/bin/time -f %M)
# are the medians of 5 alternating runs of each; single runs vary by +-25 %
# here. Then the p-values of both outputs are compared series by series.
# The database is built by ingesting two generated canonical JSON runs and
# kept in $BENCH_CACHE between runs.
PERFDB=${PERFDB:?} ROOT=${ROOT:?}
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/perfdb-bench-compare}
db="$cache/compare.db"
mkdir -p "$cache" || exit 1
export PERFDB_FINGERPRINT=off
py=/usr/bin/python3 # Debian's, with python3-numpy and python3-scipy
"$py" -c 'import numpy, scipy.stats' 2>/dev/null || {
	echo "skip: $py with numpy and scipy not installed (apt-get install python3-scipy)"; exit 0; }
[ -x /usr/bin/time ] || { echo "skip: /usr/bin/time not installed"; exit 0; }
here="$ROOT/tests/bench"

# gen SEED FACTOR FILE: 10,000 series of 30 lognormal samples (3 % noise)
gen() {
	awk -v seed="$1" -v factor="$2" -v file="$3" 'BEGIN {
		srand(seed)
		printf "{\"created_at\": \"2025-01-01T00:00:00Z\", \"tool\": \"gen\", \"results\": [" > file
		for (s = 1; s <= 10000; s++) {
			printf "%s{\"benchmark\": \"b%05d\", \"dims\": {}, \"metric\": \"time\", \"unit\": \"s\", \"direction\": \"lower\", \"samples\": [", \
				(s > 1 ? ", " : ""), s > file
			for (i = 1; i <= 30; i++) {
				u1 = rand(); u2 = rand(); if (u1 < 1e-12) u1 = 1e-12
				z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2)
				printf "%s%.6f", (i > 1 ? ", " : ""), factor * (1 + s % 97) * exp(0.03 * z) / 1000 > file
			}
			printf "]}" > file
		}
		printf "]}\n" > file
		close(file)
	}'
}

if [ ! -f "$db" ]; then
	tmp=$(mktemp -d "$cache/gen.XXXXXX") || exit 1
	gen 1 1.0 "$tmp/run1.json"
	gen 2 1.02 "$tmp/run2.json"
	PERFDB_DB="$tmp/db" "$PERFDB" ingest "$tmp/run1.json" >/dev/null &&
	PERFDB_DB="$tmp/db" "$PERFDB" ingest "$tmp/run2.json" >/dev/null || { rm -rf "$tmp"; exit 1; }
	mv "$tmp/db" "$db" && rm -rf "$tmp"
fi

npz="$cache/compare-samples.npz"
if [ ! -f "$npz" ] || [ "$npz" -ot "$db" ]; then
	"$py" "$here/compare-export.py" "$db" 1 2 "$npz.tmp.npz" && mv "$npz.tmp.npz" "$npz" || exit 1
fi

# one NAME CMD...: a run's wall seconds and peak RSS in KiB, appended to
# $cache/NAME.times; the output goes to $cache/NAME.out
one() {
	name=$1
	shift
	s=$(date +%s.%N)
	/usr/bin/time -f %M -o "$cache/$name.rss" "$@" >"$cache/$name.out" || return 1
	e=$(date +%s.%N)
	echo "$s $e $(tail -n 1 "$cache/$name.rss")" | awk '{ printf "%.4f %d\n", $2 - $1, $3 }' \
		>>"$cache/$name.times"
}
# the peer tests the samples alone: so does perfdb (without it, one run a
# side is also judged against the run-to-run noise assumed for the metric,
# docs/statistics.md, and no p-value is the peer's)
printf 'compare:\n  run_noise: 0\n' >"$cache/samples-alone.yaml"
rm -f "$cache/perfdb.times" "$cache/scipy.times"
for i in 1 2 3 4 5; do
	one perfdb "$PERFDB" --db "$db" compare run1 run2 --format json --fail-on never \
		--config "$cache/samples-alone.yaml" || exit 1
	one scipy "$py" "$here/compare-scipy.py" "$npz" /dev/stdout || exit 1
done
med() { sort -n -k "$2" "$1" | awk -v k="$2" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'; }
tp=$(med "$cache/perfdb.times" 1) mp=$(med "$cache/perfdb.times" 2)
ts=$(med "$cache/scipy.times" 1) ms=$(med "$cache/scipy.times" 2)
echo "$tp $mp $ts $ms" | awk '{
	printf "compare 10000 series x 30 samples: perfdb %.3f s %.1f MiB, numpy/scipy %.3f s %.1f MiB\n", $1, $2 / 1024, $3, $4 / 1024
	printf "  ratio: time %.3f (target <= 0.1), memory %.3f (target <= 0.25)\n", $1 / $3, $2 / $4
	exit ($1 / $3 > 0.1 || $2 / $4 > 0.25) }'
status=$?

# both outputs, series by series: scipy's exact test ignores ties, so only
# the p-values of series without ties can agree
"$py" - "$cache/perfdb.out" "$cache/scipy.out" "$npz" <<'PY'
import json, sys
import numpy as np
ours = {r["benchmark"]: r for r in json.load(open(sys.argv[1]))["results"]}
peer = json.load(open(sys.argv[2]))["results"]
d = np.load(sys.argv[3])
tied = {b: len(np.unique(np.concatenate([x, y]))) < x.size + y.size
        for b, x, y in zip(d["benchmark"].tolist(), d["base"], d["cand"])}
def rel(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-300)
for kind in (False, True):
    rows = [r for r in peer if tied[r["benchmark"]] == kind]
    same_p = sum(rel(r["p_value"], ours[r["benchmark"]]["p_value"]) <= 1e-12 for r in rows)
    # perfdb's JSON gives derived percentages to 4 significant digits: the
    # script's, rounded the same way, must be equal
    same_hl = sum(all(float("%.4g" % r[f]) == ours[r["benchmark"]][f]
                      for f in ("change_pct", "ci_low_pct", "ci_high_pct")) for r in rows)
    same_v = sum(r["verdict"] == ours[r["benchmark"]]["verdict"] for r in rows)
    worst = max((rel(r["p_value"], ours[r["benchmark"]]["p_value"]) for r in rows), default=0)
    print("  %s: %d series; the same p (1e-12 relative) %d, worst %.2g; HL estimate and"
          " interval (4 digits) %d; verdict %d"
          % ("with ties" if kind else "without ties", len(rows), same_p, worst, same_hl, same_v))
PY
exit $status
