"""Independent reader: ApacheBench's text summary, from ab's own report layout.

"Key: value" lines (Server Hostname/Port, Document Path, Concurrency Level, Time taken
for tests N seconds, Complete requests, Failed requests, Non-2xx responses (printed
only when some), Total/HTML transferred N bytes, Requests per second N [#/sec] (mean),
Time per request N [ms] (mean) and (mean, across all concurrent requests), Transfer
rate N [Kbytes/sec] received), the "Connection Times (ms)" table (min mean[+/-sd]
median max) and "Percentage of the requests served within a certain time (ms)".
"""
import re
from _facts import load_failures

VALUES = [
    ("Time taken for tests", "seconds", "elapsed", "s", 1.0, "none"),
    ("Complete requests", "", "requests", "count", 1.0, "none"),
    ("Failed requests", "", "errors", "count", 1.0, "lower"),
    ("Non-2xx responses", "", "non_2xx", "count", 1.0, "lower"),
    ("Total transferred", "bytes", "bytes_read", "B", 1.0, "none"),
    ("HTML transferred", "bytes", "html_bytes", "B", 1.0, "none"),
    ("Requests per second", "[#/sec] (mean)", "throughput", "req/s", 1.0, "higher"),
    ("Time per request", "[ms] (mean)", "time_per_request", "s", 1e-3, "lower"),
    ("Time per request", "[ms] (mean, across all concurrent requests)", "time_per_request_all",
     "s", 1e-3, "lower"),
    ("Transfer rate", "[Kbytes/sec] received", "transfer", "B/s", 1024.0, "higher"),
]
TIMES = {"Connect": "connect", "Processing": "processing", "Waiting": "waiting", "Total": "latency"}


def read(path):
    info = {}
    values = []  # (metric, unit, direction, value)
    stats = {}   # metric -> {stat: value}
    section = None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            text = raw.strip()
            if not text:
                section = None
                continue
            if text == "Connection Times (ms)":
                section = "times"
                continue
            if text.startswith("Percentage of the requests served within a certain time"):
                section = "percent"
                continue
            if section == "times":
                key, _, rest = text.partition(":")
                if key in TIMES:
                    nums = [float(x) for x in rest.split()]
                    st = stats.setdefault(TIMES[key], {})
                    for name, v in zip(("min", "mean", "stddev", "median", "max"), nums):
                        st[name] = v / 1000.0
                continue
            if section == "percent":
                m = re.match(r"(\d+(?:\.\d+)?)%\s+(\d+(?:\.\d+)?)", text)
                name = "max" if float(m.group(1)) == 100 else "p" + m.group(1)
                stats.setdefault("latency", {})[name] = float(m.group(2)) / 1000.0
                continue
            key, sep, val = text.partition(":")
            if not sep:
                continue
            val = val.strip()
            info[key] = val
            for k, suffix, metric, unit, scale, direction in VALUES:
                if k != key:
                    continue
                num, _, after = val.partition(" ")
                if after.strip() != suffix:
                    continue
                v = float(num) / round(1 / scale) if scale < 1 else float(num) * scale
                values.append((metric, unit, direction, v))
                break
    scheme = "https" if "SSL/TLS Protocol" in info else "http"
    bench = "%s://%s:%s%s" % (scheme, info["Server Hostname"], info["Server Port"],
                              info["Document Path"])
    dims = {"concurrency": info["Concurrency Level"]}
    if not any(v[0] == "non_2xx" for v in values):
        values.append(("non_2xx", "count", "lower", 0.0))
    series = []
    for metric, unit, direction, v in values:
        series.append({"benchmark": bench, "dims": dims, "metric": metric, "unit": unit,
                       "direction": direction, "samples": [v], "stats": {}})
    for metric, st in stats.items():
        series.append({"benchmark": bench, "dims": dims, "metric": metric, "unit": "s",
                       "direction": "lower", "samples": [], "stats": st})
    return {"series": series, "failures": load_failures(series)}
