"""perfdb's canonical JSON (perfdb show RUN --format json): it is already the
model; every result is one series, failures as given."""
import json
from _facts import result


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    series = [{"benchmark": r["benchmark"], "dims": r.get("dims") or {}, "metric": r["metric"],
               "unit": r["unit"], "direction": r["direction"], "samples": r.get("samples") or [],
               "stats": r.get("stats") or {}} for r in doc.get("results", [])]
    return result(series, doc.get("failures") or [])
