#!/bin/sh
# A big Google Benchmark JSON (33 MB: 10,000 benchmarks x 3 repetitions and 4
# aggregates, tests/bench/make-gbench-json.py from a real output's structure)
# is read a row at a time (lib/parse/json_stream.c): every sample and
# aggregate comes through, checked against Python's json module, and the peak
# RSS stays under 3 times the file (measured 1.6 x; read whole into jansson it
# was 6.3 x). The bound is generous so that it does not flake, and is not
# checked under the sanitizers (their shadow memory is not perfdb's).
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_FINGERPRINT=off PERFDB_DB="$work/p.db"
[ -x /usr/bin/time ] || { echo "gbench-memory: skipped (/usr/bin/time is missing)"; exit 77; }
/usr/bin/python3 "$ROOT/tests/bench/make-gbench-json.py" \
  "$ROOT/fixtures/google-benchmark/repetitions.json" 10000 "$work/big.json" || exit 1
/usr/bin/time -f %M -o "$work/rss" "$PERFDB" ingest --format google-benchmark "$work/big.json" \
  >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
"$PERFDB" show run1 --format json > "$work/show.json" || exit 1
/usr/bin/python3 - "$work/big.json" "$work/show.json" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
run = json.load(open(sys.argv[2]))
got = {(r["benchmark"], r["metric"]): r for r in run["results"]}
want = {}
scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
for b in doc["benchmarks"]:
    for m in ("real_time", "cpu_time", "bytes_per_second"):
        s = want.setdefault((b["run_name"], m), {"samples": [], "stats": {}})
        v = b[m] * (scale[b["time_unit"]] if m != "bytes_per_second" else 1)
        if b["run_type"] == "iteration":
            s["samples"].append(v)
        elif b.get("aggregate_unit") == "percentage":
            s["stats"][b["aggregate_name"]] = b[m]
        else:
            s["stats"][b["aggregate_name"]] = v
bad = []
for k, w in want.items():
    r = got.get(k)
    if r is None:
        bad.append("%s %s: missing" % k)
        continue
    if len(r["samples"]) != len(w["samples"]) or any(abs(a - b) > 1e-12 * abs(b) for a, b in zip(r["samples"], w["samples"])):
        bad.append("%s %s: samples differ" % k)
    for name, v in w["stats"].items():
        if abs(r["stats"].get(name, float("nan")) - v) > 1e-12 * abs(v):
            bad.append("%s %s: stat %s is %s, the file says %s" % (k + (name, r["stats"].get(name), v)))
if len(bad):
    print("\n".join(bad[:10]), "(%d problems)" % len(bad))
    sys.exit(1)
print("gbench-memory: %d series, every sample and aggregate as the file has them" % len(want))
PY
case $BUILD in *asan*) exit 0;; esac
awk -v size="$(wc -c < "$work/big.json")" -v kib="$(cat "$work/rss")" 'BEGIN {
	ratio = kib * 1024 / size
	printf "gbench-memory: %.0f MB Google Benchmark JSON, peak RSS %.0f MB = %.2f x the file (bound 3)\n", size / 1e6, kib * 1024 / 1e6, ratio
	exit !(ratio <= 3)
}'
