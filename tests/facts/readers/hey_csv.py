"""Independent reader: hey -o csv, one row per completed request.

Columns: response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,
status-code,offset (times in seconds; offset from the start of the run).
"""
import csv

BENCH = "hey"
COLUMNS = {"response-time": "latency", "DNS+dialup": "dns_dialup", "DNS": "dns_lookup",
           "Request-write": "request_write", "Response-delay": "response_wait",
           "Response-read": "response_read"}


def read(path):
    out = {}
    requests = non_2xx = 0
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            t = float(row["offset"])
            for col, metric in COLUMNS.items():
                if col in row:
                    s = out.setdefault(metric, {"benchmark": BENCH, "dims": {}, "metric": metric,
                                                "unit": "s", "direction": "lower",
                                                "samples": [], "stats": {}})
                    s["samples"].append({"value": float(row[col]), "t": t})
            requests += 1
            if not 200 <= int(row["status-code"]) <= 299:
                non_2xx += 1
    for metric, v in (("requests", requests), ("non_2xx", non_2xx)):
        out[metric] = {"benchmark": BENCH, "dims": {}, "metric": metric, "unit": "count",
                       "direction": "lower" if metric == "non_2xx" else "none",
                       "samples": [float(v)], "stats": {}}
    return {"series": list(out.values()), "failures": []}
