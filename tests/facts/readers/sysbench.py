"""sysbench 1.x "run" text of every test (cpu, memory, fileio, threads, mutex, the
Lua OLTP scripts), as sysbench 1.0.20's sources print it.

benchmark: cpu ("CPU speed:", "Prime numbers limit:", --verbosity=4's "Doing CPU
performance benchmark"), memory ("Running memory speed test ..."), fileio ("Extra
file open flags:", "File operations:"), threads / mutex (only --verbosity=4 prints
"Doing thread subsystem performance test" / "Doing mutex performance test"), else
sysbench (the OLTP scripts do not name themselves).

dims: threads ("Number of threads: N") and the workload options the test prints:
cpu max_prime; memory block_size, operation, scope ("  block size: 1KiB", ...);
fileio files ("128 files, 128KiB each"), total_size ("16MiB total file size"),
block_size ("Block size 16KiB"), fsync_freq ("... fsync() each 100 requests."),
io_mode ("Using synchronous|asynchronous|fast mmaped I/O mode" -> sync, async,
mmap), mode ("Doing random r/w test" -> rndrw, ...), rw_ratio (rndrw only),
extra_flags (unless "(none)"); threads yields, locks ("Thread yields per test: Y
Locks used: L"); rate ("Target transaction rate: N/sec").

Intermediate reports "[ Ns ] ..." are samples at t = N: "thds: T eps: X lat
(ms,P%): L" -> throughput (events/s), latency_pP (ms -> s; P = 0 means
disabled); "thds: T tps: X qps: Q (r/w/o: R/W/O) lat (ms,P%): L err/s: E
reconn/s: C" -> throughput (events/s: a transaction is an event), qps, qps_reads,
qps_writes, qps_other (queries/s), latency_pP, errors (errors/s), reconnects
(reconnects/s); fileio's "reads: R MiB/s writes: W MiB/s fsyncs: F/s latency
(ms,P%): L" -> read_transfer, write_transfer (B/s, MiB = 2^20 B), fsyncs
(fsyncs/s), latency_pP; memory's "X MiB/sec" -> transfer; "queue length: N,
concurrency: C" -> queue_length, concurrency (counts).  The report_json hook's
[{"time", "tps", "qps": {total, reads, writes, other}, "latency", "errors",
"reconnects"}] gives the same series.

The summary: "events per second:" (cpu), "Total operations: N (X per second)"
(memory) and "transactions: N (X per sec.)" (SQL) -> throughput; "S MiB
transferred (R MiB/sec)" -> transferred (B), transfer (B/s); fileio "reads/s:",
"writes/s:", "fsyncs/s:" -> reads, writes, fsyncs, "read, MiB/s:", "written,
MiB/s:" -> read_transfer, write_transfer; SQL "queries performed:" read, write,
other -> queries_read, queries_write, queries_other (counts), "queries: N (X per
sec.)" -> queries (count), qps; "ignored errors: N (X per sec.)" -> errors_count
(count, lower), errors; "reconnects: N (X per sec.)" -> reconnects_count,
reconnects.  A summary rate is the stat mean of its interval samples, else the
one sample.  --report-checkpoints prints a whole summary at each "[ Ns ]
Checkpoint report:" (sysbench then resets its counters): those values are
samples at t = N, and the final summary's are a sample at its total time.

General statistics (total time, total number of events), Latency (ms) (min, avg,
max, Nth percentile, sum -> stats, ms -> s; the --histogram rows "value |***
count" -> weighted samples) and Threads fairness (events, execution time
avg/stddev -> thread_events, thread_time) are those of the last summary."""
import json
import re
from _facts import series, result

MIB = 1048576.0
MODES = {"sequential write (creation)": "seqwr", "sequential rewrite": "seqrewr",
         "sequential read": "seqrd", "random read": "rndrd", "random write": "rndwr",
         "random r/w": "rndrw", "mixed": "mixed"}
IO_MODES = {"synchronous": "sync", "asynchronous": "async", "fast mmaped": "mmap",
            "slow mmaped": "mmap"}


