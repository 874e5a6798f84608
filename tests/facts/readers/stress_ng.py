"""stress-ng --metrics --yaml FILE: metrics[] one per stressor: bogo-ops,
bogo-ops-per-second-usr-sys-time, bogo-ops-per-second-real-time (bogo-ops/s),
wall-clock-time, user-time, system-time (s), cpu-usage-per-instance (%),
max-rss (KiB, getrusage's ru_maxrss -> B).  system-info is about the machine."""
import yaml
from _facts import series, result

UNITS = {"bogo-ops": ("count", "none", 1.0),
         "bogo-ops-per-second-usr-sys-time": ("bogo-ops/s", "higher", 1.0),
         "bogo-ops-per-second-real-time": ("bogo-ops/s", "higher", 1.0),
         "wall-clock-time": ("s", "lower", 1.0), "user-time": ("s", "lower", 1.0),
         "system-time": ("s", "lower", 1.0), "cpu-usage-per-instance": ("%", "none", 1.0),
         "max-rss": ("B", "lower", 1024.0)}


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    out = []
    for m in doc.get("metrics") or []:
        name = m["stressor"]
        for k, v in m.items():
            if k == "stressor":
                continue
            unit, direction, scale = UNITS.get(k, ("count", "none", 1.0))
            out.append(series(name, k, unit, direction, [float(v) * scale]))
    return result(out)
