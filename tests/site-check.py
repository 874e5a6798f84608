#!/usr/bin/python3
"""Facts of a perfdb site against the database, read independently.

Usage: site-check.py PERFDB DIR [K=V]   (K=V: the --where the site was given)
  - the runs of the site: those K=V selects; without it, when the runs have
    two branches or more, those of one (main, else master, else the most runs,
    the newest on a tie);
  - every link and resource of every page is relative and names a file of
    the site (a canonical <link> may be absolute; nothing else);
  - index.html: per series row, the direction, the latest value, the change
    against the value before (from `perfdb export`: the median of the samples
    of each run), the newest confirmed change point with its verdict (from
    `perfdb detect --format json`), the attention class, and the order;
  - each benchmark page: its change points (runs on either side, change,
    verdict) against `perfdb detect --format json`;
  - the newest run's page: its compare table against `perfdb compare PREV
    NEWEST --format json`, and its values against `perfdb export`;
  - failures, read from the database file itself ($PERFDB_DB, with Python's
    sqlite3): every run page's failures table, the benchmark pages' (newest
    first, the last 50), the index's "Failing now" table (the newest run of
    each branch, with the run its unbroken failures on the branch began),
    the failed count of the latest runs and the rows of failing series.
Prints "site-check: ok (...)" or the differences, exit 1.
"""
import html.parser
import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys

perfdb, site = sys.argv[1], sys.argv[2]
where = sys.argv[3] if len(sys.argv) > 3 else None
errors = []


def err(msg):
    errors.append(msg)


