"""A declared mapping (perfdb ingest --map MAP.yaml FILE), read from the MAP's own
words as docs/formats.md documents them, never from perfdb's code: every row (CSV) or record
(JSON/YAML) is one sample of each mapped metric of its series (benchmark, dims);
a list value gives several samples; an empty cell, null or a missing field gives
none (and a series with no value at all does not exist); a metric with `stat:`
sets that statistic instead.  Units are the tool's,
canonicalised the way docs/formats.md says (seconds, bytes, per-second rates); the
direction is the map's, else the unit's (times and sizes lower, rates higher,
counts and percentages none).  The MAP path comes in $FACTS_MAP."""
import csv
import json
import os
import re

import yaml
from _facts import series, result, text

# the tool's unit -> (canonical unit, factor, direction from the unit)
UNITS = {"s": ("s", 1, "lower"), "ms": ("s", 1e-3, "lower"), "us": ("s", 1e-6, "lower"),
         "ns": ("s", 1e-9, "lower"), "B": ("B", 1, "lower"), "KiB": ("B", 1024, "lower"),
         "MiB": ("B", 1024 ** 2, "lower"), "GiB": ("B", 1024 ** 3, "lower"),
         "MB/s": ("B/s", 1e6, "higher"), "GB/hour": ("B/s", 1e9 / 3600, "higher"),
         "%": ("%", 1, "none"), "count": ("count", 1, "none")}


def unit_of(u):
    if u in UNITS:
        return UNITS[u]
    if re.fullmatch(r"[A-Za-z_-]+/s", u or ""):  # a noun per second: docs/s, req/s
        return (u, 1, "higher")
    return (u, 1, "none")


def path_get(obj, path):
    """a.b.c (or $.a.b) into nested objects; None when absent."""
    for part in path.lstrip("$").lstrip(".").split("."):
        if not isinstance(obj, dict) or part not in obj:
            return None
        obj = obj[part]
    return obj


def records(spec, path):
    kind = spec.get("input", "csv")
    if kind == "csv":
        with open(path, encoding="utf-8", newline="") as f:
            data = f.read()
        delim = spec.get("delimiter") or max(",\t;", key=lambda d: data.splitlines()[0].count(d))
        rows = list(csv.reader(data.splitlines(), delimiter=delim))
        header = int(spec.get("header", 1))
        names = rows[header - 1] if header else [str(i + 1) for i in range(len(rows[0]))]
        return None, [dict(zip(names, r)) for r in rows[header:] if r]
    with open(path, encoding="utf-8") as f:
        doc = json.load(f) if kind == "json" else yaml.safe_load(f)
    where = spec.get("records", "$")
    where = re.sub(r"\[\*\]$", "", where)
    recs = doc if where in ("$", "") else path_get(doc, where)
    return doc, recs


def values(v):
    """The samples a cell or field gives: numbers, a list of them; none for empty."""
    if v is None or v == "":
        return []
    if isinstance(v, list):
        return [float(x) for x in v if x is not None and x != ""]
    return [float(v)]


def read(path):
    with open(os.environ["FACTS_MAP"], encoding="utf-8") as f:
        spec = yaml.safe_load(f)
    _, recs = records(spec, path)
    out = {}
    for rec in recs:
        bench = spec["benchmark"]
        bench = text(path_get(rec, bench["column"]) if isinstance(rec, dict) and "." in bench["column"]
                     else rec.get(bench["column"])) if isinstance(bench, dict) else bench
        dims = {}
        for d in spec.get("dims") or []:
            if isinstance(d, str):
                d = {"column": d, "name": d}
            if "value" in d:
                dims[d["name"]] = text(d["value"])
            else:
                v = rec.get(d["column"])
                dims[d.get("name", d["column"])] = text(v)
        for m in spec.get("metrics") or []:
            col = m["column"]
            raw = path_get(rec, col) if "." in col and col not in rec else rec.get(col)
            unit, factor, direction = unit_of(m.get("unit", ""))
            direction = m.get("direction", direction)
            name = m.get("name", col)
            key = (bench, tuple(sorted(dims.items())), name)
            vals = [v * factor for v in values(raw)]
            if not vals:  # absent stays absent: no value, no series
                continue
            s = out.setdefault(key, series(bench, name, unit, direction, [], {}, dims))
            if "stat" in m:
                s["stats"][m["stat"]] = vals[0]
            else:
                s["samples"].extend(vals)
    return result(list(out.values()))
