#!/usr/bin/python3
"""Facts check: compare what an independent reader finds in a tool's own file
with what perfdb stored (perfdb show RUN --format json).

Usage: check.py FORMAT PATH SHOW.json
       check.py --batch LIST (one "FORMAT<tab>PATH<tab>SHOW.json<tab>MAP" a
       line, MAP given to the reader as $FACTS_MAP: one Python for them all)
Prints "ok FORMAT PATH (N series)" or "FAIL FORMAT PATH" followed by one line
per problem, for each; exit 0 when there is none, 1 otherwise, 2 when a
reader fails.
"""
import importlib.util
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REL = 1e-9


READERS = {}


def load_reader(fmt):
    if fmt not in READERS:
        READERS[fmt] = import_reader(fmt)
    return READERS[fmt]


def import_reader(fmt):
    name = fmt.replace("-", "_")
    path = os.path.join(HERE, "readers", name + ".py")
    sys.path.insert(0, os.path.join(HERE, "readers"))
    spec = importlib.util.spec_from_file_location("facts_reader_" + name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def num(v):
    if v is None:
        return math.nan
    return float(v)


def close(a, b):
    a, b = num(a), num(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if a == b:
        return True
    return abs(a - b) <= REL * max(abs(a), abs(b))


def sample(s):
    if isinstance(s, dict):
        return (s.get("value"), s.get("t"), s.get("weight"))
    return (s, None, None)


def dims_key(d):
    return tuple(sorted((str(k), str(v)) for k, v in (d or {}).items()))


def key(s):
    return (s["benchmark"], dims_key(s.get("dims")), s["metric"])


def name(k):
    b, d, m = k
    ds = ",".join("%s=%s" % kv for kv in d)
    return "%s [%s] %s" % (b, ds, m)


def fname(k):
    b, d = k
    return "%s [%s]" % (b, ",".join("%s=%s" % kv for kv in d))


def fmtv(v):
    return "null" if v is None else repr(v)


def compare_series(want, got, problems, label):
    for field in ("unit", "direction"):
        if want.get(field) != got.get(field):
            problems.append("%s: %s is %s, the facts say %s" % (
                label, field, fmtv(got.get(field)), fmtv(want.get(field))))
    ws = [sample(s) for s in want.get("samples", [])]
    gs = [sample(s) for s in got.get("samples", [])]
    if len(ws) != len(gs):
        problems.append("%s: %d samples, the facts have %d" % (label, len(gs), len(ws)))
    else:
        bad = []
        for i, (w, g) in enumerate(zip(ws, gs)):
            if not close(w[0], g[0]):
                bad.append("value[%d] %s, facts %s" % (i, fmtv(g[0]), fmtv(w[0])))
            for j, what in ((1, "t"), (2, "weight")):
                if (w[j] is None) != (g[j] is None) or (w[j] is not None and not close(w[j], g[j])):
                    bad.append("%s[%d] %s, facts %s" % (what, i, fmtv(g[j]), fmtv(w[j])))
        if bad:
            more = " (+%d more)" % (len(bad) - 5) if len(bad) > 5 else ""
            problems.append("%s: samples differ: %s%s" % (label, "; ".join(bad[:5]), more))
    wst = want.get("stats", {}) or {}
    gst = got.get("stats", {}) or {}
    missing = sorted(set(wst) - set(gst))
    extra = sorted(set(gst) - set(wst))
    if missing:
        problems.append("%s: missing stats %s" % (label, ", ".join(
            "%s=%s" % (m, fmtv(wst[m])) for m in missing)))
    if extra:
        problems.append("%s: extra stats %s" % (label, ", ".join(
            "%s=%s" % (m, fmtv(gst[m])) for m in extra)))
    for st in sorted(set(wst) & set(gst)):
        if not close(wst[st], gst[st]):
            problems.append("%s: stat %s is %s, the facts say %s" % (
                label, st, fmtv(gst[st]), fmtv(wst[st])))


def check(fmt, path, show):
    problems = []
    facts = load_reader(fmt).read(path)
    want = {}
    for s in facts.get("series", []):
        k = key(s)
        if k in want:
            problems.append("reader: series %s twice" % name(k))
        want[k] = s
    got = {}
    for s in show.get("results", []):
        k = key(s)
        if k in got:
            problems.append("series %s stored twice" % name(k))
        got[k] = s
    for k in sorted(set(want) - set(got)):
        problems.append("missing series %s" % name(k))
    for k in sorted(set(got) - set(want)):
        problems.append("extra series %s" % name(k))
    for k in sorted(set(want) & set(got)):
        compare_series(want[k], got[k], problems, name(k))
    wf = sorted(set((f["benchmark"], dims_key(f.get("dims"))) for f in facts.get("failures", [])))
    gf = sorted(set((f["benchmark"], dims_key(f.get("dims"))) for f in show.get("failures", []) or []))
    for f in wf:
        if f in gf:
            gf.remove(f)
        else:
            problems.append("missing failure %s" % fname(f))
    for f in gf:
        problems.append("extra failure %s" % fname(f))
    return len(want), problems


def check_one(fmt, path, show_path):
    label = "%s %s" % (fmt, path)
    try:
        with open(show_path, encoding="utf-8") as f:
            show = json.load(f)
    except ValueError as e:
        print("FAIL %s\n  perfdb show printed no JSON: %s" % (label, e))
        return 1
    try:
        n, problems = check(fmt, path, show)
    except Exception as e:  # a reader that cannot read the file is a failure too
        import traceback
        tb = traceback.format_exc().strip().splitlines()[-1]
        print("FAIL %s\n  reader error: %s" % (label, tb))
        return 2
    if problems:
        print("FAIL %s (%d problems)" % (label, len(problems)))
        for p in problems:
            print("  %s: %s" % (os.path.basename(path.rstrip("/")), p))
        return 1
    print("ok %s (%d series)" % (label, n))
    return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--batch":
        worst = 0
        with open(sys.argv[2], encoding="utf-8") as f:
            for line in f:
                fmt, path, show_path, facts_map = line.rstrip("\n").split("\t")
                os.environ["FACTS_MAP"] = facts_map
                worst = max(worst, check_one(fmt, path, show_path))
        return worst
    if len(sys.argv) != 4:
        sys.stderr.write("usage: check.py FORMAT PATH SHOW.json | --batch LIST\n")
        return 2
    return check_one(*sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
