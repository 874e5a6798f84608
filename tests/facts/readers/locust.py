"""Locust --csv PREFIX files, recognised by their header.

PREFIX_stats.csv: Type,Name,Request Count,Failure Count,Median/Average/Min/Max
Response Time (ms),Average Content Size,Requests/s,Failures/s,50%...100% ->
per request (benchmark Name, dim type = Type unless empty as on the Aggregated
row): requests, failures, response_time (s: median, mean, min, max, pNN),
content_size (B), throughput (req/s), failure_rate (failures/s).
PREFIX_stats_history.csv: one row per request and second (t = Timestamp minus
the file's first): users, current_rps, current_failure_rate, response_time_pNN,
total_requests, total_failures, total_response_time_{median,mean,min,max},
total_content_size; "N/A" is no value.
PREFIX_failures.csv: Method,Name,Error,Occurrences -> errors with dims type
and error."""
import csv
from _facts import series, result, pct_name


def num(v):
    return None if v in ("", "N/A") else float(v)


class Builder:
    def __init__(self):
        self.order, self.by = [], {}

    def add(self, bench, dims, metric, unit, direction, sample=None, stats=None):
        k = (bench, tuple(sorted(dims.items())), metric)
        if k not in self.by:
            self.by[k] = series(bench, metric, unit, direction, [], {}, dims)
            self.order.append(k)
        if sample is not None:
            self.by[k]["samples"].append(sample)
        if stats:
            self.by[k]["stats"].update(stats)

    def all(self):
        return [self.by[k] for k in self.order]


def pcts(header):
    return [h for h in header if h.endswith("%") and h[:-1].replace(".", "").isdigit()]


def stats_file(rows, b):
    for row in rows:
        dims = {"type": row["Type"]} if row.get("Type") else {}
        name = row["Name"]
        b.add(name, dims, "requests", "count", "none", float(row["Request Count"]))
        b.add(name, dims, "failures", "count", "lower", float(row["Failure Count"]))
        st = {}
        for col, s in (("Median Response Time", "median"), ("Average Response Time", "mean"),
                       ("Min Response Time", "min"), ("Max Response Time", "max")):
            if num(row.get(col)) is not None:
                st[s] = num(row[col]) * 1e-3
        for p in pcts(row.keys()):
            if num(row[p]) is not None:
                st[pct_name(p[:-1])] = num(row[p]) * 1e-3
        b.add(name, dims, "response_time", "s", "lower", None, st)
        b.add(name, dims, "content_size", "B", "none", float(row["Average Content Size"]))
        b.add(name, dims, "throughput", "req/s", "higher", float(row["Requests/s"]))
        b.add(name, dims, "failure_rate", "failures/s", "lower", float(row["Failures/s"]))


def history_file(rows, b):
    t0 = None
    for row in rows:
        ts = float(row["Timestamp"])
        t0 = ts if t0 is None else t0
        t = ts - t0
        dims = {"type": row["Type"]} if row.get("Type") else {}
        name = row["Name"]

        def add(metric, unit, direction, v, k=1.0):
            if num(v) is not None:
                b.add(name, dims, metric, unit, direction, {"value": num(v) * k, "t": t})
        add("users", "count", "none", row["User Count"])
        add("current_rps", "req/s", "higher", row["Requests/s"])
        add("current_failure_rate", "failures/s", "lower", row["Failures/s"])
        for p in pcts(row.keys()):
            add("response_time_" + pct_name(p[:-1]), "s", "lower", row[p], 1e-3)
        add("total_requests", "count", "none", row["Total Request Count"])
        add("total_failures", "count", "lower", row["Total Failure Count"])
        for col, s in (("Total Median Response Time", "median"), ("Total Average Response Time", "mean"),
                       ("Total Min Response Time", "min"), ("Total Max Response Time", "max")):
            add("total_response_time_" + s, "s", "lower", row[col], 1e-3)
        add("total_content_size", "B", "none", row["Total Average Content Size"])


def failures_file(rows, b):
    for row in rows:
        dims = {"type": row["Method"], "error": row["Error"]}
        b.add(row["Name"], dims, "errors", "count", "lower", float(row["Occurrences"]))


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    b = Builder()
    if rows and "Timestamp" in rows[0]:
        history_file(rows, b)
    elif rows and "Occurrences" in rows[0]:
        failures_file(rows, b)
    elif rows and "Request Count" in rows[0]:
        stats_file(rows, b)
    return result(b.all())
