#!/bin/sh
# A real log pipeline for `stream:` workloads: Debian's rsyslog, started here
# in the foreground as a plain process (its own config, work directory and
# pid file; no system service or /etc file touched), imtcp on a loopback
# port above 10000, omfile writing each received message to a file that the
# probe follows. One input writes straight to the file (the machine holds
# 2,000 lines/s: every line arrives, delay percentiles present); another goes
# through an action queue slowed to about 1,000 lines/s, fed 3,000 lines/s
# (lines go missing within the drain time and the delay grows second by second).
# A third input, imudp, takes one RFC 5424 message per datagram.
set -u
command -v rsyslogd >/dev/null 2>&1 || [ -x /usr/sbin/rsyslogd ] ||
  apt-get install -y rsyslog >/dev/null 2>&1 ||
  sudo -n apt-get install -y rsyslog >/dev/null 2>&1
rsyslogd=$(command -v rsyslogd || echo /usr/sbin/rsyslogd)
[ -x "$rsyslogd" ] || { echo "rsyslogd not found after trying to install rsyslog"; exit 77; }
work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT
export PERFDB_FINGERPRINT=off
. "$ROOT/tests/lib/rsyslogd.sh"
mkdir "$work/spool"
conf() {
  cat <<CONF
global(workDirectory="$work/spool")
module(load="imtcp")
module(load="imudp")
template(name="msgonly" type="string" string="%msg%\n")
ruleset(name="fast") { action(type="omfile" file="$work/fast.log" template="msgonly") }
ruleset(name="slow") {
  action(type="omfile" file="$work/slow.log" template="msgonly"
         queue.type="LinkedList" queue.dequeueBatchSize="1" queue.dequeueSlowdown="1000")
}
input(type="imtcp" address="127.0.0.1" port="$1" ruleset="fast")
input(type="imtcp" address="127.0.0.1" port="$(($1 + 1))" ruleset="slow")
input(type="imudp" address="127.0.0.1" port="$1" ruleset="fast")
CONF
}
rsyslogd_start "$work" 2 conf || exit 1

cat >"$work/spec.yaml" <<YAML
repeat: 1
benchmarks:
  - name: held
    stream:
      target: tcp://127.0.0.1:$port
      framing: syslog
      rate: 2000
      duration: 3
      drain: 5
      probe: {file: $work/fast.log, match: 'seq=([0-9]+)'}
  - name: datagrams
    stream:
      target: udp://127.0.0.1:$port
      framing: syslog
      rate: 2000
      duration: 2
      drain: 5
      probe: {file: $work/fast.log, match: 'seq=([0-9]+)'}
  - name: overloaded
    stream:
      target: tcp://127.0.0.1:$((port + 1))
      framing: syslog
      rate: 3000
      duration: 3
      drain: 2
      probe: {file: $work/slow.log, match: 'seq=([0-9]+)'}
YAML
"$PERFDB" --db "$work/db" run "$work/spec.yaml" >"$work/run.out" 2>"$work/run.err" ||
  { echo "perfdb run failed"; cat "$work/run.err"; exit 1; }
"$PERFDB" --db "$work/db" show latest --format json >"$work/run.json" || exit 1
/usr/bin/python3 - "$work/run.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def get(bench, metric):
    for r in d["results"]:
        if r["benchmark"] == bench and r["metric"] == metric:
            return r
    sys.exit(f"{bench}: no {metric}")
def one(bench, metric):
    return get(bench, metric)["samples"][0]
def mean(bench, metric):
    v = [x["value"] if isinstance(x, dict) else x for x in get(bench, metric)["samples"]]
    return sum(v) / len(v)
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAIL:", what)
        ok = False
for b in ("held", "datagrams", "overloaded"):
    s, r, m = one(b, "sent"), one(b, "received"), one(b, "missing")
    st = get(b, "delivery_delay")["stats"]
    p99 = get(b, "delivery_delay_p99")["samples"]
    print(f"{b}: sent {s:.0f}, received {r:.0f}, missing {m:.0f} ({one(b, 'missing_pct'):.1f} %), "
          f"send_rate {mean(b, 'send_rate'):.1f}/s, receive_rate {mean(b, 'receive_rate'):.1f}/s, "
          f"delivery_delay p50 {st['p50']*1e3:.2f} ms p99 {st['p99']*1e3:.2f} ms max {st['max']*1e3:.2f} ms; "
          f"p99 per second: {', '.join('%.0f' % (v['value'] * 1e3 if isinstance(v, dict) else v * 1e3) for v in p99)} ms")
check(one("held", "sent") == 6000, "held: 6000 lines sent")
check(one("held", "received") == one("held", "sent"), "held: every line received")
check(one("held", "missing") == 0, "held: missing 0")
check(all(k in get("held", "delivery_delay")["stats"] for k in ("p50", "p99", "p99.9", "max")), "held: delay percentiles")
# udp may drop a datagram on a busy machine: nearly all, and every one parsed
check(one("datagrams", "sent") == 4000 and one("datagrams", "missing_pct") < 1, "datagrams: 4000 sent, under 1 % missing")
check(one("datagrams", "unmatched") == 0 and one("datagrams", "foreign") == 0, "datagrams: every line one of ours")
check(one("overloaded", "sent") == 9000, "overloaded: 9000 lines sent")
check(one("overloaded", "missing") > 0, "overloaded: lines missing")
p = [v["value"] if isinstance(v, dict) else v for v in get("overloaded", "delivery_delay_p99")["samples"]]
check(len(p) >= 3 and p[2] > p[0] * 1.5 and max(p) > 1.0, "overloaded: the delay grows second by second")
sys.exit(0 if ok else 1)
PY
status=$?
kill "$pid"
wait "$pid" 2>/dev/null
pid=
exit $status
