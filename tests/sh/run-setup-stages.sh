#!/bin/sh
# A setup that starts a background stage (`sleep N &`): the stage lives
# through the benchmark's repetitions and its teardown, and is stopped by
# process group when the benchmark's point is over; after SIGTERM or
# SIGKILL to perfdb mid-run it is stopped too. A stopped stage may stay a
# zombie where PID 1 reaps no orphan: "gone" is gone or a zombie.
set -u
work=$(mktemp -d)
a=27.$$3 # a sleep time unique to this test: the stage's name
running() { # the PIDs of stages still running (not zombies)
  for p in $(pgrep -xf "sleep $a"); do
    [ "$(sed 's/.*) \(.\).*/\1/' /proc/$p/stat 2>/dev/null)" = Z ] || echo $p
  done
}
trap 'for p in $(running); do kill -9 $p; done; rm -rf "$work"' EXIT
export PERFDB_DB="$work/perfdb.db" PERFDB_FINGERPRINT=off
# rep.sh N: a repetition at point N sees its stage running, and point 1's
# stopped once point 2 runs
cat > "$work/rep.sh" <<'SH'
runs() { [ -e /proc/$1 ] && [ "$(sed 's/.*) \(.\).*/\1/' /proc/$1/stat)" != Z ]; }
runs "$(cat "$(dirname "$0")/stage.$1")" || exit 1
[ "$1" = 1 ] || ! runs "$(cat "$(dirname "$0")/stage.1")" || exit 2
echo ok >> "$(dirname "$0")/seen.$1"
SH
cat > "$work/spec.yaml" <<YAML
benchmarks:
  - name: pipe
    matrix: {n: [1, 2]}
    repeat: 3
    setup: "sleep $a & echo \$! > $work/stage.{n}"
    command: "sh $work/rep.sh {n}"
    teardown: "kill -0 \$(cat $work/stage.{n}) && echo alive > $work/teardown.{n}"
YAML
"$PERFDB" run "$work/spec.yaml" >"$work/out" 2>"$work/err"; status=$?
[ $status = 0 ] || { echo "run: exit $status"; cat "$work/err"; exit 1; }
for n in 1 2; do
  [ "$(wc -l < "$work/seen.$n")" = 3 ] || { echo "point n=$n: the stage alive in $(wc -l < "$work/seen.$n") of 3 repetitions"; exit 1; }
  [ -s "$work/teardown.$n" ] || { echo "point n=$n: the stage was gone at its teardown"; exit 1; }
done
[ "$(cat "$work/stage.1")" != "$(cat "$work/stage.2")" ] || { echo "one stage for both points"; exit 1; }
left=$(running)
[ -z "$left" ] || { echo "stages left running after the run: $left"; exit 1; }
echo "each point's stage alive in its 3 repetitions and its teardown, stopped before the next point and after the run"

cat > "$work/long.yaml" <<YAML
repeat: 200
benchmarks:
  - name: pipe
    setup: "sleep $a & echo \$! > $work/stage"
    command: "sleep 0.05"
YAML
for sig in TERM KILL; do
  rm -f "$work/stage"
  "$PERFDB" run "$work/long.yaml" >"$work/out" 2>"$work/err" &
  pid=$!
  i=0
  until [ -n "$(running)" ]; do
    i=$((i + 1)); [ $i -le 100 ] || { echo "SIG$sig: the stage did not start"; cat "$work/err"; exit 1; }
    sleep 0.05
  done
  sleep 0.5
  kill -$sig $pid
  wait $pid 2>/dev/null
  i=0
  while [ -n "$(running)" ]; do
    i=$((i + 1))
    [ $i -le 60 ] || { echo "SIG$sig: the stage left running 3 s after perfdb was stopped"; exit 1; }
    sleep 0.05
  done
  echo "SIG$sig: the stage stopped with perfdb"
done
