"""Independent reader: callgrind output files (valgrind --tool=callgrind), from
Valgrind's "Callgrind Format Specification" and callgrind_annotate 3.19.

Header lines "KEY: VALUE" (version, creator, pid, cmd, part, desc, positions,
event, events, summary); the body: position specifications ob=, fl=, fi=, fe=,
fn=, cob=, cfi=/cfl=, cfn=, jfi=, jfn= whose names may be compressed ("(ID) NAME"
defines ID, "(ID)" refers to it, one table for files, one for functions, one
for objects), calls=COUNT TARGET (the next cost line is the call's inclusive
cost), jump=/jcnd= (no cost), cost lines (as many positions as "positions:"
names, each a number, 0xHEX, +N, -N or "*", then the counts; fewer counts than
events: the others 0), and last "totals:". A function's own cost, as
callgrind_annotate's table: the cost lines that are not a call's, per
"FILE:FUNCTION", FILE being the last fl=, fi= or fe=. The series: benchmark
callgrind, the summary's counts (count, lower is better) with the stat totals,
and each function's costs with dims file and function (direction none).
"""


def read(path):
    names = {"fl": {}, "fn": {}, "ob": {}}
    kind = {"fl": "fl", "fi": "fl", "fe": "fl", "cfi": "fl", "cfl": "fl", "jfi": "fl",
            "fn": "fn", "cfn": "fn", "jfn": "fn", "ob": "ob", "cob": "ob"}
    events, summary, totals, npos = None, None, None, 1
    funcs, order = {}, []
    cur_file = cur_fn = cur = None
    call = False

    def name(k, text):
        if text.startswith("(") and ")" in text and text[1:text.index(")")].isdigit():
            i = int(text[1:text.index(")")])
            rest = text[text.index(")") + 1:]
            if rest.startswith(" "):
                names[k][i] = rest[1:]
            return names[k][i]
        return text

    def enter():
        key = (cur_file or "", cur_fn)
        if key not in funcs:
            funcs[key] = [0] * len(events)
            order.append(key)
        return key

    def costs(words):
        out = [0] * len(events)
        assert len(words) <= len(events)
        for i, c in enumerate(words):
            out[i] = 0 if c == "." else int(c)
        return out

    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n").rstrip(" ")
            if not line or line.startswith("#"):
                continue
            head, sep, rest = line.partition(":")
            if sep and head.isalpha() and head.islower():
                if head == "events":
                    events = rest.split()
                elif head == "positions":
                    npos = len(rest.split())
                elif head == "summary":
                    summary = costs(rest.split())
                elif head == "totals":
                    totals = costs(rest.split())
                continue
            key, sep, rest = line.partition("=")
            if sep and key.isalpha():
                if key == "calls":
                    call = True
                elif key in ("jump", "jcnd"):
                    pass
                else:
                    n = name(kind[key], rest)
                    if key in ("fl", "fi", "fe"):
                        cur_file = n
                        if key != "fl" and cur_fn is not None:
                            cur = enter()
                    elif key == "fn":
                        cur_fn = n
                        cur = enter()
                continue
            words = line.split()
            c = costs(words[npos:])
            if call:
                call = False
                continue
            for i, v in enumerate(c):
                funcs[cur][i] += v
    assert totals is not None
    total = summary if summary is not None else totals
    series = [{"benchmark": "callgrind", "dims": {}, "metric": e, "unit": "count",
               "direction": "lower", "samples": [float(v)],
               "stats": {"totals": float(t)} if summary is not None else {}}
              for e, v, t in zip(events, total, totals)]
    for key in order:
        for e, v in zip(events, funcs[key]):
            series.append({"benchmark": "callgrind", "dims": {"file": key[0], "function": key[1]},
                           "metric": e, "unit": "count", "direction": "none",
                           "samples": [float(v)], "stats": {}})
    return {"series": series, "failures": []}
