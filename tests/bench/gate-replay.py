#!/usr/bin/env python3
"""Scores a perfdb binary's CI gate on real noisy histories (issue 38).

Usage: gate-replay.py [-v] [--push-args ARGS] [--pr-args ARGS] [--young N] PERFDB SET_DIR [SET_DIR ...]
  -v                each commit's gate exit and failing rows, and every row of the
                    step's benchmark in each PR gate, too
  --push-args ARGS  more options of the push gate's compare (one shell-quoted string,
                    e.g. "--metric 'user_time'"); --pr-args: of the PR gate's
                    (e.g. "--last 5", as docs/ci.md's "The gate step" does)
  --young N         replay a young history: main's commits from N before the
                    step on (a set without a known step is replayed whole)

A set folder holds c01.json ... cNN.json (one run per commit of main, in
order; any format `perfdb ingest` reads, with its usual extension: K's are
cNN.csv), optionally prNN-slow.json and prNN-same.json (or .csv: pull-request runs made after the history: the stepped
benchmark doing 2x the work of main's newest commit, or nothing changed) and
optionally step.txt, which names the real change:

    commit c13
    bench b2sum blob.bin
    factor 1.25

and optionally a commit that makes another benchmark faster (an improvement,
which the gate must pass and detect may find) and, when the pull requests'
2x slower benchmark is not the step's, its name (set I has the first, J the
second):

    improved_commit c18
    improved_bench python-words
    improved_factor 1.3
    pr_bench jq -c 'map(.v) | add' data.json

and a second step, later, on another benchmark (set O has one):

    second_commit c17
    second_bench BM_memcpy
    second_factor 1.5

and, when the step slows several benchmarks at once, `bench` once for each,
and a commit where every benchmark got slower together (a global regression,
which the push gate must fail; set L has both):

    commit c14
    bench mix-sum
    bench mix-scan
    factor 1.4
    global_commit c20
    global_factor 1.3

(fixtures/hyperfine-loaded/A and B have none: their steps are known here.)
The benchmark is named as perfdb stores it: a hyperfine command, a `perfdb
run` spec's name, a Google Benchmark name (G: BM_fnv1a), a pytest-benchmark
test without its parameters (H: test_squares).
For each set, as the CI recipes of ci-examples/ and docs/ci.md gate:

  push:   ingest c01..cNN in order into a fresh database, each with --name cNN
          --attr branch=main --attr commit=cNN; after each from the 2nd,
          perfdb compare latest~1:branch=main latest:branch=main --format json
          (the exit status and the rows that fail the gate: benchmark,
          metric, verdict, change, interval, test);
  PRs:    each pr file into a copy of the full history's database with
          --attr branch=pr-N, then perfdb compare latest:branch=main
          latest:branch=pr-N --format json;
  detect: perfdb detect --where branch=main --format json over the full
          history: the change points per series and the commit they start at.

It prints one summary per set and a total line, and exits 0 unless perfdb
cannot be run at all: it scores, it does not judge. Whatever metrics the
gate reports are scored alike (time, wall_time, user_time, cpu_time, ...).
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

KNOWN_STEPS = {  # sets made before step.txt existed
    ("hyperfine-loaded", "A"): ("c25", "gzip -c text.txt", 2.0),
    ("hyperfine-loaded", "B"): ("c25", "md5sum blob.bin", 1.5),
    ("A", "runs3"): ("c09", "sha256sum data.bin", 3.0),
}

ENV = dict(os.environ, PERFDB_FINGERPRINT="off")


def run(perfdb, db, *args):
    # in the scratch folder: compare reads ./perfdb.yaml, and none is to apply here
    p = subprocess.run([perfdb, "--db", db, *args], capture_output=True, text=True, env=ENV,
                       cwd=os.path.dirname(db))
    return p.returncode, p.stdout, p.stderr


def read_step(d):
    """step.txt's keys (commit, bench, factor, improved_*, second_*, pr_bench, global_*) as a
    dict; benches: every `bench` line in order (bench: the first)."""
    f = os.path.join(d, "step.txt")
    kv = {}
    benches = []
    if os.path.exists(f):
        for line in open(f):
            line = line.strip()
            if line and not line.startswith("#"):
                k, _, v = line.partition(" ")
                if k == "bench":
                    benches.append(v.strip())
                    kv.setdefault(k, v.strip())
                else:
                    kv[k] = v.strip()
    else:
        parts = os.path.normpath(os.path.abspath(d)).split(os.sep)
        known = KNOWN_STEPS.get(tuple(parts[-2:]))
        if known:
            kv = dict(zip(("commit", "bench", "factor"), known))
            benches = [kv["bench"]]
    kv["benches"] = benches
    kv["factor"] = float(kv.get("factor", "nan"))
    kv["improved_factor"] = float(kv.get("improved_factor", "nan"))
    kv["global_factor"] = float(kv.get("global_factor", "nan"))
    kv["second_factor"] = float(kv.get("second_factor", "nan"))
    kv.setdefault("pr_bench", kv.get("bench"))
    return kv


def gate_rows(out):
    """The rows of compare --format json that fail the gate, and all rows."""
    try:
        doc = json.loads(out)
    except ValueError:
        return [], []
    rows = doc.get("results", [])
    fails = [r for r in rows if r.get("fails_gate")]
    return fails, rows


def fmt_row(r):
    def pct(x):
        return "?" if x is None else "%+.0f%%" % x
    def med(side):
        v = (r.get(side) or {}).get("median")
        return "?" if v is None else "%.4g" % v
    return "%s %s %s %s [%s, %s] %s (medians %s -> %s)" % (
        r.get("benchmark"), r.get("metric"), r.get("verdict"), pct(r.get("change_pct")),
        pct(r.get("ci_low_pct")), pct(r.get("ci_high_pct")), r.get("test"), med("baseline"),
        med("candidate"))


def pr_number(name):
    m = re.match(r"pr(\d+)", name)
    return int(m.group(1)) if m else 0


def score(perfdb, name, verbose, work, push_args=(), pr_args=(), young=None):
    d = os.path.abspath(name)
    commits = sorted(f for f in os.listdir(d) if re.fullmatch(r"c\d+\.(json|csv)", f))
    prs = sorted(f for f in os.listdir(d) if re.fullmatch(r"pr\d+-(slow|same)\.(json|csv)", f))
    meta = read_step(d)
    first = commit_no(meta.get("commit"))
    if young is not None and first is not None:
        commits = [f for f in commits if commit_no(os.path.splitext(f)[0]) >= first - young]
    step, bench, factor = meta.get("commit"), meta.get("bench"), meta["factor"]
    benches, glob = meta["benches"], meta.get("global_commit")
    improved, improved_bench = meta.get("improved_commit"), meta.get("improved_bench")
    pr_bench = meta["pr_bench"]
    second, second_bench = meta.get("second_commit"), meta.get("second_bench")
    db = os.path.join(work, "main.db")
    s = {"set": name, "commits": len(commits), "step": step, "bench": bench, "factor": factor,
         "benches": benches, "global": glob, "global_factor": meta["global_factor"],
         "global_exit": None, "global_fails": [], "global_benches": [], "global_gated": [],
         "improved": improved, "improved_bench": improved_bench,
         "improved_factor": meta["improved_factor"], "improved_exit": None, "improved_fails": [],
         "improved_all": [], "pr_bench": pr_bench,
         "second": second, "second_bench": second_bench, "second_factor": meta["second_factor"],
         "second_exit": None, "second_rows": [], "second_all": [],
         "unchanged": 0, "unchanged_failed": 0, "unchanged5": 0, "unchanged5_failed": 0,
         "false_rows": {}, "step_exit": None, "step_rows": [], "step_other": [],
         "step_all": [], "errors": [], "run_commit": {}}
    for i, f in enumerate(commits):
        c = os.path.splitext(f)[0]
        rc, out, err = run(perfdb, db, "ingest", os.path.join(d, f), "--name", c,
                           "--attr", "branch=main", "--attr", "commit=" + c)
        if rc != 0:
            s["errors"].append("ingest %s: exit %d: %s" % (c, rc, err.strip()[:200]))
            continue
        m = re.search(r"run(\d+)", out)
        if m:
            s["run_commit"]["run" + m.group(1)] = c
        if i == 0:
            continue
        rc, out, err = run(perfdb, db, "compare", "latest~1:branch=main", "latest:branch=main",
                           "--format", "json", *push_args)
        if rc > 1:
            s["errors"].append("compare at %s: exit %d: %s" % (c, rc, err.strip()[:200]))
        fails, rows = gate_rows(out)
        if verbose:
            print("  %s exit %d%s" % (c, rc, "".join("\n      " + fmt_row(r) for r in fails)))
        if c == step:
            s["step_exit"] = rc
            s["step_all"] = [r for r in rows if r.get("benchmark") in benches]
            s["step_rows"] = [r for r in fails if r.get("benchmark") in benches]
            s["step_other"] = [r for r in fails if r.get("benchmark") not in benches]
            continue
        if c == glob:
            s["global_exit"] = rc
            s["global_fails"] = fails
            s["global_benches"] = sorted({r.get("benchmark") for r in rows})
            s["global_gated"] = [r for r in rows if r.get("gated")]
            continue
        if c == second:
            s["second_exit"] = rc
            s["second_all"] = [r for r in rows if r.get("benchmark") == second_bench]
            s["second_rows"] = [r for r in fails if r.get("benchmark") == second_bench]
            continue
        if c == improved:
            s["improved_exit"] = rc
            s["improved_fails"] = fails
            s["improved_all"] = [r for r in rows if r.get("benchmark") == improved_bench]
            continue
        s["unchanged"] += 1
        failed = rc != 0
        s["unchanged_failed"] += failed
        if i >= 5:  # 5 or more runs of history before this one
            s["unchanged5"] += 1
            s["unchanged5_failed"] += failed
        for r in fails:
            s["false_rows"].setdefault(r.get("metric"), []).append((c, r))

    # pull requests, each into a copy of the whole history
    s["pr"] = {"slow": [0, 0, 0], "same": [0, 0]}  # slow: n, failed, failed on pr_bench
    s["pr_lines"] = []
    for f in prs:
        name = os.path.splitext(f)[0]
        kind = name.rsplit("-", 1)[1]
        n = pr_number(name)
        prdb = os.path.join(work, "pr.db")
        shutil.copy(db, prdb)
        rc, out, err = run(perfdb, prdb, "ingest", os.path.join(d, f), "--name", name,
                           "--attr", "branch=pr-%d" % n, "--attr", "commit=" + name)
        if rc != 0:
            s["errors"].append("ingest %s: exit %d: %s" % (name, rc, err.strip()[:200]))
            continue
        rc, out, err = run(perfdb, prdb, "compare", "latest:branch=main", "latest:branch=pr-%d" % n,
                           "--format", "json", *pr_args)
        if rc > 1:
            s["errors"].append("compare %s: exit %d: %s" % (name, rc, err.strip()[:200]))
        fails, rows = gate_rows(out)
        st = s["pr"][kind]
        st[0] += 1
        st[1] += rc == 1
        if kind == "slow":
            st[2] += any(r.get("benchmark") == pr_bench for r in fails)
        if verbose:  # every row of the slowed benchmark, too
            shown = fails + [r for r in rows if r.get("benchmark") == pr_bench and r not in fails]
            s["pr_lines"].append("%s exit %d%s" % (name, rc, "".join(
                "\n      %s%s" % ("" if r in fails else "(passes) ", fmt_row(r)) for r in shown)))
        else:
            s["pr_lines"].append("%s exit %d%s" % (name, rc, "".join(
                "; %s %s %s %s" % (r.get("benchmark"), r.get("metric"), r.get("verdict"),
                                   "?" if r.get("change_pct") is None else "%+.0f%%" % r["change_pct"])
                for r in fails)))
        os.unlink(prdb)

    # detect over main's whole history
    rc, out, err = run(perfdb, db, "detect", "--where", "branch=main", "--format", "json")
    s["detect_exit"] = rc
    s["cps"] = []
    try:
        series = json.loads(out).get("series", [])
    except ValueError:
        series = []
        s["errors"].append("detect: exit %d: %s" % (rc, err.strip()[:200]))
    s["detect_series"] = len(series)
    for ser in series:
        for cp in ser.get("change_points", []):
            at = s["run_commit"].get(cp.get("run_after"), cp.get("run_after"))
            s["cps"].append((ser.get("benchmark"), ser.get("metric"), at, cp.get("verdict"),
                             cp.get("change_pct"), cp.get("confirmed"), cp.get("cpu_steady")))
    return s


def commit_no(c):
    m = re.fullmatch(r"c(\d+)", c or "")
    return int(m.group(1)) if m else None


def near(cp, bench, verdict, commit):
    """Change point cp is of bench, says verdict, and starts at commit or up to 2
    commits after it (the commit's own run may be read as an outlier)."""
    at, c = commit_no(cp[2]), commit_no(commit)
    return (c is not None and at is not None and cp[0] == bench and cp[3] == verdict
            and c <= at <= c + 2)


def detect_found(s):
    """A regression change point of each of the step's benchmarks at the step (or 2
    after)."""
    return bool(s["benches"]) and all(
        any(near(cp, b, "regression", s["step"]) for cp in s["cps"]) for b in s["benches"])


def global_found(s):
    """The benchmarks with a regression change point at the global regression (or 2
    after), of those the push gate compared."""
    return [b for b in s["global_benches"]
            if any(near(cp, b, "regression", s["global"]) for cp in s["cps"])]


def second_found(s):
    """A regression change point of the second step's benchmark at its commit (or 2 after)."""
    return any(near(cp, s["second_bench"], "regression", s["second"]) for cp in s["cps"])


def improvement_found(s):
    """An improvement change point of the improved benchmark at its commit (or 2 after)."""
    return any(near(cp, s["improved_bench"], "improvement", s["improved"]) for cp in s["cps"])


def is_control(s, cp):
    """A change point that no real change explains: not of the step's benchmark, and
    not the known improvement."""
    return (cp[0] not in s["benches"]
            and not near(cp, s["improved_bench"], "improvement", s["improved"])
            and not near(cp, s["second_bench"], "regression", s["second"])
            and not near(cp, cp[0], "regression", s["global"]))


def report(s):
    step, bench = s["step"], s["bench"]
    print("== %s: %d commits; step: %s%s" % (
        s["set"], s["commits"],
        "%s at %s (x%g)" % (", ".join(s["benches"]), step, s["factor"]) if step else "none known",
        "; global regression at %s (every benchmark x%g)" % (s["global"], s["global_factor"])
        if s["global"] else ""))
    by_metric = ", ".join("%s %d" % (m, len(v)) for m, v in sorted(s["false_rows"].items())) or "none"
    print("  push, unchanged commits: %d failed of %d (with >= 5 runs of history: %d of %d); "
          "failing rows by metric: %s" % (s["unchanged_failed"], s["unchanged"],
                                          s["unchanged5_failed"], s["unchanged5"], by_metric))
    for m, v in sorted(s["false_rows"].items()):
        for c, r in v:
            print("    %s: %s" % (c, fmt_row(r)))
    if step:
        if s["step_exit"] is None:
            print("  push, step %s: not replayed" % step)
        else:
            print("  push, step %s: gate exit %d; failing on the step: %s; failing elsewhere: %d" % (
                step, s["step_exit"],
                ", ".join(r.get("metric") for r in s["step_rows"]) or "none", len(s["step_other"])))
            for r in s["step_all"]:
                print("    %s" % fmt_row(r))
            for r in s["step_other"]:
                print("    (other) %s" % fmt_row(r))
    if s["global"]:
        if s["global_exit"] is None:
            print("  push, global regression %s: not replayed" % s["global"])
        else:
            failing = sorted({r.get("benchmark") for r in s["global_fails"]})
            print("  push, global regression %s: gate exit %d; benchmarks failing: %d of %d" % (
                s["global"], s["global_exit"], len(failing), len(s["global_benches"])))
            for r in s["global_gated"]:  # every gated row, and why it passed or failed
                print("    %s%s: %s" % ("" if r.get("fails_gate") else "(passes) ", fmt_row(r),
                                        r.get("reason") or "-"))
    if s["second"]:
        if s["second_exit"] is None:
            print("  push, second step %s: not replayed" % s["second"])
        else:
            print("  push, second step %s (%s x%g): gate exit %d; failing on it: %s" % (
                s["second"], s["second_bench"], s["second_factor"], s["second_exit"],
                ", ".join(r.get("metric") for r in s["second_rows"]) or "none"))
            for r in s["second_all"]:
                print("    %s" % fmt_row(r))
    if s["improved"]:
        if s["improved_exit"] is None:
            print("  push, improvement %s: not replayed" % s["improved"])
        else:
            print("  push, improvement %s (%s x1/%g): gate exit %d; failing rows: %d" % (
                s["improved"], s["improved_bench"], s["improved_factor"], s["improved_exit"],
                len(s["improved_fails"])))
            for r in s["improved_all"]:
                print("    %s" % fmt_row(r))
            for r in s["improved_fails"]:
                if r.get("benchmark") != s["improved_bench"]:
                    print("    (other) %s" % fmt_row(r))
    sl, sa = s["pr"]["slow"], s["pr"]["same"]
    if sl[0] or sa[0]:
        print("  PRs: slow (2x%s) failed %d of %d (on the slowed benchmark %d); same failed %d of %d" % (
            "" if s["pr_bench"] == bench else " " + s["pr_bench"], sl[1], sl[0], sl[2], sa[1], sa[0]))
        for line in s["pr_lines"]:
            print("    " + line)
    on_step = [cp for cp in s["cps"] if cp[0] in s["benches"]]
    on_ctl = [cp for cp in s["cps"] if is_control(s, cp)]
    print("  detect (exit %d, %d series): %d change points on the step's benchmark%s (%s), %s%s%s"
          "%d on controls (%d confirmed, %d regressions)" % (
              s["detect_exit"], s["detect_series"], len(on_step),
              "s" if len(s["benches"]) > 1 else "",
              "found" if detect_found(s) else "step not found",
              "the second step %s, " % ("found" if second_found(s) else "not found")
              if s["second"] else "",
              "the improvement %s, " % ("found" if improvement_found(s) else "not found")
              if s["improved"] else "",
              "the global regression found on %d of %d benchmarks, " % (
                  len(global_found(s)), len(s["global_benches"])) if s["global"] else "",
              len(on_ctl),
              sum(1 for cp in on_ctl if cp[5]), sum(1 for cp in on_ctl if cp[3] == "regression")))
    for cp in s["cps"]:
        b, m, at, v, pct, conf, steady = cp
        print("    %s %s at %s: %s %+.0f%%%s%s" % (
            b, m, at, v, pct or 0,
            " (CPU time steady)" if steady else "" if conf else " (unconfirmed)",
            " [control]" if is_control(s, cp) else
            " [global]" if near(cp, b, "regression", s["global"]) and b not in s["benches"] else
            " [second step]" if near(cp, b, "regression", s["second"]) and b not in s["benches"] else
            " [improvement]" if b not in s["benches"] else ""))
    for e in s["errors"]:
        print("  ERROR " + e)


def placed(s, bench, commit, verdict):
    """Where detect places a known change of bench at commit: each of the
    benchmark's change points saying verdict, as METRIC cNN (+K commits off,
    its standing when not confirmed); "missed" when there is none."""
    c = commit_no(commit)
    out = []
    for b, m, at, v, pct, conf, steady in s["cps"]:
        if b != bench or v != verdict or commit_no(at) is None:
            continue
        off = commit_no(at) - c
        out.append("%s %s (%s%s)" % (m, at, "exact" if off == 0 else "%+d" % off,
                                      "" if conf else ", CPU time steady" if steady
                                      else ", unconfirmed"))
    return "; ".join(out) or "missed"


def detect_table(scored):
    """One line a set: where detect places each known change, and the confirmed
    change points no known change explains (on controls, or on a changed
    benchmark away from its change)."""
    print()
    print("detect, per set (a known change's place: the commit of each metric's change "
          "point, commits off; others: confirmed change points no known change explains)")
    for s in scored:
        name = os.path.join(*os.path.normpath(s["set"]).split(os.sep)[-2:])
        parts = []
        for b in s["benches"]:
            parts.append("step %s at %s: %s" % (b, s["step"], placed(s, b, s["step"], "regression")))
        if s["second"]:
            parts.append("second step %s at %s: %s" % (
                s["second_bench"], s["second"], placed(s, s["second_bench"], s["second"], "regression")))
        if s["improved"]:
            parts.append("improvement %s at %s: %s" % (
                s["improved_bench"], s["improved"],
                placed(s, s["improved_bench"], s["improved"], "improvement")))
        if s["global"]:
            for b in s["global_benches"]:
                if b not in s["benches"]:
                    parts.append("global %s at %s: %s" % (b, s["global"],
                                                          placed(s, b, s["global"], "regression")))
        known = set()
        for cp in s["cps"]:
            b = cp[0]
            if ((b in s["benches"] and near(cp, b, "regression", s["step"]))
                    or near(cp, s["improved_bench"], "improvement", s["improved"])
                    or near(cp, s["second_bench"], "regression", s["second"])
                    or near(cp, b, "regression", s["global"])):
                known.add(cp)
        other = [cp for cp in s["cps"] if cp not in known and cp[5]]
        parts.append("other confirmed: %s" % (", ".join(
            "%s %s %s at %s %+.0f%%" % (cp[0], cp[1], cp[3], cp[2], cp[4] or 0) for cp in other)
            or "none"))
        print("  %s" % name)
        for p in parts:
            print("    " + p)


def main(argv):
    verbose, push_args, pr_args, young = False, [], [], None
    while argv and argv[0].startswith("-"):
        if argv[0] == "-v":
            verbose, argv = True, argv[1:]
        elif argv[0] == "--young" and len(argv) > 1 and argv[1].isdigit():
            young, argv = int(argv[1]), argv[2:]
        elif argv[0] in ("--push-args", "--pr-args") and len(argv) > 1:
            (push_args if argv[0] == "--push-args" else pr_args).extend(shlex.split(argv[1]))
            argv = argv[2:]
        else:
            print(__doc__.split("\n\n")[1], file=sys.stderr)
            return 2
    if len(argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    perfdb, sets = os.path.abspath(argv[0]), argv[1:]
    if subprocess.run([perfdb, "--version"], capture_output=True).returncode != 0:
        print("gate-replay: cannot run %s" % perfdb, file=sys.stderr)
        return 2
    scored = []
    for d in sets:
        work = tempfile.mkdtemp(prefix="gate-replay.")
        try:
            if verbose:
                print("== %s, commit by commit" % d)
            s = score(perfdb, d, verbose, work, push_args, pr_args, young)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        report(s)
        scored.append(s)
    print()
    hdr = ("set", "unchanged failed", ">=5 hist failed", "step exit", "step metrics",
           "2nd step exit", "impr exit", "global exit", "slow PR failed", "same PR failed", "detect step",
           "detect 2nd", "detect impr", "detect global", "detect controls reg/impr")
    table = []
    for s in scored:
        sl, sa = s["pr"]["slow"], s["pr"]["same"]
        det = [cp for cp in s["cps"] if cp[0] in s["benches"]]
        det_at = sorted({cp[2] for cp in det})
        table.append((
            os.path.join(*os.path.normpath(s["set"]).split(os.sep)[-2:]),
            "%d/%d" % (s["unchanged_failed"], s["unchanged"]),
            "%d/%d" % (s["unchanged5_failed"], s["unchanged5"]),
            "-" if s["step_exit"] is None else str(s["step_exit"]),
            ",".join(sorted({r.get("metric") for r in s["step_rows"]})) or "-",
            "-" if s["second_exit"] is None else str(s["second_exit"]),
            "-" if s["improved_exit"] is None else str(s["improved_exit"]),
            "-" if s["global_exit"] is None else str(s["global_exit"]),
            "%d/%d" % (sl[1], sl[0]) if sl[0] else "-",
            "%d/%d" % (sa[1], sa[0]) if sa[0] else "-",
            ",".join(det_at) or "-",
            ("found" if second_found(s) else "no") if s["second"] else "-",
            ("found" if improvement_found(s) else "no") if s["improved"] else "-",
            "%d/%d" % (len(global_found(s)), len(s["global_benches"])) if s["global"] else "-",
            "%d/%d" % (sum(1 for cp in s["cps"] if is_control(s, cp) and cp[5] and cp[3] == "regression"),
                       sum(1 for cp in s["cps"] if is_control(s, cp) and cp[5] and cp[3] != "regression"))))
    tot = (
        "total",
        "%d/%d" % (sum(s["unchanged_failed"] for s in scored), sum(s["unchanged"] for s in scored)),
        "%d/%d" % (sum(s["unchanged5_failed"] for s in scored), sum(s["unchanged5"] for s in scored)),
        "%d/%d" % (sum(1 for s in scored if s["step_exit"] == 1),
                   sum(1 for s in scored if s["step_exit"] is not None)),
        "",
        "%d/%d" % (sum(1 for s in scored if s["second_exit"] == 1),
                   sum(1 for s in scored if s["second_exit"] is not None)),
        "%d/%d" % (sum(1 for s in scored if s["improved_exit"] == 0),
                   sum(1 for s in scored if s["improved_exit"] is not None)),
        "%d/%d" % (sum(1 for s in scored if s["global_exit"] == 1),
                   sum(1 for s in scored if s["global_exit"] is not None)),
        "%d/%d" % (sum(s["pr"]["slow"][1] for s in scored), sum(s["pr"]["slow"][0] for s in scored)),
        "%d/%d" % (sum(s["pr"]["same"][1] for s in scored), sum(s["pr"]["same"][0] for s in scored)),
        "%d/%d" % (sum(1 for s in scored if detect_found(s)), sum(1 for s in scored if s["step"])),
        "%d/%d" % (sum(1 for s in scored if second_found(s)), sum(1 for s in scored if s["second"])),
        "%d/%d" % (sum(1 for s in scored if improvement_found(s)), sum(1 for s in scored if s["improved"])),
        "%d/%d" % (sum(len(global_found(s)) for s in scored), sum(len(s["global_benches"]) for s in scored)),
        "%d/%d" % (sum(1 for s in scored for cp in s["cps"] if is_control(s, cp) and cp[5] and cp[3] == "regression"),
                   sum(1 for s in scored for cp in s["cps"] if is_control(s, cp) and cp[5] and cp[3] != "regression")))
    widths = [max(len(str(r[i])) for r in [hdr] + table + [tot]) for i in range(len(hdr))]
    for r in [hdr] + table + [tot]:
        print("  ".join(str(x).ljust(w) for x, w in zip(r, widths)).rstrip())
    print("(failed: gates with exit != 0 / gates; step exit: the step commit's push gate, 1 fails; "
          "step metrics: its failing rows of the step's benchmark; 2nd step exit: a second step's push gate "
          "on another benchmark, total: those that failed; impr exit: the improvement commit's "
          "push gate, total: those that passed; global exit: the global regression's push gate, total: "
          "those that failed; detect step: where change points of "
          "the step's benchmarks start, total: sets with a regression of each at the step or up to 2 "
          "commits after; detect 2nd: a regression of the second step's benchmark at its commit or up to 2 after; "
          "detect impr: an improvement of the improved benchmark at its commit or up to 2 after; "
          "detect global: benchmarks with a regression at the global regression or up to 2 after; "
          "detect controls: confirmed change points of other benchmarks, regressions/improvements)")
    detect_table(scored)
    errors = sum(len(s["errors"]) for s in scored)
    if errors:
        print("gate-replay: %d errors (ERROR lines above)" % errors)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
