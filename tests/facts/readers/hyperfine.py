"""hyperfine --export-json: results[] with command, times[], exit_codes[], the
summary statistics (seconds) and parameters; user and system are the series
user_time and sys_time, their sum cpu_time.  A command with a non-zero exit code
failed; an exit code is a status, not a metric (no exit_code series).  A
parameter scan (-P, -L) is one benchmark named by the command with {param}
placeholders, the parameters its dims (_facts.scan_names)."""
import json
from _facts import series, result, text, scan_names, occurrence


def cpu_series(name, user, system, dims):
    """user and system (mean CPU seconds of a run) are series of their own,
    and their sum is cpu_time."""
    out = []
    if user not in (None, ""):
        out.append(series(name, "user_time", "s", "lower", [], {"mean": float(user)}, dims))
    if system not in (None, ""):
        out.append(series(name, "sys_time", "s", "lower", [], {"mean": float(system)}, dims))
    if user not in (None, "") and system not in (None, ""):
        out.append(series(name, "cpu_time", "s", "lower", [],
                          {"mean": float(user) + float(system)}, dims))
    return out


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out, failures = [], []
    items = [(r["command"], {k: text(v) for k, v in (r.get("parameters") or {}).items()})
             for r in doc["results"]]
    seen = {}
    for r, name, (_, dims) in zip(doc["results"], scan_names(items), items):
        dims = occurrence(seen, name, dims)
        stats = {k: float(r[k]) for k in ("mean", "stddev", "median", "min", "max")
                 if r.get(k) is not None}
        out.append(series(name, "time", "s", "lower",
                          [float(t) for t in r["times"]], stats, dims))
        out += cpu_series(name, r.get("user"), r.get("system"), dims)
        if any(c != 0 for c in (r.get("exit_codes") or [])):
            failures.append({"benchmark": name, "dims": dims})
    return result(out, failures)
