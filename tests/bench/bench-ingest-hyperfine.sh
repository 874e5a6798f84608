#!/bin/sh
# make bench: perfdb ingest of a 100 MB hyperfine --export-json file (3,200,000
# samples) against a C program that only parses it with jansson's
# json_load_file, in the same run. Targets: time ratio <= 1.5, perfdb's peak
# RSS <= 1.5 x the file's size. Exit 1 when one is missed.
PERFDB=${PERFDB:-build/perfdb}
command -v /usr/bin/time >/dev/null 2>&1 || apt-get install -y time >/dev/null 2>&1 ||
  { echo "ingest-hyperfine: skipped (time is missing)"; exit 0; }
command -v python3 >/dev/null 2>&1 || { echo "ingest-hyperfine: skipped (python3 is missing)"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# hyperfine's shape (fixtures/hyperfine/params.json): results[] with command,
# mean, stddev, median, user, system, min, max, times[], exit_codes[],
# parameters{}; serde_json's pretty printing (two spaces). 20 commands x
# 160,000 runs = 3,200,000 samples; times are whole nanoseconds in seconds.
python3 - "$dir/hyperfine.json" <<'PY'
import json, random, statistics, sys
random.seed(42)
results = []
for c in range(20):
    n = c % 10 + 1
    base = 0.005 * n
    times = [round(random.gauss(base, base * 0.03) * 1e9) / 1e9 for _ in range(160000)]
    mean = statistics.fmean(times)
    results.append({
        "command": "sort -n data-%d.txt" % n if c < 10 else "sort -g data-%d.txt" % n,
        "mean": mean,
        "stddev": statistics.stdev(times),
        "median": statistics.median(times),
        "user": mean * 0.8,
        "system": mean * 0.1,
        "min": min(times),
        "max": max(times),
        "times": times,
        "exit_codes": [0] * len(times),
        "parameters": {"n": str(n), "flag": "-n" if c < 10 else "-g"},
    })
with open(sys.argv[1], "w") as f:
    json.dump({"results": results}, f, indent=2)
PY
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
  { echo "ingest-hyperfine: skipped (cannot build the jansson peer)"; exit 0; }

# five pairs, perfdb then the peer: the machine is shared and a single
# pair can be off by a quarter either way, so the target is read on the
# median of the five ratios (their range is printed too)
: > "$dir/p"; : > "$dir/j"
for i in 1 2 3 4 5; do
  rm -f "$dir/p.db"
  PERFDB_FINGERPRINT=off /usr/bin/time -f "%e %M" -o "$dir/t" \
    "$PERFDB" --db "$dir/p.db" ingest --format hyperfine "$dir/hyperfine.json" >/dev/null ||
    { echo "ingest-hyperfine: perfdb ingest failed"; exit 1; }
  cat "$dir/t" >> "$dir/p"
  /usr/bin/time -f "%e %M" -o "$dir/t" "$dir/load" "$dir/hyperfine.json" ||
    { echo "ingest-hyperfine: json_load_file failed"; exit 1; }
  cat "$dir/t" >> "$dir/j"
done
size=$(wc -c < "$dir/hyperfine.json")
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
		printf "ingest-hyperfine: %.0f MB, 3200000 samples: perfdb %.2f s, json_load_file %.2f s (best of %d each); ratio %.2f (median of %d pairs, range %.2f-%.2f; target <= 1.5)\n", size / 1e6, pb, jb, NR, median, NR, r[1], r[NR]
		printf "ingest-hyperfine: peak RSS perfdb %.0f MB = %.2f x the file (target <= 1.5), json_load_file %.0f MB = %.2f x\n", rss * 1024 / 1e6, mem, jrss * 1024 / 1e6, jrss * 1024 / size
		exit !(median <= 1.5 && mem <= 1.5)
	}'
