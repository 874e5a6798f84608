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


def occurrence(seen, name, dims):
    """dims of one entry of a file (one benchmark's whole result), with
    occurrence=N added when N-1 entries before it gave the same benchmark and
    dims: two results of one benchmark in one file are two series, never one
    (docs/formats.md). seen is a dict the caller keeps across the entries."""
    k = (name, tuple(sorted((str(a), text(b)) for a, b in dims.items())))
    seen[k] = seen.get(k, 0) + 1
    return dict(dims, occurrence=str(seen[k])) if seen[k] > 1 else dims


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


def scan_names(items):
    """hyperfine -P/-L: the benchmark name of each (command, {param: value}) of a
    file, as docs/formats.md says: commands with the same parameter names join, in
    order, the first group that one template (the command with {param} for a
    parameter's value) gives entirely; of the templates that fit, the one with a
    placeholder at the leftmost place possible, then the next, ...  Written as a
    search over every subset of the places where a value stands."""
    import itertools

    def expand(tokens, params):
        return "".join(params[t[1]] if t[0] == 0 else t[1] for t in tokens)

    def candidates(command, params):
        keys = list(params)
        places = [(i, i + len(params[k]), ki) for ki, k in enumerate(keys) if params[k]
                  for i in range(len(command)) if command.startswith(params[k], i)]
        for chosen in itertools.product((False, True), repeat=len(places)):
            spans = sorted(p for p, c in zip(places, chosen) if c)
            if any(a[1] > b[0] for a, b in zip(spans, spans[1:])):
                continue
            tokens, at = [], 0
            for start, end, ki in spans:
                tokens += [(1, ch) for ch in command[at:start]] + [(0, keys[ki])]
                at = end
            tokens += [(1, ch) for ch in command[at:]]
            yield tokens

    def best(group):
        command, params = group[0]
        order = {k: i for i, k in enumerate(params)}
        fits = [t for t in candidates(command, params)
                if all(expand(t, p) == c for c, p in group)]
        if not fits:
            return None
        # a placeholder before a character; of two placeholders, the first parameter
        return min(fits, key=lambda t: [(0, order[x]) if k == 0 else (1, x) for k, x in t])

    def name(tokens):
        return "".join("{%s}" % x if k == 0 else x for k, x in tokens)

    names = [c if not p else None for c, p in items]
    for i, (command, params) in enumerate(items):
        if names[i] is not None:
            continue
        group, members, tmpl = [(command, params)], [i], None
        for j in range(i + 1, len(items)):
            if names[j] is not None or set(items[j][1]) != set(params):
                continue
            t = best(group + [items[j]])
            if t is not None:
                group.append(items[j])
                members.append(j)
                tmpl = t
        if tmpl is None:
            tmpl = best(group)
        for m in members:
            names[m] = name(tmpl)
    return names
