#!/bin/sh
# Another program's SQLite file (a schema version and no application id, or
# another application's id, in rollback or WAL mode) is refused by every command
# with one line, exit 3, and not one byte written: the file is the same, and no
# -wal, -shm or -journal is left beside it.
command -v sqlite3 >/dev/null || { echo "no sqlite3"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_FINGERPRINT=off
fail() { echo "$*"; cat "$work/err"; exit 1; }
mkdir "$work/db"
sqlite3 "$work/db/version.db" "PRAGMA user_version = 3; CREATE TABLE runs (x); CREATE TABLE notes (y); INSERT INTO runs VALUES (1);" &&
  sqlite3 "$work/db/app.db" "PRAGMA application_id = 1598903374; PRAGMA user_version = 8; CREATE TABLE runs (x);" &&
  sqlite3 "$work/db/wal.db" "PRAGMA journal_mode = WAL; PRAGMA user_version = 8; CREATE TABLE runs (id);" >/dev/null &&
  sqlite3 "$work/db/tables.db" "CREATE TABLE runs (x);" || exit 1
for db in "$work"/db/*.db; do
  cp "$db" "$work/before"
  for c in "runs" "show run1" "ingest $ROOT/fixtures/plot/compare/base.json" "compare run1 run2" \
	   "detect" "sql \"select 1\"" "export" "gc --keep-last 1" "site -o $work/site"; do
    eval "\"\$PERFDB\" --db \"\$db\" $c" >"$work/out" 2>"$work/err"
    status=$?
    [ $status = 3 ] || fail "$c on $(basename "$db"): exit $status, not 3"
    grep -q "not a perfdb database" "$work/err" && [ "$(wc -l <"$work/err")" = 1 ] ||
      fail "$c on $(basename "$db"): not one line saying it is not perfdb's"
    cmp -s "$db" "$work/before" || fail "$c changed $(basename "$db")"
    [ "$(ls "$work/db" | grep -c "^$(basename "$db")-")" = 0 ] ||
      fail "$c left files beside $(basename "$db"): $(ls "$work/db")"
  done
done
exit 0
