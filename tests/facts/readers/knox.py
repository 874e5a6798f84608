"""Apache Knox gateway performance-test reports (JSON or YAML), a folder of
REPORT.yyyy-MM-dd-HH-mm-ss.{json,yaml}: each report is cumulative, so the
newest snapshot of each report is the run.

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


def timers(doc, out):
    for key, t in doc.items():
        name = bean_name(key)
        out.append(series(name, "count", "count", "none", [float(t["Count"])]))
        if not t.get("Count"):
            continue
        k = DUR[t.get("DurationUnit", "milliseconds")]
        st = {"min": fnum(t["Min"]) * k, "max": fnum(t["Max"]) * k, "mean": fnum(t["Mean"]) * k,
              "stddev": fnum(t["StdDev"]) * k}
        for p, s in PCT.items():
            if p in t:
                st[s] = fnum(t[p]) * k
        out.append(series(name, "duration", "s", "lower", [], st))
        unit = t.get("RateUnit", "events/second").replace("/second", "/s")
        out.append(series(name, "rate", unit, "higher", [], {
            "mean": fnum(t["MeanRate"]), "m1_rate": fnum(t["OneMinuteRate"]),
            "m5_rate": fnum(t["FiveMinuteRate"]), "m15_rate": fnum(t["FifteenMinuteRate"])}))


def gauges(doc, out):
    for key, g in doc.items():
        name = bean_name(key)
        unit = "count" if name == "heap.usage" else "B"
        out.append(series("gauges", name, unit, "none", [float(g["Value"])]))


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


READERS = {"responseTimes": response_times, "timers": timers, "heapGauges": gauges,
           "tokenStateStatistics": token_stats}


def read(path):
    files = [os.path.join(path, f) for f in os.listdir(path)] if os.path.isdir(path) else [path]
    newest = {}
    for f in sorted(files):
        m = re.match(r"(\w+)\.(\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)\.(json|ya?ml)$", os.path.basename(f))
        if m and m.group(1) in READERS:
            if m.group(1) not in newest or m.group(2) > newest[m.group(1)][0]:
                newest[m.group(1)] = (m.group(2), f)
    out = []
    for report, (_, f) in sorted(newest.items()):
        READERS[report](load(f) or {}, out)
    return result(out)
