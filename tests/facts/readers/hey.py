"""Independent reader: hey's default text summary, from hey's own report layout.

Sections: "Summary:" (Total, Slowest, Fastest, Average in secs; Requests/sec; Total
data and Size/request in bytes), "Response time histogram:" ("MARK [COUNT] |bars"),
"Latency distribution:" ("P% in X secs"), "Details (average, fastest, slowest):"
(one line per phase), "Status code distribution:" ("[CODE] N responses") and, when
some requests failed, "Error distribution:" ("[N] message"). hey prints NaN, and 0
for fastest/slowest, when no response arrived: those measure nothing.
"""
import math
import re
from _facts import load_failures

BENCH = "hey"
PHASES = {"DNS+dialup": "dns_dialup", "DNS-lookup": "dns_lookup", "req write": "request_write",
          "resp wait": "response_wait", "resp read": "response_read"}


def _series(out, metric, unit, direction):
    return out.setdefault(metric, {"benchmark": BENCH, "dims": {}, "metric": metric,
                                   "unit": unit, "direction": direction,
                                   "samples": [], "stats": {}})


def read(path):
    out = {}
    held = []  # (metric, stat, value): time stats kept only when some response arrived
    responses = non_2xx = errors = 0
    section = None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip()
            text = line.strip()
            if not text:
                continue
            if not line[0].isspace():
                section = text
                continue
            if section == "Summary:":
                key, _, val = text.partition(":")
                val = val.strip()
                if key in ("Total", "Slowest", "Fastest", "Average"):
                    v = float(val.split()[0])
                    if math.isnan(v):
                        continue
                    if key == "Total":
                        _series(out, "elapsed", "s", "none")["samples"].append(v)
                    else:
                        held.append(("latency", {"Slowest": "max", "Fastest": "min",
                                                 "Average": "mean"}[key], v))
                elif key == "Requests/sec":
                    _series(out, "throughput", "req/s", "higher")["samples"].append(float(val))
                elif key == "Total data":
                    _series(out, "bytes_read", "B", "none")["samples"].append(float(val.split()[0]))
            elif section == "Response time histogram:":
                m = re.match(r"([0-9.]+) \[(\d+)\]", text)
                if int(m.group(2)) > 0:
                    _series(out, "latency_histogram", "s", "none")["samples"].append(
                        {"value": float(m.group(1)), "weight": float(m.group(2))})
            elif section == "Latency distribution:":
                m = re.match(r"([0-9.]+)% in (\S+) secs", text)
                v = float(m.group(2))
                if not math.isnan(v):
                    _series(out, "latency", "s", "lower")["stats"]["p" + m.group(1)] = v
            elif section == "Details (average, fastest, slowest):":
                key, _, val = text.partition(":")
                vals = [float(x.strip().split()[0]) for x in val.split(",")]
                for stat, v in zip(("mean", "min", "max"), vals):
                    if not math.isnan(v):
                        held.append((PHASES[key], stat, v))
            elif section == "Status code distribution:":
                m = re.match(r"\[(\d+)\]\s+(\d+) responses", text)
                code, n = int(m.group(1)), int(m.group(2))
                responses += n
                if not 200 <= code <= 299:
                    non_2xx += n
            elif section == "Error distribution:":
                errors += int(re.match(r"\[(\d+)\]", text).group(1))
    if responses > 0:
        for metric, stat, v in held:
            _series(out, metric, "s", "lower")["stats"][stat] = v
    _series(out, "requests", "count", "none")["samples"].append(float(responses))
    _series(out, "non_2xx", "count", "lower")["samples"].append(float(non_2xx))
    _series(out, "errors", "count", "lower")["samples"].append(float(errors))
    return {"series": list(out.values()), "failures": load_failures(list(out.values()))}
