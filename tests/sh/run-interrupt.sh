#!/bin/sh
# SIGINT (Ctrl-C), SIGTERM or SIGHUP (a closed terminal) during `perfdb run`: the running child and its
# process group are stopped, what finished is stored with status interrupted,
# the exit status is 130, and no process is left behind.
set -u
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/perfdb.db" PERFDB_FINGERPRINT=off
marker="perfdb-orphan-check-$$"
cat > "$work/spec.yaml" <<YAML
repeat: 50
benchmarks:
  - name: nap
    command: "sh -c 'sleep 30; : $marker' & sleep 0.3; kill \$! 2>/dev/null; wait"
YAML
for sig in INT TERM HUP; do
  "$PERFDB" run "$work/spec.yaml" >"$work/out" 2>"$work/err" &
  pid=$!
  sleep 1.5
  kill -$sig $pid
  wait $pid; status=$?
  [ $status = 130 ] || { echo "SIG$sig: exit $status, expected 130"; cat "$work/err"; exit 1; }
  run=$(cat "$work/out")
  state=$(sqlite3 "$PERFDB_DB" "SELECT status FROM runs WHERE id = ${run#run}")
  n=$(sqlite3 "$PERFDB_DB" "SELECT r.n FROM results r JOIN series s ON s.id = r.series_id WHERE r.run_id = ${run#run} AND s.metric = 'wall_time'")
  [ "$state" = interrupted ] || { echo "SIG$sig: status '$state'"; exit 1; }
  [ "${n:-0}" -ge 1 ] && [ "${n:-0}" -lt 50 ] || { echo "SIG$sig: $n repetitions stored"; exit 1; }
  sleep 0.3
  if pgrep -f "$marker" >/dev/null; then echo "SIG$sig: orphan processes left"; pkill -f "$marker"; exit 1; fi
  echo "SIG$sig: exit 130, $run interrupted with $n of 50 repetitions, no orphans"
done
