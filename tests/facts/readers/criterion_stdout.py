"""criterion.rs console summary:

    NAME   time:   [LOW UNIT EST UNIT HIGH UNIT]
           thrpt:  [LOW UNIT EST UNIT HIGH UNIT]
           change: [...] (against the saved baseline: not this run's measurement)

A long NAME stands on a line of its own with "time:" on the next.  time (s)
and thrpt (throughput: elements per second, K/M/G = 1e3; bytes as KiB/MiB/GiB
per second, or KB/MB/GB with BytesDecimal) give stats mean_ci_low, mean,
mean_ci_high (criterion prints thrpt in ascending order)."""
import re
from _facts import series, result, TIME

TU = dict(TIME, ps=1e-12)
TRIPLE = re.compile(r"\[\s*([-+0-9.]+)\s+(\S+)\s+([-+0-9.]+)\s+(\S+)\s+([-+0-9.]+)\s+(\S+)\s*\]")
ELEM = {"elem/s": 1.0, "Kelem/s": 1e3, "Melem/s": 1e6, "Gelem/s": 1e9}
BYTES = {"B/s": 1.0, "KiB/s": 1024.0, "MiB/s": 1024.0 ** 2, "GiB/s": 1024.0 ** 3,
         "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9}


def trio(text, conv):
    m = TRIPLE.search(text)
    vals = [conv(float(m.group(i)), m.group(i + 1)) for i in (1, 3, 5)]
    return vals


def read(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out = []
    name, in_change, prev = None, False, ""
    for line in lines:
        m = re.match(r"^(\S.*?)\s+time:\s+(\[.*\])", line)
        m2 = re.match(r"^\s+time:\s+(\[.*\])", line)
        if m or (m2 and not in_change and prev and not prev[0].isspace()):
            if m:
                name, text = m.group(1), m.group(2)
            else:
                name, text = prev.strip(), m2.group(1)
            in_change = False
            lo, est, hi = trio(text, lambda v, u: v * TU[u])
            out.append(series(name, "time", "s", "lower", [], {"mean_ci_low": lo, "mean": est, "mean_ci_high": hi}))
        elif re.match(r"^\s+thrpt:", line) and name and not in_change:
            unit = TRIPLE.search(line).group(2)
            if unit in ELEM:
                vals = trio(line, lambda v, u: v * ELEM[u])
                cu = "elem/s"
            else:
                vals = trio(line, lambda v, u: v * BYTES[u])
                cu = "B/s"
            lo, est, hi = vals
            out.append(series(name, "throughput", cu, "higher", [], {"mean_ci_low": lo, "mean": est, "mean_ci_high": hi}))
        elif re.match(r"^\s+change:", line):
            in_change = True
        if line.strip():
            prev = line
    return result(out)
