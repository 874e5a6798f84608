"""criterion.rs target/criterion tree: every BENCH/new/ holds benchmark.json
(group_id, function_id, value_str), sample.json (iters[], times[] in ns: one
sample per measurement, times[i]/iters[i]) and estimates.json (mean, median,
median_abs_dev, slope, std_dev: point_estimate, standard_error and the
confidence interval, ns).  benchmark = group_id[/function_id], dim param =
value_str; stats NAME, NAME_se, NAME_ci_low, NAME_ci_high with mad for
median_abs_dev and stddev for std_dev.  base/ and change/ are other runs."""
import json
import os
from _facts import series, result

EST = {"mean": "mean", "median": "median", "median_abs_dev": "mad", "slope": "slope", "std_dev": "stddev"}


def read_bench(newdir):
    with open(os.path.join(newdir, "benchmark.json"), encoding="utf-8") as f:
        b = json.load(f)
    with open(os.path.join(newdir, "sample.json"), encoding="utf-8") as f:
        s = json.load(f)
    with open(os.path.join(newdir, "estimates.json"), encoding="utf-8") as f:
        e = json.load(f)
    name = b["group_id"] + ("/" + b["function_id"] if b.get("function_id") else "")
    dims = {"param": b["value_str"]} if b.get("value_str") is not None else {}
    samples = [t / i * 1e-9 for t, i in zip(s["times"], s["iters"])]
    stats = {}
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
    return series(name, "time", "s", "lower", samples, stats, dims)


def read(path):
    out = []
    for root, dirs, files in sorted(os.walk(path)):
        dirs.sort()
        if os.path.basename(root) == "new" and "benchmark.json" in files:
            out.append(read_bench(root))
    return result(out)
