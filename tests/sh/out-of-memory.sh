#!/bin/sh
# Out of memory is exit 4 "out of memory" with nothing stored, never SIGABRT or a
# bad-input status. The optimised build runs under a small address-space limit;
# the sanitizer build (whose shadow memory needs terabytes of address space) is
# made to fail every allocation above 1 MiB instead.
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_FINGERPRINT=off PERFDB_DB="$work/p.db"
/usr/bin/python3 - "$work/big.json" <<'PY' || exit 1
import json, sys
# 3,000,000 samples (72 MB in the model, 300,000 a command: 7 MB arrays)
json.dump({"results": [{"command": "c%d" % i, "times": [j % 1000 for j in range(300000)]}
                       for i in range(10)]}, open(sys.argv[1], "w"))
PY
"$PERFDB" ingest "$ROOT/fixtures/canonical/demo.json" >/dev/null || exit 1
case $BUILD in
  *asan*) ASAN_OPTIONS="allocator_may_return_null=1:max_allocation_size_mb=1:detect_leaks=0" \
            "$PERFDB" ingest "$work/big.json" >"$work/out" 2>"$work/err"; status=$?;;
  *) ( ulimit -v 60000; exec "$PERFDB" ingest "$work/big.json" ) >"$work/out" 2>"$work/err"; status=$?;;
esac
[ $status = 4 ] || { echo "exit $status, expected 4"; cat "$work/err"; exit 1; }
grep -q "^perfdb: out of memory$" "$work/err" || { echo "no 'out of memory' line:"; cat "$work/err"; exit 1; }
n=$(sqlite3 "$PERFDB_DB" 'SELECT count(*) FROM runs')
[ "$n" = 1 ] || { echo "$n runs stored, expected the 1 from before"; exit 1; }
echo "out of memory: exit 4, one line, nothing stored"