def read(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = text.split("\n")

    bench = "sysbench"
    if re.search(r"^(CPU speed:|Prime numbers limit: |Doing CPU performance benchmark$)", text, re.M):
        bench = "cpu"
    elif re.search(r"^Running memory speed test", text, re.M):
        bench = "memory"
    elif re.search(r"^(Extra file open flags: |File operations:$)", text, re.M):
        bench = "fileio"
    elif re.search(r"^Doing thread subsystem performance test$", text, re.M):
        bench = "threads"
    elif re.search(r"^Doing mutex performance test$", text, re.M):
        bench = "mutex"

    dims = {}
    m = re.search(r"^Number of threads: (\d+)$", text, re.M)
    if m:
        dims["threads"] = m.group(1)
    for pattern, key in ((r"^Prime numbers limit: (\d+)$", "max_prime"),
                         (r"^Target transaction rate: (\d+)/sec$", "rate")):
        m = re.search(pattern, text, re.M)
        if m:
            dims[key] = m.group(1)
    if bench == "memory":
        for k, key in (("block size", "block_size"), ("operation", "operation"), ("scope", "scope")):
            m = re.search(r"^  %s: (.+)$" % k, text, re.M)
            if m:
                dims[key] = m.group(1)
    if bench == "fileio":
        for pattern, key in ((r"^(\d+) files, \S+B each$", "files"),
                             (r"^(\S+) total file size$", "total_size"),
                             (r"^Block size (\S+)$", "block_size"),
                             (r"^Periodic FSYNC enabled, calling fsync\(\) each (\d+) requests\.$", "fsync_freq")):
            m = re.search(pattern, text, re.M)
            if m:
                dims[key] = m.group(1)
        m = re.search(r"^Using (.+) I/O mode$", text, re.M)
        if m:
            dims["io_mode"] = IO_MODES.get(m.group(1), m.group(1))
        m = re.search(r"^Doing (.+) test$", text, re.M)
        if m:
            dims["mode"] = MODES.get(m.group(1), m.group(1))
        m = re.search(r"^Read/Write ratio for combined random IO test: (\S+)$", text, re.M)
        if m and dims.get("mode") == "rndrw":
            dims["rw_ratio"] = m.group(1)
        m = re.search(r"^Extra file open flags: (.+)$", text, re.M)
        if m and m.group(1) != "(none)":
            dims["extra_flags"] = m.group(1)
    m = re.search(r"^Thread yields per test: (\d+) Locks used: (\d+)$", text, re.M)
    if m:
        bench = "threads"
        dims["yields"], dims["locks"] = m.group(1), m.group(2)

    units = {}       # metric -> (unit, direction)
    ivs = {}         # metric -> interval samples
    summary = {}     # metric -> value of the last summary
    chk = []         # (metric, t, value) of checkpoint reports
    pct_iv = None

    def iv(metric, unit, direction, t, v):
        units[metric] = (unit, direction)
        ivs.setdefault(metric, []).append({"value": v, "t": t})

    def lat_iv(t, p, v):
        nonlocal pct_iv
        pct_iv = p
        if p != "0":
            iv("@lat", "s", "lower", t, v * 1e-3)

    checkpoint = None

    def summ(metric, unit, direction, v):
        units[metric] = (unit, direction)
        if checkpoint is not None:
            chk.append((metric, checkpoint, v))
        else:
            summary[metric] = v

    section = ""
    in_queries = False
    hist = None
    hist_done = []
    events = total_time = None
    lat = {}
    fair = {}
    pct_sum = None
    for line in lines:
        line = line.rstrip()
        if hist is not None:
            if not line:
                hist_done, hist = hist, None
                continue
            m = re.match(r"^\s*([0-9.]+) \|[* ]*\s([0-9]+)$", line)
            if m:
                hist.append({"value": float(m.group(1)) * 1e-3, "weight": float(m.group(2))})
            continue
        if line.startswith("Latency histogram (values are in milliseconds)"):
            hist = []
            continue
        m = re.match(r"^\[ (\d+)s \] (.*)$", line)
        if m:
            t, rest = float(m.group(1)), m.group(2)
            if rest == "Checkpoint report:":
                checkpoint = t
                continue
            m = re.match(r"thds: \d+ eps: ([0-9.]+) lat \(ms,(\d+)%\): ([0-9.]+)$", rest)
            if m:
                iv("throughput", "events/s", "higher", t, float(m.group(1)))
                lat_iv(t, m.group(2), float(m.group(3)))
                continue
            m = re.match(r"thds: \d+ tps: ([0-9.]+) qps: ([0-9.]+) \(r/w/o: ([0-9.]+)/([0-9.]+)/([0-9.]+)\) "
                         r"lat \(ms,(\d+)%\): ([0-9.]+) err/s: ([0-9.]+) reconn/s: ([0-9.]+)$", rest)
            if m:
                g = [float(x) for x in m.groups()]
                iv("throughput", "events/s", "higher", t, g[0])
                for k, name in ((1, "qps"), (2, "qps_reads"), (3, "qps_writes"), (4, "qps_other")):
                    iv(name, "queries/s", "higher", t, g[k])
                lat_iv(t, m.group(6), g[6])
                iv("errors", "errors/s", "lower", t, g[7])
                iv("reconnects", "reconnects/s", "lower", t, g[8])
                continue
            m = re.match(r"reads: ([0-9.]+) MiB/s writes: ([0-9.]+) MiB/s fsyncs: ([0-9.]+)/s "
                         r"latency \(ms,(\d+)%\): ([0-9.]+)$", rest)
            if m:
                iv("read_transfer", "B/s", "higher", t, float(m.group(1)) * MIB)
                iv("write_transfer", "B/s", "higher", t, float(m.group(2)) * MIB)
                iv("fsyncs", "fsyncs/s", "higher", t, float(m.group(3)))
                lat_iv(t, m.group(4), float(m.group(5)))
                continue
            m = re.match(r"queue length: (\d+),? concurrency: (\d+)$", rest)
            if m:
                iv("queue_length", "count", "none", t, float(m.group(1)))
                iv("concurrency", "count", "none", t, float(m.group(2)))
                continue
            m = re.match(r"([0-9.]+) MiB/sec$", rest)
            if m:
                iv("transfer", "B/s", "higher", t, float(m.group(1)) * MIB)
                continue
            raise ValueError("unknown intermediate report: " + line)
        if line and not line[0].isspace() and line.endswith(":"):
            section, in_queries = line[:-1], False
            continue
        m = re.match(r"^Total operations: \d+ \(\s*([0-9.]+) per second\)$", line)
        if m:
            summ("throughput", "events/s", "higher", float(m.group(1)))
            continue
        m = re.match(r"^([0-9.]+) MiB transferred \(([0-9.]+) MiB/sec\)$", line)
        if m:
            summ("transferred", "B", "none", float(m.group(1)) * MIB)
            summ("transfer", "B/s", "higher", float(m.group(2)) * MIB)
            continue
        m = re.match(r"^\s+(.+?):\s*(.*)$", line)
        if not m:
            continue
        key, val = m.group(1), m.group(2)
        if section == "CPU speed" and key == "events per second":
            summ("throughput", "events/s", "higher", float(val))
        elif section == "File operations" and key in ("reads/s", "writes/s", "fsyncs/s"):
            summ(key[:-2], key, "higher", float(val))
        elif section == "Throughput" and key in ("read, MiB/s", "written, MiB/s"):
            summ("read_transfer" if key.startswith("read") else "write_transfer", "B/s", "higher",
                 float(val) * MIB)
        elif section == "SQL statistics":
            if key == "queries performed":
                in_queries = True
            elif in_queries and key in ("read", "write", "other"):
                summ("queries_" + key, "count", "none", float(val))
            elif key in ("transactions", "queries", "ignored errors", "reconnects"):
                in_queries = False
                c = re.match(r"(\d+)\s+\(([0-9.]+) per sec\.\)$", val)
                count, rate = float(c.group(1)), float(c.group(2))
                if key == "transactions":
                    summ("throughput", "events/s", "higher", rate)
                elif key == "queries":
                    summ("queries", "count", "none", count)
                    summ("qps", "queries/s", "higher", rate)
                elif key == "ignored errors":
                    summ("errors_count", "count", "lower", count)
                    summ("errors", "errors/s", "lower", rate)
                else:
                    summ("reconnects_count", "count", "lower", count)
                    summ("reconnects", "reconnects/s", "lower", rate)
        elif section == "General statistics":
            if key == "total time":
                total_time = float(val.rstrip("s"))
            elif key == "total number of events":
                events = float(val)
        elif section == "Latency (ms)":
            if key == "min":
                lat = {}
            p = re.fullmatch(r"(\d+)th percentile", key)
            if p:
                pct_sum = p.group(1)
                lat["p" + pct_sum] = float(val) * 1e-3
            elif key in ("min", "avg", "max", "sum"):
                lat["mean" if key == "avg" else key] = float(val) * 1e-3
        elif section == "Threads fairness":
            a, b = val.split("/")
            if key == "events (avg/stddev)":
                fair["thread_events"] = (float(a), float(b))
            elif key == "execution time (avg/stddev)":
                fair["thread_time"] = (float(a), float(b))
                checkpoint = None  # the last line of a report

    j = re.search(r"^\[\s*\n\s*\{.*?^\]", text, re.M | re.S)
    if j:
        for rep in json.loads(j.group(0)):
            t = float(rep["time"])
            iv("throughput", "events/s", "higher", t, float(rep["tps"]))
            iv("@lat", "s", "lower", t, float(rep["latency"]) * 1e-3)
            q = rep.get("qps") or {}
            for key, metric in (("total", "qps"), ("reads", "qps_reads"), ("writes", "qps_writes"),
                                ("other", "qps_other")):
                if key in q:
                    iv(metric, "queries/s", "higher", t, float(q[key]))
            for key in ("errors", "reconnects"):
                if key in rep:
                    iv(key, key + "/s", "lower", t, float(rep[key]))

    out = []
    for metric, (unit, direction) in units.items():
        name = metric
        if metric == "@lat":
            name = "latency_p" + (pct_iv or pct_sum)
        samples = list(ivs.get(metric, []))
        samples += [{"value": v, "t": t} for mm, t, v in chk if mm == metric]
        stats = {}
        if metric in summary:
            if chk:
                samples.append({"value": summary[metric], "t": total_time})
            elif samples:
                stats["mean"] = summary[metric]
            else:
                samples.append(summary[metric])
        out.append(series(bench, name, unit, direction, samples, stats, dims))
    if events is not None:
        out.append(series(bench, "events", "count", "none", [events], {}, dims))
    if total_time is not None:
        out.append(series(bench, "total_time", "s", "none", [total_time], {}, dims))
    if lat:
        out.append(series(bench, "latency", "s", "lower", hist_done, lat, dims))
    for metric, unit in (("thread_events", "count"), ("thread_time", "s")):
        if metric in fair:
            out.append(series(bench, metric, unit, "none", [],
                              {"mean": fair[metric][0], "stddev": fair[metric][1]}, dims))
    return result(out)
