#!/bin/sh
# Every input of ingest is bounded in disk, memory and time, and leaves no
# temporary file behind on any exit. The compression bombs are made here:
# 1 MiB of zeros gzipped (about 1 KB) concatenated 2048 times is a 2 MB gzip
# of 2 GiB, and that gzipped again a nested bomb of a few KB. perfdb runs
# under a file-size limit of 200-400 MB (ulimit -f, 512 or 1024-byte blocks):
# a bomb read through would fail on it with "File too large" instead of the
# limit's error. After each case $TMPDIR must be empty.
: "${PERFDB:?}" "${ROOT:?}"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_FINGERPRINT=off PERFDB_DB="$work/p.db" TMPDIR="$work/tmp"
mkdir "$TMPDIR" || exit 1
fixture="$ROOT/fixtures/hyperfine/export-both/sleep.json"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# NAME WANT_STATUS WANT_STDERR CMD...: CMD's status and a line of stderr
# matching WANT_STDERR (grep -E; "-": stderr empty), then nothing left in $TMPDIR
expect() {
  name=$1 want=$2 pattern=$3
  shift 3
  t0=$(date +%s%N)
  ( trap '' XFSZ; ulimit -f 409600; exec timeout 30 "$@" ) >"$work/out" 2>"$work/err"
  rc=$?
  echo "$name: exit $rc ($(( ($(date +%s%N) - t0) / 1000000 )) ms): $(head -c 300 "$work/err" | head -1)"
  [ "$rc" = "$want" ] || bad "$name: exit $rc, expected $want"
  if [ "$pattern" = - ]; then
    [ ! -s "$work/err" ] || bad "$name: stderr not empty"
  else
    grep -Eq "$pattern" "$work/err" || bad "$name: no line matching '$pattern'"
  fi
  left=$(ls -A "$TMPDIR" | wc -l)
  [ "$left" = 0 ] || { bad "$name: $left temporary files left: $(du -sh "$TMPDIR")"; rm -f "$TMPDIR"/*; }
}

# the bombs
head -c 1048576 /dev/zero | gzip -9 > "$work/b.gz" || exit 1
for i in 1 2 3 4 5 6 7 8 9 10 11; do
  cat "$work/b.gz" "$work/b.gz" > "$work/b2.gz" && mv "$work/b2.gz" "$work/b.gz" || exit 1
  [ $i = 7 ] && cp "$work/b.gz" "$work/small.gz"   # 128 MiB of zeros
done
gzip -9 -c "$work/b.gz" > "$work/nested.gz" || exit 1
echo "bombs: $(wc -c < "$work/b.gz") bytes of gzip for 2 GiB, nested $(wc -c < "$work/nested.gz") bytes, small $(wc -c < "$work/small.gz") bytes for 128 MiB"

expect "gzip bomb" 3 "b.gz: .*more than 100 times its size" "$PERFDB" ingest "$work/b.gz"
expect "nested bomb" 3 "nested.gz: .*more than 100 times its size" \
  "$PERFDB" ingest --format hyperfine "$work/nested.gz"
expect "bomb on stdin" 3 "<stdin>: .*more than 100 times its size" \
  sh -c 'exec "$0" ingest - < "$1"' "$PERFDB" "$work/b.gz"
# the limits raised: read through, then not a result file
expect "--max-ratio raised" 3 "small.gz: cannot tell which tool" \
  "$PERFDB" ingest --max-ratio 2000 "$work/small.gz"
expect "PERFDB_MAX_RATIO raised" 3 "small.gz: cannot tell which tool" \
  env PERFDB_MAX_RATIO=2000 "$PERFDB" ingest "$work/small.gz"
expect "--max-input lowered" 3 "small.gz: .*more than 64 MiB once decompressed" \
  "$PERFDB" ingest --max-ratio 2000 --max-input 64M "$work/small.gz"
expect "bad --max-input" 2 "max-input: expected a size" "$PERFDB" ingest --max-input 12Q "$fixture"
expect "bad --max-ratio" 2 "max-ratio: expected a number of at least 1" "$PERFDB" ingest --max-ratio 0 "$fixture"
# a file, a pipe past the absolute limit
expect "file above --max-input" 3 "sleep.json: .*more than 1 KiB" \
  "$PERFDB" ingest --max-input 1k "$fixture"
expect "file above PERFDB_MAX_INPUT" 3 "sleep.json: .*more than 1 KiB" \
  env PERFDB_MAX_INPUT=1K "$PERFDB" ingest "$fixture"
expect "endless stdin" 3 "<stdin>: .*more than 16 MiB" \
  sh -c 'exec "$0" ingest --max-input 16M - < /dev/zero' "$PERFDB"
# devices never end: refused at once
expect "/dev/zero" 3 "/dev/zero: not a regular file .*character device" "$PERFDB" ingest /dev/zero
expect "/dev/urandom" 3 "/dev/urandom: not a regular file .*character device" "$PERFDB" ingest /dev/urandom
# a FIFO is read once, like standard input
mkfifo "$work/fifo" || exit 1
cat "$fixture" > "$work/fifo" &
expect "FIFO" 0 - "$PERFDB" ingest "$work/fifo"
wait
[ "$(sqlite3 "$PERFDB_DB" "SELECT count(*) FROM runs WHERE source LIKE '%/fifo'")" = 1 ] ||
  bad "FIFO: no run stored from it"
# out of memory while standard input is spooled: exit 4 and no spool left
/usr/bin/python3 -c '
import json, sys
json.dump({"results": [{"command": "c%d" % i, "times": [j % 1000 for j in range(300000)]}
                       for i in range(10)]}, sys.stdout)' > "$work/big.json" || exit 1
case $BUILD in
  *asan*) expect "out of memory on stdin" 4 "^perfdb: out of memory$" \
            env ASAN_OPTIONS="allocator_may_return_null=1:max_allocation_size_mb=1:detect_leaks=0" \
            sh -c 'exec "$0" ingest - < "$1"' "$PERFDB" "$work/big.json";;
  *) expect "out of memory on stdin" 4 "^perfdb: out of memory$" \
       sh -c 'ulimit -v 60000; exec "$0" ingest - < "$1"' "$PERFDB" "$work/big.json";;
esac
# kill -9 while standard input is spooled: nothing left
# the writer goes on slowly, and ends at its first write after the reader is killed
sh -c 'head -c 1048576 /dev/zero; while sleep 0.2; do printf 0 || exit; done' | "$PERFDB" ingest - >/dev/null 2>&1 &
reader=$!
sleep 1
kill -9 $reader
wait $reader 2>/dev/null
left=$(ls -A "$TMPDIR" | wc -l)
echo "kill -9 while spooling: $left temporary files left"
[ "$left" = 0 ] || bad "kill -9: $left temporary files left"
exit $fail
