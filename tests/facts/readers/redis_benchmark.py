"""redis-benchmark --csv (6.x/7.x): "test","rps","avg_latency_ms",
"min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms",
"max_latency_ms" (older versions: "test","rps" only).  throughput (req/s) a
sample; latency (ms -> s) stats mean/min/pNN/max."""
import csv
import re
from _facts import series, result


def read(path):
    out = []
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    for r in rows[1:]:
        if not r:
            continue
        row = dict(zip(header, r))
        test = row["test"]
        out.append(series(test, "throughput", "req/s", "higher", [float(row["rps"])]))
        st = {}
        for k, v in row.items():
            m = re.fullmatch(r"(avg|min|max|p\d+(?:\.\d+)?)_latency_ms", k)
            if m and v != "":
                st[{"avg": "mean"}.get(m.group(1), m.group(1))] = float(v) * 1e-3
        if st:
            out.append(series(test, "latency", "s", "lower", [], st))
    return result(out)
