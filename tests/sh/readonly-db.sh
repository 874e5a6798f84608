#!/bin/sh
# A database its user cannot write (file and folder read-only): every read command
# reads it, detect and site say the cache is not updated, and nothing is created beside it.
# Run as an unprivileged user (root may write anything); perfdb is copied where
# that user can run it.
work=$(mktemp -d) || exit 1
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
chmod 755 "$work"
cp "$PERFDB" "$work/perfdb" && chmod 755 "$work/perfdb" || exit 1
mkdir "$work/ro" "$work/charts" && chmod 777 "$work/charts"
export PERFDB_FINGERPRINT=off
"$work/perfdb" --db "$work/ro/p.db" ingest "$ROOT/fixtures/plot/compare/base.json" >/dev/null &&
  "$work/perfdb" --db "$work/ro/p.db" ingest "$ROOT/fixtures/plot/compare/cand.json" >/dev/null || exit 1
chmod 444 "$work/ro/p.db"; chmod 555 "$work/ro"
as_user() {
  if [ "$(id -u)" = 0 ]; then su nobody -s /bin/sh -c "$1"; else sh -c "$1"; fi
}
db="$work/ro/p.db"
for c in "runs" "show run1" "sql \"select count(*) from samples_v\"" "compare run1 run2" "detect" "plot history run1 run2 -o $work/charts/h.svg"; do
  as_user "PERFDB_FINGERPRINT=off $work/perfdb --db $db $c" >"$work/out" 2>"$work/err"
  status=$?
  [ $status = 0 ] || { [ "$c" = "compare run1 run2" ] && [ $status = 1 ]; } || # 1: the gate's answer
    { echo "$c on a read-only database: exit $status"; cat "$work/err"; exit 1; }
done
as_user "$work/perfdb --db $db detect" 2>&1 | grep -q "perfdb: detect: the database is read-only: the detect cache is not updated" ||
  { echo "detect did not say its cache is not updated"; exit 1; }
as_user "$work/perfdb --db $db site -o $work/charts/site" 2>&1 |
  grep -q "perfdb: site: the database is read-only: the detect cache is not updated" ||
  { echo "site did not say the detect cache is not updated"; exit 1; }
[ -f "$work/charts/site/index.html" ] || { echo "site wrote no index from a read-only database"; exit 1; }
[ "$(ls "$work/ro")" = p.db ] || { echo "files appeared beside the database:"; ls "$work/ro"; exit 1; }
# changes committed to a -wal file a writer left (killed before it folded them
# in): read through the -shm beside it, or refused, never a silent older state
mkdir "$work/wal"
"$work/perfdb" --db "$work/wal/p.db" ingest "$ROOT/fixtures/plot/compare/base.json" >/dev/null || exit 1
/usr/bin/python3 - "$work/wal/p.db" <<'PY' || exit 1
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA wal_autocheckpoint = 0")
db.execute("UPDATE runs SET name = 'renamed-in-wal' WHERE id = 1")
db.commit()
os._exit(0)  # killed: the change is in p.db-wal only
PY
[ -s "$work/wal/p.db-wal" ] || { echo "the writer left no -wal file"; exit 1; }
chmod 444 "$work/wal/"*; chmod 555 "$work/wal"
as_user "PERFDB_FINGERPRINT=off $work/perfdb --db $work/wal/p.db runs" >"$work/out" 2>"$work/err"
grep -q renamed-in-wal "$work/out" ||
  { echo "runs of a read-only database with a -wal file (and its -shm) missed its change:"; cat "$work/out" "$work/err"; exit 1; }
chmod 755 "$work/wal"; rm -f "$work/wal/p.db-shm"; chmod 555 "$work/wal"
as_user "PERFDB_FINGERPRINT=off $work/perfdb --db $work/wal/p.db runs" >"$work/out" 2>"$work/err"
status=$?
[ $status = 4 ] && grep -q "p.db-wal: changes committed there cannot be read" "$work/err" ||
  { echo "a -wal file without its -shm, read-only: exit $status"; cat "$work/out" "$work/err"; exit 1; }
echo "runs, show, sql, compare, detect, plot and site read a read-only database; nothing created beside it;"
echo "changes in a -wal file read, or refused (exit 4) where they cannot be"