class Page(html.parser.HTMLParser):
    """Links, and the rows of tables (cells as text, the row's attributes)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.tables, self.styles = [], [], []
        self.table = self.row = self.cell = None
        self.in_style = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("href", "src", "srcset", "poster", "data"):
            if key in a:
                self.links.append((tag, a.get("rel", ""), a[key]))
                if self.row is not None:
                    self.row.setdefault("links", []).append((tag, a.get("rel", ""), a[key]))
        if "style" in a:
            self.styles.append(a["style"])
        if tag == "style":
            self.in_style = True
        if tag == "table":
            self.table = {"class": a.get("class", ""), "rows": []}
            self.tables.append(self.table)
        elif tag == "tr" and self.table is not None:
            self.row = {"attrs": a, "cells": []}
            self.table["rows"].append(self.row)
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []
            self.row["cells"].append(self.cell)
        elif tag == "span" and self.row is not None and "badge" in a.get("class", "").split():
            self.row.setdefault("badges", []).append(a["class"].split())
        elif tag == "br" and self.cell is not None:
            self.cell.append("\n")

    def handle_endtag(self, tag):
        if tag == "style":
            self.in_style = False
        if tag in ("td", "th"):
            self.cell = None
        elif tag == "tr":
            self.row = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data):
        if self.in_style:
            self.styles.append(data)
        if self.cell is not None:
            self.cell.append(data)


def parse(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    for t in p.tables:
        for r in t["rows"]:
            r["text"] = ["".join(c).strip() for c in r["cells"]]
    return p


def run(*args, ok=(0,)):
    p = subprocess.run([perfdb, *args], capture_output=True, text=True)
    if p.returncode not in ok:
        sys.exit(f"site-check: perfdb {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout


# ---- links ----
pages = {}
for root, _, files in os.walk(site):
    for name in files:
        if name.endswith(".html"):
            path = os.path.join(root, name)
            pages[os.path.relpath(path, site)] = parse(path)
for rel, page in sorted(pages.items()):
    for tag, rel_attr, url in page.links:
        if re.match(r"^([a-zA-Z][a-zA-Z0-9+.-]*:|//)", url):
            if not (tag == "link" and rel_attr == "canonical"):
                err(f"{rel}: external {tag} {url}")
            continue
        target = os.path.normpath(os.path.join(os.path.dirname(rel), url.split("#")[0]))
        if url.split("#")[0] and not os.path.isfile(os.path.join(site, target)):
            err(f"{rel}: {tag} {url}: no such file in the site")
    for style in page.styles:
        if re.search(r"url\(|@import", style):
            err(f"{rel}: a style loads a resource: {style[:60]}")

# ---- the runs of the site, from the database file ----
db = sqlite3.connect(f"file:{os.environ['PERFDB_DB']}?mode=ro", uri=True)
attrs = {rid: {} for (rid,) in db.execute("SELECT id FROM runs")}
for rid, k, v in db.execute("SELECT run_id, key, value FROM run_attrs"):
    attrs[rid][k] = v
if where is None:
    count = {}
    for rid in sorted(attrs, reverse=True):   # newest first: the first of a tie wins
        if "branch" in attrs[rid]:
            count[attrs[rid]["branch"]] = count.get(attrs[rid]["branch"], 0) + 1
    if len(count) >= 2:
        best = max(count, key=lambda b: count[b])   # max keeps the first of a tie
        best = "main" if "main" in count else "master" if "master" in count else best
        where = f"branch={best}"
conds = dict(c.split("=", 1) for c in where.split(",")) if where else {}
selected = {rid for rid, a in attrs.items() if all(a.get(k) == v for k, v in conds.items())}
branch_of = {rid: attrs[rid].get("branch") for rid in selected}

# ---- the database, read by other commands ----
medians = {}   # (benchmark, dims text, metric) -> {run id: median}
def run_id(text):
    return int(text.removeprefix("run"))

for line in run("export", "--format", "jsonl").splitlines():
    row = json.loads(line)
    if run_id(row["run"]) not in selected:
        continue
    dims = ",".join(f"{k[4:]}={v}" for k, v in row.items() if k.startswith("dim."))
    medians.setdefault((row["benchmark"], dims, row["metric"]), {}).setdefault(
        run_id(row["run"]), []).append(row["value"])
for key in medians:
    medians[key] = {r: statistics.median(v) for r, v in medians[key].items()}
detect = {}
for s in json.loads(run("detect", "--format", "json", *(["--where", where] if where else [])))["series"]:
    dims = ",".join(f"{k}={v}" for k, v in s["dims"].items())
    if s["n"] > 0:   # detect lists the series without values in the runs too
        detect[(s["benchmark"], dims, s["metric"])] = s

PREFIX = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "m": 1e-3, "µ": 1e-6, "n": 1e-9,
          "Ki": 1024, "Mi": 1024 ** 2, "Gi": 1024 ** 3}


def value_of(text, unit):
    """The number a cell shows in the series' canonical unit ("12.50 ms" for s)."""
    m = re.match(r"^([-+]?[0-9.]+(?:e[-+]?[0-9]+)?)\s*(.*)$", text)
    if not m:
        return None
    rest = m.group(2).strip()
    if unit and rest.endswith(unit):
        rest = rest[: -len(unit)].strip()
    return float(m.group(1)) * PREFIX[rest] if rest in PREFIX else None


def close(a, b):
    return a is not None and abs(a - b) <= 1e-3 * abs(b) + 1e-12


# ---- failures, from the database file ----
failed = {rid: [] for rid in branch_of}   # run id -> [(benchmark, dims text, reason)]
for rid, bench, dims, reason in db.execute(
        "SELECT run_id, benchmark, dims, reason FROM failures ORDER BY run_id, benchmark, dims"):
    if rid not in selected:
        continue
    text = ",".join(f"{k}={v}" for k, v in json.loads(dims).items())
    failed[rid].append((bench, text, reason))
# a run in which a benchmark failed has no value for it (export has what the tool timed)
failed_keys = {(rid, b, d) for rid, fs in failed.items() for b, d, _ in fs}
for key in medians:
    medians[key] = {r: v for r, v in medians[key].items() if (r, key[0], key[1]) not in failed_keys}
medians = {k: v for k, v in medians.items() if v}
valued = {}   # (benchmark, dims text) -> runs with a value of some metric
for (bench, dims, _), v in medians.items():
    valued.setdefault((bench, dims), set()).update(v)
failing_now = {}  # (branch, (benchmark, dims text)) -> (run, since, reason): the newest
                  # run of the branch that ran it (a value or a failure) failed; since: back
                  # over runs that did not run it, to the first failure after its last value
