#!/bin/sh
# perfdb compare with history: 20,000 series x 30 samples, the candidate
# against the newest of 30 runs of the same branch (each series then tested
# against its run-to-run noise: the history is read for every series),
# against the numpy/scipy peer of bench-compare.sh on the same two runs'
# samples (the peer reads no history: it is what a user would run without
# perfdb). Targets: wall time <= 0.1 and peak RSS <= 0.25 of the peer's,
# medians of 3 alternating runs of each; perfdb's peak anonymous RSS (its
# own memory, without the database pages SQLite maps) is printed beside. The
# database (31 ingested runs) is kept in $BENCH_CACHE between runs.
PERFDB=${PERFDB:?} ROOT=${ROOT:?}
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/perfdb-bench-compare-history}
db="$cache/history.db"
mkdir -p "$cache" || exit 1
export PERFDB_FINGERPRINT=off
py=/usr/bin/python3 # Debian's, with python3-numpy and python3-scipy
"$py" -c 'import numpy, scipy.stats' 2>/dev/null || {
	echo "skip: $py with numpy and scipy not installed (apt-get install python3-scipy)"; exit 0; }
[ -x /usr/bin/time ] || { echo "skip: /usr/bin/time not installed"; exit 0; }
here="$ROOT/tests/bench"
series=20000 runs=31

# gen RUN FILE: run RUN of the branch: 20,000 series of 30 lognormal
# samples (3 % noise within a run, 2 % from run to run)
gen() {
	awk -v seed="$1" -v file="$2" -v ns="$series" 'BEGIN {
		srand(seed)
		printf "{\"created_at\": \"2025-01-%02dT00:00:00Z\", \"tool\": \"gen\", \"attrs\": {\"branch\": \"main\"}, \"results\": [", seed > file
		for (s = 1; s <= ns; s++) {
			u1 = rand(); u2 = rand(); if (u1 < 1e-12) u1 = 1e-12
			level = (1 + s % 97) * exp(0.02 * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2)) / 1000
			printf "%s{\"benchmark\": \"b%05d\", \"dims\": {}, \"metric\": \"time\", \"unit\": \"s\", \"direction\": \"lower\", \"samples\": [", \
				(s > 1 ? ", " : ""), s > file
			for (i = 1; i <= 30; i++) {
				u1 = rand(); u2 = rand(); if (u1 < 1e-12) u1 = 1e-12
				z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2)
				printf "%s%.6f", (i > 1 ? ", " : ""), level * exp(0.03 * z) > file
			}
			printf "]}" > file
		}
		printf "]}\n" > file
		close(file)
	}'
}

if [ ! -f "$db" ]; then
	tmp=$(mktemp -d "$cache/gen.XXXXXX") || exit 1
	r=1
	while [ $r -le $runs ]; do
		gen $r "$tmp/run.json" &&
		PERFDB_DB="$tmp/db" "$PERFDB" ingest "$tmp/run.json" >/dev/null || { rm -rf "$tmp"; exit 1; }
		r=$((r + 1))
	done
	mv "$tmp/db" "$db" && rm -rf "$tmp"
fi
# a database kept from an older perfdb is migrated before anything is timed
"$PERFDB" --db "$db" runs >/dev/null || exit 1
base=run$((runs - 1)) cand=run$runs

npz="$cache/compare-samples.npz"
if [ ! -f "$npz" ] || [ "$npz" -ot "$db" ]; then
	"$py" "$here/compare-export.py" "$db" $((runs - 1)) $runs "$npz.tmp.npz" && mv "$npz.tmp.npz" "$npz" || exit 1
fi

one() {
	name=$1
	shift
	s=$(date +%s.%N)
	/usr/bin/time -f %M -o "$cache/$name.rss" "$@" >"$cache/$name.out" || return 1
	e=$(date +%s.%N)
	echo "$s $e $(tail -n 1 "$cache/$name.rss")" | awk '{ printf "%.4f %d\n", $2 - $1, $3 }' \
		>>"$cache/$name.times"
}
rm -f "$cache/perfdb.times" "$cache/scipy.times"
for i in 1 2 3; do
	one perfdb "$PERFDB" --db "$db" compare "$base" "$cand" --format json --fail-on never || exit 1
	one scipy "$py" "$here/compare-scipy.py" "$npz" /dev/stdout || exit 1
done
# perfdb's own memory: peak anonymous RSS (heap, stacks), polled; %M also
# counts the database pages SQLite maps (mmap_size), the kernel's page cache
"$PERFDB" --db "$db" compare "$base" "$cand" --format json --fail-on never >/dev/null & pid=$!
anon=0
while kill -0 $pid 2>/dev/null; do
	a=$(sed -n 's/^RssAnon:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/$pid/status 2>/dev/null)
	[ -n "$a" ] && [ "$a" -gt "$anon" ] && anon=$a
	sleep 0.02
done
wait $pid || exit 1
tested=$("$py" -c 'import json, sys
print(sum(r.get("test") == "history" for r in json.load(open(sys.argv[1]))["results"]))' "$cache/perfdb.out")
med() { sort -n -k "$2" "$1" | awk -v k="$2" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'; }
tp=$(med "$cache/perfdb.times" 1) mp=$(med "$cache/perfdb.times" 2)
ts=$(med "$cache/scipy.times" 1) ms=$(med "$cache/scipy.times" 2)
echo "$tp $mp $ts $ms $tested $anon" | awk '{
	printf "compare 20000 series x 30 samples, 30 runs of history (%d series tested on it): perfdb %.3f s %.1f MiB (%.1f MiB anonymous), numpy/scipy %.3f s %.1f MiB\n", $5, $1, $2 / 1024, $6 / 1024, $3, $4 / 1024
	printf "  ratio: time %.3f (target <= 0.1), memory %.3f (target <= 0.25; anonymous %.3f)\n", $1 / $3, $2 / $4, $6 / $4
	exit ($1 / $3 > 0.1 || $2 / $4 > 0.25) }'
