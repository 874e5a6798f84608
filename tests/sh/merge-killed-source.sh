#!/bin/sh
# A source database whose writer was killed with SIGKILL mid-transaction is merged
# as SQLite leaves it: its committed runs all arrive,
# the half-written one does not; likewise for a copy of its files (an artifact
# uploaded after the job was killed: the .db and its -wal, no -shm).
set -u
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export PERFDB_FINGERPRINT=off
series=20000
awk -v n=$series 'BEGIN {
  printf "{\"tool\":\"t\",\"results\":["
  for (s = 0; s < n; s++)
    printf "%s{\"benchmark\":\"b%d\",\"metric\":\"time\",\"unit\":\"s\",\"direction\":\"lower\",\"samples\":[1,2,3]}", (s ? "," : ""), s
  printf "]}\n" }' > "$work/big.json"
src="$work/src.db"
"$PERFDB" --db "$work/base.db" ingest "$ROOT/fixtures/canonical/demo.json" >/dev/null || exit 1
t0=$(date +%s%N); "$PERFDB" --db "$work/base.db" ingest --force "$work/big.json" >/dev/null || exit 1
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
sqlite3 "$work/base.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null || exit 1
# kill a third ingest part way; on a loaded machine it may commit sooner than
# the one timed, so try earlier points until the kill lands before the commit
# (a copy of the files, opened by sqlite3, still holds 2 runs)
caught=
for part in 0.6 0.4 0.25 0.15 0.08; do
  rm -f "$src" "$src-wal" "$src-shm"
  cp "$work/base.db" "$src"
  delay=$(awk -v ms="$ms" -v p="$part" 'BEGIN { printf "%.3f", ms * p / 1000 }')
  "$PERFDB" --db "$src" ingest --force "$work/big.json" >/dev/null 2>&1 &
  pid=$!
  sleep $delay
  kill -9 $pid 2>/dev/null || { wait $pid 2>/dev/null; continue; }
  wait $pid 2>/dev/null
  rm -rf "$work/probe"; mkdir "$work/probe"
  cp "$src" "$work/probe/src.db"
  [ -f "$src-wal" ] && cp "$src-wal" "$work/probe/src.db-wal"
  [ "$(sqlite3 "$work/probe/src.db" 'SELECT count(*) FROM runs')" = 2 ] && { caught=1; break; }
done
[ -n "$caught" ] || { echo "no kill landed before the commit (ingest of ${ms} ms)"; exit 77; }
mkdir "$work/artifact"
cp "$src" "$work/artifact/src.db"
[ -f "$src-wal" ] && cp "$src-wal" "$work/artifact/src.db-wal"
for from in "$work/artifact/src.db" "$src"; do
  dst="$work/dst-$(basename "$(dirname "$from")").db"
  out=$("$PERFDB" --db "$dst" merge "$from") || { echo "merge of $from failed"; exit 1; }
  [ "$out" = "merged 2 runs, skipped 0" ] || { echo "$from: $out, expected 2 runs merged"; exit 1; }
  results=$(sqlite3 "$dst" 'SELECT count(*) FROM results')
  [ "$results" = $((series + 3)) ] || { echo "$from: $results results, expected $((series + 3))"; exit 1; }
  check=$(sqlite3 "$dst" 'PRAGMA integrity_check')
  [ "$check" = ok ] || { echo "integrity_check: $check"; exit 1; }
done
echo "a source killed mid-write (${delay}s into an ingest of ${ms} ms) merged as left: 2 complete runs, in place and as copied files"
