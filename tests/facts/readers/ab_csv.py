"""Independent reader: ab -e FILE, "Percentage served,Time in ms" with rows 0..100."""
import csv


def read(path):
    stats = {}
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        next(rows)
        for pct, ms in rows:
            name = {"0": "min", "100": "max"}.get(pct, "p" + pct)
            stats[name] = float(ms) / 1000.0
    return {"series": [{"benchmark": "ab", "dims": {}, "metric": "latency", "unit": "s",
                        "direction": "lower", "samples": [], "stats": stats}],
            "failures": []}
