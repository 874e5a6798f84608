"""OpenMessaging Benchmark result JSON.

Per-period lists (one value every 10 s, t = 10*i): publishRate, consumeRate
(msg/s), backlog (messages), publishLatency{Avg,50pct,...,Max},
endToEndLatency{...} (ms), publishDelayLatency{...} (µs) -> METRIC_{mean,p50,
p75,p95,p99,p99.9,p99.99,max}.  aggregatedXxxLatency{Avg,NNpct,Max} are the
stats of METRIC, and aggregatedXxxLatencyQuantiles {cumulative percent:
latency} its weighted samples (weight = the fraction of values up to that
latency, i.e. the percent added by the entry / 100), in ascending order."""
import json
from _facts import series, result

LAT = {"publishLatency": ("publish_latency", 1e-3), "endToEndLatency": ("end_to_end_latency", 1e-3),
       "publishDelayLatency": ("publish_delay_latency", 1e-6)}
SUFFIX = {"Avg": "mean", "50pct": "p50", "75pct": "p75", "95pct": "p95", "99pct": "p99",
          "999pct": "p99.9", "9999pct": "p99.99", "Max": "max"}


def ts(values, k=1.0):
    return [{"value": float(v) * k, "t": 10.0 * i} for i, v in enumerate(values)]


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    bench = doc.get("workload") or "omb"
    out = []
    for key, metric, unit, direction in (("publishRate", "publish_rate", "msg/s", "higher"),
                                         ("consumeRate", "consume_rate", "msg/s", "higher"),
                                         ("backlog", "backlog", "count", "none")):
        if isinstance(doc.get(key), list):
            out.append(series(bench, metric, unit, direction, ts(doc[key])))
    for key, (metric, k) in LAT.items():
        for suf, st in SUFFIX.items():
            v = doc.get(key + suf)
            if isinstance(v, list):
                out.append(series(bench, metric + "_" + st, "s", "lower", ts(v, k)))
        agg = "aggregated" + key[0].upper() + key[1:]
        stats = {st: float(doc[agg + suf]) * k for suf, st in SUFFIX.items()
                 if isinstance(doc.get(agg + suf), (int, float))}
        q = doc.get(agg + "Quantiles") or {}
        samples, prev = [], 0.0
        for p, v in sorted(((float(p), v) for p, v in q.items())):
            samples.append({"value": float(v) * k, "weight": (p - prev) / 100.0})
            prev = p
        if stats or samples:
            out.append(series(bench, metric, "s", "lower", samples, stats))
    return result(out)
