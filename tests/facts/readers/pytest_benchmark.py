"""pytest-benchmark --benchmark-json: benchmarks[] with name ("test_x[p]"),
params (dims; the name without its [..] suffix is the benchmark), stats (seconds):
data = every round (per iteration) as samples (an
edited file may hold a note string among them: not a value), min/max/mean/stddev/median/iqr/
q1/q3/ld15iqr/hd15iqr/total as stats; ops (1/s) its own metric, stat mean.
The rounds are `time` (a wall clock), or `cpu_time` when options.timer is a
CPU-time clock (--benchmark-timer=time.process_time or time.thread_time)."""
import json
from _facts import series, result, text

TIME_STATS = ("min", "max", "mean", "stddev", "median", "iqr", "q1", "q3", "ld15iqr", "hd15iqr", "total")


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = []
    for b in doc["benchmarks"]:
        params = b.get("params") or {}
        name = b["name"]
        if params and name.endswith("]") and "[" in name:
            name = name[:name.index("[")]
        dims = {k: text(v) for k, v in params.items()}
        st = b["stats"]
        stats = {k: float(st[k]) for k in TIME_STATS if st.get(k) is not None}
        timer = (b.get("options") or {}).get("timer") or ""
        metric = "cpu_time" if timer in ("process_time", "thread_time") else "time"
        out.append(series(name, metric, "s", "lower", [float(x) for x in st.get("data") or [] if isinstance(x, (int, float))], stats, dims))
        if st.get("ops") is not None:
            out.append(series(name, "ops", "ops/s", "higher", [], {"mean": float(st["ops"])}, dims))
    return result(out)
