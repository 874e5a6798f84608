"""Independent reader: siege's end-of-run summary, JSON (json_output = true, Debian's
default; siege may print its "LOG FILE:" notice after the object) or text
("Transactions: N hits", ...). Siege's MB are MiB; times are seconds. With no
transaction at all its response times are 0.00 and measure nothing.
"""
import json
from _facts import load_failures

MIB = 1048576.0
# JSON key, text label, metric, stat (None: a sample), unit, scale, direction
FIELDS = [
    ("transactions", "Transactions", "transactions", None, "count", 1.0, "none"),
    ("availability", "Availability", "availability", None, "%", 1.0, "higher"),
    ("elapsed_time", "Elapsed time", "elapsed", None, "s", 1.0, "none"),
    ("data_transferred", "Data transferred", "bytes_read", None, "B", MIB, "none"),
    ("response_time", "Response time", "latency", "mean", "s", 1.0, "lower"),
    ("transaction_rate", "Transaction rate", "throughput", None, "trans/s", 1.0, "higher"),
    ("throughput", "Throughput", "transfer", None, "B/s", MIB, "higher"),
    ("concurrency", "Concurrency", "concurrency", None, "count", 1.0, "none"),
    ("successful_transactions", "Successful transactions", "successful", None, "count", 1.0, "none"),
    ("failed_transactions", "Failed transactions", "errors", None, "count", 1.0, "lower"),
    ("longest_transaction", "Longest transaction", "latency", "max", "s", 1.0, "lower"),
    ("shortest_transaction", "Shortest transaction", "latency", "min", "s", 1.0, "lower"),
]


def read(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    values = {}
    start = next((i for i, l in enumerate(text.splitlines(True)) if l.startswith("{")), None)
    if start is not None:
        body = "".join(text.splitlines(True)[start:])
        obj, _ = json.JSONDecoder().raw_decode(body)
        for key, _l, *_ in FIELDS:
            if key in obj:
                values[key] = float(obj[key])
    else:
        for line in text.splitlines():
            label, sep, rest = line.partition(":")
            for key, lab, *_ in FIELDS:
                if sep and label == lab:
                    values[key] = float(rest.split()[0])
    none = values.get("transactions") == 0
    out = {}
    for key, _l, metric, stat, unit, scale, direction in FIELDS:
        if key not in values or (none and stat):
            continue
        s = out.setdefault(metric, {"benchmark": "siege", "dims": {}, "metric": metric,
                                    "unit": unit, "direction": direction,
                                    "samples": [], "stats": {}})
        if stat:
            s["stats"][stat] = values[key] * scale
        else:
            s["samples"].append(values[key] * scale)
    return {"series": list(out.values()), "failures": load_failures(list(out.values()))}
