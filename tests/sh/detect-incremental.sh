#!/bin/sh
# perfdb detect with its caches (the values read, the spikes found, the
# weak change points) gives what a full recomputation gives, on seeded
# random histories that grow run by run (steps, noise and one-run spikes),
# in both outlier modes, over the branch detect reads by default (main) and
# over an attribute filter (the dev branch); and
# still after runs are removed, a result is changed behind its back, a
# failure is recorded or removed for an old run and the cached rows are
# damaged.
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
		printf "{\"attrs\": {\"commit\": \"c%03d\", \"branch\": \"%s\"}, \"results\": [", r, r % 3 ? "main" : "dev" > file
		printf "{\"benchmark\": \"a\", \"dims\": {}, \"metric\": \"time\", \"unit\": \"s\", \"direction\": \"lower\", \"samples\": [%.9g]},", va > file
		printf "{\"benchmark\": \"b\", \"dims\": {}, \"metric\": \"qps\", \"unit\": \"ops/s\", \"direction\": \"higher\", \"samples\": [%.9g]}]}\n", vb > file
		close(file)
	}
}'
n=0 checked=0
# same WHEN: the cached and the full answer agree, in both modes, over the
# default branch's runs (main's) and over the dev branch's
same() {
	for mode in report keep; do
		for where in "" branch=dev; do
			"$PERFDB" detect --window 20 --outliers $mode ${where:+--where $where} --format json >"$work/cached" || exit 1
			"$PERFDB" detect --window 20 --outliers $mode ${where:+--where $where} --format json --no-cache >"$work/full" || exit 1
			cmp -s "$work/cached" "$work/full" || { echo "detect: cached result differs $1 ($mode${where:+, $where})"; diff "$work/full" "$work/cached" | head; exit 1; }
			checked=$((checked + 1))
		done
	done
}
# the history grows by 7 runs (one ingest --each) between two checks
batch=
for f in "$work"/run-*.json; do
	batch="$batch $f"
	n=$((n + 1))
	[ $((n % 7)) = 0 ] || [ $n = 150 ] || continue
	"$PERFDB" ingest --each $batch >/dev/null || exit 1
	batch=
	same "after $n runs"
done
# the caches are in use: a split state per series, mode and selection, the
# values per series and selection, the spikes of the report mode
rows=$(sqlite3 "$PERFDB_DB" 'SELECT count(*) FROM detect_cache WHERE covered > 0')
[ "$rows" = 8 ] || { echo "detect: expected 8 split states in use, got $rows"; exit 1; }
rows=$(sqlite3 "$PERFDB_DB" "SELECT count(*) FROM detect_points WHERE last_run = 150 OR (last_run = 149 AND selection LIKE '%main')")
[ "$rows" = 4 ] || { echo "detect: expected 4 cached value rows up to date, got $rows"; exit 1; }
rows=$(sqlite3 "$PERFDB_DB" "SELECT count(*) FROM detect_cache WHERE xcovered > 0 AND spikes != '' AND params LIKE '%report%'")
[ "$rows" -ge 1 ] || { echo "detect: no spikes cached"; exit 1; }
grep -q '"index"' "$work/full" || { echo "detect: no change point found at all"; exit 1; }
# runs removed in the middle and at the end, a result changed in place
"$PERFDB" rm run40 run150 >/dev/null || exit 1
same "after two runs were removed"
sqlite3 "$PERFDB_DB" "UPDATE results SET samples = X'0000000000005940' WHERE run_id = 20" || exit 1
same "after a result was changed"
# a failure recorded for an old run (its value no longer counts), then removed
sqlite3 "$PERFDB_DB" "INSERT INTO failures VALUES (30, 'a', '{}', 'exit status 1')" || exit 1
same "after a failure was added"
sqlite3 "$PERFDB_DB" "DELETE FROM failures WHERE run_id = 30" || exit 1
same "after a failure was removed"
# a cached row that does not hold together is read as none (and rewritten)
sqlite3 "$PERFDB_DB" "UPDATE detect_points SET run_ids = X'00'; UPDATE detect_cache SET spikes = '7,3'" || exit 1
same "after the caches were damaged"
echo "detect: cached = full on $checked checks"
