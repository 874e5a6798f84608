#!/bin/sh
# make bench: bytes on disk per stored sample and per run, for SIZE_RUNS runs
# (default 200) x 2,000 series x 5 samples ingested by perfdb (attributes branch and
# commit, no statistics), against the peer layout: plain SQLite with one row per
# sample (run, series, index, value; a WITHOUT ROWID primary key) holding the same
# samples and series. Prints B/sample, B/run and the ratio (perfdb / peer). Exit 1 only when an
# ingest fails or a sample is missing.
PERFDB=${PERFDB:-build/perfdb}
runs=${SIZE_RUNS:-200}
command -v sqlite3 >/dev/null 2>&1 || apt-get install -y sqlite3 >/dev/null 2>&1 ||
  { echo "size: skipped (sqlite3 is missing)"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export PERFDB_FINGERPRINT=off
/usr/bin/python3 - "$dir" "$runs" <<'PY' || { echo "size: making the runs failed"; exit 1; }
import json, random, sys
d, runs = sys.argv[1], int(sys.argv[2])
random.seed(1)
for r in range(runs):
    res = [{"benchmark": "bench-%d" % (s // 10), "dims": {"vcpus": str(s % 10 + 1)},
            "metric": "time", "unit": "s", "direction": "lower",
            "samples": [random.lognormvariate(-3, 0.2) for _ in range(5)]} for s in range(2000)]
    with open("%s/run-%03d.json" % (d, r), "w") as f:
        json.dump({"created_at": "2026-01-01T00:00:00Z",
                   "attrs": {"branch": "main", "commit": "%040x" % r}, "results": res}, f)
PY
for f in "$dir"/run-*.json; do
  "$PERFDB" --db "$dir/perfdb.db" ingest "$f" >/dev/null || { echo "size: ingest of $f failed"; exit 1; }
  rm "$f"
done
samples=$(sqlite3 "$dir/perfdb.db" 'SELECT sum(n) FROM results')
[ "$samples" = $((runs * 2000 * 5)) ] || { echo "size: $samples samples stored, not $((runs * 10000))"; exit 1; }
# the peer: the same samples, one row each
"$PERFDB" --db "$dir/perfdb.db" sql --format tsv \
  "SELECT r.run_id, r.series_id, u.idx, u.value FROM results r, pdb_unpack(r.samples) u" |
  sed 1d > "$dir/samples.tsv"
sqlite3 "$dir/rows.db" <<SQL || { echo "size: the peer's table failed"; exit 1; }
CREATE TABLE series(id INTEGER PRIMARY KEY, benchmark TEXT, dims TEXT, metric TEXT, unit TEXT,
  direction INTEGER);
CREATE TABLE samples(run_id INTEGER, series_id INTEGER, idx INTEGER, value REAL,
  PRIMARY KEY (run_id, series_id, idx)) WITHOUT ROWID;
ATTACH '$dir/perfdb.db' AS p;
INSERT INTO series SELECT * FROM p.series;
DETACH p;
.mode tabs
.import $dir/samples.tsv samples
SQL
[ "$(sqlite3 "$dir/rows.db" 'SELECT count(*) FROM samples')" = "$samples" ] ||
  { echo "size: the peer's table lacks samples"; exit 1; }
# where the bytes are (SQLite's dbstat), and what a VACUUM (perfdb gc does one) gives back
where=$(sqlite3 "$dir/perfdb.db" "SELECT printf('size: per result of 5 samples: %.1f B in its row (40 of them packed values), %.1f B in the two indexes on results, %.1f B in its run''s blob of run values (schema 10); the series table %.1f %% of the file',
  sum(pgsize) FILTER (WHERE name = 'results') * 1.0 / (SELECT count(*) FROM results),
  sum(pgsize) FILTER (WHERE name IN ('results_series', 'sqlite_autoindex_results_1')) * 1.0 / (SELECT count(*) FROM results),
  coalesce(sum(pgsize) FILTER (WHERE name = 'run_values'), 0) * 1.0 / (SELECT count(*) FROM results),
  sum(pgsize) FILTER (WHERE name IN ('series', 'sqlite_autoindex_series_1')) * 100.0 / sum(pgsize)) FROM dbstat") ||
  { echo "size: dbstat failed"; exit 1; }
sqlite3 "$dir/perfdb.db" "VACUUM INTO '$dir/vacuumed.db'" || { echo "size: VACUUM INTO failed"; exit 1; }
vacuumed=$(stat -c %s "$dir/vacuumed.db")
ours=$(($(stat -c %s "$dir/perfdb.db") + $(stat -c %s "$dir/perfdb.db-wal" 2>/dev/null || echo 0)))
peer=$(stat -c %s "$dir/rows.db")
awk -v o="$ours" -v p="$peer" -v v="$vacuumed" -v runs="$runs" -v n="$samples" 'BEGIN {
	printf "size: %d runs x 2,000 series x 5 samples: perfdb %.1f MB, %.1f B/sample, %.0f kB/run; one SQLite row per sample %.1f MB, %.1f B/sample; ratio %.2f\n",
	       runs, o / 1e6, o / n, o / runs / 1e3, p / 1e6, p / n, o / p
	printf "size: after VACUUM %.1f MB, %.1f B/sample, %.0f kB/run\n", v / 1e6, v / n, v / runs / 1e3
}'
echo "$where"
