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
"$PERFDB" runs >/dev/null || exit 1
killed=0
for delay in 0.05 0.1 0.15 0.2 0.3 0.4 0.5 0.7; do
  "$PERFDB" ingest --force "$work/big.json" >/dev/null 2>&1 &
  pid=$!
  sleep $delay
  kill -9 $pid 2>/dev/null && killed=$((killed + 1))
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
