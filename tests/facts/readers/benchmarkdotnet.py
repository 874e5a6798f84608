"""BenchmarkDotNet JSON exporter (full or brief): Benchmarks[] with FullName
(or Namespace.Type.Method), Parameters ("a=1&b=x" -> dims), Statistics in ns
(Min Max Mean Median Q1 Q3 LowerFence UpperFence InterquartileRange
StandardError StandardDeviation Variance (ns^2) Skewness Kurtosis (no unit),
ConfidenceInterval Margin/Lower/Upper, Percentiles P0..P100), Measurements
(Workload/Result: Nanoseconds / Operations per op are the samples), Memory
(BytesAllocatedPerOperation, GenNCollections, TotalOperations) and Metrics
(Descriptor Id, Unit, TheGreaterTheBetter)."""
import json
from _facts import series, result

STATS = {"Min": "min", "Max": "max", "Mean": "mean", "Median": "median", "Q1": "q1", "Q3": "q3",
         "LowerFence": "lower_fence", "UpperFence": "upper_fence", "InterquartileRange": "iqr",
         "StandardError": "stderr", "StandardDeviation": "stddev"}


def parse_params(p):
    dims = {}
    for part in (p or "").split("&"):
        if "=" in part:
            k, v = part.split("=", 1)
            dims[k] = v
    return dims


def read(path):
    with open(path, encoding="utf-8-sig") as f:
        doc = json.load(f)
    out = []
    for b in doc["Benchmarks"]:
        name = b.get("FullName") or "%s.%s.%s" % (b["Namespace"], b["Type"], b["Method"])
        dims = parse_params(b.get("Parameters"))
        st = b.get("Statistics") or {}
        stats = {v: st[k] * 1e-9 for k, v in STATS.items() if st.get(k) is not None}
        if st.get("Variance") is not None:
            stats["variance"] = st["Variance"] * 1e-18
        for k in ("Skewness", "Kurtosis"):
            if st.get(k) is not None:
                stats[k.lower()] = float(st[k])
        ci = st.get("ConfidenceInterval") or {}
        if "Margin" in ci:
            stats["mean_error"] = ci["Margin"] * 1e-9
        if "Lower" in ci:
            stats["mean_ci_low"] = ci["Lower"] * 1e-9
            stats["mean_ci_high"] = ci["Upper"] * 1e-9
        for p, v in (st.get("Percentiles") or {}).items():
            stats["p" + p[1:]] = v * 1e-9
        samples = [m["Nanoseconds"] / m["Operations"] * 1e-9 for m in b.get("Measurements") or []
                   if m.get("IterationMode") == "Workload" and m.get("IterationStage") == "Result"]
        out.append(series(name, "time", "s", "lower", samples, stats, dims))
        mem = b.get("Memory")
        if mem:
            out.append(series(name, "allocated", "B/op", "lower", [float(mem["BytesAllocatedPerOperation"])], {}, dims))
            for g in (0, 1, 2):
                out.append(series(name, "gen%d_collections" % g, "count", "none",
                                  [float(mem["Gen%dCollections" % g])], {}, dims))
            out.append(series(name, "total_operations", "count", "none", [float(mem["TotalOperations"])], {}, dims))
        for m in b.get("Metrics") or []:
            d = m["Descriptor"]
            unit = {"Count": "count", "B": "B"}.get(d.get("Unit"), d.get("Unit"))
            direction = "higher" if d.get("TheGreaterTheBetter") else "lower"
            out.append(series(name, d["Id"], unit, direction, [float(m["Value"])], {}, dims))
    return result(out)
