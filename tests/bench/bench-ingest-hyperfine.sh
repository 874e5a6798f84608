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
. "$(dirname "$0")/ingest-pairs.sh"
ingest_peer "$dir" ingest-hyperfine
ingest_pairs ingest-hyperfine hyperfine "$dir/hyperfine.json" 5 "3200000 samples" 1.5
