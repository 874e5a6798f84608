"""Independent reader: cachegrind output files (valgrind --tool=cachegrind), as
cg_annotate 3.19 reads them.

"desc:" lines, "cmd:", "events: E1 E2 ...", then "fl=FILE", "fn=FUNCTION" and cost
lines "LINE C1 C2 ..." (fewer counts than events, or ".", count 0) and last
"summary: C1 C2 ...", one count per event. The series: benchmark cachegrind, the
summary's counts (count, lower is better), and each (fl, fn)'s costs summed, as
cg_annotate's per-function table, with dims file and function (direction none).
"""


def read(path):
    events, summary, funcs, order = None, None, {}, []
    fl = fn = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("summary:"):
                summary = [int(x) for x in line.split()[1:]]
                assert len(summary) == len(events)
            elif line.startswith(("desc:", "cmd:")):
                pass
            elif line.startswith("fl="):
                fl, fn = line[3:], None
            elif line.startswith("fn="):
                fn = line[3:]
                if (fl, fn) not in funcs:
                    funcs[(fl, fn)] = [0] * len(events)
                    order.append((fl, fn))
            else:
                words = line.split()
                int(words[0])
                for i, c in enumerate(words[1:]):
                    if c != ".":
                        funcs[(fl, fn)][i] += int(c)
    assert summary is not None
    series = [{"benchmark": "cachegrind", "dims": {}, "metric": e, "unit": "count",
               "direction": "lower", "samples": [float(v)], "stats": {}}
              for e, v in zip(events, summary)]
    for key in order:
        for e, v in zip(events, funcs[key]):
            series.append({"benchmark": "cachegrind", "dims": {"file": key[0], "function": key[1]},
                           "metric": e, "unit": "count", "direction": "none",
                           "samples": [float(v)], "stats": {}})
    return {"series": series, "failures": []}
