"""Independent reader: `perf stat -x,` CSV (-o FILE or stderr), from perf's own layout.

Rows: [INTERVAL-TIME,][CPUn,]VALUE,UNIT,EVENT,[NOISE%,]RUNTIME-NS,PERCENT-COUNTED,METRIC,METRIC-UNIT
(-I prints the time first, padded with blanks; -A prints CPUn; -r adds the noise
column); lines starting with '#' are comments. VALUE may be <not supported> or
<not counted>: no value.
"""
import re

_UNITS = {"msec": ("s", 1000.0, "lower"), "": ("count", 1.0, "none")}  # unit: divisor


def read(path):
    series = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split(",")
            interval = None
            if fields[0][:1].isspace():
                interval = float(fields[0])
                fields = fields[1:]
            cpu = None
            if re.fullmatch(r"CPU\d+", fields[0]):
                cpu = fields[0][3:]
                fields = fields[1:]
            value, unit, event = fields[0], fields[1], fields[2]
            rest = fields[3:]
            noise = None
            if rest and rest[0].endswith("%"):
                noise = float(rest[0][:-1])
                rest = rest[1:]
            runtime_ns, pct = float(rest[0]), float(rest[1])
            if value in ("<not supported>", "<not counted>"):
                continue
            canon, div, direction = _UNITS.get(unit, (unit, 1.0, "none"))
            dims = {"cpu": cpu} if cpu is not None else {}
            key = (event, cpu)
            s = series.setdefault(key, {
                "benchmark": "perf-stat", "dims": dims, "metric": event, "unit": canon,
                "direction": direction, "samples": [], "stats": {}})
            v = float(value) / div
            if interval is not None:
                s["samples"].append({"value": v, "t": interval})
                continue
            s["samples"].append(v)
            if noise is not None:
                s["stats"]["variance"] = noise
            s["stats"]["runtime"] = runtime_ns / 1e9
            s["stats"]["measured_pct"] = pct
    return {"series": list(series.values()), "failures": []}
