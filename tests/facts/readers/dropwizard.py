"""Dropwizard / Codahale metrics JSON (MetricsServlet, JSON reporter):
gauges{NAME: {value}} -> value; counters{NAME: {count}} -> count;
histograms -> count, and value with stats min/max/mean/stddev/p50..p999 (p999
is the 99.9th percentile); meters -> count, and rate in "units" (X/second)
with stats mean (mean_rate), m1_rate, m5_rate, m15_rate; timers -> count,
duration in duration_units (min/max/mean/stddev/percentiles) and rate in
rate_units."""
import json
import re
from _facts import series, result

DUR = {"seconds": 1.0, "milliseconds": 1e-3, "microseconds": 1e-6, "nanoseconds": 1e-9,
       "minutes": 60.0, "hours": 3600.0, "days": 86400.0}
PER = {"second": 1.0, "millisecond": 1e3, "microsecond": 1e6, "nanosecond": 1e9,
       "minute": 1 / 60.0, "hour": 1 / 3600.0, "day": 1 / 86400.0}
SNAP = {"min": "min", "max": "max", "mean": "mean", "stddev": "stddev", "p50": "p50", "p75": "p75",
        "p95": "p95", "p98": "p98", "p99": "p99", "p999": "p99.9"}


def rate_unit(u):
    m = re.fullmatch(r"(\w+)/(\w+)", u)
    return m.group(1) + "/s", PER[m.group(2)]


def snap(m, k):
    return {v: float(m[s]) * k for s, v in SNAP.items() if m.get(s) is not None}


def rates(m, k):
    st = {"mean": float(m["mean_rate"]) * k}
    for r in ("m1_rate", "m5_rate", "m15_rate"):
        if r in m:
            st[r] = float(m[r]) * k
    return st


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = []
    for name, g in (doc.get("gauges") or {}).items():
        if isinstance(g.get("value"), (int, float)) and not isinstance(g.get("value"), bool):
            out.append(series(name, "value", "count", "none", [float(g["value"])]))
    for name, c in (doc.get("counters") or {}).items():
        out.append(series(name, "count", "count", "none", [float(c["count"])]))
    for name, h in (doc.get("histograms") or {}).items():
        out.append(series(name, "count", "count", "none", [float(h["count"])]))
        out.append(series(name, "value", "count", "none", [], snap(h, 1.0)))
    for name, m in (doc.get("meters") or {}).items():
        out.append(series(name, "count", "count", "none", [float(m["count"])]))
        unit, k = rate_unit(m.get("units", "events/second"))
        out.append(series(name, "rate", unit, "higher", [], rates(m, k)))
    for name, t in (doc.get("timers") or {}).items():
        out.append(series(name, "count", "count", "none", [float(t["count"])]))
        out.append(series(name, "duration", "s", "lower", [], snap(t, DUR[t.get("duration_units", "seconds")])))
        unit, k = rate_unit(t.get("rate_units", "calls/second"))
        out.append(series(name, "rate", unit, "higher", [], rates(t, k)))
    return result(out)
