#!/bin/sh
# A capacity search against a real pipeline whose capacity is known: perfdb
# sends syslog over TCP to Debian's rsyslogd (started here in the foreground
# by PID, its own config; no system service touched), which writes each
# message to stage1.log; a second stage (a Python loop, stopped by PID)
# follows stage1.log and copies at most RATE lines a second to out.log. Two
# probes count the same lines at both stages. `rate: {search: ...}` must
# try the rates its rule gives for its verdicts, store every step as a
# point rate=R with both stages' series, max_sustained_rate and
# capacity.pipeline as the highest passing and lowest failing rate, and say
# each step on stderr (tests/lib/capacity_check.py: what the load cannot
# move). How near the throttle's rate it lands, and how long it takes, are
# timings: make bench checks them (tests/bench/bench-capacity.sh).
set -u
RATE=${CAPACITY_RATE:-700}
command -v rsyslogd >/dev/null 2>&1 || [ -x /usr/sbin/rsyslogd ] ||
  apt-get install -y rsyslog >/dev/null 2>&1 ||
  sudo -n apt-get install -y rsyslog >/dev/null 2>&1
rsyslogd=$(command -v rsyslogd || echo /usr/sbin/rsyslogd)
[ -x "$rsyslogd" ] || { echo "rsyslogd not found after trying to install rsyslog"; exit 77; }
command -v /usr/bin/python3 >/dev/null 2>&1 || { echo "python3 is not installed"; exit 77; }
work=$(mktemp -d)
pid= throttle=
cleanup() {
  for p in $throttle $pid; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  [ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT
export PERFDB_FINGERPRINT=off
fail() { echo "$*"; [ -f "$work/run.err" ] && cat "$work/run.err"; exit 1; }
. "$ROOT/tests/lib/rsyslogd.sh"
mkdir "$work/spool"
conf() {
  cat <<CONF
global(workDirectory="$work/spool")
module(load="imtcp")
template(name="msgonly" type="string" string="%msg%\n")
ruleset(name="stage1") { action(type="omfile" file="$work/stage1.log" template="msgonly") }
input(type="imtcp" address="127.0.0.1" port="$1" ruleset="stage1")
CONF
}
rsyslogd_start "$work" 1 conf || fail "no rsyslogd"
# the second stage: follows stage1.log from its start, each line no
# earlier than 1/RATE s after the one before (a burst of RATE/50 at most)
cat >"$work/throttle.py" <<'PY'
import os, sys, time
src, dst, rate = sys.argv[1], sys.argv[2], float(sys.argv[3])
while not os.path.exists(src):
    time.sleep(0.01)
out = open(dst, "a")
burst = max(1.0, rate / 50)
nxt = time.monotonic()
buf = b""
with open(src, "rb") as f:
    open(dst + ".ready", "w").close()
    while True:
        chunk = f.read(65536)
        if not chunk:
            time.sleep(0.005)
            continue
        buf += chunk
        *lines, buf = buf.split(b"\n")
        for line in lines:
            now = time.monotonic()
            nxt = max(nxt, now - burst / rate)
            if nxt > now:
                out.flush()
                time.sleep(nxt - now)
            out.write(line.decode() + "\n")
            nxt += 1 / rate
        out.flush()
PY
: >"$work/stage1.log"
: >"$work/out.log"
/usr/bin/python3 "$work/throttle.py" "$work/stage1.log" "$work/out.log" "$RATE" 2>"$work/throttle.err" &
throttle=$!
for _ in $(seq 100); do [ -e "$work/out.log.ready" ] && break; sleep 0.1; done
[ -e "$work/out.log.ready" ] || fail "the throttle stage did not start: $(cat "$work/throttle.err")"

# steps of 4 s: a rate above the throttle's, r, leaves (r - RATE) x 4 lines
# queued, a delay of (r / RATE - 1) x 4 s for the last one, so a limit of
# 0.5 s passes rates up to about RATE x 1.125
cat >"$work/spec.yaml" <<YAML
repeat: 1
benchmarks:
  - name: pipeline
    stream:
      target: tcp://127.0.0.1:$port
      framing: syslog
      rate: {search: [200, 2000], until: {missing_pct: 1, delivery_delay_p99: 0.5}, step: 4, tolerance: 10, settle: 20}
      drain: 0.5
      probes:
        rsyslog: {file: $work/stage1.log}
        throttle: {file: $work/out.log}
YAML
start=$(date +%s)
"$PERFDB" --db "$work/db" run "$work/spec.yaml" >"$work/run.out" 2>"$work/run.err" || fail "perfdb run failed"
took=$(($(date +%s) - start))
kill -0 "$throttle" 2>/dev/null || fail "the throttle stage died: $(cat "$work/throttle.err")"
grep 'pipeline: ' "$work/run.err"
echo "the search took $took s"
"$PERFDB" --db "$work/db" show latest --format json >"$work/run.json" || exit 1
/usr/bin/python3 - "$ROOT/tests/lib" "$work/run.json" "$RATE" "$work/run.err" <<'PY'
import json, re, sys
sys.path.insert(0, sys.argv[1])
from capacity_check import check_search, dims
d = json.load(open(sys.argv[2]))
rate = float(sys.argv[3])
err = open(sys.argv[4]).read()
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAIL:", what)
        ok = False
steps, found = check_search(d, err, "pipeline", "lines/s", 200, 2000, 10, check)
print("steps at", ", ".join(f"{r} {'pass' if p else 'FAIL'}" for r, p in steps))
# how close to the throttle's rate: a timing, judged by make bench
print(f"max_sustained_rate {found:.0f} lines/s against the throttle's {rate:.0f} ({(found / rate - 1) * 100:+.1f} %)")
# each step is a point of its own with both stages' series
for s, _ in steps:
    stages = {dims(r).get("stage") for r in d["results"]
              if dims(r).get("rate") == str(s) and r["metric"] == "missing_pct"}
    check(stages == {"rsyslog", "throttle"}, f"rate {s}: missing_pct of both stages")
check("outcome" not in err and re.search(r"pipeline: (\d+ lines/s sustained|at least|no rate sustained)", err),
      "the outcome on stderr")
sys.exit(0 if ok else 1)
PY
status=$?
[ $status = 0 ] || cat "$work/run.err"
exit $status
