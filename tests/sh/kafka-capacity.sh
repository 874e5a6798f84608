#!/bin/sh
# A capacity search of a Kafka pipeline whose capacity is known: on
# `perfdb mock-kafka`, `kcat -C -G enrich in | (throttle) | kcat -P out`,
# the throttle (a Python loop) passing at most RATE messages a second.
# `rate: {search: ...}` of the kafka: load must try the rates its rule
# gives for its verdicts, store every step as a point rate=R with the
# group's lag, and max_sustained_rate and capacity.enrich as the highest
# passing and lowest failing rate (tests/lib/capacity_check.py: what the
# load cannot move). How near the throttle's rate it lands, and how long
# it takes, are timings: make bench checks them (tests/bench/bench-capacity.sh,
# which reads the lines "max_sustained_rate ..." and "the search took ...").
# Messages are matched by $GUID, so that a step never takes a message of
# the step before for one of its own.
set -u
RATE=${CAPACITY_RATE:-450}
command -v kcat >/dev/null 2>&1 || { echo "kcat is not installed"; exit 77; }
command -v /usr/bin/python3 >/dev/null 2>&1 || { echo "python3 is not installed"; exit 77; }
. "$ROOT/tests/lib/kafka-stages.sh"
kafka_start in:3,out:3

# kcat -P reads its input 128 bytes at a time and holds a partial chunk:
# the throttle writes fixed 384-byte records, each no earlier than 1/RATE s
# after the one before (a burst of RATE/50 at most)
cat >"$work/throttle.py" <<'PY'
import sys, time
rate = float(sys.argv[1])
burst = max(1.0, rate / 50)
nxt = time.monotonic()
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    now = time.monotonic()
    nxt = max(nxt, now - burst / rate)
    if nxt > now:
        out.flush()
        time.sleep(nxt - now)
    out.write(line.rstrip(b"\n")[:383].ljust(383) + b"\n")
    nxt += 1 / rate
    out.flush()
PY
mkfifo "$work/f1" "$work/f2"
kcat -C -u -b "$boot" -G enrich -X auto.offset.reset=earliest -X auto.commit.interval.ms=100 -X fetch.wait.max.ms=10 in \
  >"$work/f1" 2>"$work/consume.err" &
pids="$pids $!"
/usr/bin/python3 "$work/throttle.py" "$RATE" <"$work/f1" >"$work/f2" 2>"$work/throttle.err" &
pids="$pids $!"
kcat -P -b "$boot" -X linger.ms=5 -t out <"$work/f2" 2>"$work/produce.err" &
pids="$pids $!"
for _ in $(seq 1 50); do grep -qi 'assign' "$work/consume.err" 2>/dev/null && break; sleep 0.2; done

printf '{"seq":$SEQ,"guid":"$GUID","ts":$TS,"pad":"%s"}\n' "$(printf '%200s' '' | tr ' ' x)" >"$work/event.json"
# steps of 3 s after a warm-up of 1 s (the consumer has joined): a rate r above RATE leaves messages queued, the last late
# by (r / RATE - 1) x 3 s, so a limit of 0.5 s passes up to RATE x 1.17
cat >"$work/spec.yaml" <<EOF
repeat: 1
benchmarks:
  - name: enrich
    kafka:
      brokers: $boot
      topic: in
      output_topic: out
      template: event.json
      match: "\$.guid"
      lag_groups: [enrich]
      consumer: {fetch.wait.max.ms: 10}
      producer: {linger.ms: 5}
      rate: {search: [100, 1600], until: {lost: 0, e2e_latency_p99: 0.5}, step: 3, tolerance: 10}
      warmup: 1
      drain: 6
EOF
start=$(date +%s)
"$PERFDB" --db "$work/db" run "$work/spec.yaml" >"$work/run.out" 2>"$work/run.err" || fail "perfdb run failed"
took=$(($(date +%s) - start))
grep 'enrich: ' "$work/run.err"
echo "the search took $took s"
"$PERFDB" --db "$work/db" show latest --format json >"$work/run.json" || exit 1
/usr/bin/python3 - "$ROOT/tests/lib" "$work/run.json" "$RATE" "$work/run.err" <<'PY'
import json, sys
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
steps, found = check_search(d, err, "enrich", "msg/s", 100, 1600, 10, check)
print("steps at", ", ".join(f"{r} {'pass' if p else 'FAIL'}" for r, p in steps))
# how close to the throttle's rate: a timing, judged by make bench
print(f"max_sustained_rate {found:.0f} msg/s against the throttle's {rate:.0f} ({(found / rate - 1) * 100:+.1f} %)")
for s, _ in steps:
    lag = [r for r in d["results"] if r["metric"] == "consumer_lag" and dims(r) == {"rate": str(s), "group": "enrich"}]
    check(lag and lag[0]["samples"], f"rate {s}: the group's lag over time")
sys.exit(0 if ok else 1)
PY
status=$?
[ $status = 0 ] || cat "$work/run.err"
exit $status
