#!/bin/sh
# perfdb run killed with SIGKILL (which it cannot catch) leaves no process behind:
# the benchmark's shell, the command it started and one it left in the background.
set -u
work=$(mktemp -d)
a=29.$$1 b=28.$$2 # sleep times unique to this test: the processes' names
leftovers() { pgrep -f "sleep ($a|$b)"; }   # the shell too
sleeping() { pgrep -xf "sleep ($a|$b)" | wc -l; }
trap 'for p in $(leftovers); do kill -9 $p; done; rm -rf "$work"' EXIT
export PERFDB_DB="$work/perfdb.db" PERFDB_FINGERPRINT=off
cat > "$work/spec.yaml" <<YAML
repeat: 1
benchmarks:
  - name: nap
    command: "sleep $b & sleep $a"
YAML
"$PERFDB" run "$work/spec.yaml" >"$work/out" 2>"$work/err" &
pid=$!
i=0
until [ "$(sleeping)" = 2 ]; do
  i=$((i + 1)); [ $i -le 100 ] || { echo "the benchmark did not start"; cat "$work/err"; exit 1; }
  sleep 0.05
done
kill -9 $pid
wait $pid 2>/dev/null
i=0
while leftovers >/dev/null; do
  i=$((i + 1))
  [ $i -le 40 ] || { echo "left running 2 s after perfdb run was killed:"; ps -o pid,ppid,args -p "$(leftovers | paste -sd, -)"; exit 1; }
  sleep 0.05
done
exit 0
