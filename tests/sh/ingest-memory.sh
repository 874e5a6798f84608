#!/bin/sh
# Big JSON results ingest and every value comes through: checked against
# Python's json module reading the same file. A hyperfine JSON (about 40 MB in
# hyperfine's pretty printing, 1,250,000 runs: times, exit codes, a failure)
# and a pytest-benchmark JSON (about 43 MB, 1,000,000 rounds in stats.data).
# Then perfdb's own export of the hyperfine run (16 MB, its samples on one
# line each), exported again byte for byte the same.
# With BENCH_BOUNDS=1 (make bench: tests/bench/bench-ingest-memory.sh) it also
# bounds the peak RSS: at most 1.5 times the file's size for the first two,
# 3.5 times for perfdb's export (the model's 24 bytes a sample are 1.8 times
# the file already, the process's 10 MB at start 0.6 times more; 6.7 read
# whole). Not under the sanitizers (their shadow memory is not perfdb's).
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_FINGERPRINT=off PERFDB_DB="$work/p.db"
# FORMAT FILE RUN BOUND: ingest FILE (run RUN), its show JSON into FILE.show;
# with BENCH_BOUNDS=1 its peak RSS at most BOUND times its size (not under
# the sanitizers; BOUND "-": printed only)
status=0
ingest() {
  if [ "${BENCH_BOUNDS:-0}" != 1 ]; then
    "$PERFDB" ingest --format "$1" "$2" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
    "$PERFDB" show "run$3" --format json >"$2.show" || exit 1
    return
  fi
  /usr/bin/time -f %M -o "$work/rss" "$PERFDB" ingest --format "$1" "$2" \
    >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
  "$PERFDB" show "run$3" --format json >"$2.show" || exit 1
  case $BUILD in *asan*) return;; esac
  awk -v f="$1" -v bound="$4" -v size="$(wc -c < "$2")" -v kib="$(cat "$work/rss")" 'BEGIN {
	ratio = kib * 1024 / size
	printf "ingest memory: %.0f MB %s JSON, peak RSS %.0f MB = %.2f x the file (%s)\n", size / 1e6, f, kib * 1024 / 1e6, ratio, bound == "-" ? "not bounded" : "bound " bound
	exit !(bound == "-" || ratio <= bound + 0)
  }' || status=1
}
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
ingest hyperfine "$work/big.json" 1 1.5
/usr/bin/python3 - "$work/big.json" "$work/big.json.show" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
run = json.load(open(sys.argv[2]))
series = {(r["benchmark"], r["dims"]["c"], r["metric"]): r for r in run["results"]}
# a parameter scan is one benchmark named by its template, "cmd {c}"
template = "cmd {c}"
bad = []
for res in doc["results"]:
    cmd, c = res["command"], res["parameters"]["c"]
    r = series.pop((template, c, "time"), None)
    if r is None or r["samples"] != res["times"] or r["stats"].get("mean") != res["mean"]:
        bad.append("%s: samples or mean differ" % cmd)
    failed = [x for x in res["exit_codes"] if x != 0]
    attr = run["attrs"].get("exit_codes[%s]" % cmd)
    want = json.dumps(res["exit_codes"], separators=(",", ":")) if failed else None
    if attr != want:
        bad.append("%s: exit_codes attribute %.40s, expected %.40s" % (cmd, attr, want))
reasons = {(f["benchmark"], f["dims"].get("c")): f["reason"] for f in run["failures"]}
if reasons != {(template, "3"): "1 of 62500 runs exited 2"}:
    bad.append("failures %s" % reasons)
if series:
    bad.append("series not in the file: %s" % sorted(series))
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
echo "ingest memory: hyperfine: 1,250,000 times, exit codes and a failure as the file has them"

/usr/bin/python3 - "$work/pytest.json" <<'PY' || exit 1
import json, random, sys
random.seed(8)
benchmarks = []
for c in range(10):
    data = [random.uniform(1e-6, 1e-3) for _ in range(100000)]
    benchmarks.append({"group": None, "name": "test_%d" % c, "fullname": "t.py::test_%d" % c,
                       "params": None, "stats": {"min": min(data), "max": max(data),
                       "mean": sum(data) / len(data), "rounds": len(data), "data": data}})
json.dump({"machine_info": {"node": "h"}, "benchmarks": benchmarks, "version": "3.2.2"},
          open(sys.argv[1], "w"), indent=4)
PY
ingest pytest-benchmark "$work/pytest.json" 2 1.5
/usr/bin/python3 - "$work/pytest.json" "$work/pytest.json.show" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
run = json.load(open(sys.argv[2]))
times = {r["benchmark"]: r for r in run["results"] if r["metric"] == "time"}
bad = [b["name"] for b in doc["benchmarks"]
       if b["name"] not in times or times[b["name"]]["samples"] != b["stats"]["data"]
       or times[b["name"]]["stats"].get("mean") != b["stats"]["mean"]]
if bad or len(times) != len(doc["benchmarks"]):
    print("pytest-benchmark: samples or mean differ for %s (%d series)" % (bad, len(times)))
    sys.exit(1)
PY
echo "ingest memory: pytest-benchmark: 1,000,000 rounds as the file has them"

PERFDB_DB="$work/again.db" ingest perfdb "$work/big.json.show" 1 3.5
cmp -s "$work/big.json.show" "$work/big.json.show.show" ||
  { echo "perfdb JSON: exported again, not the same"; exit 1; }
echo "ingest memory: perfdb JSON: exported again byte for byte the same"
exit $status
