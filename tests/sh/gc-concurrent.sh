#!/bin/sh
# perfdb gc running again and again while four perfdb processes ingest: every
# ingest succeeds and is kept (gc vacuums in place, as a write transaction the
# writers wait for), the old runs go, and the file passes integrity_check.
set -u
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/perfdb.db" PERFDB_FINGERPRINT=off
writers=4 per=8 pids=""
mkrun() { # file tag i
  awk -v tag="$2" -v i="$3" 'BEGIN {
    printf "{\"tool\":\"t\",\"attrs\":{\"tag\":\"%s\",\"branch\":\"b\"},\"results\":[", tag
    for (s = 0; s < 1000; s++)
      printf "%s{\"benchmark\":\"b%d\",\"metric\":\"time\",\"unit\":\"s\",\"direction\":\"lower\",\"samples\":[%d,%d.5,%d]}",
        (s ? "," : ""), s, i, s, i
    printf "]}\n" }' > "$1"
}
for i in $(seq 1 20); do
  mkrun "$work/old$i.json" old "$i"
  "$PERFDB" ingest "$work/old$i.json" >/dev/null || { echo "old ingest $i failed"; exit 1; }
done
for w in $(seq 1 $writers); do
  (
    for i in $(seq 1 $per); do
      mkrun "$work/w$w-$i.json" new "$w$i"
      "$PERFDB" ingest "$work/w$w-$i.json" >/dev/null || { echo "writer $w ingest $i failed"; exit 1; }
    done
  ) &
  pids="$pids $!"
done
( for i in $(seq 1 6); do
    "$PERFDB" gc --keep-last 0 --keep tag=new >/dev/null || { echo "gc $i failed"; exit 1; }
  done ) &
gcpid=$!
failed=0
for pid in $pids $gcpid; do wait "$pid" || failed=1; done
[ $failed = 0 ] || { echo "a writer or gc failed"; exit 1; }
"$PERFDB" gc --keep-last 0 --keep tag=new >/dev/null || { echo "last gc failed"; exit 1; }
new=$(sqlite3 "$PERFDB_DB" "SELECT count(*) FROM run_attrs WHERE key = 'tag' AND value = 'new'")
old=$(sqlite3 "$PERFDB_DB" "SELECT count(*) FROM run_attrs WHERE key = 'tag' AND value = 'old'")
results=$(sqlite3 "$PERFDB_DB" 'SELECT count(*) FROM results')
check=$(sqlite3 "$PERFDB_DB" 'PRAGMA integrity_check')
[ "$new" = $((writers * per)) ] || { echo "$new new runs kept, expected $((writers * per))"; exit 1; }
[ "$old" = 0 ] || { echo "$old old runs left, expected 0"; exit 1; }
[ "$results" = $((writers * per * 1000)) ] || { echo "$results results, expected $((writers * per * 1000))"; exit 1; }
[ "$check" = ok ] || { echo "integrity_check: $check"; exit 1; }
echo "$((writers * per)) runs ingested during 7 gc passes all kept, 20 old runs removed, integrity ok"
