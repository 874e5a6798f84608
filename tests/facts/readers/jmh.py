"""JMH -rf json: an array of benchmarks (benchmark, mode, params, primaryMetric,
secondaryMetrics).  The mode names the primary metric (thrpt throughput, avgt
avg_time, sample sample_time, ss single_shot_time); params are dims.  A metric:
score -> mean, scoreError -> mean_error (absent when NaN), scoreConfidence ->
mean_ci_low/high, scorePercentiles 0.0 -> min, 100.0 -> max, others pNN;
rawData: every iteration of every fork is a sample; rawDataHistogram: [value,
count] pairs are weighted samples.  scoreUnit: ops/TIME, TIME/op."""
import json
import math
import re
from _facts import series, result, text, TIME, pct_name

MODES = {"thrpt": "throughput", "avgt": "avg_time", "sample": "sample_time", "ss": "single_shot_time"}


def unit_of(u):
    m = re.fullmatch(r"ops/(ns|us|ms|s|min)", u)
    if m:
        return "ops/s", "higher", 1.0 / TIME[m.group(1)]
    m = re.fullmatch(r"(ns|us|ms|s|min)/op", u)
    if m:
        return "s", "lower", TIME[m.group(1)]
    if u == "B/op":
        return "B/op", "lower", 1.0
    return u, "none", 1.0


def metric(bench, name, m, dims):
    unit, direction, k = unit_of(m["scoreUnit"])
    st = {}
    if m.get("score") is not None:
        st["mean"] = float(m["score"]) * k
    err = m.get("scoreError")
    if err is not None and not (isinstance(err, float) and math.isnan(err)) and err != "NaN":
        st["mean_error"] = float(err) * k
    conf = m.get("scoreConfidence")
    if conf and not any(isinstance(c, str) or math.isnan(c) for c in conf):
        st["mean_ci_low"], st["mean_ci_high"] = conf[0] * k, conf[1] * k
    for p, v in (m.get("scorePercentiles") or {}).items():
        pn = {0.0: "min", 100.0: "max"}.get(float(p)) or pct_name(p)
        st[pn] = float(v) * k
    samples = []
    for fork in m.get("rawData") or []:
        samples.extend(float(x) * k for x in fork)
    for fork in m.get("rawDataHistogram") or []:
        for it in fork:
            for v, c in it:
                samples.append({"value": float(v) * k, "weight": float(c)})
    return series(bench, name, unit, direction, samples, st, dims)


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = []
    for b in doc:
        dims = {k: text(v) for k, v in (b.get("params") or {}).items()}
        out.append(metric(b["benchmark"], MODES[b["mode"]], b["primaryMetric"], dims))
        for name, m in (b.get("secondaryMetrics") or {}).items():
            out.append(metric(b["benchmark"], name, m, dims))
    return result(out)