failing = {}
for branch in set(branch_of.values()):
    same = sorted(r for r in branch_of if branch_of[r] == branch)
    keys = {f[:2] for r in same for f in failed[r]}
    for key in keys:
        ran = [r for r in same if r in valued.get(key, ()) or any(f[:2] == key for f in failed[r])]
        last = ran[-1]
        if last in valued.get(key, ()):
            continue
        since = last
        for r in reversed(ran[:-1]):
            if r in valued.get(key, ()):
                break
            since = r
        failing_now[(branch, key)] = (last, since, next(f[2] for f in failed[last] if f[:2] == key))
for (branch, key), v in failing_now.items():  # a series shows the newest
    if key not in failing or failing[key][0] < v[0]:
        failing[key] = v


def strip_names(text):  # "run30 (v0.30)" -> "run30"
    return re.sub(r" \([^)]*\)$", "", text)


def failure_rows(page):
    """The rows of the failures tables, without the branch column a site of
    several branches adds (checked here against the run's branch)."""
    rows = []
    for t in page.tables:
        if t["class"] != "failures":
            continue
        head = t["rows"][0]["text"]
        for r in t["rows"][1:]:
            c = r["text"]
            if head[0] == "branch":
                rid = run_id(strip_names(c[1]))
                if c[0] != (branch_of[rid] or "-"):
                    err(f"failures: run{rid}: branch {c[0]!r}, the database has {branch_of[rid]}")
                c = c[1:]
            rows.append(c)
    return rows


DIRECTION = {"lower": "lower is better", "higher": "higher is better", "none": "not gated"}

# ---- index.html ----
index = pages["index.html"]
nrows = 0
for t in index.tables:
    if t["class"] != "series":
        continue
    last_class = -1
    for r in t["rows"][1:]:
        nrows += 1
        name = r["attrs"].get("data-name", "")
        cells = r["text"]
        # the name cell: "BENCH METRIC [DIMS]"; data-name is "BENCH DIMS METRIC"
        key = next((k for k in detect if f"{k[0]} {k[1]} {k[2]}" == name), None)
        if key is None:
            err(f"index: row {name!r} is no series of perfdb detect")
            continue
        s, unit = detect[key], detect[key]["unit"]
        if cells[2] != DIRECTION[s["direction"]]:
            err(f"index: {name}: direction {cells[2]!r}, detect says {s['direction']}")
        runs = sorted(medians[key])
        latest = medians[key][runs[-1]]
        fail = failing.get(key[:2])
        if fail:
            want = f"failed in run{fail[0]}" + (f", since run{fail[1]}" if fail[1] != fail[0] else "")
            if re.sub(r" \([^)]*\)", "", cells[3]) != want:
                err(f"index: {name}: latest {cells[3]!r}, the database says {want!r}")
        elif not close(value_of(cells[3], unit), latest):
            err(f"index: {name}: latest {cells[3]!r}, the database has {latest:g} {unit}")
        if len(runs) >= 2 and not fail:
            pct = (latest / medians[key][runs[-2]] - 1) * 100
            if not cells[4].startswith(f"{pct:+.1f}%"):
                err(f"index: {name}: change {cells[4]!r}, the database gives {pct:+.1f}%")
        confirmed = [c for c in s["change_points"] if c["confirmed"]]
        if confirmed:
            c = confirmed[-1]
            want = f"{c['verdict']} {c['change_pct']:+.1f}% at {c['run_after']}"
            if not cells[5].startswith(want):
                err(f"index: {name}: change point {cells[5]!r}, detect says {want!r}")
        elif not s["change_points"] and cells[5] != "none":
            err(f"index: {name}: change point {cells[5]!r}, detect finds none")
        recent = [c for c in s["change_points"] if s["n"] - c["index"] <= 20]
        fail = failing.get(key[:2])
        want_class = (0 if fail else 1 if any(c["verdict"] == "regression" for c in recent)
                      else 2 if recent else 3)
        got_class = int(r["attrs"].get("class", "a9")[1:])
        if got_class != want_class:
            err(f"index: {name}: attention a{got_class}, expected a{want_class}")
        if got_class < last_class:
            err(f"index: {name}: a{got_class} after a{last_class}: not in attention order")
        last_class = got_class
if nrows != len(detect):
    err(f"index: {nrows} series rows, perfdb detect has {len(detect)} series")

