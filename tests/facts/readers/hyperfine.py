"""hyperfine --export-json: results[] with command, times[], exit_codes[], the
summary statistics (seconds) and parameters.  A command with a non-zero exit code
failed; an exit code is a status, not a metric (no exit_code series)."""
import json
from _facts import series, result, text


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out, failures = [], []
    for r in doc["results"]:
        dims = {k: text(v) for k, v in (r.get("parameters") or {}).items()}
        stats = {k: float(r[k]) for k in ("mean", "stddev", "median", "min", "max", "user", "system")
                 if r.get(k) is not None}
        out.append(series(r["command"], "time", "s", "lower",
                          [float(t) for t in r["times"]], stats, dims))
        if any(c != 0 for c in (r.get("exit_codes") or [])):
            failures.append({"benchmark": r["command"], "dims": dims})
    return result(out, failures)
