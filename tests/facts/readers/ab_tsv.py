"""Independent reader: ab -g FILE (gnuplot TSV), one row per request.

Columns: starttime (text), seconds (epoch start of the request), ctime (connect),
dtime (processing), ttime (total), wait (waiting), all times in ms.
"""
import csv

COLUMNS = {"ctime": "connect", "dtime": "processing", "wait": "waiting", "ttime": "latency"}


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    t0 = min(int(r["seconds"]) for r in rows)
    series = []
    for col, metric in COLUMNS.items():
        series.append({"benchmark": "ab", "dims": {}, "metric": metric, "unit": "s",
                       "direction": "lower",
                       "samples": [{"value": float(r[col]) / 1000.0,
                                    "t": float(int(r["seconds"]) - t0)} for r in rows],
                       "stats": {}})
    return {"series": series, "failures": []}
