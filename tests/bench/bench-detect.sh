#!/bin/sh
# perfdb detect: time on one 10,000-point series, on 1,000 series of 200
# points and on 1,000 series of 1,500 points (cold, and with the cache
# after one run was appended), database reading included, against the
# targets (30 ms, 0.85 s: 10x faster than Apache Otava; 5 s and 0.5 s:
# issue 17); then the quality figures: false change points per 1,000
# run-series and recall on long histories (test_detect_long, scaled up to
# 1,000 series of 1,500 runs per set), and the F1 of the synthetic-history
# test. Otava is not installable here (no Debian package, no PyPI access),
# so only perfdb's times are measured, against the targets. The databases
# are built by ingesting generated canonical JSON runs (one run per point)
# and kept in $BENCH_CACHE between runs. Times are the best of 5 (the
# machine is shared: compare ratios, not single figures).
PERFDB=${PERFDB:?} ROOT=${ROOT:?}
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/perfdb-bench-detect}
mkdir -p "$cache" || exit 1
export PERFDB_FINGERPRINT=off

# gen SEED NRUNS NSERIES DIR [FIRST]: canonical runs FIRST.. (default 1),
# lognormal noise of 2 %, a step of +10 % two thirds of the way along in
# every series.
gen() {
	mkdir -p "$4"
	awk -v seed="$1" -v nruns="$2" -v nseries="$3" -v dir="$4" -v first="${5:-1}" 'BEGIN {
		srand(seed)
		for (r = first; r < first + nruns; r++) {
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

# best of 5 wall-clock seconds of `perfdb detect [OPTIONS]` on DB
timeit() {
	db=$1
	shift
	best=
	for i in 1 2 3 4 5; do
		t0=$(date +%s.%N)
		PERFDB_DB="$db" "$PERFDB" detect "$@" --format json >/dev/null || return 1
		t1=$(date +%s.%N)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
	done
	echo "$best"
}

status=0
# check NAME SECONDS TARGET: print and compare
check() {
	printf 'detect, %s: %.3f s (target < %s s)\n' "$1" "$2" "$3"
	[ "$(echo "$2 < $3" | bc -l)" = 1 ] || { echo "detect: $1 over its target"; status=1; }
}

echo "building databases in $cache (first time: a few minutes of ingests)"
build "$cache/long.db" 11 10000 1 || exit 1
build "$cache/wide.db" 12 200 1000 || exit 1
build "$cache/year.db" 13 1500 1000 || exit 1
long=$(timeit "$cache/long.db" --no-cache) || exit 1
wide=$(timeit "$cache/wide.db" --no-cache) || exit 1
year=$(timeit "$cache/year.db" --no-cache) || exit 1
# one run appended to a copy whose cache is warm: only the tails re-split
work=$(mktemp -d "$cache/append.XXXXXX") || exit 1
cp "$cache/year.db" "$work/db" && gen 13 1 1000 "$work/runs" 1501 &&
	PERFDB_DB="$work/db" "$PERFDB" detect >/dev/null &&
	PERFDB_DB="$work/db" "$PERFDB" ingest "$work/runs/run-001501.json" >/dev/null &&
	append=$(timeit "$work/db") || { rm -rf "$work"; exit 1; }
rm -rf "$work"
check "1 series of 10000 points" "$long" 0.030
check "1000 series of 200 points" "$wide" 0.85
check "1000 series of 1500 points, cold" "$year" 5
check "1000 series of 1500 points, one run appended (cache)" "$append" 0.5

# detection quality: the unit tests print the figures (BENCH_BUILD: the
# build directory, default build)
b=${BENCH_BUILD:-build}
make -s -C "$ROOT" BUILD="$b" "$b/tests/test_detect_synth" "$b/tests/test_detect_long" >/dev/null 2>&1 &&
	(cd "$ROOT" && "$b/tests/test_detect_synth") 2>&1 | grep -E '^detect' &&
	(cd "$ROOT" && DETECT_LONG_SERIES=1000 DETECT_LONG_RUNS=1500 "$b/tests/test_detect_long") 2>&1 |
	grep -E '^detect long (flat|steps):' || status=1
exit $status
