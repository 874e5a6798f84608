"""Small helpers shared by the facts readers (standard library only).

Units are converted here from what the TOOL documents, not from perfdb's tables.
"""
import math

TIME = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0,
        "m": 60.0, "min": 60.0, "h": 3600.0}
SI = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
BIN = {"": 1.0, "k": 1024.0, "K": 1024.0, "M": 1024.0 ** 2, "G": 1024.0 ** 3, "T": 1024.0 ** 4}


def text(v):
    """A dimension value as text, JSON-like for what is not a string."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    return str(v)


def series(benchmark, metric, unit, direction, samples=None, stats=None, dims=None):
    return {"benchmark": benchmark, "dims": {str(k): text(v) for k, v in (dims or {}).items()},
            "metric": metric, "unit": unit, "direction": direction,
            "samples": list(samples or []), "stats": dict(stats or {})}


def result(series_list, failures=None):
    return {"series": series_list, "failures": list(failures or [])}


def fnum(v):
    """A JSON number, or the strings NaN / Infinity some tools write."""
    if v is None:
        return math.nan
    return float(v)


def drop_none(d):
    return {k: v for k, v in d.items() if v is not None}


def pct_name(p):
    """50 -> p50, 99.9 -> p99.9, 99.990000 -> p99.99"""
    p = float(p)
    s = ("%.6f" % p).rstrip("0").rstrip(".")
    return "p" + s


def dims_str(dims):
    return ",".join("%s=%s" % kv for kv in sorted(dims.items()))


def load_failures(series_list):
    """Load tools: a benchmark whose requests all failed (non-2xx responses and
    errors reach the request count, or errors without any response; for siege,
    no successful transaction but errors) is a failure of the run."""
    by = {}
    for s in series_list:
        key = (s["benchmark"], dims_str(s["dims"]))
        if s["samples"]:
            v = s["samples"][-1]
            by.setdefault(key, {})[s["metric"]] = v["value"] if isinstance(v, dict) else v
    out = []
    for (bench, _), m in by.items():
        bad = m.get("non_2xx", 0) + m.get("non_2xx_3xx", 0) + m.get("errors", 0)
        dims = next(s["dims"] for s in series_list if s["benchmark"] == bench and dims_str(s["dims"]) == _)
        if "requests" in m:
            if (m["requests"] > 0 and bad >= m["requests"]) or (m["requests"] == 0 and m.get("errors", 0) > 0):
                out.append({"benchmark": bench, "dims": dims})
        elif "successful" in m and m["successful"] == 0 and m.get("errors", 0) > 0:
            out.append({"benchmark": bench, "dims": dims})
    return out
