"""JMeter JTL saved as CSV (header line: timeStamp,elapsed,label,...,
success,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect).
Per label: every sample's elapsed, Latency and Connect (ms -> s) with t =
(timeStamp - the file's first timeStamp) / 1000; errors = the number of
samples with success false; bytes and sent_bytes the totals; group_threads
and all_threads the most threads seen; idle_time the total IdleTime (s)."""
import csv
from _facts import series, result


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    t0 = float(rows[0]["timeStamp"]) if rows else 0.0
    order, per = [], {}
    for r in rows:
        lab = r["label"]
        if lab not in per:
            order.append(lab)
            per[lab] = {"elapsed": [], "latency": [], "connect": [], "errors": 0, "bytes": 0.0,
                        "sent_bytes": 0.0, "group_threads": 0.0, "all_threads": 0.0, "idle_time": 0.0,
                        "has": set()}
        p = per[lab]
        t = (float(r["timeStamp"]) - t0) / 1000.0
        for col, m in (("elapsed", "elapsed"), ("Latency", "latency"), ("Connect", "connect")):
            if r.get(col) not in (None, ""):
                p[m].append({"value": float(r[col]) * 1e-3, "t": t})
        if r.get("success", "").lower() == "false":
            p["errors"] += 1
        for col, m in (("bytes", "bytes"), ("sentBytes", "sent_bytes"), ("IdleTime", "idle_time")):
            if r.get(col) not in (None, ""):
                p[m] += float(r[col])
                p["has"].add(m)
        for col, m in (("grpThreads", "group_threads"), ("allThreads", "all_threads")):
            if r.get(col) not in (None, ""):
                p[m] = max(p[m], float(r[col]))
                p["has"].add(m)
    out = []
    for lab in order:
        p = per[lab]
        for m in ("elapsed", "latency", "connect"):
            if p[m]:
                out.append(series(lab, m, "s", "lower", p[m]))
        out.append(series(lab, "errors", "count", "lower", [float(p["errors"])]))
        for m, unit, k in (("bytes", "B", 1.0), ("sent_bytes", "B", 1.0), ("group_threads", "count", 1.0),
                           ("all_threads", "count", 1.0), ("idle_time", "s", 1e-3)):
            if m in p["has"]:
                out.append(series(lab, m, unit, "none", [p[m] * k]))
    return result(out)
