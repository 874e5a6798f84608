#!/bin/sh
# A load test's own report (`perfdb report RUN`, no baseline), checked
# against independent counts. A real rsyslogd (imtcp on loopback) writes every
# line perfdb sends to fast.log; jq 1.6 copies fast.log to jq.log; `sample:`
# reads both processes' CPU and RSS; a matrix of two rates, and a capacity
# search over the same pipeline. Every number of the report's tables by point
# (the sender, the stages, the processes, each rate and each step) must be
# the mean of the stored samples or the stored percentile (read with sqlite3
# and decoded here, not by perfdb) to the digits printed; `sent` the rate x
# the seconds; the lines each stage received, summed over the rates and the
# steps, the sink's line count (wc -l); the capacity row the run's attribute;
# and the run's chart written and inlined.
set -u
: "${PERFDB:?}" "${ROOT:?}"
command -v rsyslogd >/dev/null 2>&1 || [ -x /usr/sbin/rsyslogd ] ||
  { echo "rsyslogd not installed"; exit 77; }
rsyslogd=$(command -v rsyslogd || echo /usr/sbin/rsyslogd)
command -v jq >/dev/null 2>&1 || { echo "jq not found"; exit 77; }
command -v sqlite3 >/dev/null 2>&1 || { echo "sqlite3 not found"; exit 77; }
work=$(mktemp -d)
pid= tailpid= jqpid=
stop() { [ -n "$1" ] && kill "$1" 2>/dev/null && wait "$1" 2>/dev/null; }
cleanup() {
  stop "$jqpid"; stop "$tailpid"; stop "$pid"
  [ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT
export PERFDB_FINGERPRINT=off
. "$ROOT/tests/lib/rsyslogd.sh"
mkdir "$work/spool"
conf() {
  cat <<CONF
global(workDirectory="$work/spool")
module(load="imtcp")
template(name="msgonly" type="string" string="%msg%\n")
ruleset(name="fast") { action(type="omfile" file="$work/fast.log" template="msgonly") }
input(type="imtcp" address="127.0.0.1" port="$1" ruleset="fast")
CONF
}
rsyslogd_start "$work" 1 conf || exit 1
: >"$work/fast.log"
mkfifo "$work/fifo"
tail -n +1 -F "$work/fast.log" >"$work/fifo" 2>/dev/null &
tailpid=$!
jq -c --unbuffered . <"$work/fifo" >"$work/jq.log" 2>"$work/jq.err" &
jqpid=$!
sleep 0.5
cat >"$work/tmpl" <<'TMPL'
{"seq":$SEQ,"app":"shop","msg":"GET /cart 200"}
TMPL
re() { printf '%s' "$1" | sed 's/[].[^$*+?(){}|\\]/\\&/g'; }
cat >"$work/spec.yaml" <<YAML
repeat: 1
sample:
  every: 0.5
  machine: false
  processes:
    rsyslog: '^$(re "$rsyslogd") -n -f $(re "$work/rsyslog.conf")'
    jq: '^jq -c --unbuffered \.\$'
benchmarks:
  - name: pipeline
    matrix: {rate: [300, 600]}
    stream:
      target: tcp://127.0.0.1:$port
      framing: syslog
      template: tmpl
      rate: "{rate}"
      duration: 4
      drain: 4
      probes:
        rsyslog: {file: $work/fast.log, match: '"seq":([0-9]+)'}
        jq: {file: $work/jq.log, match: '"seq":([0-9]+)'}
  - name: capacity
    stream:
      target: tcp://127.0.0.1:$port
      framing: syslog
      template: tmpl
      rate: {search: [200, 800], until: {missing_pct: 1}, step: 2, tolerance: 30, settle: 5}
      drain: 4
      probes:
        rsyslog: {file: $work/fast.log, match: '"seq":([0-9]+)'}
        jq: {file: $work/jq.log, match: '"seq":([0-9]+)'}
YAML
"$PERFDB" --db "$work/db" run "$work/spec.yaml" >"$work/run.out" 2>"$work/run.err" ||
  { echo "perfdb run failed"; cat "$work/run.err"; exit 1; }
sleep 1
wc -l <"$work/fast.log" >"$work/fast.wc"
wc -l <"$work/jq.log" >"$work/jq.wc"
"$PERFDB" --db "$work/db" report latest -o "$work/report" >"$work/report.out" 2>"$work/report.err" ||
  { echo "FAIL: perfdb report of a run without baseline"; cat "$work/report.err"; exit 1; }
grep -q "no run before run1 has a series in common with it: the run's own report" "$work/report.err" ||
  { echo "FAIL: the own report is not said on stderr: $(cat "$work/report.err")"; exit 1; }
sqlite3 -json "$work/db" "SELECT s.benchmark, s.dims, s.metric, hex(r.samples) AS samples,
  (SELECT json_group_object(name, value) FROM stats WHERE result_id = r.id) AS stats
  FROM results r JOIN series s ON s.id = r.series_id WHERE r.run_id = 1" >"$work/samples.json" &&
sqlite3 -json "$work/db" "SELECT key, value FROM run_attrs WHERE run_id = 1" >"$work/attrs.json" ||
  { echo "FAIL: sqlite3"; exit 1; }
/usr/bin/python3 - "$work" <<'PY'
import json, re, struct, sys
work = sys.argv[1]
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAIL:", what)
        ok = False
# the stored series, decoded here: packed little-endian doubles
stored = {}
for row in json.load(open(f"{work}/samples.json")):
    raw = bytes.fromhex(row["samples"] or "")
    vals = struct.unpack(f"<{len(raw) // 8}d", raw)
    dims = json.loads(row["dims"])
    stored[(row["benchmark"], tuple(sorted(dims.items())), row["metric"])] = (vals, json.loads(row["stats"] or "{}"))
attrs = {a["key"]: a["value"] for a in json.load(open(f"{work}/attrs.json"))}
wc = {s: int(open(f"{work}/{f}.wc").read()) for s, f in (("rsyslog", "fast"), ("jq", "jq"))}
# the report's Markdown tables, by their headings
md = open(f"{work}/report/index.md").read()
unmd = lambda s: s.replace("\\_", "_")
tables, heading = {}, None
for line in md.splitlines():
    if line.startswith("### "):
        heading = unmd(line[4:])
    elif heading and line.startswith("|") and not line.startswith("|--"):
        tables.setdefault(heading, []).append([unmd(c.strip()) for c in line.strip("|").split("|")])
    elif line.startswith("## "):
        heading = None
scale = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1, "B": 1, "KiB": 2**10, "MiB": 2**20,
         "GiB": 2**30, "%": 1, "lines/s": 1, "count": 1}
checked = 0
sums = {"rsyslog": 0, "jq": 0}
for name, rows in sorted(tables.items()):
    m = re.fullmatch(r"(\S+?)(?:, by (.*))?", name)
    bench, dims = m.group(1), re.split(r", | and ", m.group(2)) if m.group(2) else []
    head = rows[0]
    for row in rows[1:]:
        point = dict(zip(dims, row))
        for h, cell in zip(head[len(dims):], row[len(dims):]):
            hm = re.fullmatch(r"([a-z_0-9]+)(?::(p50|p99|max|mean))?(?: \((.*)\))?", h)
            metric, stat, unit = hm.group(1), hm.group(2), hm.group(3) or "count"
            key = (bench, tuple(sorted(point.items())), metric)
            if key not in stored or unit not in scale:
                check(False, f"{name}: {h} at {point}: no such series stored, or a unit this test does not know")
                continue
            vals, st = stored[key]
            want = (st[stat] if stat and stat != "mean" else sum(vals) / len(vals)) / scale[unit]
            digits = len(cell.split(".")[1]) if "." in cell else 0
            check(abs(float(cell) - want) <= 0.5 * 10 ** -digits * (1 + 1e-9) + 1e-12,
                  f"{name}: {h} at {point}: printed {cell}, stored {want:.6g}")
            checked += 1
            if metric == "sent" and bench == "pipeline":
                check(float(cell) == int(point["rate"]) * 4, f"{name}: sent {cell} at {point}: rate x 4 s")
            if metric == "received":
                sums[point["stage"]] += float(cell)
print(f"{checked} cells checked against the stored samples in {len(tables)} tables: {'; '.join(sorted(tables))}")
for stage in sums:
    print(f"{stage}: received {sums[stage]:.0f} over the rates and steps, the sink has {wc[stage]} lines")
    check(sums[stage] == wc[stage], f"{stage}: the report's received, summed, is the sink's wc -l")
for t in ("pipeline, by rate", "pipeline, by rate and stage", "pipeline, by rate and process",
          "capacity, by rate and stage", "capacity"):
    check(t in tables, f"a table '{t}'")
check(len(tables.get("pipeline, by rate and stage", [])) == 5, "two rates x two stages")
outcome = attrs.get("capacity.capacity")
print(f"capacity: {outcome}")
shown = (outcome or "").replace("_", "\\_").replace(">", "&gt;")
check(outcome is not None and f"| capacity | {shown} |" in md, "the capacity row is the run's attribute")
html = open(f"{work}/report/index.html").read()
check("<svg" in html and "Latency percentile spectrum of the run" in html, "the run's chart inlined")
sys.exit(0 if ok else 1)
PY
