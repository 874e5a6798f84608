#!/bin/sh
# Rates that are rates, and a $SEQ that survives a stage reading numbers as
# doubles. A real rsyslogd (imtcp on loopback) writes every line perfdb sends
# to fast.log; jq 1.6 (Debian's; it parses numbers as doubles) copies
# fast.log to jq.log; a delay line holds each line of fast.log 1.5 s before
# writing it to held.log; a counts-only probe counts held.log with wc. Every
# stage gets every line: the sinks' line counts (wc -l) are the independent
# count. Each stage's printed rate (`perfdb table ... receive_rate:mean`, the
# mean `show` prints, the mean of the stored samples) is one number, and it is
# what the stage received over the seconds it was receiving: its lines over
# the sending time, within 1 %.
set -u
: "${PERFDB:?}" "${ROOT:?}"
command -v rsyslogd >/dev/null 2>&1 || [ -x /usr/sbin/rsyslogd ] ||
  apt-get install -y rsyslog >/dev/null 2>&1 ||
  sudo -n apt-get install -y rsyslog >/dev/null 2>&1
rsyslogd=$(command -v rsyslogd || echo /usr/sbin/rsyslogd)
[ -x "$rsyslogd" ] || { echo "rsyslogd not found after trying to install rsyslog"; exit 77; }
command -v jq >/dev/null 2>&1 || { echo "jq not found"; exit 77; }
work=$(mktemp -d)
pid= tailpid= jqpid= holdpid=
stop() { [ -n "$1" ] && kill "$1" 2>/dev/null && wait "$1" 2>/dev/null; }
cleanup() {
  stop "$holdpid"; stop "$jqpid"; stop "$tailpid"; stop "$pid"
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
: >"$work/held.log"
# jq 1.6 as a stage: every line of fast.log, re-encoded
mkfifo "$work/fifo"
tail -n +1 -F "$work/fast.log" >"$work/fifo" 2>/dev/null &
tailpid=$!
jq -c --unbuffered . <"$work/fifo" >"$work/jq.log" 2>"$work/jq.err" &
jqpid=$!
# a delay line: each line of fast.log written to held.log 1.5 s after it came
/usr/bin/python3 -u - "$work/fast.log" "$work/held.log" <<'PY' &
import collections, os, sys, time
src, out = open(sys.argv[1], "rb"), open(sys.argv[2], "ab", buffering=0)
held, part = collections.deque(), b""
while True:
    data = src.read(65536)
    now = time.monotonic()
    if data:
        part += data
        *lines, part = part.split(b"\n")
        held.extend((now, l) for l in lines)
    ready = []
    while held and held[0][0] + 1.5 <= now:
        ready.append(held.popleft()[1] + b"\n")
    if ready:
        out.write(b"".join(ready))
    if not data:
        time.sleep(0.002)
PY
holdpid=$!
sleep 0.5
cat >"$work/tmpl" <<'TMPL'
{"seq":$SEQ,"app":"shop","msg":"GET /cart 200"}
TMPL
cat >"$work/spec.yaml" <<YAML
repeat: 1
benchmarks:
  - name: pipeline
    stream:
      target: tcp://127.0.0.1:$port
      framing: syslog
      template: tmpl
      rate: 1000
      duration: 8
      drain: 6
      probes:
        rsyslog: {file: $work/fast.log, match: '"seq":([0-9]+)'}
        jq: {file: $work/jq.log, match: '"seq":([0-9]+)'}
        held: {file: $work/held.log, match: '"seq":([0-9]+)'}
        count: {command: "wc -l < $work/held.log", every: 1, value: '([0-9]+)'}
YAML
"$PERFDB" --db "$work/db" run "$work/spec.yaml" >"$work/run.out" 2>"$work/run.err" ||
  { echo "perfdb run failed"; cat "$work/run.err"; exit 1; }
sleep 0.5
for f in fast jq held; do wc -l <"$work/$f.log" >"$work/$f.wc"; done
"$PERFDB" --db "$work/db" show latest --format json >"$work/run.json" &&
"$PERFDB" --db "$work/db" show latest >"$work/show.txt" &&
"$PERFDB" --db "$work/db" table latest --rows stage -F csv \
  --cols 'rate=receive_rate:mean' >"$work/table.csv" ||
  { echo "FAIL: perfdb show/table"; exit 1; }
/usr/bin/python3 - "$work" <<'PY'
import csv, json, sys
work = sys.argv[1]
d = json.load(open(f"{work}/run.json"))
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAIL:", what)
        ok = False
def val(x):
    return x["value"] if isinstance(x, dict) else x
def series(metric, stage=None):
    for r in d["results"]:
        if r["metric"] == metric and (r.get("dims") or {}).get("stage") == stage:
            return [val(x) for x in r["samples"]]
    sys.exit(f"no {metric} of stage {stage}")
wc = {s: int(open(f"{work}/{s}.wc").read()) for s in ("fast", "jq", "held")}
wc["rsyslog"], wc["count"] = wc["fast"], wc["held"]
table = {row["stage"]: row for row in csv.DictReader(open(f"{work}/table.csv"))}
show = {}
for line in open(f"{work}/show.txt"):
    f = line.split()
    if len(f) > 8 and f[1].startswith("stage=") and f[2] == "receive_rate":
        show[f[1][6:]] = f[7]          # the mean column's number, as printed (999.3, 1.000k)
sent = series("sent")[0]
send = series("send_rate")
print(f"sent {sent:.0f}, send_rate {sum(send) / len(send):.1f}/s over {len(send)} s")
check(sent == 8000, "8000 lines sent")
check(abs(sum(send) / len(send) - 1000) <= 10, "send_rate within 1 % of 1000/s")
for stage in ("rsyslog", "jq", "held", "count"):
    rates = series("receive_rate", stage)
    mean = sum(rates) / len(rates)
    printed = float(table[stage]["rate (lines/s)"])
    want = wc[stage] / 8.0            # lines over the 8 s they were sent in
    print(f"{stage}: wc {wc[stage]}, received {series('received', stage)[0]:.0f}, "
          f"missing {series('missing', stage)[0]:.0f}, rate printed {printed:.1f} "
          f"(show {show.get(stage)}), samples {[round(r) for r in rates]}, count/s {want:.1f}")
    check(wc[stage] == sent, f"{stage}: the sink has every line ({wc[stage]} of {sent:.0f})")
    check(series("received", stage)[0] == wc[stage], f"{stage}: received is the sink's count")
    check(series("missing", stage)[0] == 0, f"{stage}: nothing missing")
    check(abs(printed - mean) <= 1e-9 * mean, f"{stage}: table prints the samples' mean")
    shown = show.get(stage, "nan")
    shown = float(shown[:-1]) * 1000 if shown.endswith("k") else float(shown)
    check(abs(shown - printed) <= 5e-4 * printed, f"{stage}: show prints the same mean ({show.get(stage)})")
    check(abs(printed - want) <= 0.01 * want, f"{stage}: rate {printed:.1f} is count / receiving seconds {want:.1f} within 1 %")
for stage in ("rsyslog", "jq", "held"):
    check(series("duplicated", stage)[0] == 0 and series("foreign", stage)[0] == 0,
          f"{stage}: no duplicated or foreign $SEQ (a stage that rounds numbers makes them)")
sys.exit(0 if ok else 1)
PY
