#!/bin/sh
# perfdb detect: time on one 10,000-point series and on 1,000 series of 200
# points, database reading included, against the targets that make it 10x
# faster than Apache Otava (30 ms and 0.85 s); and the F1 figures of the
# synthetic-history test. Otava is not installable here (no Debian package,
# no PyPI access), so only perfdb's times are measured, against the targets.
# The databases are built by ingesting generated canonical JSON runs (one
# run per point) and kept in $BENCH_CACHE between runs.
PERFDB=${PERFDB:?} ROOT=${ROOT:?}
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/perfdb-bench-detect}
mkdir -p "$cache" || exit 1
export PERFDB_FINGERPRINT=off
jobs=$(nproc 2>/dev/null || echo 2)

# gen SEED NRUNS NSERIES DIR: canonical runs, lognormal noise of 2 %, a step
# of +10 % two thirds of the way along in every series.
gen() {
	mkdir -p "$4"
	awk -v seed="$1" -v nruns="$2" -v nseries="$3" -v dir="$4" 'BEGIN {
		srand(seed)
		for (r = 1; r <= nruns; r++) {
			file = sprintf("%s/run-%06d.json", dir, r)
			printf "{\"created_at\": \"2025-01-01T00:00:00Z\", \"tool\": \"gen\", \"attrs\": {\"commit\": \"c%06d\"}, \"results\": [", r > file
			for (s = 1; s <= nseries; s++) {
				u1 = rand(); u2 = rand(); if (u1 < 1e-12) u1 = 1e-12
				z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2)
				level = 1000 * (r > nruns * 2 / 3 ? 1.1 : 1)
				printf "%s{\"benchmark\": \"b%04d\", \"dims\": {}, \"metric\": \"time\", \"unit\": \"s\", \"direction\": \"lower\", \"samples\": [%.6f]}", \
					(s > 1 ? ", " : ""), s, level * exp(0.02 * z) / 1000 > file
			}
			printf "]}\n" > file
			close(file)
		}
	}'
}

# build DB SEED NRUNS NSERIES
build() {
	[ -f "$1" ] && return 0
	tmp=$(mktemp -d "$cache/gen.XXXXXX") || return 1
	gen "$2" "$3" "$4" "$tmp/runs"
	# one ingest per run, in order (a run's id is its place in the series)
	for f in "$tmp"/runs/*.json; do
		PERFDB_DB="$tmp/db" "$PERFDB" ingest "$f" >/dev/null || { rm -rf "$tmp"; return 1; }
	done
	mv "$tmp/db" "$1" && rm -rf "$tmp"
}

# best of 5 wall-clock seconds of `perfdb detect --no-cache` on DB
timeit() {
	best=
	for i in 1 2 3 4 5; do
		t0=$(date +%s.%N)
		PERFDB_DB="$1" "$PERFDB" detect --no-cache --format json >/dev/null || return 1
		t1=$(date +%s.%N)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
	done
	echo "$best"
}

echo "building databases in $cache (first time: a few minutes of ingests)"
build "$cache/long.db" 11 10000 1 || exit 1
build "$cache/wide.db" 12 200 1000 || exit 1
long=$(timeit "$cache/long.db") || exit 1
wide=$(timeit "$cache/wide.db") || exit 1
printf 'detect, 1 series of 10000 points: %.3f s (target < 0.030 s; Otava not installable here)\n' "$long"
printf 'detect, 1000 series of 200 points: %.3f s (target < 0.85 s; Otava not installable here)\n' "$wide"
status=0
[ "$(echo "$long < 0.030" | bc -l)" = 1 ] || { echo "detect: 10000-point series over its target"; status=1; }
[ "$(echo "$wide < 0.85" | bc -l)" = 1 ] || { echo "detect: 1000 series over their target"; status=1; }

# detection quality: the synthetic-history unit test prints the figures
# (BENCH_BUILD: the build directory, default build)
b=${BENCH_BUILD:-build}
make -s -C "$ROOT" BUILD="$b" "$b/tests/test_detect_synth" >/dev/null 2>&1 &&
	(cd "$ROOT" && "$b/tests/test_detect_synth") 2>&1 | grep -E '^detect' || status=1
exit $status
