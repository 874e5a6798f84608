"""Apache Knox gateway performance-test reports (JSON or YAML), a folder of
REPORT.yyyy-MM-dd-HH-mm-ss.{json,yaml}: each report is cumulative, so the
newest snapshot of each report is the run, except for what varies over the
periods: the gauges (a value a snapshot) and the timers' rates (a snapshot's
rate is its Count's growth since the snapshot before, per second; the first
snapshot's the meter's MeanRate), at t = seconds since the folder's first
snapshot (by the times in the names); a timer's count carries its snapshot's t.

responseTimes {NAME: {_data (ms), mode, min, max, mean, geometricMean}}: latency
(s), _data as samples, min/max/mean/geometric_mean as stats; an empty _data
(NaN statistics) is no measurement.  timers {"metrics:name=N,type=timers":
{Count, Min, Max, Mean, StdDev, NNthPercentile, MeanRate, OneMinuteRate, ...,
DurationUnit, RateUnit}}: benchmark N, count; duration (p50...p99.9) and rate
(mean, m1_rate, m5_rate, m15_rate) unless the timer never ran (Count 0: its
zeros are Dropwizard's empty snapshot, not measurements).  heapGauges
{"metrics:name=heap.X,type=gauges": {Value}}: benchmark gauges, metric heap.X
(bytes; heap.usage is a fraction).  tokenStateStatistics
{"metrics:name=TokenStateService,...": {...}}: benchmark TokenStateService,
nested keys joined with "."; GatewayCredentialsFileSize is a file size in bytes."""
import calendar
import json
import math
import os
import re
import yaml
from _facts import series, result

DUR = {"milliseconds": 1e-3, "seconds": 1.0, "microseconds": 1e-6, "nanoseconds": 1e-9}
PCT = {"50thPercentile": "p50", "75thPercentile": "p75", "95thPercentile": "p95",
       "98thPercentile": "p98", "99thPercentile": "p99", "999thPercentile": "p99.9"}


def load(path):
    with open(path, encoding="utf-8") as f:
        if path.endswith((".yaml", ".yml")):
            return yaml.safe_load(f)
        return json.load(f)


def fnum(v):
    return float(v)  # "NaN" (YAML 1.1 reads it as a string) gives nan too


def bean_name(key):
    m = re.search(r"name=([^,]*)", key)
    return m.group(1) if m else key


def response_times(doc, out):
    for name, r in doc.items():
        data = r.get("_data") or []
        if not data:
            continue
        st = {}
        for k, s in (("min", "min"), ("max", "max"), ("mean", "mean"), ("geometricMean", "geometric_mean")):
            if r.get(k) is not None and not math.isnan(fnum(r[k])):
                st[s] = fnum(r[k]) * 1e-3
        out.append(series(name, "latency", "s", "lower", [float(x) * 1e-3 for x in data], st))


def timers(snaps, out):
    doc, when = snaps[-1]
    for key, t in doc.items():
        name = bean_name(key)
        out.append(series(name, "count", "count", "none", [{"value": float(t["Count"]), "t": when}]))
        if not t.get("Count"):
            continue
        rates, prev = [], None
        for d, at in snaps:
            b = d.get(key)
            if b is None:
                continue
            if prev is None:
                rates.append({"value": fnum(b["MeanRate"]), "t": at})
            else:
                rates.append({"value": (float(b["Count"]) - prev[0]) / (at - prev[1]), "t": at})
            prev = (float(b["Count"]), at)
        k = DUR[t.get("DurationUnit", "milliseconds")]
        st = {"min": fnum(t["Min"]) * k, "max": fnum(t["Max"]) * k, "mean": fnum(t["Mean"]) * k,
              "stddev": fnum(t["StdDev"]) * k}
        for p, s in PCT.items():
            if p in t:
                st[s] = fnum(t[p]) * k
        out.append(series(name, "duration", "s", "lower", [], st))
        unit = t.get("RateUnit", "events/second").replace("/second", "/s")
        out.append(series(name, "rate", unit, "higher", rates, {
            "mean": fnum(t["MeanRate"]), "m1_rate": fnum(t["OneMinuteRate"]),
            "m5_rate": fnum(t["FiveMinuteRate"]), "m15_rate": fnum(t["FifteenMinuteRate"])}))


def gauges(snaps, out):
    for key in snaps[-1][0]:
        name = bean_name(key)
        unit = "count" if name == "heap.usage" else "B"
        values = [{"value": float(d[key]["Value"]), "t": at} for d, at in snaps if key in d]
        out.append(series("gauges", name, unit, "none", values))


def newest(fn):
    return lambda snaps, out: fn(snaps[-1][0], out)


def token_stats(doc, out):
    for key, s in doc.items():
        bench = bean_name(key)

        def walk(prefix, v):
            if isinstance(v, dict):
                for k2, v2 in v.items():
                    walk(prefix + "." + k2 if prefix else k2, v2)
            else:
                unit = "B" if prefix == "GatewayCredentialsFileSize" else "count"
                out.append(series(bench, prefix, unit, "none", [float(v)]))
        walk("", s)


READERS = {"responseTimes": newest(response_times), "timers": timers, "heapGauges": gauges,
           "tokenStateStatistics": newest(token_stats)}


def seconds(stamp):
    return calendar.timegm(tuple(int(x) for x in stamp.split("-")) + (0, 0, 0))


def read(path):
    files = [os.path.join(path, f) for f in os.listdir(path)] if os.path.isdir(path) else [path]
    snaps, first = {}, None
    for f in sorted(files):
        m = re.match(r"(\w+)\.(\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)\.(json|ya?ml)$", os.path.basename(f))
        if m and m.group(1) in READERS:
            at = seconds(m.group(2))
            first = at if first is None else min(first, at)
            snaps.setdefault(m.group(1), []).append((at, f))
    out = []
    for report, found in sorted(snaps.items()):
        READERS[report]([(load(f) or {}, at - first) for at, f in sorted(found)], out)
    return result(out)
