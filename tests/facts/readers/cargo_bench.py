"""cargo bench (libtest) text: "test NAME ... bench: VALUE UNIT (+/- DEV)",
with thousands separators.  ns/iter -> time (s), stat deviation (same unit);
X/iter -> metric X, unit X/iter, lower (a cost per iteration); any other unit
(a custom rate such as MS/s) is the metric's name and unit. "MS/s" reads as
milliseconds per second as much as mega-samples per second, so its direction is
not guessed: none (perfdb keeps units it cannot tell with direction none)."""
import re
from _facts import series, result

LINE = re.compile(r"^test (\S+)\s+\.\.\. bench:\s+([0-9,.]+) (\S+) \(\+/- ([0-9,.]+)\)")


def read(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = LINE.match(line.strip())
            if not m:
                continue
            name, v, unit, dev = m.group(1), float(m.group(2).replace(",", "")), m.group(3), \
                float(m.group(4).replace(",", ""))
            if unit == "ns/iter":
                out.append(series(name, "time", "s", "lower", [v * 1e-9], {"deviation": dev * 1e-9}))
            elif unit.endswith("/iter"):
                out.append(series(name, unit[:-5], unit, "lower", [v], {"deviation": dev}))
            else:
                out.append(series(name, unit, unit, "none",
                                  [v], {"deviation": dev}))
    return result(out)
