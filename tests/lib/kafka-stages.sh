# Sourced by the shell tests that run a pipeline of processes between the
# topics of `perfdb mock-kafka` (kafka-pipeline.sh, kafka-capacity.sh,
# kafka-lost-at-end.sh). Sets $work (a temp folder), $pids (the stages',
# each added by the test as it starts it), $broker and $boot; the trap
# stops the stages first (a kcat consumer stopped after the broker waits
# for it forever to leave its group), kills what has not ended in 5 s,
# then the broker, and removes $work (kept when KEEP is set).
#
# kafka_start TOPICS: start the broker with TOPICS (in:3,out:3) and wait
# for its bootstrap list. fail MESSAGE: say it, then the run's stderr.
work=$(mktemp -d)
pids=
broker=
boot=
kafka_cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null; done
  for _ in $(seq 1 50); do
    alive=
    for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ -z "$alive" ] && break
    sleep 0.1
  done
  for p in $pids; do kill -9 "$p" 2>/dev/null; done
  [ -n "$broker" ] && kill "$broker" 2>/dev/null
  wait 2>/dev/null
  [ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap kafka_cleanup EXIT
export PERFDB_FINGERPRINT=off
fail() { echo "$*"; [ -f "$work/run.err" ] && cat "$work/run.err"; exit 1; }

kafka_start() {
  "$PERFDB" mock-kafka --brokers 1 --topics "$1" >"$work/boot" 2>"$work/mock.err" &
  broker=$!
  for _ in $(seq 1 25); do [ -s "$work/boot" ] && break; sleep 0.2; done
  boot=$(cat "$work/boot")
  [ -n "$boot" ] || fail "mock-kafka printed no bootstrap list: $(cat "$work/mock.err")"
}
