"""Bencher Metric Format: {BENCHMARK: {MEASURE: {value, lower_value, upper_value}}}.
Bencher's built-in measures have fixed units: latency ns, throughput
operations/s, build-time s, file-size bytes; any other measure has no unit in
the file (count, direction none).  value is the sample, lower/upper stats."""
import json
from _facts import series, result

BUILTIN = {"latency": ("s", "lower", 1e-9), "throughput": ("ops/s", "higher", 1.0),
           "build-time": ("s", "lower", 1.0), "file-size": ("B", "lower", 1.0)}


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = []
    for bench, measures in doc.items():
        for measure, m in measures.items():
            unit, direction, k = BUILTIN.get(measure, ("count", "none", 1.0))
            st = {s: float(m[s]) * k for s in ("lower_value", "upper_value") if m.get(s) is not None}
            out.append(series(bench, measure, unit, direction, [float(m["value"]) * k], st))
    return result(out)
