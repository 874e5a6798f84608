#!/bin/sh
# A real pipeline between two topics, as the field runs one: on `perfdb
# mock-kafka`, `kcat -C -G enrich in | sed | (throttle) | kcat -P out`.
# kcat forwards no headers, so perfdb ties output to input by the $SEQ the
# sed transform keeps (match: "$.seq"). The throttle (500 lines/s against
# 1,500 msg/s sent) makes the group's lag rise while perfdb produces and
# fall to 0 as the pipeline catches up in the drain. Checks rates,
# received, lost 0, e2e percentiles and the lag's shape.
set -u
command -v kcat >/dev/null 2>&1 || { echo "kcat is not installed"; exit 77; }
. "$ROOT/tests/lib/kafka-stages.sh"
kafka_start in:3,out:3

# The pipeline, one process per stage through FIFOs (each stopped by its
# PID). kcat -P reads its input 128 bytes at a time and holds a partial
# chunk, so the transform writes fixed 384-byte records (the JSON, then
# spaces): no message waits for the next one to be produced.
mkfifo "$work/f1" "$work/f2" "$work/f3"
kcat -C -u -b "$boot" -G enrich -X auto.offset.reset=earliest -X auto.commit.interval.ms=100 in \
  >"$work/f1" 2>"$work/consume.err" &
pids="$pids $!"
pad=$(printf '%384s' '')
sed -u -e 's/"enriched":false/"enriched":true/' -e "s/\$/$pad/" -e 's/^\(.\{383\}\).*/\1/' \
  <"$work/f1" >"$work/f2" &
pids="$pids $!"
sh -c 'n=0; while IFS= read -r l; do printf "%s\n" "$l"; n=$((n + 1)); [ $((n % 25)) = 0 ] && sleep 0.05; done' \
  <"$work/f2" >"$work/f3" &
pids="$pids $!"
kcat -P -b "$boot" -t out <"$work/f3" 2>"$work/produce.err" &
pids="$pids $!"
# the group has joined once it has partitions assigned
for _ in $(seq 1 50); do grep -qi 'assign' "$work/consume.err" 2>/dev/null && break; sleep 0.2; done

printf 'name,addr\n' >"$work/hosts.csv"
for i in 1 2 3 4 5 6 7 8 9 10; do printf 'h%s,10.0.0.%s\n' $i $i >>"$work/hosts.csv"; done
printf '{"seq":$SEQ,"guid":"$GUID","ts":$TS,"dst":"$DST","enriched":false,"pad":"%s"}\n' \
  "$(printf '%200s' '' | tr ' ' x)" >"$work/event.json"
cat >"$work/spec.yaml" <<EOF
repeat: 1
benchmarks:
  - name: enrich
    kafka:
      brokers: $boot
      topic: in
      output_topic: out
      template: event.json
      vars:
        DST: {csv: hosts.csv, column: 2, header: true, hot: "10%:80%"}
      match: "\$.seq"
      lag_groups: [enrich]
      rate: 1500
      duration: 3
      warmup: 1
      drain: 40
EOF
db="$work/db"
"$PERFDB" --db "$db" run "$work/spec.yaml" >"$work/run.out" 2>"$work/run.err" || fail "run failed"
grep -q 'unknown\|nothing came back' "$work/run.err" && fail "latency and loss not measured"
"$PERFDB" --db "$db" show --format json latest >"$work/run.json" || fail "show failed"
/usr/bin/python3 - "$work/run.json" <<'EOF' || fail "checks failed"
import json, sys
run = json.load(open(sys.argv[1]))
res = {(r["metric"], tuple(sorted(r["dims"].items()))): r for r in run["results"]}
def value(s):
    return s if isinstance(s, (int, float)) else s["value"]
def one(metric, dims=()):
    r = res.get((metric, dims))
    if r is None:
        sys.exit(f"no {metric} {dims}")
    return r
sent = value(one("sent")["samples"][0])
received = value(one("received")["samples"][0])
lost = value(one("lost")["samples"][0])
dup = value(one("duplicated")["samples"][0])
unmatched = value(one("unmatched")["samples"][0])
produce = [value(s) for s in one("produce_rate")["samples"]]
produce = sum(produce) / len(produce)
consume = [value(s) for s in one("consume_rate")["samples"]]
e2e = one("e2e_latency")["stats"]
lag = one("consumer_lag", (("group", "enrich"),))
points = [(s["t"], s["value"]) for s in lag["samples"]]
peak = max(range(len(points)), key=lambda i: points[i][1])
print(f"sent {sent:.0f} received {received:.0f} lost {lost:.0f} duplicated {dup:.0f} "
      f"produce_rate {produce:.1f} msg/s consume_rate {min(consume):.0f}..{max(consume):.0f} msg/s "
      f"e2e p50 {e2e['p50']:.2f} s p99 {e2e['p99']:.2f} s "
      f"lag max {lag['stats']['max']:.0f} at {points[peak][0]:.1f} s final {lag['stats']['final']:.0f}")
assert sent == 4500, sent                      # 3 s at 1,500 msg/s, the warm-up's second not counted
assert received == sent and lost == 0 and dup == 0 and unmatched == 0
assert abs(produce - 1500) < 15, produce
assert 100 < max(consume) < 1000, consume      # the throttle, not the producer
assert 0 < e2e["p50"] <= e2e["p99"] <= e2e["p99.9"] <= e2e["max"], e2e
assert e2e["p99"] > 1, e2e                      # messages waited behind the throttle
# rising while produced, falling to 0 as the pipeline catches up
assert lag["stats"]["max"] > 1000, lag["stats"]
assert 0 < peak < len(points) - 1, points
assert all(points[i][1] <= points[i + 1][1] + 50 for i in range(peak)), points
assert all(points[i][1] >= points[i + 1][1] for i in range(peak, len(points) - 1)), points
assert lag["stats"]["final"] == 0 and points[-1][1] == 0, points
# consume_rate goes on through the drain: the throttle's 500 lines/s take
# about 12 s for 6,000, far past the 3 s measured send
ct = [s["t"] for s in one("consume_rate")["samples"]]
print(f"consume_rate {len(ct)} s, to t={ct[-1]:.0f} s; lag to t={points[-1][0]:.1f} s")
assert len(ct) >= 8 and ct[-1] >= points[peak][0] + 3, ct
assert sum(consume[3:]) > 2000, consume          # the drain's share of what came back
EOF
# the chart draws the lag over time, next to the message rates
"$PERFDB" --db "$db" plot latency latest --layout >"$work/layout" || fail "plot failed"
grep -q '^panel 4 "Lag over time"' "$work/layout" || fail "no lag panel after the msg/s rates: $(grep '^panel' "$work/layout")"
if [ -n "${KEEP_CHART:-}" ]; then "$PERFDB" --db "$db" plot latency latest -o "$KEEP_CHART" || fail "plot failed"; fi
:
