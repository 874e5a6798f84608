#!/usr/bin/python3
# An independent reader of `perfdb sql` over samples_v or stats_v: the rows
# Python's sqlite3 module reads from the tables (sample blobs unpacked with
# struct, little-endian doubles) must equal, row by row and value by value as
# doubles, both `perfdb sql` (CSV and JSON lines) and `perfdb export` (CSV).
# A NaN is NULL in SQL, "nan" (value) or empty (t, weight) in export. With
# PLAIN (sql/plain-views.sql), the views it defines in SQL alone, read through
# Python's sqlite3, must equal them too.
# Prints "ok N rows"; exit 1 on the first difference.
# Usage: sql-check.py samples|stats DB [PLAIN]
import csv, io, json, math, sqlite3, struct, subprocess, sys

kind, db = sys.argv[1:3]
plain = sys.argv[3] if len(sys.argv) > 3 else None
view = "samples_v" if kind == "samples" else "stats_v"
order = "run_id, result_id, sample" if kind == "samples" else "run_id, result_id, stat"

def perfdb(*args):
    return subprocess.run(["perfdb", "--db", db, *args], check=True,
                          capture_output=True, text=True).stdout

def direction(d):
    return "higher" if d < 0 else "lower" if d > 0 else "none"

def doubles(blob, n):
    if blob is None:
        return [math.nan] * n
    return list(struct.unpack("<%dd" % n, blob))

def expected_rows():
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    rows = []
    q = ("SELECT ru.id, ru.name, r.id, se.benchmark, se.dims, se.metric, se.unit, se.direction,"
         " r.n, r.samples, r.offsets, r.weights FROM runs ru JOIN results r ON r.run_id = ru.id"
         " JOIN series se ON se.id = r.series_id ORDER BY ru.id, r.id")
    for run, name, rid, bench, dims, metric, unit, d, n, vals, offs, wts in con.execute(q):
        head = [run, name, rid, bench, json.loads(dims), metric, unit, direction(d)]
        if kind == "samples":
            for i, (v, t, w) in enumerate(zip(doubles(vals, n), doubles(offs, n), doubles(wts, n))):
                rows.append(head + [i, v, t, w])
        else:
            for stat, v in con.execute("SELECT name, value FROM stats WHERE result_id = ?"
                                       " ORDER BY name", (rid,)):
                rows.append(head + [stat, math.nan if v is None else v])
    return rows

def num(text):
    """A number as perfdb prints it: empty or null is NaN."""
    if text in ("", None):
        return math.nan
    if isinstance(text, str):
        return {"Infinity": math.inf, "-Infinity": -math.inf}.get(text) or float(text)
    return float(text)

def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    return a == b

def check(source, got, want):
    if len(got) != len(want):
        sys.exit("%s: %d rows, the tables hold %d" % (source, len(got), len(want)))
    for i, (g, w) in enumerate(zip(got, want)):
        if len(g) != len(w) or not all(same(a, b) for a, b in zip(g, w)):
            sys.exit("%s: row %d: %r, the tables hold %r" % (source, i + 1, g, w))

def typed(row):
    """A row of text fields as the numbers and JSON they stand for."""
    run, name, rid, bench, dims, metric, unit, d = row[:8]
    rest = [int(row[8]), *map(num, row[9:])] if kind == "samples" else [row[8], num(row[9])]
    return [int(run), name or None, int(rid), bench, json.loads(dims), metric, unit, d] + rest

want = expected_rows()
query = "SELECT * FROM %s ORDER BY %s" % (view, order)

out = list(csv.reader(io.StringIO(perfdb("sql", query))))
columns = ("run_id,run_name,result_id,benchmark,dims,metric,unit,direction," +
           ("sample,value,t,weight" if kind == "samples" else "stat,value")).split(",")
if out[0] != columns:
    sys.exit("sql csv header: %r" % out[0])
check("sql csv", [typed(r) for r in out[1:]], want)

got = []
for line in perfdb("sql", "--format", "jsonl", query).splitlines():
    o = json.loads(line)
    if list(o) != columns:
        sys.exit("sql jsonl keys: %r" % list(o))
    row = [o[c] for c in columns]
    row[4] = json.loads(row[4])
    got.append(row[:9] + [num(v) for v in row[9:]] if kind == "samples"
               else row[:9] + [num(row[9])])
check("sql jsonl", got, want)

# export: runN, dims as dim.NAME columns, no result id (rows in the same
# order, but the runs in the order they were measured: created_at, ties by id)
con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
place = {rid: k for k, (rid,) in enumerate(con.execute("SELECT id FROM runs ORDER BY created_at, id"))}
want_export = sorted(want, key=lambda w: place[w[0]])
ex = list(csv.DictReader(io.StringIO(perfdb("export", *(["--stats"] if kind == "stats" else [])))))
got = []
for r, w in zip(ex, want_export):
    dims = {k[4:]: v for k, v in r.items() if k.startswith("dim.") and v != ""}
    head = [int(r["run"][3:]), r["name"] or None, w[2], r["benchmark"], dims, r["metric"],
            r["unit"], r["direction"]]
    if kind == "samples":
        got.append(head + [int(r["index"]), num(r["value"]), num(r["t"]), num(r["weight"])])
    else:
        got.append(head + [r["stat"], num(r["value"])])
check("export", got if len(ex) == len(want) else ex, want_export)

if plain:
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    con.executescript(open(plain).read())
    got = [list(r) for r in con.execute(query)]
    for r in got:
        r[4] = json.loads(r[4])
        r[9:] = [math.nan if v is None else v for v in r[9:]]
    check("plain SQL views", got, want)
print("ok %d rows" % len(want))
