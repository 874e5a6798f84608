#!/bin/sh
# perfdb detect racing a removal of a run by another process: the cache it
# writes never holds the removed run (detect reads in one read transaction and
# writes its cache only when no other process wrote meanwhile).
P=${PERFDB:?}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off
awk -v dir="$work" 'BEGIN { srand(7)
  for (r = 1; r <= 120; r++) {
    file = sprintf("%s/run-%03d.json", dir, r)
    printf "{\"results\": [" > file
    for (s = 1; s <= 400; s++)
      printf "%s{\"benchmark\": \"b%03d\", \"dims\": {}, \"metric\": \"time\", \"unit\": \"s\", \"direction\": \"lower\", \"samples\": [%.6f]}", (s > 1 ? "," : ""), s, 1 + 0.02 * rand() + (r == 60 ? 5 : 0) > file
    printf "]}\n" > file; close(file) } }'
"$P" ingest --each "$work"/run-*.json >/dev/null || exit 1
cp "$work/db" "$work/db0"
bad=0 hit=0
for i in 1 2 3 4 5 6; do
  cp "$work/db0" "$work/db"; rm -f "$work/db-wal" "$work/db-shm"
  "$P" detect --format json >/dev/null 2>"$work/err" &
  pid=$!
  sleep 0.0$((i * 15))
  "$P" rm run60 >/dev/null || exit 1
  wait $pid
  grep -q "another process wrote" "$work/err" && hit=$((hit + 1))
  "$P" detect --format json >"$work/cached" 2>/dev/null
  "$P" detect --format json --no-cache >"$work/full" 2>/dev/null
  cmp -s "$work/cached" "$work/full" || { bad=$((bad + 1)); echo "round $i: cached differs"; }
done
echo "detect racing rm: the cache differs in $bad of 6 rounds; detect saw the other writer and kept its cache in $hit"
[ $bad = 0 ]
