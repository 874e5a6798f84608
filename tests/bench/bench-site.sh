#!/bin/sh
# perfdb site: the time to write the site of 2,000 series x 500 runs from
# scratch and after one more run (the rewritten pages only), and the size of
# its index, against the targets of issue 20 (30 s, 3 s, 2 MB). The series:
# 400 benchmarks in 20 groups, each a time at 4 sizes and a memory figure (two
# history charts per benchmark page), 2 % noise, a +10 % step two thirds of the
# way along in one series of 10 and in the last 10 runs in one of 50. No peer
# runs here (asv publish is not installable: no Debian package, no PyPI
# access), so only perfdb's times are measured, against the targets. The
# database is built by ingesting generated canonical JSON runs and kept in
# $BENCH_CACHE between runs; times are one run each (the machine is shared).
# A run of every series rewrites every benchmark page: its two history charts
# (cairo SVG of 500 runs) cost about 2 ms each, drawn by one thread per CPU
# (site --jobs; $SITE_JOBS overrides); a run of one benchmark rewrites four pages.
PERFDB=${PERFDB:?}
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/perfdb-bench-site}
mkdir -p "$cache" || exit 1
export PERFDB_FINGERPRINT=off

# gen FIRST LAST DIR [NBENCH]: canonical runs FIRST..LAST of the first NBENCH
# benchmarks (default all 400)
gen() {
  /usr/bin/python3 - "$1" "$2" "$3" "${4:-400}" <<'PY'
import json, math, os, random, sys
first, last, out, nbench = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
os.makedirs(out, exist_ok=True)
for r in range(first, last + 1):
    rng = random.Random(r)
    res = []
    for b in range(nbench):
        for k in range(5):
            s = b * 5 + k
            level = 1.0
            if s % 10 == 3 and r > 333:
                level = 1.1
            if s % 50 == 7 and r > 490:
                level = 1.1
            v = level * math.exp(0.02 * rng.gauss(0, 1))
            bench = "g%02d/bench%03d" % (b % 20, b)
            if k < 4:
                res.append({"benchmark": bench, "dims": {"size": str(1 << k)}, "metric": "time",
                            "unit": "s", "direction": "lower", "samples": [0.001 * v * (k + 1)]})
            else:
                res.append({"benchmark": bench, "dims": {}, "metric": "rss", "unit": "B",
                            "direction": "lower", "samples": [float(int(5e7 * v))]})
    doc = {"uuid": "00000000-0000-4000-8000-%012d" % r, "name": "r%d" % r,
           "created_at": "2025-01-01T00:00:00Z", "tool": "gen",
           "attrs": {"branch": "main", "commit": "c%06d" % r, "host": "bench"}, "results": res}
    with open("%s/run-%06d.json" % (out, r), "w") as f:
        json.dump(doc, f)
PY
}

db="$cache/site-2000x500.db"
if [ ! -f "$db" ]; then
  echo "building $db (first time: 500 ingests)"
  tmp=$(mktemp -d "$cache/gen.XXXXXX") || exit 1
  gen 1 500 "$tmp/runs" || exit 1
  for f in "$tmp"/runs/*.json; do
    PERFDB_DB="$tmp/db" "$PERFDB" ingest "$f" >/dev/null || { rm -rf "$tmp"; exit 1; }
  done
  mv "$tmp/db" "$db" && rm -rf "$tmp"
fi

work=$(mktemp -d "$cache/run.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cp "$db" "$work/db" || exit 1
export PERFDB_DB="$work/db"
# seconds of `perfdb site -o $work/site`; its summary line into $work/out
timed() {
  t0=$(date +%s.%N)
  "$PERFDB" site -o "$work/site" ${SITE_JOBS:+--jobs "$SITE_JOBS"} >"$work/out" || exit 1
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
status=0
check() { # check WHAT VALUE TARGET UNIT
  printf 'site, %s: %.2f %s (target < %s %s)\n' "$1" "$2" "$4" "$3" "$4"
  [ "$(echo "$2 < $3" | bc -l)" = 1 ] || { echo "site: $1 over its target"; status=1; }
}
scratch=$(timed)
tail -n 1 "$work/out"
gen 501 501 "$work/runs" && "$PERFDB" ingest "$work/runs/run-000501.json" >/dev/null || exit 1
again=$(timed)
tail -n 1 "$work/out"
gen 502 502 "$work/runs" 1 && "$PERFDB" ingest "$work/runs/run-000502.json" >/dev/null || exit 1
one=$(timed)
tail -n 1 "$work/out"
index=$(stat -c %s "$work/site/index.html")
total=$(du -sk "$work/site" | cut -f1)
check "2000 series x 500 runs, from scratch" "$scratch" 30 s
check "after one more run of all 2000 series (400 benchmark pages)" "$again" 3 s
check "after one more run of one benchmark (5 series)" "$one" 3 s
check "index size" "$(echo "$index / 1000000" | bc -l)" 2 MB
printf 'site, whole site: %.1f MB on disk; drawn by %s threads\n' "$(echo "$total / 1024" | bc -l)" \
  "${SITE_JOBS:-$(nproc)}"
exit $status
