#!/bin/sh
# make bench: perfdb ingest of a 131 MB Google Benchmark JSON (40,000
# benchmarks, 280,000 rows; tests/bench/make-gbench-json.py from a real
# output's structure) against a C program that only parses it with jansson's
# json_load_file, in the same run. Targets: time ratio <= 3 (perfdb also stores
# 120,000 series; read whole it was about 4: 41.6 s against 10.1 s), perfdb's
# peak RSS <= 1.5 x the file's size (it reads a row at a time; whole, 6 x).
# Exit 1 when one is missed.
PERFDB=${PERFDB:-build/perfdb}
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v /usr/bin/time >/dev/null 2>&1 || apt-get install -y time >/dev/null 2>&1 ||
  { echo "ingest-gbench: skipped (time is missing)"; exit 0; }
command -v python3 >/dev/null 2>&1 || { echo "ingest-gbench: skipped (python3 is missing)"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 "$ROOT/tests/bench/make-gbench-json.py" "$ROOT/fixtures/google-benchmark/repetitions.json" \
  40000 "$dir/gbench.json" || exit 1
cat > "$dir/load.c" <<'C'
#include <jansson.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	json_error_t err;
	json_t *doc = json_load_file(argv[1], 0, &err);
	if (!doc || argc != 2) {
		fprintf(stderr, "load: %s\n", err.text);
		return 1;
	}
	json_decref(doc);
	return 0;
}
C
cc -O2 -o "$dir/load" "$dir/load.c" -ljansson ||
  { echo "ingest-gbench: skipped (cannot build the jansson peer)"; exit 0; }
# three pairs, perfdb then the peer; the target is read on the median ratio
: > "$dir/p"; : > "$dir/j"
for i in 1 2 3; do
  rm -f "$dir/p.db"
  PERFDB_FINGERPRINT=off /usr/bin/time -f "%e %M" -o "$dir/t" \
    "$PERFDB" --db "$dir/p.db" ingest --format google-benchmark "$dir/gbench.json" >/dev/null ||
    { echo "ingest-gbench: perfdb ingest failed"; exit 1; }
  cat "$dir/t" >> "$dir/p"
  /usr/bin/time -f "%e %M" -o "$dir/t" "$dir/load" "$dir/gbench.json" ||
    { echo "ingest-gbench: json_load_file failed"; exit 1; }
  cat "$dir/t" >> "$dir/j"
done
size=$(wc -c < "$dir/gbench.json")
paste -d' ' "$dir/p" "$dir/j" | awk -v size="$size" '
	{ p[NR] = $1; j[NR] = $3; r[NR] = $1 / $3; if ($2 > rss) rss = $2; if ($4 > jrss) jrss = $4 }
	END {
		for (a = 1; a <= NR; a++)
			for (b = a + 1; b <= NR; b++)
				if (r[b] < r[a]) { t = r[a]; r[a] = r[b]; r[b] = t }
		for (a = 1; a <= NR; a++) {
			if (a == 1 || p[a] < pb) pb = p[a]
			if (a == 1 || j[a] < jb) jb = j[a]
		}
		median = r[(NR + 1) / 2]
		mem = rss * 1024 / size
		printf "ingest-gbench: %.0f MB, 280000 rows: perfdb %.2f s, json_load_file %.2f s (best of %d each); ratio %.2f (median of %d pairs, range %.2f-%.2f; target <= 3)\n", size / 1e6, pb, jb, NR, median, NR, r[1], r[NR]
		printf "ingest-gbench: peak RSS perfdb %.0f MB = %.2f x the file (target <= 1.5), json_load_file %.0f MB = %.2f x\n", rss * 1024 / 1e6, mem, jrss * 1024 / 1e6, jrss * 1024 / size
		exit !(median <= 3 && mem <= 1.5)
	}'
