#!/usr/bin/env python3
"""The run-to-run noise of each metric in real histories: what perfdb assumes
before a series has a history (pdb_metric_run_noise, docs/gate-noise.md
"Before a history exists") is read from this.
Usage: run-noise.py PERFDB SET_DIR [SET_DIR ...]
A set folder is gate-replay.py's: c01.* ... cNN.* (one run per commit, any
format `perfdb ingest` reads) and optionally step.txt, whose commit,
second_commit, improved_commit and global_commit are left out (a real change
is not noise).
For every series, the median of each run's samples, and the log change from
one run to the next; per metric, over all the set's series: the per-run SD
read from the median absolute change (/ 0.6745 / sqrt 2: robust to the
bursts), and the 50th and 90th percentile and the largest absolute change,
as percentages. Samples only: statistics a tool computed (hyperfine's user
and system means) are not read.
"""
import collections
import csv
import glob
import math
import os
import statistics
import subprocess
import sys
import tempfile

ENV = dict(os.environ, PERFDB_FINGERPRINT="off")


def changes(perfdb, setdir):
    skip = set()
    if os.path.exists(os.path.join(setdir, "step.txt")):
        for line in open(os.path.join(setdir, "step.txt")):
            p = line.split()
            if len(p) == 2 and p[0] in ("commit", "second_commit", "improved_commit", "global_commit"):
                skip.add(p[1])
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "db")
        for f in sorted(glob.glob(os.path.join(setdir, "c[0-9][0-9].*"))):
            name = os.path.basename(f).split(".")[0]
            subprocess.run([perfdb, "--db", db, "ingest", f, "--name", name],
                           env=ENV, check=True, capture_output=True)
        out = subprocess.run([perfdb, "--db", db, "export"], env=ENV, check=True,
                             capture_output=True, text=True).stdout
    vals = collections.defaultdict(list)
    for r in csv.DictReader(out.splitlines()):
        dims = tuple(sorted((k, v) for k, v in r.items() if k.startswith("dim.") and v))
        vals[(r["benchmark"], dims, r["metric"], r["name"])].append(float(r["value"]))
    runs = sorted({k[3] for k in vals})
    by_metric = collections.defaultdict(list)
    for series in sorted({k[:3] for k in vals}):
        prev = None
        for run in runs:
            v = vals.get(series + (run,))
            x = statistics.median(v) if v else 0
            if x > 0 and prev is not None and run not in skip:
                by_metric[series[2]].append(math.log(x / prev))
            prev = x if x > 0 else None
    return by_metric


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    perfdb = sys.argv[1]
    print("%-28s %-12s %5s %8s %8s %8s %8s" % ("set", "metric", "n", "sd/run", "p50", "p90", "max"))
    for setdir in sys.argv[2:]:
        for metric, d in sorted(changes(perfdb, setdir).items()):
            if len(d) < 10:
                continue
            a = sorted(abs(x) for x in d)
            pct = lambda x: "%.1f%%" % (100 * (math.exp(x) - 1))
            sd = statistics.median(a) / 0.6745 / math.sqrt(2)
            print("%-28s %-12s %5d %8s %8s %8s %8s" % (
                "/".join(setdir.rstrip("/").split("/")[-2:]), metric, len(d),
                pct(sd), pct(a[len(a) // 2]), pct(a[int(0.9 * len(a))]), pct(a[-1])))


main()
