#!/bin/sh
# make bench: perfdb ingest of a hyperfine --export-csv file with 1,000,000
# columns (each one a run attribute) against Python's csv module reading the
# same file, in the same run; and perfdb on 100,000 columns, for how its time
# grows. Targets: 10 times the columns in at most 15 times the time (linear
# with room for the store's indexes; quadratic is 100), ratio to Python <= 10.
# Exit 1 when one is missed.
PERFDB=${PERFDB:-build/perfdb}
command -v /usr/bin/time >/dev/null 2>&1 || apt-get install -y time >/dev/null 2>&1 ||
  { echo "ingest-csv-wide: skipped (time is missing)"; exit 0; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for n in 100000 1000000; do
  awk -v n="$n" 'BEGIN {
	printf "command,mean,stddev,median,user,system,min,max"
	for (i = 0; i < n; i++) printf ",x%d", i
	printf "\necho,1,0.1,1,0.5,0.1,0.9,1.1"
	for (i = 0; i < n; i++) printf ",v%d", i
	printf "\n"
  }' > "$dir/wide-$n.csv"
done

# best of three for each, alternating, so that both see the same machine load
best() { sort -n | head -1; }
: > "$dir/p1"; : > "$dir/p10"; : > "$dir/py"
for i in 1 2 3; do
  for n in 100000 1000000; do
    rm -f "$dir/p.db"*
    PERFDB_FINGERPRINT=off /usr/bin/time -f "%e" -o "$dir/t" \
      "$PERFDB" --db "$dir/p.db" ingest --format hyperfine-csv "$dir/wide-$n.csv" >/dev/null ||
      { echo "ingest-csv-wide: perfdb ingest failed"; exit 1; }
    [ $n = 100000 ] && cat "$dir/t" >> "$dir/p1" || cat "$dir/t" >> "$dir/p10"
  done
  /usr/bin/time -f "%e" -o "$dir/t" /usr/bin/python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
attrs = {"%s[%s]" % (k, r[0]): v for r in rows[1:] for k, v in zip(rows[0][8:], r[8:])}
' "$dir/wide-1000000.csv" || { echo "ingest-csv-wide: python3 csv failed"; exit 1; }
  cat "$dir/t" >> "$dir/py"
done
awk -v p1="$(best < "$dir/p1")" -v p10="$(best < "$dir/p10")" -v py="$(best < "$dir/py")" 'BEGIN {
	growth = p10 / p1; ratio = p10 / py
	printf "ingest-csv-wide: 1,000,000 columns: perfdb %.2f s, python3 csv %.2f s, ratio %.1f (target <= 10); 100,000 columns: perfdb %.2f s, 10 x the columns in %.1f x the time (target <= 15)\n", p10, py, ratio, p1, growth
	exit !(growth <= 15 && ratio <= 10)
}'
