"""k6 summaries: --summary-export (legacy: metrics{NAME: {avg, min, med, max,
p(N), count} | {count, rate} | {value, passes, fails} | {value, min, max}},
root_group with nested groups{} and checks{}) and the handleSummary(data)
argument (metrics{NAME: {type, contains, values{...}}}, groups[] and checks[]).

benchmark "k6".  Trends: stats avg -> mean, med -> median and p50, min, max,
p(N) -> pN (count is a number of values, not a statistic); "contains": "time"
means ms; a legacy trend carries no unit (k6's own time metrics are ms).
Counters: NAME.count and NAME.rate (per second).  Rates: the ratio, with
NAME.passes / NAME.fails counts.  Gauges: the value, min/max stats.  Every check
of every group: check.passes / check.fails with dim check = its path."""
import json
from _facts import series, result

K6_TIME = ("http_req_", "iteration_duration", "group_duration")


def trend(name, v, contains):
    if contains == "time" or (contains is None and name.startswith(K6_TIME)):
        unit, direction, k = "s", "lower", 1e-3
    elif contains == "data":
        unit, direction, k = "B", "lower", 1.0
    elif contains is None:
        unit, direction, k = "k6-value", "none", 1.0
    else:
        unit, direction, k = "count", "none", 1.0
    st = {}
    for key, val in v.items():
        if key == "avg":
            st["mean"] = val * k
        elif key == "med":
            st["median"] = val * k
            st["p50"] = val * k
        elif key in ("min", "max"):
            st[key] = val * k
        elif key.startswith("p("):
            st["p" + key[2:-1]] = val * k
    return series("k6", name, unit, direction, [], st)


def metric(name, kind, v, contains, out):
    if kind == "trend":
        out.append(trend(name, v, contains))
    elif kind == "counter":
        unit = "B" if contains == "data" else "count"
        out.append(series("k6", name + ".count", unit, "none", [float(v["count"])]))
        out.append(series("k6", name + ".rate", unit + "/s", "higher", [float(v["rate"])]))
    elif kind == "rate":
        value = v["rate"] if "rate" in v else v["value"]
        out.append(series("k6", name, "ratio", "higher" if name == "checks" else "none", [float(value)]))
        out.append(series("k6", name + ".passes", "count", "none", [float(v["passes"])]))
        out.append(series("k6", name + ".fails", "count", "none", [float(v["fails"])]))
    elif kind == "gauge":
        out.append(series("k6", name, "count", "none", [float(v["value"])],
                          {k: float(v[k]) for k in ("min", "max") if k in v}))


def checks(group, out):
    cs = group.get("checks") or []
    for c in (cs.values() if isinstance(cs, dict) else cs):
        dims = {"check": c["path"]}
        out.append(series("k6", "check.passes", "count", "none", [float(c["passes"])], {}, dims))
        out.append(series("k6", "check.fails", "count", "none", [float(c["fails"])], {}, dims))
    gs = group.get("groups") or []
    for g in (gs.values() if isinstance(gs, dict) else gs):
        checks(g, out)


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = []
    for name, m in doc["metrics"].items():
        if "type" in m and "values" in m:
            metric(name, m["type"], m["values"], m.get("contains"), out)
        else:
            v = {k: x for k, x in m.items() if k != "thresholds"}
            if "avg" in v or "med" in v:
                kind = "trend"
            elif "passes" in v:
                kind = "rate"
            elif "count" in v and "rate" in v:
                kind = "counter"
            else:
                kind = "gauge"
            metric(name, kind, v, None, out)
    checks(doc.get("root_group") or {}, out)
    return result(out)
