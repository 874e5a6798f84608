"""stress-ng --metrics --yaml FILE: metrics[] one per stressor: bogo-ops,
bogo-ops-per-second-usr-sys-time, bogo-ops-per-second-real-time (bogo-ops/s,
higher), wall-clock-time (s, lower), user-time, system-time (s, none: under -t
the CPU the stressor got), cpu-usage-per-instance (%), max-rss (KiB,
getrusage's ru_maxrss -> B); a stressor's own "NOUN-per-sec" or
"NOUN-per-second" metrics (the matrix stressor's add-matrix-ops-per-sec) are
NOUN/s, higher (docs/formats.md).  system-info is about the machine."""
import re

import yaml
from _facts import series, result

UNITS = {"bogo-ops": ("count", "none", 1.0),
         "bogo-ops-per-second-usr-sys-time": ("bogo-ops/s", "higher", 1.0),
         "bogo-ops-per-second-real-time": ("bogo-ops/s", "higher", 1.0),
         "wall-clock-time": ("s", "lower", 1.0), "user-time": ("s", "none", 1.0),
         "system-time": ("s", "none", 1.0), "cpu-usage-per-instance": ("%", "none", 1.0),
         "max-rss": ("B", "lower", 1024.0)}


def unit_of(key):
    if key in UNITS:
        return UNITS[key]
    m = re.fullmatch(r"(?:[a-z0-9]+-)*([a-z]+)-per-sec(?:ond)?", key)
    if m:
        return (m.group(1) + "/s", "higher", 1.0)
    return ("count", "none", 1.0)


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    out = []
    for m in doc.get("metrics") or []:
        name = m["stressor"]
        for k, v in m.items():
            if k == "stressor":
                continue
            unit, direction, scale = unit_of(k)
            out.append(series(name, k, unit, direction, [float(v) * scale]))
    return result(out)
