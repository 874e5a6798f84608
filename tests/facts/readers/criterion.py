"""criterion.rs target/criterion tree: every BENCH/new/ holds benchmark.json
(group_id, function_id, value_str), sample.json (iters[], times[] in ns: one
sample per measurement, times[i]/iters[i]) and estimates.json (mean, median,
median_abs_dev, slope, std_dev: point_estimate, standard_error and the
confidence interval, ns).  benchmark = group_id[/function_id], dim param =
value_str; stats NAME, NAME_se, NAME_ci_low, NAME_ci_high with mad for
median_abs_dev and stddev for std_dev.  base/ and change/ are other runs.  A single file can be read too: sample.json
(the samples) or estimates.json (the stats), named by the benchmark.json beside
it, or raw.csv (group,function,value,...,sample_measured_value,unit,
iteration_count: one sample per row, measured value / iteration count)."""
import csv
import json
import os
from _facts import series, result

EST = {"mean": "mean", "median": "median", "median_abs_dev": "mad", "slope": "slope", "std_dev": "stddev"}


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def naming(group, function, value):
    name = group + ("/" + function if function else "")
    return name, ({"param": value} if value not in (None, "") else {})


def read_bench(newdir, parts=("sample", "estimates")):
    b = load(os.path.join(newdir, "benchmark.json"))
    name, dims = naming(b["group_id"], b.get("function_id"), b.get("value_str"))
    samples, stats = [], {}
    if "sample" in parts:
        s = load(os.path.join(newdir, "sample.json"))
        samples = [t / i * 1e-9 for t, i in zip(s["times"], s["iters"])]
    if "estimates" in parts:
        estimates(load(os.path.join(newdir, "estimates.json")), stats)
    return series(name, "time", "s", "lower", samples, stats, dims)


UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def read_raw(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    name, dims = naming(rows[0]["group"], rows[0]["function"], rows[0]["value"])
    samples = [float(r["sample_measured_value"]) / float(r["iteration_count"]) * UNITS[r["unit"]] for r in rows]
    return series(name, "time", "s", "lower", samples, {}, dims)


def estimates(e, stats):
    for key, st in EST.items():
        est = e.get(key)
        if not est:
            continue
        stats[st] = est["point_estimate"] * 1e-9
        stats[st + "_se"] = est["standard_error"] * 1e-9
        ci = est.get("confidence_interval") or {}
        if "lower_bound" in ci:
            stats[st + "_ci_low"] = ci["lower_bound"] * 1e-9
            stats[st + "_ci_high"] = ci["upper_bound"] * 1e-9


def read(path):
    base = os.path.basename(path)
    if os.path.isfile(path):
        if base == "raw.csv":
            return result([read_raw(path)])
        return result([read_bench(os.path.dirname(path), (base[:-5],))])
    out = []
    for root, dirs, files in sorted(os.walk(path)):
        dirs.sort()
        if os.path.basename(root) == "new" and "benchmark.json" in files:
            out.append(read_bench(root))
    return result(out)
