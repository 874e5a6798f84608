"""Independent reader: perf stat's text output (stderr or -o FILE), from perf's layout.

A counter line is printed as "%18.2f" (or "%18.0f") of the value, thousands grouped
under a locale that groups them, one blank, the unit (or as many blanks) and one
blank, the event padded to 32, then "# METRIC", -r's "( +- N% )" and, when the
counter ran part of the time, "(N%)"; -I prints the time first, -A "CPUn". Lines
starting with '#' are comments. The footer gives "S seconds time elapsed" (with -r:
"S +- SD seconds time elapsed  ( +- N% )"), "S seconds user", "S seconds sys".
The series are those of the -x, CSV (perf_stat.py): benchmark perf-stat, metric =
event, msec as s; the footer as wall_time, user_time, sys_time (s), and user + sys as cpu_time.
"""
import re

_UNITS = {"msec": ("s", 1000.0, "lower"), "": ("count", 1.0, "none")}
_NUM = r"[0-9][0-9,]*(?:\.[0-9]+)?"
_COUNTER = re.compile(
    r"^\s*(?:(?P<t>[0-9.]+)\s+)?(?:CPU(?P<cpu>[0-9]+)\s+)?"
    r"(?P<value><not supported>|<not counted>|" + _NUM + r")"
    r"(?: (?P<unit>\S+))?\s+(?P<event>\S+)"
    r"(?:\s+#\s+(?P<metric>.*?))?"
    r"(?:\s+\(\s*\+-\s*(?P<noise>[0-9.]+)%\s*\))?"
    r"(?:\s+\((?P<pct>[0-9.]+)%\))?\s*$")
_FOOTER = re.compile(
    r"^\s*(?P<v>[0-9.]+)(?: \+- (?P<sd>[0-9.]+))? seconds (?P<what>time elapsed|user|sys)"
    r"(?:\s+\(\s*\+-\s*(?P<noise>[0-9.]+)%\s*\))?\s*$")
_FOOTER_METRIC = {"time elapsed": "wall_time", "user": "user_time", "sys": "sys_time"}


def read(path):
    series = {}

    def get(metric, cpu, unit, direction):
        return series.setdefault((metric, cpu), {
            "benchmark": "perf-stat", "dims": {"cpu": cpu} if cpu is not None else {},
            "metric": metric, "unit": unit, "direction": direction,
            "samples": [], "stats": {}})

    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line.strip() or line.startswith("#") or \
                    line.startswith(" Performance counter stats for "):
                continue
            m = _FOOTER.match(line)
            if m:
                s = get(_FOOTER_METRIC[m["what"]], None, "s", "lower")
                s["samples"].append(float(m["v"]))
                if m["sd"]:
                    s["stats"]["stderr"] = float(m["sd"])
                if m["noise"]:
                    s["stats"]["variance"] = float(m["noise"])
                user = series.get(("user_time", None))
                if m["what"] == "sys" and user and user["samples"]:
                    # their sum: cpu_time, as every source names CPU time
                    get("cpu_time", None, "s", "lower")["samples"].append(
                        user["samples"][-1] + float(m["v"]))
                continue
            m = _COUNTER.match(line)
            if not m:
                raise ValueError("not a perf stat line: %r" % line)
            if m["value"].startswith("<"):
                continue
            canon, div, direction = _UNITS.get(m["unit"] or "", (m["unit"], 1.0, "none"))
            s = get(m["event"], m["cpu"], canon, direction)
            v = float(m["value"].replace(",", "")) / div
            if m["t"]:
                s["samples"].append({"value": v, "t": float(m["t"])})
                continue
            s["samples"].append(v)
            if m["noise"]:
                s["stats"]["variance"] = float(m["noise"])
            if m["pct"]:
                s["stats"]["measured_pct"] = float(m["pct"])
    return {"series": list(series.values()), "failures": []}
