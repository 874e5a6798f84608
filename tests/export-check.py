#!/usr/bin/python3
# An independent reader of `perfdb export` output (csv or jsonl, samples or
# --stats) checked against `perfdb show RUN --format json` of every run the
# database holds: the same rows, in the same order, with every value, offset,
# weight and statistic equal as doubles (NaN as NaN). Prints one line per run
# and "ok N rows"; exit 1 on the first difference.
# Usage: export-check.py csv|jsonl samples|stats FILE [RUN...]
import csv, json, math, subprocess, sys

fmt, kind, path = sys.argv[1:4]
runs = sys.argv[4:]

def perfdb(*args):
    return json.loads(subprocess.run(["perfdb", *args], check=True,
                                     capture_output=True, text=True).stdout)

def num(v):
    """A number as the canonical JSON gives it: null is NaN, strings are infinities."""
    if v is None:
        return math.nan
    if isinstance(v, str):
        return {"Infinity": math.inf, "-Infinity": -math.inf}[v]
    return float(v)

def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == b

if not runs:
    runs = [r["id"] for r in reversed(perfdb("runs", "--format", "json"))]

expected = []
for sel in runs:
    run = perfdb("show", sel, "--format", "json")
    head = {"run": run["id"], "uuid": run["uuid"], "name": run.get("name"),
            "created_at": run["created_at"], "commit": run["attrs"].get("commit"),
            "branch": run["attrs"].get("branch")}
    count = 0
    for r in run["results"]:
        row = dict(head, benchmark=r["benchmark"], metric=r["metric"], unit=r["unit"],
                   direction=r["direction"])
        row.update({"dim." + k: v for k, v in r["dims"].items()})
        if kind == "stats":
            for name, v in r["stats"].items():
                expected.append(dict(row, stat=name, value=num(v)))
                count += 1
            continue
        for i, s in enumerate(r["samples"]):
            if isinstance(s, dict):
                v, t, w = num(s.get("value")), num(s.get("t")), num(s.get("weight"))
            else:
                v, t, w = num(s), math.nan, math.nan
            expected.append(dict(row, index=i, value=v, t=t, weight=w))
            count += 1
    print(f"{run['id']}: {count} rows")

def read_csv():
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        for rec in reader:
            out = {}
            for k, v in rec.items():
                if k in ("value", "t", "weight"):
                    out[k] = float(v) if v != "" else math.nan
                elif k == "index":
                    out[k] = int(v)
                elif k.startswith("dim."):
                    if v != "":
                        out[k] = v
                else:
                    out[k] = v if v != "" else None
            yield out

def read_jsonl():
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            for k in ("value", "t", "weight"):
                if k in rec:
                    rec[k] = num(rec[k])
            yield rec

got = list(read_csv() if fmt == "csv" else read_jsonl())
if len(got) != len(expected):
    sys.exit(f"{len(got)} rows exported, {len(expected)} expected")
for n, (g, e) in enumerate(zip(got, expected), 1):
    if set(g) != set(e):
        sys.exit(f"row {n}: columns {sorted(set(g) ^ set(e))} differ")
    for k in e:
        ok = same(g[k], e[k]) if isinstance(e[k], float) else g[k] == e[k]
        if not ok:
            sys.exit(f"row {n}: {k} is {g[k]!r}, expected {e[k]!r}")
print(f"ok {len(got)} rows")
