"""github-action-benchmark custom JSON: [{name, unit, value, range, extra}].
The benchmark is name, the metric "value"; the unit is canonicalised when it is
a time (ns/us/µs/ms/s: lower), a percentage (Percent/%: no direction) or a
rate X/s (higher); any other unit (Megabytes: 1e6 or 2^20?) is kept as
written with direction none.  A plain-number range is a stat in the value's
unit; "5%" (relative) is not.  gab-bigger / gab-smaller force the direction."""
import json
import re
from _facts import series, result, TIME

FORCE = None


def unit_of(u):
    if u in TIME and u not in ("m", "h"):
        return "s", "lower", TIME[u]
    if u in ("%", "Percent", "percent"):
        return "%", "none", 1.0
    if re.fullmatch(r"[A-Za-z]+/s", u or ""):
        return u, "higher", 1.0
    return u, "none", 1.0


def read_with(path, force):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = []
    for e in doc:
        unit, direction, k = unit_of(e.get("unit", ""))
        if force:
            direction = force
        st = {}
        r = e.get("range")
        if isinstance(r, (int, float)) or (isinstance(r, str) and re.fullmatch(r"[0-9.eE+-]+", r.strip())):
            st["range"] = float(r) * k
        out.append(series(e["name"], "value", unit, direction, [float(e["value"]) * k], st))
    return result(out)


def read(path):
    return read_with(path, None)
