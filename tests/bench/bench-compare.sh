#!/bin/sh
# perfdb compare: two runs of 10,000 series x 30 samples (json output)
# against sqlite3 selecting the same samples from the same database; the
# target is a ratio of at most 2. The database is built by ingesting two
# generated canonical JSON runs and kept in $BENCH_CACHE between runs.
PERFDB=${PERFDB:?} ROOT=${ROOT:?}
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/perfdb-bench-compare}
db="$cache/compare.db"
mkdir -p "$cache" || exit 1
export PERFDB_FINGERPRINT=off
command -v sqlite3 >/dev/null || apt-get install -y sqlite3 >/dev/null 2>&1 || {
	echo "skip: sqlite3 not installed"; exit 0; }

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

# best of 5 wall-clock seconds of a command
best() {
	b=
	for i in 1 2 3 4 5; do
		s=$(date +%s.%N)
		"$@" >/dev/null || return 1
		e=$(date +%s.%N)
		b=$(echo "$s $e ${b:-}" | awk '{ t = $2 - $1; if ($3 == "" || t < $3) t = t; else t = $3; print t }')
	done
	echo "$b"
}

sql="SELECT s.benchmark, s.dims, s.metric, r.run_id, r.samples FROM results r
     JOIN series s ON s.id = r.series_id WHERE r.run_id IN (1, 2) ORDER BY s.id, r.run_id"
t_perfdb=$(best "$PERFDB" --db "$db" compare run1 run2 --format json --fail-on never) || exit 1
t_sqlite=$(best sqlite3 "$db" "$sql") || exit 1

# For scale: perfdb stores a series' samples as one blob of doubles, so the
# select above copies 20,000 blobs. The same 600,000 samples stored one per
# row (a copy of the database with such a table) take sqlite3 this long.
rows="$cache/compare-rows.db"
if [ ! -f "$rows" ] && command -v python3 >/dev/null; then
	cp "$db" "$rows.tmp" && python3 - "$rows.tmp" <<'PY' && mv "$rows.tmp" "$rows"
import sqlite3, struct, sys
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE TABLE sample_rows(series_id INTEGER, run_id INTEGER, i INTEGER, value REAL)")
for sid, rid, blob in db.execute("SELECT series_id, run_id, samples FROM results").fetchall():
    db.executemany("INSERT INTO sample_rows VALUES (?, ?, ?, ?)",
                   [(sid, rid, i, v) for i, v in enumerate(struct.unpack("<%dd" % (len(blob) // 8), blob))])
db.execute("CREATE INDEX sample_rows_run ON sample_rows(run_id, series_id)")
db.commit()
PY
fi
t_rows=0
[ -f "$rows" ] && t_rows=$(best sqlite3 "$rows" "SELECT s.benchmark, s.dims, s.metric, r.run_id, r.value
	FROM sample_rows r JOIN series s ON s.id = r.series_id WHERE r.run_id IN (1, 2)
	ORDER BY s.id, r.run_id, r.i")
echo "$t_perfdb $t_sqlite $t_rows" | awk '{
	printf "compare 10000 series x 30 samples: perfdb %.3f s, sqlite3 select %.3f s, ratio %.2f (target <= 2)\n", $1, $2, $1 / $2
	if ($3 > 0)
		printf "  for scale: sqlite3 selecting the same samples stored one per row %.3f s, ratio %.2f\n", $3, $1 / $3
	exit ($1 / $2 > 2) }'
