#!/bin/sh
# make bench: perfdb export of EXPORT_SAMPLES samples (default 10,000,000: 100 runs x
# 1,000 series x 100 samples) to CSV against sqlite3 -csv selecting the same rows from
# a table of one row per sample (made by importing perfdb's export, typed columns), in
# the same run; prints the time ratio and perfdb's peak memory. Targets: ratio <= 1.0
# (at least as fast), peak anonymous RSS < 64 MiB (bounded: one run in memory). Exit 1 when
# a target is missed.
PERFDB=${PERFDB:-build/perfdb}
total=${EXPORT_SAMPLES:-10000000}
for tool in sqlite3:sqlite3 /usr/bin/time:time /usr/bin/python3:python3; do
  command -v "${tool%%:*}" >/dev/null 2>&1 ||
    apt-get install -y "${tool#*:}" >/dev/null 2>&1 ||
    { echo "export: skipped (${tool#*:} is missing)"; exit 0; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export PERFDB_DB="$dir/p.db" PERFDB_FINGERPRINT=off
runs=100 series=1000
per=$((total / runs / series))

# the runs, seeded: 100 benchmarks x 10 vcpus, full-precision values (the hard case)
i=0
while [ $i -lt $runs ]; do
  /usr/bin/python3 - "$i" "$series" "$per" > "$dir/run.json" <<'PY'
import json, random, sys
i, series, per = map(int, sys.argv[1:])
random.seed(i)
res = [{"benchmark": f"bench-{s // 10}", "dims": {"vcpus": str(s % 10 + 1)}, "metric": "time",
        "unit": "s", "direction": "lower",
        "samples": [random.lognormvariate(-3, 0.2) for _ in range(per)]} for s in range(series)]
print(json.dumps({"uuid": f"00000000-0000-4000-8000-{i:012d}", "name": f"nightly-{i}",
                  "created_at": f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}Z",
                  "attrs": {"commit": f"{i:07x}", "branch": "main"}, "results": res}))
PY
  "$PERFDB" ingest "$dir/run.json" >/dev/null || { echo "export: ingest failed"; exit 1; }
  i=$((i + 1))
done
rows=$((runs * series * per))

# the peer's table: perfdb's own export, imported with typed columns
sqlite3 "$dir/s.db" 'CREATE TABLE samples(run TEXT, uuid TEXT, name TEXT, created_at TEXT,
  "commit" TEXT, branch TEXT, benchmark TEXT, "dim.vcpus" TEXT, metric TEXT, unit TEXT,
  direction TEXT, "index" INTEGER, value REAL, t REAL, weight REAL)'
"$PERFDB" export | sqlite3 "$dir/s.db" ".import --csv --skip 1 /dev/stdin samples" ||
  { echo "export: sqlite3 .import failed"; exit 1; }
n=$(sqlite3 "$dir/s.db" 'SELECT count(*) FROM samples')
[ "$n" = "$rows" ] || { echo "export: $n rows in the peer's table, expected $rows"; exit 1; }

# best of three for each, alternating, so that both see the same machine load
best() { sort -n | head -1; }
: > "$dir/p"; : > "$dir/s"
for i in 1 2 3; do
  /usr/bin/time -f "%e %M" -o "$dir/t" "$PERFDB" export > "$dir/out" ||
    { echo "export: perfdb export failed"; exit 1; }
  cat "$dir/t" >> "$dir/p"
  /usr/bin/time -f "%e %M" -o "$dir/t" sqlite3 -csv "$dir/s.db" 'SELECT * FROM samples' > "$dir/out" ||
    { echo "export: sqlite3 failed"; exit 1; }
  cat "$dir/t" >> "$dir/s"
done
rm -f "$dir/out"
# perfdb's own memory: peak anonymous RSS (heap, stacks), polled; %M above also
# counts the database pages SQLite maps (mmap_size), which grow with the file and
# are the kernel's page cache, not perfdb's
"$PERFDB" export > /dev/null & pid=$!
anon=0
while kill -0 $pid 2>/dev/null; do
  a=$(sed -n 's/^RssAnon:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/$pid/status 2>/dev/null)
  [ -n "$a" ] && [ "$a" -gt "$anon" ] && anon=$a
  sleep 0.02
done
wait $pid
p=$(cut -d' ' -f1 "$dir/p" | best)
s=$(cut -d' ' -f1 "$dir/s" | best)
rss=$(cut -d' ' -f2 "$dir/p" | sort -n | tail -1)
awk -v p="$p" -v s="$s" -v rss="$rss" -v anon="$anon" -v rows="$rows" 'BEGIN {
	ratio = p / s; mib = anon / 1024
	printf "export: %d samples to CSV: perfdb %.2f s, sqlite3 -csv %.2f s, ratio %.2f (target <= 1.0); peak anonymous RSS %.1f MiB (target < 64; RSS with the mapped database %.0f MiB)\n", rows, p, s, ratio, mib, rss / 1024
	exit !(ratio <= 1.0 && mib < 64)
}'
