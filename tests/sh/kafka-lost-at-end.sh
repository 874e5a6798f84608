#!/bin/sh
# A pipeline whose middle stage buffers its output (sed without -u writes a
# pipe in blocks of 4 KiB): the last messages are still in sed when the
# drain ends, so they count as lost. The loss stands (perfdb's rule), and
# the run says that the lost were the last delivered, which a capacity
# search's "lost 2 > 0" alone does not show.
set -u
command -v kcat >/dev/null 2>&1 || { echo "kcat is not installed"; exit 77; }
. "$ROOT/tests/lib/kafka-stages.sh"
kafka_start in:1,out:1

mkfifo "$work/f1" "$work/f2"
kcat -C -u -b "$boot" -G enrich -X auto.offset.reset=earliest in >"$work/f1" 2>"$work/consume.err" &
pids="$pids $!"
sed -e 's/"x":0/"x":1/' <"$work/f1" >"$work/f2" &   # buffered: 4 KiB blocks
pids="$pids $!"
kcat -P -b "$boot" -t out <"$work/f2" 2>"$work/produce.err" &
pids="$pids $!"
for _ in $(seq 1 50); do grep -qi 'assign' "$work/consume.err" 2>/dev/null && break; sleep 0.2; done

printf '{"seq":$SEQ,"x":0}\n' >"$work/event.json"
cat >"$work/spec.yaml" <<EOF
repeat: 1
benchmarks:
  - name: held
    kafka:
      brokers: $boot
      topic: in
      output_topic: out
      template: event.json
      match: "\$.seq"
      rate: 300
      duration: 2
      warmup: 1
      drain: 3
EOF
"$PERFDB" --db "$work/db" run "$work/spec.yaml" >"$work/run.out" 2>"$work/run.err" || fail "run failed"
lost=$("$PERFDB" --db "$work/db" show --format json latest | /usr/bin/python3 -c '
import json, sys
for r in json.load(sys.stdin)["results"]:
    if r["metric"] == "lost":
        s = r["samples"][0]
        print(int(s if isinstance(s, (int, float)) else s["value"]))')
echo "lost $lost"
[ "${lost:-0}" -gt 0 ] || fail "sed held nothing back (lost $lost): the test proves nothing"
grep -q "the $lost lost were the last delivered" "$work/run.err" ||
  fail "no word that the lost were the last delivered"
cat "$work/run.err" | grep "lost were" | head -1
:
