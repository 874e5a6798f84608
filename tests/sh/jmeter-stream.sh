#!/bin/sh
# A 1,000,000-row JMeter JTL (the corpus rows repeated, 3 ms apart) is streamed:
# every sample lands. With BENCH_BOUNDS=1 (make bench:
# tests/bench/bench-jmeter-stream-rss.sh) the peak RSS also stays below what
# holding the file would take (not under the sanitizers).
src="$ROOT/../shared/corpus/jmeter/jmeter_HTMLReportTestFile.jtl.csv"
[ -f "$src" ] || { echo "no ../shared/corpus"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
awk -F, 'NR == 1 { print; next }
	{ rest[++n] = substr($0, index($0, ",")) }
	END { for (i = 0; i < 1000000; i++) printf "%.0f%s\n", 1551783627191 + 3 * i, rest[i % n + 1] }' \
	"$src" > "$work/big.jtl.csv" || exit 1
[ "$(wc -l < "$work/big.jtl.csv")" = 1000001 ] || { echo "generator failed"; exit 1; }
size_kb=$(( $(wc -c < "$work/big.jtl.csv") / 1024 ))
export PERFDB_DB="$work/big.db" PERFDB_FINGERPRINT=off
if [ "${BENCH_BOUNDS:-0}" = 1 ] && [ -x /usr/bin/time ] && ! grep -q __asan_init "$PERFDB"; then
	/usr/bin/time -f '%M' -o "$work/rss" "$PERFDB" ingest "$work/big.jtl.csv" > /dev/null || exit 1
	rss_kb=$(tail -1 "$work/rss")
	echo "file ${size_kb} KiB, peak RSS ${rss_kb} KiB"
	# samples: 3 series x 1e6 x 32 B (96 MB) with growth slack; the file is 87 MB
	[ "$rss_kb" -lt $((size_kb + 100 * 1024)) ] || { echo "RSS too large: the file is held whole?"; exit 1; }
else
	"$PERFDB" ingest "$work/big.jtl.csv" > /dev/null || exit 1
fi
out=$("$PERFDB" show run1) || exit 1
# 255 corpus rows, 3 of them JR-KO (data rows 41, 121, 201);
# 1e6 = 3921 * 255 + 145 rows: 3921 * 3 + 2 = 11765 JR-KO
echo "$out" | grep -E -q '^JR-OK +elapsed \(s\) +988235 ' || { echo "$out"; exit 1; }
echo "$out" | grep -E -q '^JR-KO +elapsed \(s\) +11765 ' || { echo "$out"; exit 1; }
echo "$out" | grep -E -q '^JR-KO +errors \(count\) +1 +11.77k' || { echo "$out"; exit 1; }
exit 0
