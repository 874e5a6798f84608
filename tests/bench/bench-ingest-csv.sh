#!/bin/sh
# make bench: perfdb ingest --map of a 1,000,000-row CSV against sqlite3 .import
# of the same file, in the same run; prints the time ratio and perfdb's peak RSS.
# Targets: ratio <= 1.0, peak RSS < 64 MiB. Exit 1 when a target is missed.
PERFDB=${PERFDB:-build/perfdb}
for tool in sqlite3:sqlite3 /usr/bin/time:time; do
  command -v "${tool%%:*}" >/dev/null 2>&1 ||
    apt-get install -y "${tool#*:}" >/dev/null 2>&1 ||
    { echo "ingest-csv: skipped (${tool#*:} is missing)"; exit 0; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# 1,000,000 rows, seeded: 2 benchmarks x 4 vcpus x 3 batch sizes, repeated
awk 'BEGIN {
	srand(42)
	print "benchmark,vcpus,batch,run,docs_per_second,latency_ms"
	split("bulk-index search-heavy", bench, " ")
	split("2 4 8 16", vcpus, " ")
	split("1000 10000 50000", batch, " ")
	for (run = 1; n < 1000000; run++)
		for (b = 1; b <= 2; b++)
			for (v = 1; v <= 4; v++)
				for (k = 1; k <= 3 && n < 1000000; k++) {
					tput = vcpus[v] * 11500 * (0.9 + 0.2 * rand())
					lat = batch[k] / tput * 1000 * (0.95 + 0.1 * rand())
					printf "%s,%s,%s,%d,%.1f,%.3f\n", bench[b], vcpus[v], batch[k], run, tput, lat
					n++
				}
}' > "$dir/big.csv"
cat > "$dir/big.yaml" <<'YAML'
input: csv
benchmark: {column: benchmark}
dims: [vcpus, batch]
metrics:
  - {column: docs_per_second, name: throughput, unit: docs/s}
  - {column: latency_ms, name: latency, unit: ms}
YAML

# best of three for each, alternating, so that both see the same machine load
best() { sort -n | head -1; }
: > "$dir/p" ; : > "$dir/s"
for i in 1 2 3; do
  rm -f "$dir/p.db" "$dir/s.db"
  PERFDB_FINGERPRINT=off /usr/bin/time -f "%e %M" -o "$dir/t" \
    "$PERFDB" --db "$dir/p.db" ingest --map "$dir/big.yaml" "$dir/big.csv" >/dev/null ||
    { echo "ingest-csv: perfdb ingest failed"; exit 1; }
  cat "$dir/t" >> "$dir/p"
  /usr/bin/time -f "%e %M" -o "$dir/t" sqlite3 "$dir/s.db" ".mode csv" ".import $dir/big.csv t" ||
    { echo "ingest-csv: sqlite3 .import failed"; exit 1; }
  cat "$dir/t" >> "$dir/s"
done
p=$(cut -d' ' -f1 "$dir/p" | best)
s=$(cut -d' ' -f1 "$dir/s" | best)
rss=$(cut -d' ' -f2 "$dir/p" | sort -n | tail -1)
awk -v p="$p" -v s="$s" -v rss="$rss" 'BEGIN {
	ratio = p / s; mib = rss / 1024
	printf "ingest-csv: perfdb %.2f s, sqlite3 .import %.2f s, ratio %.2f (target <= 1.0); peak RSS %.0f MiB (target < 64)\n", p, s, ratio, mib
	exit !(ratio <= 1.0 && mib < 64)
}'
