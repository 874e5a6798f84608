"""wrk / wrk2 console output.

"Running Ds test @ URL", "T threads and C connections": benchmark URL, dims
threads/connections.  Thread Stats: Latency avg/stdev/max (time units us/ms/s)
-> latency mean/stddev/max; Req/Sec avg/stdev/max (k = 1000) -> thread_throughput.
"Latency Distribution": "50%  4.94ms" (wrk) or "50.000%  6.67ms" (wrk2) -> pNN
(100% is the max, already there).  wrk2's "Detailed Percentile spectrum" rows
(Value ms, Percentile, TotalCount): weighted samples, weight = the count added
by the row (rows adding none are no observation).  "N requests in Ts, XKB read"
-> requests, elapsed, bytes_read (KB = 1024: wrk prints bytes in binary units);
Socket errors connect/read/write/timeout; Non-2xx or 3xx responses;
Requests/sec -> throughput; Transfer/sec -> transfer (B/s, binary units)."""
import re
from _facts import series, result, TIME, SI, BIN, pct_name, load_failures


def tval(s):
    m = re.fullmatch(r"([0-9.]+)(us|ms|s|m|h)", s)
    return float(m.group(1)) * TIME[m.group(2)]


def sival(s):
    m = re.fullmatch(r"([0-9.]+)([kMGT]?)", s)
    return float(m.group(1)) * SI[m.group(2)]


def binval(s):
    m = re.fullmatch(r"([0-9.]+)([KMGT]?)B?", s)
    return float(m.group(1)) * BIN[m.group(2)]


def read(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    url = re.search(r"Running \S+ test @ (\S+)", text).group(1)
    m = re.search(r"(\d+) threads and (\d+) connections", text)
    dims = {"threads": m.group(1), "connections": m.group(2)}
    out = []

    def add(metric, unit, direction, samples=(), stats=None):
        out.append(series(url, metric, unit, direction, samples, stats, dims))

    lat = {}
    m = re.search(r"^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)\s+\S+%", text, re.M)
    lat.update(mean=tval(m.group(1)), stddev=tval(m.group(2)), max=tval(m.group(3)))
    dist = re.search(r"Latency Distribution.*\n((?:\s*[0-9.]+%\s+\S+\n)+)", text)
    if dist:
        for p, v in re.findall(r"([0-9.]+)%\s+(\S+)", dist.group(1)):
            if float(p) < 100:
                lat[pct_name(p)] = tval(v)
    samples = []
    spec = re.search(r"Detailed Percentile spectrum:\n.*\n((?:.*\n)*?)#\[Mean", text)
    if spec:
        prev = 0
        for row in spec.group(1).splitlines():
            f = row.split()
            if len(f) != 4:
                continue
            total = int(f[2])
            if total > prev:
                samples.append({"value": float(f[0]) * 1e-3, "weight": float(total - prev)})
            prev = total
    add("latency", "s", "lower", samples, lat)
    m = re.search(r"^\s*Req/Sec\s+(\S+)\s+(\S+)\s+(\S+)\s+\S+%", text, re.M)
    add("thread_throughput", "req/s", "higher", [],
        {"mean": sival(m.group(1)), "stddev": sival(m.group(2)), "max": sival(m.group(3))})
    m = re.search(r"(\d+) requests in ([0-9.]+\w+), (\S+) read", text)
    add("requests", "count", "none", [float(m.group(1))])
    add("elapsed", "s", "none", [tval(m.group(2))])
    add("bytes_read", "B", "none", [binval(m.group(3))])
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    if m:
        for i, what in enumerate(("connect", "read", "write", "timeout")):
            add("socket_errors_" + what, "count", "lower", [float(m.group(i + 1))])
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    if m:
        add("non_2xx_3xx", "count", "lower", [float(m.group(1))])
    add("throughput", "req/s", "higher", [float(re.search(r"Requests/sec:\s+([0-9.]+)", text).group(1))])
    add("transfer", "B/s", "higher", [binval(re.search(r"Transfer/sec:\s+(\S+)", text).group(1))])
    return result(out, load_failures(out))
