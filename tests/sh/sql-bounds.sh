#!/bin/sh
# perfdb sql refuses functions that give a pointer or change state (exit 2); a
# query is stopped past --timeout or --max-memory (exit 4, the option named) and
# runs with 0; out of address space (ulimit -v) every command says "out of
# memory", never "disk I/O error".
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_FINGERPRINT=off PERFDB_DB="$work/p.db"
"$PERFDB" ingest "$ROOT/fixtures/canonical/demo.json" >/dev/null || exit 1
fail() { echo "$*"; cat "$work/err"; exit 1; }
for q in "select fts3_tokenizer('simple')" "select hex(fts3_tokenizer('simple'))" \
	 "select fts3_tokenizer('x', x'00')" "select load_extension('libm.so')"; do
  "$PERFDB" sql "$q" >"$work/out" 2>"$work/err"; status=$?
  [ $status = 2 ] || fail "$q: exit $status, not 2: $(cat "$work/out")"
  grep -q "is refused" "$work/err" || fail "$q: not said refused"
done
forever="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
timeout 20 "$PERFDB" sql --timeout 0.5 "$forever" >"$work/out" 2>"$work/err"; status=$?
[ $status = 4 ] || fail "a query without end under --timeout 0.5: exit $status, not 4"
grep -q -- "--timeout 0 lifts" "$work/err" || fail "--timeout not named"
"$PERFDB" sql --max-memory 32M "select length(randomblob(100000000))" >"$work/out" 2>"$work/err"
status=$?
[ $status = 4 ] || fail "100 MB under --max-memory 32M: exit $status, not 4"
grep -q "out of memory.*--max-memory 0 lifts" "$work/err" || fail "--max-memory not named"
"$PERFDB" sql --max-memory 0 --timeout 0 "select length(randomblob(100000000))" >"$work/out" 2>"$work/err" ||
  fail "100 MB with the bounds lifted: exit $?"
# the address space: the sanitizers' shadow memory needs terabytes of it
case $BUILD in *asan*) echo "ulimit -v part skipped under the sanitizers"; exit 0;; esac
said=0
# from the least address space perfdb and its libraries load in (it moves
# with the linking: about 59 MB here, cairo, libxml2 and librdkafka linked);
# a 20 MB blob runs out of memory above it, whatever the libraries weigh
start=6000
while [ $start -le 400000 ] && ! ( ulimit -v $start; exec "$PERFDB" --version ) >/dev/null 2>&1; do
  start=$((start + 2000))
done
v=$((start - 2000))
while [ $v -le $((start + 34000)) ]; do
  # (each C is eval'ed: the SQL in quotes, or the shell reads its parentheses)
  for c in runs "sql 'select count(*) from samples_v'" "show run1" \
      "sql 'select length(randomblob(20000000))'"; do
    ( ulimit -v $v; eval "exec \"\$PERFDB\" $c" ) >"$work/out" 2>"$work/err"
    grep -q "I/O error" "$work/err" && fail "perfdb $c under ulimit -v $v said an I/O error"
    grep -q "out of memory" "$work/err" && said=$((said + 1))
  done
  v=$((v + 500))
done
[ $said -gt 0 ] || { echo "no limit made perfdb (not the loader) run out of memory"; exit 1; }
exit 0
