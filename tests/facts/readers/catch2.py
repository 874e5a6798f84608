"""Catch2 console reporter benchmark tables: after the header lines
"benchmark name  samples  iterations  est run time / mean  low mean  high mean /
std dev  low std dev  high std dev", each benchmark is three lines:
NAME SAMPLES ITERATIONS ESTIMATED; MEAN LOW HIGH; STDDEV LOW HIGH (values with
units ns/us/ms/s).  time (s): mean, mean_ci_low, mean_ci_high, stddev,
stddev_ci_low, stddev_ci_high, n (samples), iterations.  A test case is the
line between two rules of dashes; a "FILE:LINE: FAILED:" line in it makes
each of its benchmarks a failure."""
import re
from _facts import series, result, TIME

V = r"([0-9.]+) (ns|us|µs|ms|s)"
FIRST = re.compile(r"^(\S.*?)\s+(\d+)\s+(\d+)\s+" + V + r"\s*$")
ROW = re.compile(r"^\s+" + V + r"\s+" + V + r"\s+" + V + r"\s*$")


def tv(v, u):
    return float(v) * TIME[u]


def read(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out, failures, in_case = [], {}, []
    i = 0
    while i < len(lines):
        if (i + 2 < len(lines) and re.fullmatch(r"-+", lines[i]) and lines[i + 1]
                and not re.fullmatch(r"-+", lines[i + 1]) and re.fullmatch(r"-+", lines[i + 2])):
            in_case = []        # a new test case
        if re.search(r": FAILED:$", lines[i]):
            for name in in_case:
                failures[name] = {"benchmark": name, "dims": {}}
        m = FIRST.match(lines[i])
        if m and i + 2 < len(lines):
            r1, r2 = ROW.match(lines[i + 1]), ROW.match(lines[i + 2])
            if r1 and r2:
                st = {"n": float(m.group(2)), "iterations": float(m.group(3)),
                      "mean": tv(*r1.group(1, 2)), "mean_ci_low": tv(*r1.group(3, 4)),
                      "mean_ci_high": tv(*r1.group(5, 6)),
                      "stddev": tv(*r2.group(1, 2)), "stddev_ci_low": tv(*r2.group(3, 4)),
                      "stddev_ci_high": tv(*r2.group(5, 6))}
                out.append(series(m.group(1), "time", "s", "lower", [], st))
                in_case.append(m.group(1))
                i += 3
                continue
        i += 1
    return result(out, failures.values())
