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
as_user "$work/perfdb --db $db detect" 2>&1 | grep -q "read-only: its cache is not updated" ||
  { echo "detect did not say its cache is not updated"; exit 1; }
as_user "$work/perfdb --db $db site -o $work/charts/site" 2>&1 |
  grep -q "perfdb: site: the database is read-only: the detect cache is not updated" ||
  { echo "site did not say the detect cache is not updated"; exit 1; }
[ -f "$work/charts/site/index.html" ] || { echo "site wrote no index from a read-only database"; exit 1; }
[ "$(ls "$work/ro")" = p.db ] || { echo "files appeared beside the database:"; ls "$work/ro"; exit 1; }
echo "runs, show, sql, compare, detect, plot and site read a read-only database; nothing created beside it"
