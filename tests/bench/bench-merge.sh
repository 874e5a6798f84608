#!/bin/sh
# make bench: perfdb merge of a database of MERGE_RUNS runs (default 1,000) x 1,000
# series x 5 samples (with one statistic each) into an empty one; prints runs per
# second, and the ratio to the floor: sqlite3 copying the same rows with ATTACH and
# INSERT ... SELECT (no uuid check, no renaming, no reading back). Informational:
# exit 1 only when the merge fails or loses a row.
PERFDB=${PERFDB:-build/perfdb}
runs=${MERGE_RUNS:-1000}
for tool in sqlite3:sqlite3 /usr/bin/python3:python3; do
  command -v "${tool%%:*}" >/dev/null 2>&1 ||
    apt-get install -y "${tool#*:}" >/dev/null 2>&1 ||
    { echo "merge: skipped (${tool#*:} is missing)"; exit 0; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export PERFDB_FINGERPRINT=off
/usr/bin/python3 - > "$dir/run.json" <<'PY'
import json, random
random.seed(1)
res = [{"benchmark": f"bench-{s // 10}", "dims": {"vcpus": str(s % 10 + 1)}, "metric": "time",
        "unit": "s", "direction": "lower",
        "samples": [random.lognormvariate(-3, 0.2) for _ in range(5)], "stats": {"mean": 0.05}}
       for s in range(1000)]
print(json.dumps({"uuid": "00000000-0000-4000-8000-000000000001", "name": "run-1",
                  "created_at": "2026-01-01T00:00:00Z", "attrs": {"branch": "main"}, "results": res}))
PY
"$PERFDB" --db "$dir/src.db" ingest "$dir/run.json" >/dev/null || { echo "merge: ingest failed"; exit 1; }
# the other runs: copies of the first one made in SQL, each its own uuid and name
sqlite3 "$dir/src.db" "
WITH RECURSIVE k(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM k WHERE i < $runs)
INSERT INTO runs(uuid, name, created_at, tool, format, source, sha256, status)
  SELECT printf('00000000-0000-4000-8000-%012d', i), 'run-' || i, created_at, tool, format,
         source, NULL, status FROM runs, k WHERE runs.id = 1;
INSERT INTO run_attrs SELECT r.id, a.key, a.value FROM runs r, run_attrs a WHERE a.run_id = 1 AND r.id > 1;
INSERT INTO results(run_id, series_id, raw_unit, raw_name, n, samples, offsets, weights)
  SELECT r.id, x.series_id, x.raw_unit, x.raw_name, x.n, x.samples, x.offsets, x.weights
  FROM runs r, results x WHERE x.run_id = 1 AND r.id > 1 ORDER BY r.id, x.id;
INSERT INTO stats SELECT y.id, s.name, s.value FROM results x JOIN stats s ON s.result_id = x.id
  JOIN results y ON y.series_id = x.series_id AND y.run_id > 1 WHERE x.run_id = 1;
PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null || { echo "merge: making the source failed"; exit 1; }
results=$(sqlite3 "$dir/src.db" 'SELECT count(*) FROM results')

t0=$(date +%s.%N)
"$PERFDB" --db "$dir/dst.db" merge "$dir/src.db" > "$dir/out" || { echo "merge: perfdb merge failed"; exit 1; }
t1=$(date +%s.%N)
got=$(sqlite3 "$dir/dst.db" 'SELECT count(*) FROM results')
[ "$got" = "$results" ] && grep -q "^merged $runs runs, skipped 0" "$dir/out" ||
  { echo "merge: $got of $results results merged: $(cat "$dir/out")"; exit 1; }

# the floor: the same rows copied by SQLite alone, into a fresh perfdb database
"$PERFDB" --db "$dir/floor.db" ingest "$dir/run.json" >/dev/null
sqlite3 "$dir/floor.db" 'DELETE FROM stats; DELETE FROM results; DELETE FROM run_attrs; DELETE FROM failures; DELETE FROM runs; DELETE FROM series' >/dev/null
t2=$(date +%s.%N)
sqlite3 "$dir/floor.db" "ATTACH '$dir/src.db' AS s; BEGIN;
INSERT INTO runs SELECT * FROM s.runs; INSERT INTO run_attrs SELECT * FROM s.run_attrs;
INSERT INTO series SELECT * FROM s.series; INSERT INTO results SELECT * FROM s.results;
INSERT INTO stats SELECT * FROM s.stats; INSERT INTO failures SELECT * FROM s.failures; COMMIT;" ||
  { echo "merge: sqlite3 copy failed"; exit 1; }
t3=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v runs="$runs" 'BEGIN {
	p = b - a; s = d - c
	printf "merge: %d runs x 1,000 series: perfdb %.2f s (%.0f runs/s), sqlite3 INSERT ... SELECT %.2f s, ratio %.2f\n", runs, p, runs / p, s, p / s
}'
