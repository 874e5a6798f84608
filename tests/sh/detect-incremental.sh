#!/bin/sh
# perfdb detect with its cache of weak change points gives what a full
# recomputation gives, on seeded random histories that grow run by run
# (steps, noise and one-run spikes), in both outlier modes.
: "${PERFDB:?}"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off
awk -v dir="$work" 'BEGIN {
	srand(42)
	a = 100; b = 5000
	for (r = 1; r <= 150; r++) {
		if (rand() < 0.03) a *= rand() < 0.5 ? 0.85 : 1.15
		if (rand() < 0.03) b *= rand() < 0.5 ? 0.9 : 1.1
		va = a * exp(0.02 * (rand() + rand() + rand() - 1.5))
		vb = b * exp(0.01 * (rand() + rand() + rand() - 1.5))
		if (rand() < 0.02) va *= 1.5
		file = sprintf("%s/run-%03d.json", dir, r)
		printf "{\"attrs\": {\"commit\": \"c%03d\"}, \"results\": [", r > file
		printf "{\"benchmark\": \"a\", \"dims\": {}, \"metric\": \"time\", \"unit\": \"s\", \"direction\": \"lower\", \"samples\": [%.9g]},", va > file
		printf "{\"benchmark\": \"b\", \"dims\": {}, \"metric\": \"qps\", \"unit\": \"ops/s\", \"direction\": \"higher\", \"samples\": [%.9g]}]}\n", vb > file
		close(file)
	}
}'
n=0 checked=0
for f in "$work"/run-*.json; do
	"$PERFDB" ingest "$f" >/dev/null || exit 1
	n=$((n + 1))
	[ $((n % 7)) = 0 ] || [ $n = 150 ] || continue
	for mode in report keep; do
		"$PERFDB" detect --window 20 --outliers $mode --format json >"$work/cached" || exit 1
		"$PERFDB" detect --window 20 --outliers $mode --format json --no-cache >"$work/full" || exit 1
		cmp -s "$work/cached" "$work/full" || { echo "detect: cached result differs after $n runs ($mode)"; diff "$work/full" "$work/cached" | head; exit 1; }
		checked=$((checked + 1))
	done
done
# the cache is in use: one row per series and mode
rows=$(sqlite3 "$PERFDB_DB" 'SELECT count(*) FROM detect_cache WHERE covered > 0')
[ "$rows" = 4 ] || { echo "detect: expected 4 cache rows in use, got $rows"; exit 1; }
grep -q '"index"' "$work/full" || { echo "detect: no change point found at all"; exit 1; }
echo "detect: cached = full on $checked checks"
