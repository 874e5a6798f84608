#!/bin/sh
# gc on a disk that fills says it removed runs only once it has: with the
# database's write-ahead log held to 64 KiB (ulimit -f: writes past it fail
# as on a full disk), the delete of 39 runs fails, gc exits 4, says no
# "removed run" line and every run is still there; with room it removes
# them and says each.
: "${PERFDB:?}"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off
samples=$(seq -s, 1 2000)
for i in $(seq 1 40); do
  printf '{"format":"perfdb","attrs":{"branch":"main"},"results":[{"benchmark":"b%s","metric":"time","unit":"s","direction":"lower","samples":[%s]}]}' \
    "$i" "$samples" > "$work/r.json"
  "$PERFDB" ingest "$work/r.json" >/dev/null || { echo "FAIL: ingest $i"; exit 1; }
done
sqlite3 "$PERFDB_DB" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null || exit 1
fail=0
( trap '' XFSZ; ulimit -f 64; exec "$PERFDB" gc --keep-last 1 ) >"$work/out" 2>"$work/err"
rc=$?
said=$(grep -c '^removed run' "$work/out")
left=$("$PERFDB" runs --format json | grep -c '"id"')
echo "full disk: exit $rc, $said 'removed' lines, $left runs left; $(cat "$work/err")"
[ "$rc" = 4 ] || { echo "FAIL: want exit 4"; fail=1; }
[ "$said" = 0 ] || { echo "FAIL: said it removed runs it did not"; fail=1; }
[ "$left" = 40 ] || { echo "FAIL: want every run kept"; fail=1; }
"$PERFDB" gc --keep-last 1 >"$work/out" 2>"$work/err"
rc=$?
said=$(grep -c '^removed run' "$work/out")
left=$("$PERFDB" runs --format json | grep -c '"id"')
echo "with room: exit $rc, $said 'removed' lines, $left runs left"
[ "$rc" = 0 ] && [ "$said" = 39 ] && [ "$left" = 1 ] || { echo "FAIL: want 39 removed, 1 left"; cat "$work/err"; fail=1; }
exit $fail
