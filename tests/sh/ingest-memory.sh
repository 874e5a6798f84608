#!/bin/sh
# A big hyperfine JSON (about 40 MB in hyperfine's pretty printing, 1,250,000
# runs) ingests with a peak RSS of at most 1.5 times the file's size, and every
# time, exit code and failure comes through: checked against Python's json
# module reading the same file. The sanitizer build checks the values only
# (its shadow memory is not perfdb's).
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_FINGERPRINT=off PERFDB_DB="$work/p.db"
/usr/bin/python3 - "$work/big.json" <<'PY' || exit 1
import json, random, sys
random.seed(7)
results = []
for c in range(20):
    times = [round(random.uniform(0.001, 0.2), 9) for _ in range(62500)]
    codes = [0] * len(times)
    if c == 3:
        codes[100] = 2
    results.append({"command": "cmd %d" % c, "mean": sum(times) / len(times),
                    "times": times, "exit_codes": codes, "parameters": {"c": str(c)}})
json.dump({"results": results}, open(sys.argv[1], "w"), indent=2)
PY
/usr/bin/time -f %M -o "$work/rss" "$PERFDB" ingest --format hyperfine "$work/big.json" \
  >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
"$PERFDB" show run1 --format json >"$work/show.json" || exit 1
/usr/bin/python3 - "$work/big.json" "$work/show.json" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
run = json.load(open(sys.argv[2]))
series = {(r["benchmark"], r["dims"]["c"], r["metric"]): r for r in run["results"]}
bad = []
for res in doc["results"]:
    cmd, c = res["command"], res["parameters"]["c"]
    r = series.pop((cmd, c, "time"), None)
    if r is None or r["samples"] != res["times"] or r["stats"].get("mean") != res["mean"]:
        bad.append("%s: samples or mean differ" % cmd)
    failed = [x for x in res["exit_codes"] if x != 0]
    attr = run["attrs"].get("exit_codes[%s]" % cmd)
    want = json.dumps(res["exit_codes"], separators=(",", ":")) if failed else None
    if attr != want:
        bad.append("%s: exit_codes attribute %.40s, expected %.40s" % (cmd, attr, want))
reasons = {f["benchmark"]: f["reason"] for f in run["failures"]}
if reasons != {"cmd 3": "1 of 62500 runs exited 2"}:
    bad.append("failures %s" % reasons)
if series:
    bad.append("series not in the file: %s" % sorted(series))
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
case $BUILD in
  *asan*) echo "ingest memory: 1,250,000 times, exit codes and a failure as the file has them (peak RSS is checked on the optimised build)"; exit 0;;
esac
awk -v size="$(wc -c < "$work/big.json")" -v kib="$(cat "$work/rss")" 'BEGIN {
	ratio = kib * 1024 / size
	printf "ingest memory: %.0f MB hyperfine JSON, peak RSS %.0f MB = %.2f x the file (bound 1.5); values as the file has them\n", size / 1e6, kib * 1024 / 1e6, ratio
	exit !(ratio <= 1.5)
}'
