"""BenchmarkTools.save JSON: [{versions}, [["BenchmarkGroup", {"data": {KEY:
...}}], ...]] nested groups whose leaves are ["TrialEstimate", {time (ns),
gctime (ns), memory (bytes), allocs}].  benchmark = the group path joined by
"/"; time (s) a sample with stat gctime; memory (B) and allocs (count), lower."""
import json
from _facts import series, result


def walk(node, path, out):
    kind, body = node[0], node[1]
    if kind == "BenchmarkGroup":
        for k, v in body["data"].items():
            walk(v, path + [k], out)
    elif kind == "TrialEstimate":
        name = "/".join(path)
        out.append(series(name, "time", "s", "lower", [body["time"] * 1e-9], {"gctime": body["gctime"] * 1e-9}))
        out.append(series(name, "memory", "B", "lower", [float(body["memory"])]))
        out.append(series(name, "allocs", "count", "lower", [float(body["allocs"])]))


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = []
    for node in doc[1]:
        walk(node, [], out)
    return result(out)