# ---- the benchmark pages ----
bench_pages = {}
for t in index.tables:
    for r in t["rows"][1:]:
        name = r["attrs"].get("data-name", "")
        key = next((k for k in detect if f"{k[0]} {k[1]} {k[2]}" == name), None)
        bench = key[0] if key else None
        for tag, _, url in r.get("links", []) if key else []:
            if url.startswith("b/"):
                bench_pages[bench] = url
ncp_rows = 0
for bench, url in sorted(bench_pages.items()):
    page = pages.get(url)
    if page is None:
        err(f"{url}: the page of {bench} is missing")
        continue
    want = []
    for key, s in detect.items():
        if key[0] != bench:
            continue
        for c in reversed(s["change_points"]):
            state = "" if c["confirmed"] else " (tentative)" if c["tentative"] else " (unconfirmed)"
            want.append((key[2] + (" " + key[1] if key[1] else ""), c["run_before"], c["run_after"],
                         f"{c['change_pct']:+.1f}%", c["verdict"] + state))
    got = []
    for t in page.tables:
        if t["class"] != "changes":
            continue
        for r in t["rows"][1:]:
            c = r["text"]
            got.append((c[0], c[1].split(" ")[0], c[2].split(" ")[0], c[5], c[8]))
    ncp_rows += len(got)
    if sorted(got) != sorted(want):
        err(f"{url}: change points {sorted(got)}, perfdb detect says {sorted(want)}")

# ---- failures on the pages ----
nfail_rows = 0
for rid, want in failed.items():
    page = pages.get(f"r/run{rid}.html")
    if page is None:
        continue
    got = [(c[0], c[1] if c[1] != "-" else "", c[2]) for c in failure_rows(page)]
    nfail_rows += len(got)
    if got != want:
        err(f"r/run{rid}.html: failures {got}, the database has {want}")
want = sorted((f"run{v[0]}", k[0], k[1] or "-", v[2], f"run{v[1]}")
              for (_, k), v in failing_now.items())
got = sorted(tuple(strip_names(x) for x in c) for c in failure_rows(index))
if got != want:
    err(f"index: failing now {got}, the database has {want}")
for t in index.tables:
    if t["class"] != "latest":
        continue
    for r in t["rows"][1:]:
        rid = run_id(strip_names(r["text"][1]))
        if r["text"][6] != str(len(failed[rid])):
            err(f"index: latest run{rid}: {r['text'][6]} failed, the database has {len(failed[rid])}")
for bench, url in sorted(bench_pages.items()):
    page = pages.get(url)
    if page is None:
        continue
    want = [(f"run{rid}", dims or "-", reason) for rid in sorted(failed, reverse=True)
            for b, dims, reason in reversed(failed[rid]) if b == bench][:50]
    got = [tuple(strip_names(x) for x in c[:3]) for c in failure_rows(page)]
    nfail_rows += len(got)
    if got != want:
        err(f"{url}: failures {got}, the database has {want}")

# ---- the newest run's page ----
newest = max(r for v in medians.values() for r in v)
page = pages.get(f"r/run{newest}.html")
if page is None:
    err(f"no page r/run{newest}.html of the newest run")
    page = Page()
series_of_run = {}
for key, v in medians.items():
    for r in v:
        series_of_run.setdefault(r, set()).add(key)


def prev_of(rid):
    """The run a run is compared with: the newest before it on its branch with a
    series in common, else the newest before it with one on any branch."""
    before = sorted((r for r in branch_of if r < rid), reverse=True)
    mine = series_of_run.get(rid, set())
    for r in [r for r in before if branch_of[r] == branch_of[rid]] + before:
        if series_of_run.get(r, set()) & mine:
            return r
    return None


