"""Independent reader: siege --log=FILE, one CSV row per siege run (appended).

Header "Date & Time, Trans, Elap Time, Data Trans, Resp Time, Trans Rate, Throughput,
Concurrent, OKAY, Failed" (blank-padded); "**** MARK ****" lines from -m; Data Trans
and Throughput in MiB, times in seconds; "-nan" when nothing was measured.
"""
import math
from datetime import datetime

MIB = 1048576.0
COLUMNS = {"Trans": ("transactions", "count", 1.0, "none"),
           "Elap Time": ("elapsed", "s", 1.0, "none"),
           "Data Trans": ("bytes_read", "B", MIB, "none"),
           "Resp Time": ("latency", "s", 1.0, "lower"),
           "Trans Rate": ("throughput", "trans/s", 1.0, "higher"),
           "Throughput": ("transfer", "B/s", MIB, "higher"),
           "Concurrent": ("concurrency", "count", 1.0, "none"),
           "OKAY": ("successful", "count", 1.0, "none"),
           "Failed": ("errors", "count", 1.0, "lower")}


def read(path):
    header = None
    t0 = None
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("****"):
                continue
            cells = [c.strip() for c in line.split(",")]
            if header is None or cells[0] == "Date & Time":
                header = cells
                continue
            when = datetime.strptime(cells[0], "%Y-%m-%d %H:%M:%S")
            t0 = t0 or when
            for name, cell in zip(header[1:], cells[1:]):
                if name not in COLUMNS:
                    continue
                v = float(cell)
                if math.isnan(v):
                    continue
                metric, unit, scale, direction = COLUMNS[name]
                s = out.setdefault(metric, {"benchmark": "siege", "dims": {}, "metric": metric,
                                            "unit": unit, "direction": direction,
                                            "samples": [], "stats": {}})
                s["samples"].append({"value": v * scale, "t": (when - t0).total_seconds()})
    return {"series": list(out.values()), "failures": []}
