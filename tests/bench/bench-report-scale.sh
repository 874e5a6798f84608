#!/bin/sh
# make bench: perfdb report of a run of 10,000 series against one of 100,000
# (one benchmark a series, three samples each, a baseline run of the same
# series): the time ratio is 10 where the report is linear. Issue 31 measured
# 1.4 s and 69 s (49x: a search of every benchmark seen per series); the
# target is a ratio under 15. Prints both times and the ratio; exit 1 above 15.
PERFDB=${PERFDB:-build/perfdb}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export PERFDB_FINGERPRINT=off
for n in 10000 100000; do
  /usr/bin/python3 - "$n" "$dir/s$n.json" <<'PY' || { echo "report-scale: making the run failed"; exit 1; }
import json, random, sys
n = int(sys.argv[1])
rng = random.Random(1)
res = [{"benchmark": "b%06d" % i, "dims": {}, "metric": "time", "unit": "s", "direction": "lower",
        "samples": [1 + rng.random() * 0.01 for _ in range(3)]} for i in range(n)]
json.dump({"results": res}, open(sys.argv[2], "w"))
PY
  "$PERFDB" --db "$dir/$n.db" ingest "$dir/s$n.json" >/dev/null &&
    "$PERFDB" --db "$dir/$n.db" ingest "$dir/s$n.json" --force >/dev/null 2>&1 ||
    { echo "report-scale: ingest failed"; exit 1; }
  t0=$(date +%s.%N)
  "$PERFDB" --db "$dir/$n.db" report latest -o "$dir/r$n" >/dev/null 2>&1 ||
    { echo "report-scale: report of $n series failed"; exit 1; }
  t1=$(date +%s.%N)
  awk -v n="$n" -v a="$t0" -v b="$t1" 'BEGIN { print n, b - a }' >>"$dir/times"
done
awk '{ t[NR] = $2; n[NR] = $1 }
END {
  r = t[2] / t[1]
  printf "report-scale: %d series %.2f s, %d series %.2f s: ratio %.1f (linear: 10; target < 15)\n", n[1], t[1], n[2], t[2], r
  exit r < 15 ? 0 : 1
}' "$dir/times"
