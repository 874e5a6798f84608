#!/bin/sh
# perfdb table's statistics against an independent reader: Python computes
# mean, min, max, stddev (n - 1), stddev_pop (n), pN (linear, numpy's default)
# and count from the samples as `perfdb sql` gives them (samples_v), for every
# row of the fixtures' matrix runs (fixtures/table), and the speed-up from
# them; every value perfdb table prints in JSON must agree to 1e-9.
: "${PERFDB:?}" "${ROOT:?}"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/db"
"$PERFDB" ingest "$ROOT/fixtures/table/ingest-vcpus.json" >/dev/null || exit 1
"$PERFDB" ingest "$ROOT/fixtures/table/stream-rates.json" >/dev/null || exit 1
stats=mean,min,max,stddev,stddev_pop,p0,p25,p50,p90,p99,p99.9,p100,median,count
cols() { for s in $(echo $stats | tr , ' '); do printf '%s:%s,' "$1" "$s"; done; echo speedup; }
{
  "$PERFDB" table ingest-vcpus --rows vcpus --cols "$(cols docs_rate)" -F json &&
  "$PERFDB" table ingest-vcpus --rows vcpus --cols "$(cols wall_time)" -F json &&
  "$PERFDB" table ingest-vcpus --rows vcpus --cols "$(cols throughput)" --unit throughput=GB/h -F json &&
  "$PERFDB" table stream-rates --rows rate --cols "$(cols receive_rate)" -F json &&
  "$PERFDB" table stream-rates --rows rate --cols "$(cols missing_pct)" -F json &&
  "$PERFDB" table stream-rates --rows rate --cols "$(cols delivery_delay_p99)" -F json
} >"$work/tables.json" || { echo "FAIL: perfdb table"; exit 1; }
"$PERFDB" sql "SELECT run_name, benchmark, dims, metric, direction, value, weight FROM samples_v
  WHERE metric IN ('docs_rate', 'wall_time', 'throughput', 'receive_rate', 'missing_pct', 'delivery_delay_p99')" \
  -F jsonl >"$work/samples.jsonl" || { echo "FAIL: perfdb sql"; exit 1; }
/usr/bin/python3 - "$work/tables.json" "$work/samples.jsonl" <<'PY'
import json, math, sys
docs, i, text = [], 0, open(sys.argv[1]).read()
dec = json.JSONDecoder()
while i < len(text):
    if text[i].isspace():
        i += 1
        continue
    d, i = dec.raw_decode(text, i)
    docs.append(d)
samples = {}
for line in open(sys.argv[2]):
    r = json.loads(line)
    assert r["weight"] is None, "a weighted sample"
    samples.setdefault((r["metric"], r["dims"]), []).append(r["value"])
    samples[("dir", r["metric"])] = r["direction"]
def quantile(v, q):  # type 7
    v = sorted(v)
    h = (len(v) - 1) * q
    lo = math.floor(h)
    return v[lo] if lo + 1 >= len(v) else v[lo] + (h - lo) * (v[lo + 1] - v[lo])
def stat(v, s):
    n, m = len(v), sum(v) / len(v)
    if s == "mean": return m
    if s == "min": return min(v)
    if s == "max": return max(v)
    if s == "count": return n
    if s == "stddev": return math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1))
    if s == "stddev_pop": return math.sqrt(sum((x - m) ** 2 for x in v) / n)
    if s == "median": return quantile(v, 0.5)
    return quantile(v, float(s[1:]) / 100)
scale = {"GB/h": 1e9 / 3600}
checked = bad = 0
for d in docs:
    dim = d["rows_by"][0]
    first = None
    for row in d["rows"]:
        key = json.dumps({dim: row["dims"][dim]}, separators=(",", ":"))
        for col, got in zip(d["columns"], row["values"]):
            if col["stat"] == "speedup":
                of = [c["name"] for c in d["columns"]].index(col["of"])
                base = d["rows"][0]["values"][of]
                lower = samples[("dir", d["columns"][of]["metric"])] == "lower"
                want = base / row["values"][of] if lower else row["values"][of] / base
            else:
                v = samples[(col["metric"], key)]
                want = stat(v, col["stat"]) / (1 if col["stat"] == "count" else scale.get(col["unit"], 1))
            checked += 1
            if not math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12):
                bad += 1
                print(f"FAIL: {d['benchmark']} {dim}={row['dims'][dim]} {col['name']}: perfdb {got!r}, python {want!r}")
if checked < 200:
    print(f"FAIL: only {checked} values checked")
    bad += 1
if not bad:
    print(f"table-stats: {checked} values of {len(docs)} tables agree with Python's")
sys.exit(1 if bad else 0)
PY
