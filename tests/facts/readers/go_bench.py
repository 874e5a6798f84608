"""go test -bench text: "BenchmarkName/sub/k=v-P <N> <value unit>...".

The -P suffix is GOMAXPROCS (dim procs; no suffix means 1); "/key=value" parts
of the name are dims (golang benchfmt's convention), the rest is the benchmark.
N -> iterations; ns/op -> time (s); MB/s -> throughput (1e6 B/s, as testing
computes it); B/op -> alloc_bytes; allocs/op -> allocs; any other unit is a
metric of that name (ReportMetric), direction none.  Each line is one sample."""
import re
from _facts import series, result

LINE = re.compile(r"^(Benchmark\S*)\s+(\d+)((?:\s+[-+0-9.eE]+\s+\S+)+)\s*$")


def parse_name(full):
    m = re.fullmatch(r"(.*?)-(\d+)", full)
    name, procs = (m.group(1), m.group(2)) if m else (full, "1")
    parts = name.split("/")
    keep, dims = [parts[0]], {}
    for p in parts[1:]:
        kv = re.fullmatch(r"([^=]+)=([^=]*)", p)
        if kv:
            dims[kv.group(1)] = kv.group(2)
        else:
            keep.append(p)
    dims["procs"] = procs
    return "/".join(keep), dims


def read_text(text):
    order, by = [], {}

    def add(bench, dims, metric, unit, direction, v):
        k = (bench, tuple(sorted(dims.items())), metric)
        if k not in by:
            by[k] = series(bench, metric, unit, direction, dims=dims)
            order.append(k)
        by[k]["samples"].append(v)

    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        bench, dims = parse_name(m.group(1))
        add(bench, dims, "iterations", "count", "none", float(m.group(2)))
        f = m.group(3).split()
        for v, unit in zip(f[0::2], f[1::2]):
            v = float(v)
            if unit == "ns/op":
                add(bench, dims, "time", "s", "lower", v * 1e-9)
            elif unit == "MB/s":
                add(bench, dims, "throughput", "B/s", "higher", v * 1e6)
            elif unit == "B/op":
                add(bench, dims, "alloc_bytes", "B/op", "lower", v)
            elif unit == "allocs/op":
                add(bench, dims, "allocs", "allocs/op", "lower", v)
            else:
                add(bench, dims, unit, unit, "none", v)
    return result([by[k] for k in order])


def read(path):
    with open(path, encoding="utf-8") as f:
        return read_text(f.read())
