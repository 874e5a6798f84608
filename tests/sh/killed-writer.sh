#!/bin/sh
# A writer killed with SIGKILL mid-transaction leaves a database that opens,
# passes PRAGMA integrity_check and holds no half-written run.
set -u
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/perfdb.db" PERFDB_FINGERPRINT=off
series=20000
awk -v n=$series 'BEGIN {
  printf "{\"tool\":\"t\",\"results\":["
  for (s = 0; s < n; s++)
    printf "%s{\"benchmark\":\"b%d\",\"metric\":\"time\",\"unit\":\"s\",\"direction\":\"lower\",\"samples\":[1,2,3],\"stats\":{\"mean\":2}}", (s ? "," : ""), s
  printf "]}\n" }' > "$work/big.json"
# the database made (and migrated) first: one run stored, then removed
"$PERFDB" ingest "$ROOT/fixtures/canonical/demo.json" >/dev/null && "$PERFDB" rm run1 >/dev/null || exit 1
# kill points spread over one ingest's own duration on this machine (ms)
t0=$(date +%s%N); "$PERFDB" ingest --force "$work/big.json" >/dev/null || exit 1
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
killed=0
for tenth in 1 2 3 4 5 6 7 8; do
  delay=$(awk -v ms="$ms" -v k="$tenth" 'BEGIN { printf "%.3f", ms * k / 10 / 1000 }')
  "$PERFDB" ingest --force "$work/big.json" >/dev/null 2>&1 &
  pid=$!
  sleep $delay
  # a writer already done ran faster than the timed one (the machine's
  # load fell): the next kill points are spread over half the time
  if kill -9 $pid 2>/dev/null; then killed=$((killed + 1)); else ms=$((ms / 2)); fi
  wait $pid 2>/dev/null
  check=$(sqlite3 "$PERFDB_DB" 'PRAGMA integrity_check') || { echo "cannot open after kill"; exit 1; }
  [ "$check" = ok ] || { echo "integrity_check: $check"; exit 1; }
  partial=$(sqlite3 "$PERFDB_DB" "SELECT count(*) FROM runs r WHERE (SELECT count(*) FROM results WHERE run_id = r.id) != $series")
  [ "$partial" = 0 ] || { echo "$partial half-written run(s) after kill at ${delay}s"; exit 1; }
done
# perfdb itself still works on the database afterwards
"$PERFDB" ingest --force "$work/big.json" >/dev/null || exit 1
runs=$(sqlite3 "$PERFDB_DB" 'SELECT count(*) FROM runs')
echo "killed $killed writers mid-run; $runs complete runs stored; integrity ok"
[ $killed -ge 4 ]
