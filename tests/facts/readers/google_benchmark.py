"""Google Benchmark --benchmark_out_format=json.

benchmarks[]: iteration rows (one per repetition) give one sample each of
real_time and cpu_time (in the row's time_unit), iterations, and of every user
counter (bytes_per_second B/s, items_per_second items/s, others plain numbers);
aggregate rows (run_type aggregate, aggregate_name mean/median/stddev/cv/...)
give the statistics of the same series (cv is a fraction, aggregate_unit
percentage, not scaled); BigO rows give real/cpu coefficients (time unit of the
row) with dim big_o, RMS rows the cpu rms.  A row with error_occurred is a
failure of that benchmark and has no timing."""
import json
from _facts import series, result, TIME

FIXED = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
         "repetitions", "repetition_index", "threads", "iterations", "real_time", "cpu_time",
         "time_unit", "label", "error_occurred", "error_message", "aggregate_name",
         "aggregate_unit", "big_o", "cpu_coefficient", "real_coefficient", "rms"}
RATE_UNITS = {"bytes_per_second": ("B/s", "higher"), "items_per_second": ("items/s", "higher")}


class Builder:
    def __init__(self):
        self.order, self.by = [], {}

    def get(self, bench, metric, unit, direction, dims=None):
        k = (bench, tuple(sorted((dims or {}).items())), metric)
        if k not in self.by:
            self.by[k] = series(bench, metric, unit, direction, dims=dims)
            self.order.append(k)
        return self.by[k]

    def all(self):
        return [self.by[k] for k in self.order]


def counter_unit(name):
    return RATE_UNITS.get(name, ("count", "none"))


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    b = Builder()
    failures = []
    for row in doc.get("benchmarks", []):
        name = row.get("run_name", row["name"])
        if row.get("error_occurred"):
            failures.append({"benchmark": name, "dims": {}})
            continue
        rtype = row.get("run_type", "iteration")
        agg = row.get("aggregate_name")
        counters = [k for k, v in row.items() if k not in FIXED and isinstance(v, (int, float))
                    and not isinstance(v, bool)]
        if rtype == "aggregate" and agg == "BigO":
            scale = TIME[row.get("time_unit", "ns")]
            dims = {"big_o": row["big_o"]}
            b.get(name, "real_time_coefficient", "s", "lower", dims)["samples"].append(row["real_coefficient"] * scale)
            b.get(name, "cpu_time_coefficient", "s", "lower", dims)["samples"].append(row["cpu_coefficient"] * scale)
            continue
        if rtype == "aggregate" and agg == "RMS":
            # the RMS row follows its BigO row: same dim
            big = [k for k in b.order if k[0] == name and k[2] == "cpu_time_coefficient"]
            dims = dict(big[-1][1]) if big else {}
            b.get(name, "cpu_time_rms", "ratio", "none", dims)["samples"].append(float(row["rms"]))
            continue
        scale = TIME[row["time_unit"]]
        if rtype == "aggregate":
            pct = row.get("aggregate_unit") == "percentage"
            f = 1.0 if pct else scale
            b.get(name, "real_time", "s", "lower")["stats"][agg] = float(row["real_time"]) * f
            b.get(name, "cpu_time", "s", "lower")["stats"][agg] = float(row["cpu_time"]) * f
            for c in counters:
                u, d = counter_unit(c)
                b.get(name, c, u, d)["stats"][agg] = float(row[c])
            continue
        b.get(name, "real_time", "s", "lower")["samples"].append(float(row["real_time"]) * scale)
        b.get(name, "cpu_time", "s", "lower")["samples"].append(float(row["cpu_time"]) * scale)
        b.get(name, "iterations", "count", "none")["samples"].append(float(row["iterations"]))
        for c in counters:
            u, d = counter_unit(c)
            b.get(name, c, u, d)["samples"].append(float(row[c]))
    return result(b.all(), failures)
