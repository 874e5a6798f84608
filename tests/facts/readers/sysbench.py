"""sysbench 1.x "run" text.  benchmark cpu (a "CPU speed:" section), the
test of "Running TEST speed test" (memory), or sysbench; dim threads ("Number of threads: N").  throughput (events/s): the
"[ Ns ] thds: T eps: X lat (ms,P%): L" interval reports (or the report_json
hook's [{"time", "threads", "tps", "qps": {total, reads, writes, other},
"latency", "errors", "reconnects"}] array) as samples at t = N, the final
"events per second" their mean; without intervals that final figure is the
one sample.  latency_pP: the interval percentile (ms -> s).  The JSON hook's
qps (queries/s: total, reads, writes, other), errors and reconnects per second
are per-interval series too.  General statistics: total time, total number of
events.  Latency (ms): min/avg/max/Nth percentile/sum -> stats.  Threads
fairness: events and execution time avg/stddev -> thread_events, thread_time.
memory: "Total operations: N (X per second)" -> throughput X (events/s: an
operation is an event), "S MiB transferred (R MiB/sec)" -> transferred (B) and
transfer (B/s), MiB = 2^20 bytes."""
import json
import re
from _facts import series, result


def read(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^Running (\w+) speed test", text, re.M)
    bench = "cpu" if "CPU speed:" in text else m.group(1) if m else "sysbench"
    m = re.search(r"Number of threads: (\d+)", text)
    dims = {"threads": m.group(1)} if m else {}
    out = []
    tput, lat, extra = [], [], {}
    pct = None
    for m in re.finditer(r"^\[ (\d+)s \] thds: \d+ (?:eps|tps): ([0-9.]+).*?lat \(ms,([0-9.]+)%\): ([0-9.]+)", text, re.M):
        t = float(m.group(1))
        tput.append({"value": float(m.group(2)), "t": t})
        pct = m.group(3)
        lat.append({"value": float(m.group(4)) * 1e-3, "t": t})
    j = re.search(r"^\[\s*\n\s*\{.*?^\]", text, re.M | re.S)
    if j:
        m = re.search(r"percentile=(\d+)", text)
        pct = pct or (m.group(1) if m else "95")
        for rep in json.loads(j.group(0)):
            t = float(rep["time"])
            tput.append({"value": float(rep["tps"]), "t": t})
            lat.append({"value": float(rep["latency"]) * 1e-3, "t": t})
            q = rep.get("qps") or {}
            for key, metric, unit, direction in (("total", "qps", "queries/s", "higher"),
                                                 ("reads", "qps_reads", "queries/s", "higher"),
                                                 ("writes", "qps_writes", "queries/s", "higher"),
                                                 ("other", "qps_other", "queries/s", "higher")):
                if key in q:
                    extra.setdefault(metric, (unit, direction, []))[2].append({"value": float(q[key]), "t": t})
            for key, unit in (("errors", "errors/s"), ("reconnects", "reconnects/s")):
                if key in rep:
                    extra.setdefault(key, (unit, "lower", []))[2].append({"value": float(rep[key]), "t": t})
    eps = re.search(r"events per second:\s+([0-9.]+)", text) or \
        re.search(r"Total operations: \d+ \(([0-9.]+) per second\)", text)
    if tput:
        out.append(series(bench, "throughput", "events/s", "higher", tput,
                          {"mean": float(eps.group(1))} if eps else {}, dims))
        out.append(series(bench, "latency_p" + pct, "s", "lower", lat, {}, dims))
    elif eps:
        out.append(series(bench, "throughput", "events/s", "higher", [float(eps.group(1))], {}, dims))
    m = re.search(r"([0-9.]+) MiB transferred \(([0-9.]+) MiB/sec\)", text)
    if m:
        out.append(series(bench, "transferred", "B", "none", [float(m.group(1)) * 1048576], {}, dims))
        out.append(series(bench, "transfer", "B/s", "higher", [float(m.group(2)) * 1048576], {}, dims))
    for metric, (unit, direction, s) in extra.items():
        out.append(series(bench, metric, unit, direction, s, {}, dims))
    m = re.search(r"total number of events:\s+(\d+)", text)
    if m:
        out.append(series(bench, "events", "count", "none", [float(m.group(1))], {}, dims))
    m = re.search(r"total time:\s+([0-9.]+)s", text)
    if m:
        out.append(series(bench, "total_time", "s", "none", [float(m.group(1))], {}, dims))
    m = re.search(r"Latency \(ms\):\n((?:\s+.*:\s+[0-9.]+\n)+)", text)
    if m:
        st = {}
        for k, v in re.findall(r"^\s+(.*?):\s+([0-9.]+)$", m.group(1), re.M):
            p = re.fullmatch(r"(\d+)th percentile", k)
            st[{"avg": "mean"}.get(k, "p" + p.group(1) if p else k)] = float(v) * 1e-3
        out.append(series(bench, "latency", "s", "lower", [], st, dims))
    m = re.search(r"events \(avg/stddev\):\s+([0-9.]+)/([0-9.]+)", text)
    if m:
        out.append(series(bench, "thread_events", "count", "none", [],
                          {"mean": float(m.group(1)), "stddev": float(m.group(2))}, dims))
    m = re.search(r"execution time \(avg/stddev\):\s+([0-9.]+)/([0-9.]+)", text)
    if m:
        out.append(series(bench, "thread_time", "s", "none", [],
                          {"mean": float(m.group(1)), "stddev": float(m.group(2))}, dims))
    return result(out)
