#!/bin/sh
# Result streams through `perfdb mock-kafka`: runs published with --to-kafka,
# a malformed message among them (when kcat is there to write it), and a
# consumer that dies between the database commit and the offset commit
# (test hook PERFDB_TEST_CRASH_AFTER_DB_COMMIT); after a restart every run is
# stored exactly once and the malformed message is reported and skipped.
set -u
work=$(mktemp -d)
mock=
cleanup() { [ -n "$mock" ] && kill "$mock" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export PERFDB_FINGERPRINT=off
fx="$ROOT/fixtures/hyperfine"
"$PERFDB" mock-kafka --brokers 3 --topics runs:2 >"$work/boot" 2>"$work/mock.err" &
mock=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$work/boot" ] && break; sleep 0.2; done
boot=$(cat "$work/boot")
[ -n "$boot" ] || { echo "mock-kafka printed no bootstrap list"; cat "$work/mock.err"; exit 1; }
target="$boot/runs"

# three runs published (one also stored in a publisher-side database)
for f in exit_codes.json params.json; do
  "$PERFDB" ingest --to-kafka "$target" "$fx/$f" >>"$work/uuids" 2>"$work/err" ||
    { echo "--to-kafka $f failed"; cat "$work/err"; exit 1; }
done
"$PERFDB" ingest --db "$work/side.db" --to-kafka "$target" "$fx/params.csv" >"$work/side.out" 2>"$work/err" ||
  { echo "--to-kafka with --db failed"; cat "$work/err"; exit 1; }
grep -qx 'run1' "$work/side.out" || { echo "--db with --to-kafka did not store"; exit 1; }
bad=0
if command -v kcat >/dev/null 2>&1; then
  printf '{"uuid": "not a run"' | kcat -P -b "$boot" -t runs -p 0 2>/dev/null && bad=1
fi

db="$work/central.db"
PERFDB_TEST_CRASH_AFTER_DB_COMMIT=2 "$PERFDB" --db "$db" ingest --from-kafka "$target" >"$work/first" 2>"$work/err1"
status=$?
[ $status = 9 ] || { echo "crash hook: exit $status, expected 9"; cat "$work/err1"; exit 1; }
n=$(sqlite3 "$db" 'SELECT count(*) FROM runs')
[ "$n" = 2 ] || { echo "after the crash: $n runs stored, expected 2"; exit 1; }

"$PERFDB" --db "$db" ingest --from-kafka "$target" >"$work/second" 2>"$work/err2" ||
  { echo "restart failed"; cat "$work/err2"; exit 1; }
n=$(sqlite3 "$db" 'SELECT count(*), count(DISTINCT uuid) FROM runs')
[ "$n" = "3|3" ] || { echo "after the restart: runs|uuids = $n, expected 3|3"; cat "$work/err2"; exit 1; }
# the run stored just before the crash came again and was skipped as a duplicate
grep -q 'already stored as run2: skipped' "$work/err2" || { echo "no duplicate reported"; cat "$work/err2"; exit 1; }
for u in $(cat "$work/uuids"); do
  c=$(sqlite3 "$db" "SELECT count(*) FROM runs WHERE uuid = '$u'")
  [ "$c" = 1 ] || { echo "run $u stored $c times"; exit 1; }
done
if [ $bad = 1 ]; then
  grep -q 'runs\[0\]@[0-9]*:1:.*: skipped' "$work/err1" "$work/err2" ||
    { echo "malformed message not reported with partition and offset"; cat "$work/err1" "$work/err2"; exit 1; }
fi
# a third pass finds nothing new: offsets were committed
"$PERFDB" --db "$db" ingest --from-kafka "$target" >"$work/third" 2>"$work/err3" || { cat "$work/err3"; exit 1; }
[ ! -s "$work/third" ] || { echo "third pass stored again:"; cat "$work/third"; exit 1; }
grep -q '0 runs stored, 0 duplicates and 0 malformed skipped' "$work/err3" || { cat "$work/err3"; exit 1; }
# a run whose name is taken by another stored run does not block the ones behind
# it: it is stored as NAME~2 with a warning, and the next run arrives too
"$PERFDB" --db "$db" ingest --name clash "$fx/export-both/sleep.json" >/dev/null 2>&1 || { echo "local ingest failed"; exit 1; }
"$PERFDB" ingest --to-kafka "$target" --name clash "$fx/params.csv" >/dev/null 2>&1 &&
  "$PERFDB" ingest --to-kafka "$target" --name after "$fx/export-both/sleep.csv" >/dev/null 2>&1 ||
  { echo "--to-kafka of the clashing runs failed"; exit 1; }
"$PERFDB" --db "$db" ingest --from-kafka "$target" >"$work/fourth" 2>"$work/err4" ||
  { echo "a name clash stopped the consumer"; cat "$work/err4"; exit 1; }
grep -q "a run named 'clash' exists already: run[0-9]* stored as 'clash~2'" "$work/err4" ||
  { echo "no rename warning"; cat "$work/err4"; exit 1; }
n=$(sqlite3 "$db" "SELECT count(*) FROM runs WHERE name IN ('clash~2', 'after')")
[ "$n" = 2 ] || { echo "clash~2 and after: $n stored, expected 2"; cat "$work/err4"; exit 1; }
echo "3 runs exactly once across a crash between the database and the offset commit (malformed skipped: $bad); a name clash stored as clash~2"
