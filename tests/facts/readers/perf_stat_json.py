"""Independent reader: `perf stat -j` (-o FILE or stderr), from perf's own layout.

One JSON object a line, one per counter: "counter-value" (a string: the count, or
<not supported> / <not counted>: no value), "unit" ("msec", or "" for a count),
"event", "event-runtime" (ns), "pcnt-running" (%), "metric-value" and "metric-unit";
-r adds "variance" (the ± of the mean, %), -I "interval" (s), -A "cpu". Lines starting
with '#' are comments ("# started on ..." with -o). The series are those of the -x,
CSV (perf_stat.py): benchmark perf-stat, metric = event, msec as s.
"""
import json

_UNITS = {"msec": ("s", 1000.0, "lower"), "": ("count", 1.0, "none")}


def read(path):
    series = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            o = json.loads(line)
            value = o["counter-value"]
            if value in ("<not supported>", "<not counted>"):
                continue
            event, cpu = o["event"], o.get("cpu")
            canon, div, direction = _UNITS.get(o["unit"], (o["unit"], 1.0, "none"))
            s = series.setdefault((event, cpu), {
                "benchmark": "perf-stat", "dims": {"cpu": cpu} if cpu is not None else {},
                "metric": event, "unit": canon, "direction": direction,
                "samples": [], "stats": {}})
            v = float(value) / div
            if "interval" in o:
                s["samples"].append({"value": v, "t": float(o["interval"])})
                continue
            s["samples"].append(v)
            if "variance" in o:
                s["stats"]["variance"] = float(o["variance"])
            s["stats"]["runtime"] = float(o["event-runtime"]) / 1e9
            s["stats"]["measured_pct"] = float(o["pcnt-running"])
    return {"series": list(series.values()), "failures": []}
