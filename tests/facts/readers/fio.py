"""fio --output-format=json: jobs[], each with "job options" (the workload
options are the dims: rw, bs, iodepth, numjobs, rwmixread, ioengine, direct and
fio's aliases readwrite, blocksize, rwmixwrite; how long and where a job ran --
runtime, ramp_time, time_based, size, name, directory, filename, ... -- is not
part of the series) and one object per
direction (read, write, trim; sync for fsync).  Every direction that did I/O
(total_ios > 0) is its own series set with dim dir=...: iops (io/s; stats
interval_min/max/mean/stddev from iops_min/max/mean/stddev, fio's per-interval
samples), bw (bw_bytes B/s; the same from bw_min/max/mean/dev, in KiB/s),
lat/clat/slat (ns -> s; min/max/mean/stddev and the percentile map as pNN) when
their N > 0, io_bytes, total_ios, short_ios, drop_ios, runtime (ms -> s).  The
job's own usr_cpu/sys_cpu (%), ctx/majf/minf and job_runtime (ms) have no dir.
--output-format=json+ adds "bins" {ns: count} to a latency: weighted samples, in
the file's (ascending) order."""
import json
from _facts import series, result, text, pct_name

WORKLOAD = {"rw", "readwrite", "bs", "blocksize", "iodepth", "numjobs", "rwmixread",
            "rwmixwrite", "ioengine", "direct"}


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = []
    names = [job["jobname"] for job in doc["jobs"]]
    seen = {}
    for job in doc["jobs"]:
        name = job["jobname"]
        base = {k: text(v) for k, v in (job.get("job options") or {}).items() if k in WORKLOAD}
        if names.count(name) > 1:  # numjobs > 1 without group_reporting: one entry per clone
            base["clone"] = str(seen.get(name, 0))
            seen[name] = seen.get(name, 0) + 1
        for d in ("read", "write", "trim", "sync"):
            io = job.get(d)
            if not isinstance(io, dict) or not io.get("total_ios"):
                continue
            dims = dict(base, dir=d)
            if "iops" in io:
                st = {"interval_" + s: float(io[k])
                      for s, k in (("min", "iops_min"), ("max", "iops_max"),
                                   ("mean", "iops_mean"), ("stddev", "iops_stddev")) if k in io}
                out.append(series(name, "iops", "io/s", "higher", [float(io["iops"])], st, dims))
            if "bw_bytes" in io:
                st = {"interval_" + s: float(io[k]) * 1024
                      for s, k in (("min", "bw_min"), ("max", "bw_max"),
                                   ("mean", "bw_mean"), ("stddev", "bw_dev")) if k in io}
                out.append(series(name, "bw", "B/s", "higher", [float(io["bw_bytes"])], st, dims))
            for key, metric in (("lat_ns", "lat"), ("clat_ns", "clat"), ("slat_ns", "slat")):
                lat = io.get(key)
                if not lat or not lat.get("N"):
                    continue
                st = {s: float(lat[s]) * 1e-9 for s in ("min", "max", "mean", "stddev") if s in lat}
                for p, v in (lat.get("percentile") or {}).items():
                    st[pct_name(p)] = float(v) * 1e-9
                bins = [{"value": float(ns) * 1e-9, "weight": float(c)} for ns, c in (lat.get("bins") or {}).items()]
                out.append(series(name, metric, "s", "lower", bins, st, dims))
            for key, unit, scale in (("io_bytes", "B", 1), ("total_ios", "count", 1), ("short_ios", "count", 1),
                                     ("drop_ios", "count", 1), ("runtime", "s", 1e-3)):
                if key in io:
                    out.append(series(name, key, unit, "none", [float(io[key]) * scale], {}, dims))
        for key, unit, scale in (("usr_cpu", "%", 1), ("sys_cpu", "%", 1), ("ctx", "count", 1),
                                 ("majf", "count", 1), ("minf", "count", 1), ("job_runtime", "s", 1e-3)):
            if key in job:
                out.append(series(name, key, unit, "none", [float(job[key]) * scale], {}, base))
    return result(out)
