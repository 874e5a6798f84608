"""Google Benchmark --benchmark_out_format=csv (deprecated): the console
preamble, then a header name,iterations,real_time,cpu_time,time_unit,
bytes_per_second,items_per_second,label,error_occurred,error_message,COUNTERS...

Rows NAME are repetitions; NAME_mean/_median/_stddev/_cv are aggregates (their
iterations column is the repetition count).  The CSV reporter scales the cv of
the time columns by the time unit and the repetition count (a reporter bug:
1.7.1 prints 1.1e7 for a cv of 0.022), so those two cv values are not facts of
the measurement: the cv is the stddev over the mean, as Google Benchmark
computes it and the JSON gives it; the counters' cv is plain.  NAME_BigO rows
carry the big-O name in the time_unit column and coefficients in ns; NAME_RMS
rows the real and cpu rms."""
import csv
from _facts import result, TIME
from google_benchmark import Builder, counter_unit

STD = ["name", "iterations", "real_time", "cpu_time", "time_unit", "bytes_per_second",
       "items_per_second", "label", "error_occurred", "error_message"]


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        lines = f.read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("name,iterations,"))
    rows = list(csv.reader(lines[start:]))
    header = rows[0]
    extra = [h for h in header if h not in STD]
    counters = ["bytes_per_second", "items_per_second"] + extra
    b = Builder()
    failures = []
    seen = set()
    for r in rows[1:]:
        if not r:
            continue
        row = dict(zip(header, r))
        name = row["name"]
        if row.get("error_occurred", "") == "true":
            failures.append({"benchmark": name, "dims": {}})
            continue
        if name.endswith("_BigO"):
            base = name[:-5]
            dims = {"big_o": row["time_unit"]}
            b.get(base, "real_time_coefficient", "s", "lower", dims)["samples"].append(float(row["real_time"]) * 1e-9)
            b.get(base, "cpu_time_coefficient", "s", "lower", dims)["samples"].append(float(row["cpu_time"]) * 1e-9)
            continue
        if name.endswith("_RMS"):
            base = name[:-4]
            big = [k for k in b.order if k[0] == base and k[2] == "cpu_time_coefficient"]
            dims = dict(big[-1][1]) if big else {}
            b.get(base, "real_time_rms", "ratio", "none", dims)["samples"].append(float(row["real_time"]))
            b.get(base, "cpu_time_rms", "ratio", "none", dims)["samples"].append(float(row["cpu_time"]))
            continue
        agg = None
        if name not in seen and "_" in name and name.rsplit("_", 1)[0] in seen:
            name, agg = name.rsplit("_", 1)
        scale = TIME[row["time_unit"]]
        if agg is not None:
            for t in ("real_time", "cpu_time"):
                stats = b.get(name, t, "s", "lower")["stats"]
                if agg != "cv":
                    stats[agg] = float(row[t]) * scale
                elif stats.get("mean"):
                    stats["cv"] = stats["stddev"] / stats["mean"]
            for c in counters:
                if row.get(c, "") != "":
                    u, d = counter_unit(c)
                    b.get(name, c, u, d)["stats"][agg] = float(row[c])
            continue
        seen.add(name)
        b.get(name, "iterations", "count", "none")["samples"].append(float(row["iterations"]))
        b.get(name, "real_time", "s", "lower")["samples"].append(float(row["real_time"]) * scale)
        b.get(name, "cpu_time", "s", "lower")["samples"].append(float(row["cpu_time"]) * scale)
        for c in counters:
            if row.get(c, "") != "":
                u, d = counter_unit(c)
                b.get(name, c, u, d)["samples"].append(float(row[c]))
    return result(b.all(), failures)
