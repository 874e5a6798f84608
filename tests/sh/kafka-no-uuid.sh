#!/bin/sh
# A Kafka message holding a run without a uuid (another producer's), delivered
# twice, is stored once: its uuid is made from its bytes, so the second is a
# duplicate; a message with neither results nor failures is not a run: said and
# skipped, never stored as an empty run.
set -u
command -v kcat >/dev/null 2>&1 || { echo "no kcat"; exit 77; }
work=$(mktemp -d)
mock=
cleanup() { [ -n "$mock" ] && kill "$mock" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export PERFDB_FINGERPRINT=off
"$PERFDB" mock-kafka --brokers 1 --topics runs:1 >"$work/boot" 2>"$work/mock.err" &
mock=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$work/boot" ] && break; sleep 0.2; done
boot=$(cat "$work/boot")
[ -n "$boot" ] || { echo "mock-kafka printed no bootstrap list"; cat "$work/mock.err"; exit 1; }
/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); d.pop("uuid")
print(json.dumps(d)); print(json.dumps(d)); print(json.dumps({"name": "empty", "results": []}))
' "$ROOT/fixtures/canonical/demo.json" | kcat -P -b "$boot" -t runs -p 0 2>"$work/kcat.err" ||
  { echo "kcat could not publish"; cat "$work/kcat.err"; exit 1; }
timeout 30 "$PERFDB" --db "$work/c.db" ingest --from-kafka "$boot/runs" >"$work/out" 2>"$work/err" ||
  { echo "consumer: exit $?"; cat "$work/err"; exit 1; }
n=$(sqlite3 "$work/c.db" 'SELECT count(*) FROM runs')
[ "$n" = 1 ] || { echo "$n runs stored, expected 1"; cat "$work/err"; exit 1; }
grep -q '1 run stored, 1 duplicate and 1 malformed skipped' "$work/err" ||
  { echo "not 1 stored, 1 duplicate, 1 skipped:"; cat "$work/err"; exit 1; }
grep -q 'no results and no failures: not a run' "$work/err" || { echo "the empty run not said"; cat "$work/err"; exit 1; }
exit 0
