#!/bin/sh
# Eight perfdb processes ingesting into one database at once all succeed and
# nothing is lost (WAL and a busy timeout: writers wait, they do not fail).
set -u
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/perfdb.db" PERFDB_FINGERPRINT=off
writers=8 per=6 pids=""
# the database made (and migrated) first: one run stored, then removed
"$PERFDB" ingest "$ROOT/fixtures/canonical/demo.json" >/dev/null && "$PERFDB" rm run1 >/dev/null || exit 1
for w in $(seq 1 $writers); do
  (
    for i in $(seq 1 $per); do
      # a distinct file per ingest, with 2000 series so transactions overlap
      awk -v w="$w" -v i="$i" 'BEGIN {
        printf "{\"tool\":\"t\",\"attrs\":{\"writer\":\"%d\"},\"results\":[", w
        for (s = 0; s < 2000; s++)
          printf "%s{\"benchmark\":\"b%d\",\"metric\":\"time\",\"unit\":\"s\",\"direction\":\"lower\",\"samples\":[%d.%d,%d]}",
            (s ? "," : ""), s, w, i, s
        printf "]}\n" }' > "$work/w$w-$i.json"
      "$PERFDB" ingest "$work/w$w-$i.json" >/dev/null || { echo "writer $w ingest $i failed"; exit 1; }
    done
  ) &
  pids="$pids $!"
done
failed=0
for pid in $pids; do wait "$pid" || failed=1; done
[ $failed = 0 ] || { echo "a writer failed"; exit 1; }
runs=$(sqlite3 "$PERFDB_DB" 'SELECT count(*) FROM runs')
results=$(sqlite3 "$PERFDB_DB" 'SELECT count(*) FROM results')
expect=$((writers * per))
echo "runs $runs (expected $expect), results $results (expected $((expect * 2000)))"
[ "$runs" = "$expect" ] && [ "$results" = $((expect * 2000)) ]
