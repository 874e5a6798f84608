#!/bin/sh
# The broker dies in the middle of `ingest --from-kafka`: without --follow the
# command ends (exit 4, said), it does not hang on an offset commit or on
# leaving the group; with --follow it waits, and SIGTERM ends it in bounded
# time. A consumer without --follow is held mid-stream by a write lock on its
# database while its broker is killed; another (when kcat is there to publish
# 200 runs at once) has its broker killed as soon as it stored its first run,
# before the end of the topic. They run side by side.
set -u
work=$(mktemp -d)
pids=
cleanup() { for p in $pids; do kill -9 "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export PERFDB_FINGERPRINT=off
# start_mock NAME: a cluster of one broker, its bootstrap in NAME.boot, its
# pid in mock_pid, three runs published on its topic
start_mock() {
  "$PERFDB" mock-kafka --brokers 1 --topics runs:1 >"$work/$1.boot" 2>"$work/$1.mock.err" &
  mock_pid=$!; pids="$pids $mock_pid"
  i=0; until [ -s "$work/$1.boot" ] || [ $i = 100 ]; do sleep 0.1; i=$((i + 1)); done
  [ -s "$work/$1.boot" ] || { echo "mock-kafka printed no bootstrap list"; cat "$work/$1.mock.err"; exit 1; }
  for f in exit_codes.json params.json params.csv; do
    "$PERFDB" ingest --to-kafka "$(cat "$work/$1.boot")/runs" "$ROOT/fixtures/hyperfine/$f" >/dev/null 2>&1 ||
      { echo "--to-kafka $f failed"; exit 1; }
  done
}
# wait_for PID SECONDS: status = its exit status, or 124 when still running
wait_for() {
  i=0
  while kill -0 "$1" 2>/dev/null; do
    i=$((i + 1)); [ $i -le $(($2 * 10)) ] || { status=124; return; }
    sleep 0.1
  done
  wait "$1"; status=$?
}

start_mock once; once_mock=$mock_pid
start_mock follow; follow_mock=$mock_pid
race=
if command -v kcat >/dev/null 2>&1; then
  start_mock race; race_mock=$mock_pid
  /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for i in range(200):
    d["uuid"] = "00000000-0000-4000-8000-%012d" % i; d["name"] = "r%d" % i
    print(json.dumps(d))
' "$ROOT/fixtures/canonical/sampled.json" | kcat -P -b "$(cat "$work/race.boot")" -t runs -p 0 ||
    { echo "kcat could not publish"; exit 1; }
  "$PERFDB" --db "$work/race.db" ingest --from-kafka "$(cat "$work/race.boot")/runs" \
    >"$work/race.out" 2>"$work/race.err" &
  race=$!; pids="$pids $race"
fi
db="$work/once.db"
"$PERFDB" --db "$db" ingest "$ROOT/fixtures/canonical/demo.json" >/dev/null || exit 1
# the database locked: the consumer takes its first message and waits there
mkfifo "$work/lock"
sqlite3 "$db" <"$work/lock" >/dev/null & locker=$!; pids="$pids $locker"
exec 3>"$work/lock"
echo "BEGIN IMMEDIATE; INSERT INTO run_attrs SELECT * FROM run_attrs LIMIT 0;" >&3
"$PERFDB" --db "$db" ingest --from-kafka "$(cat "$work/once.boot")/runs" \
  >"$work/once.out" 2>"$work/once.err" 3>&- &
once=$!; pids="$pids $once"
"$PERFDB" --db "$work/follow.db" ingest --from-kafka "$(cat "$work/follow.boot")/runs" --follow \
  >"$work/follow.out" 2>"$work/follow.err" 3>&- &
follow=$!; pids="$pids $follow"
if [ -n "$race" ]; then
  i=0; until [ -s "$work/race.out" ] || [ $i = 200 ]; do sleep 0.05; i=$((i + 1)); done
  kill -9 $race_mock
fi
sleep 5 # the groups joined (about 3.5 s on the mock cluster), messages taken
kill -9 $once_mock $follow_mock
sleep 1
echo "ROLLBACK;" >&3; exec 3>&-
kill -0 $follow 2>/dev/null || { echo "--follow ended when the broker went"; grep -v '^%' "$work/follow.err"; exit 1; }
kill -TERM $follow
# (60 s: the code before hung for ever; it ends in about 8 s, the time
# librdkafka takes to give up a dead coordinator, over 15 s seen under ASan on
# a loaded machine: a bound that tells an end from a hang, not a speed)
wait_for $follow 60
[ "$status" != 124 ] || { echo "--follow, broker gone: SIGTERM did not end it in 60 s"; exit 1; }
wait_for $once 60
[ "$status" = 4 ] || { echo "without --follow, broker gone: exit $status, not 4"; grep -v '^%' "$work/once.err"; exit 1; }
# said: the brokers gone, or the last offset commit failing for want of one
grep -q "every broker went away: [0-9]* runs stored\|offset commit failed in [0-9]* s" "$work/once.err" ||
  { echo "the broker's going not said"; grep -v '^%' "$work/once.err"; exit 1; }
if [ -n "$race" ]; then
  wait_for $race 60
  [ "$status" != 124 ] || { echo "broker killed after the first run stored: no end in 60 s"; exit 1; }
  [ "$status" = 4 ] || [ "$status" = 0 ] || { echo "broker killed after the first run: exit $status"; exit 1; }
fi
exit 0