# every run page: the value before of each series is that of the run it is compared with
before_rows = 0
for rid in branch_of:
    page_r = pages.get(f"r/run{rid}.html")
    p = prev_of(rid)
    for t in page_r.tables if page_r else []:
        if t["class"] != "values":
            continue
        group = None
        for r in t["rows"][1:]:
            c = r["text"]
            if r["attrs"].get("class") == "group":   # a heading row: benchmark[, stage S]
                group = c[0]
                continue
            key = (c[0], c[1], c[2])
            stage = dict(kv.split("=", 1) for kv in c[1].split(",") if "=" in kv).get("stage")
            if group != c[0] + (f", stage {stage}" if stage else ""):
                err(f"run{rid}: {key}: under the heading {group!r}")
            want = medians.get(key, {}).get(p) if p else None
            before_rows += 1
            if want is None:   # none, or a failure there
                want = "failed" if (p, key[0], key[1]) in failed_keys else "-"
                if c[4] != want:
                    err(f"run{rid}: {key}: before {c[4]!r}, run{p} has {want!r}")
            elif not close(value_of(c[4], detect[key]["unit"]), want):
                err(f"run{rid}: {key}: before {c[4]!r}, run{p} has {want}")
prev_id = prev_of(newest)
compare_rows = 0
# the short names of the test column (lib/compare_text.c)
TEST_CELLS = {"mann-whitney": "rank", "wilcoxon-signed-rank": "paired", "welch-t-log": "welch",
              "history": "history", "histogram": "histogram"}
if prev_id and not any(f'href="../r/run{prev_id}.html"' in u or u == f"../r/run{prev_id}.html"
                       for _, _, u in page.links):
    err(f"run{newest}: no link to run{prev_id}, the run it is compared with")
if prev_id:
    # exit 1: the gate fails (a regression, a newly failing benchmark)
    cmp = json.loads(run("compare", f"run{prev_id}", f"run{newest}", "--format", "json", ok=(0, 1)))
    by_key = {(x["benchmark"], ",".join(f"{k}={v}" for k, v in x["dims"].items()) or "-",
               x["metric"] or "-"): x for x in cmp["results"]}
    for t in page.tables:
        if t["class"] != "compare":
            continue
        for r in t["rows"][1:]:
            c = r["text"]
            compare_rows += 1
            x = by_key.get((c[0], c[1], c[2]))
            if x is None:
                err(f"run{newest}: compare row {c[:3]} not in perfdb compare")
                continue
            # the last cell is the verdict; the one before it the test that decided
            if not c[-1].startswith(x["verdict"]):
                err(f"run{newest}: {c[:3]}: verdict {c[-1]!r}, perfdb compare says {x['verdict']}")
            test = TEST_CELLS.get(x["test"], x["test"] or "-")
            if not c[-2].startswith(test):
                err(f"run{newest}: {c[:3]}: test {c[-2]!r}, perfdb compare says {x['test']}")
            if [x["verdict"]] not in [b[1:] for b in r.get("badges", [])]:
                err(f"run{newest}: {c[:3]}: verdict badge {r.get('badges')}, not the verdict's "
                    f"class {x['verdict']!r}")
            if x["change_pct"] is not None and c[6] != f"{x['change_pct']:+.1f}%":
                err(f"run{newest}: {c[:3]}: change {c[6]!r}, perfdb compare says "
                    f"{x['change_pct']:+.1f}%")
    shown = sum(1 for x in cmp["results"] if not x["hidden"])
    if compare_rows != shown:
        err(f"run{newest}: {compare_rows} compare rows, perfdb compare shows {shown}")
value_rows = 0
for t in page.tables:
    if t["class"] != "values":
        continue
    for r in t["rows"][1:]:
        c = r["text"]
        if r["attrs"].get("class") == "group":   # a heading row, checked above
            continue
        value_rows += 1
        key = (c[0], c[1], c[2])
        if key not in medians or newest not in medians[key]:
            err(f"run{newest}: series {key} has no value in the run")
            continue
        if not close(value_of(c[3], detect[key]["unit"]), medians[key][newest]):
            err(f"run{newest}: {key}: value {c[3]!r}, the database has {medians[key][newest]:g}")
want_values = sum(1 for k in medians if newest in medians[k])
if value_rows != want_values:
    err(f"run{newest}: {value_rows} series rows, the run has {want_values}")

for e in errors:
    print("site-check:", e)
if errors:
    sys.exit(1)
print(f"site-check: ok ({len(pages)} pages, {nrows} index rows, {ncp_rows} change points on "
      f"{len(bench_pages)} benchmark pages, {compare_rows} compare rows, {value_rows} run values, "
      f"{before_rows} values before on run pages, "
      f"{nfail_rows} failures on run and benchmark pages, {len(failing_now)} failing now)")
