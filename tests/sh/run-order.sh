#!/bin/sh
# Runs are ordered by the time they were measured (created_at, ties by id),
# whatever order they were stored in: twelve runs of one benchmark on main,
# measured a day apart, 1.0 s for the first six days and 2.0 s after, stored
# out of order (the two newest first, then merged from a second database
# holding the older ten). latest, latest~N, latest:branch=main, runs, gc's
# dry run, plot history's axis, detect, report's baseline and the site
# all follow the time order; a new run stored after them is again newest,
# and an older one stored after detect cached the history takes its place.
: "${PERFDB:?}"
work=$(mktemp -d) || exit 1
trap '[ -n "$KEEP" ] || rm -rf "$work"' EXIT
export PERFDB_FINGERPRINT=off
fail() { echo "run-order: $*"; exit 1; }
# run DAY VALUE: a canonical run named dDAY measured on 2025-01-DAY
run() {
	cat > "$work/d$1.json" <<JSON
{"uuid": "00000000-0000-4000-8000-0000000000$1", "name": "d$1",
 "created_at": "2025-01-$1T12:00:00Z", "tool": "gen", "attrs": {"branch": "main", "commit": "c$1"},
 "results": [{"benchmark": "b", "dims": {}, "metric": "time", "unit": "s",
  "direction": "lower", "samples": [$2]}]}
JSON
}
for d in 01 02 03 04 05 06; do run $d 1.0; done
for d in 07 08 09 10 11 12; do run $d 2.0; done
# the two newest into db (run1 = d12, run2 = d11), the older ten into old.db
for d in 12 11; do
	PERFDB_DB="$work/db" "$PERFDB" ingest "$work/d$d.json" >/dev/null || fail "ingest"
done
for d in 01 02 03 04 05 06 07 08 09 10; do
	PERFDB_DB="$work/old.db" "$PERFDB" ingest "$work/d$d.json" >/dev/null || fail "ingest old"
done
export PERFDB_DB="$work/db"
"$PERFDB" merge "$work/old.db" >/dev/null || fail "merge"
name() { "$PERFDB" show "$1" --format json | sed -n 's/^ *"name": "\([^"]*\)".*/\1/p' | head -1; }
[ "$(name latest)" = d12 ] || fail "latest is $(name latest), not d12"
[ "$(name latest~1)" = d11 ] || fail "latest~1 is $(name latest~1), not d11"
[ "$(name latest~2)" = d10 ] || fail "latest~2 is $(name latest~2), not d10"
[ "$(name latest:branch=main)" = d12 ] || fail "latest:branch=main is $(name latest:branch=main), not d12"
# runs: newest first
"$PERFDB" runs > "$work/runs" || fail "runs"
order=$(grep -o 'd[0-9][0-9]' "$work/runs" | tr '\n' ' ')
[ "$order" = "d12 d11 d10 d09 d08 d07 d06 d05 d04 d03 d02 d01 " ] || fail "runs lists $order"
# gc keeps the newest run measured
"$PERFDB" gc --keep-last 1 --dry-run > "$work/gc" || fail "gc"
grep -q 'd12' "$work/gc" && fail "gc --keep-last 1 would remove d12: $(cat "$work/gc")"
[ "$(grep -c '^would remove run' "$work/gc")" = 11 ] || fail "gc would remove: $(cat "$work/gc")"
# plot history: the axis runs c01 .. c12 (the runs' commits), the step between c06 and c07
"$PERFDB" plot history -o "$work/h.svg" --layout > "$work/layout" 2>&1 || fail "plot history: $(cat "$work/layout")"
axis=$(grep -m1 'ticks "c' "$work/layout" | grep -o '"c[0-9]*"' | tr -d '"' | tr '\n' ' ')
[ "$axis" = "c01 c02 c03 c04 c05 c06 c07 c08 c09 c10 c11 c12 " ] || fail "plot history's axis: $axis"
grep -q 'vmark 5.5 ' "$work/layout" || fail "plot history: no change between c06 and c07: $(cat "$work/layout")"
# detect: one step up, at d07 (ids run3..run12 are d01..d10, run1 d12, run2 d11)
"$PERFDB" detect --format json > "$work/detect" || fail "detect"
grep -q '"run_after": "run9"' "$work/detect" && grep -q '"index": 6,' "$work/detect" ||
	fail "detect: no change at run9 (d07), the 7th run: $(cat "$work/detect")"
[ "$(grep -c '"run_after": ' "$work/detect")" = 1 ] || fail "detect: not one change point: $(cat "$work/detect")"
# report's default baseline: the run measured before d12, d11
"$PERFDB" report latest -o "$work/r" -F markdown > /dev/null 2>&1 || fail "report"
grep -q 'against baseline \*\*run2 (d11)\*\*' "$work/r/index.md" || fail "report of d12 is not against d11 (run2): $(head -20 "$work/r/index.md")"
# the site: d12 is compared with d11, and the change is at d07
"$PERFDB" site -o "$work/site" > /dev/null 2>&1 || fail "site"
grep -q 'Compared with <a href="../r/run2.html">run2</a> (d11)' "$work/site/r/run1.html" ||
	fail "site: run1 (d12) not compared with run2 (d11)"
grep -q 'run8.html">run8</a> (d06) .*run9.html">run9</a> (d07)' "$work/site/b/b.html" ||
	fail "site: no change point from d06 to d07"
# a run stored now, measured last, is newest again
run 13 2.0
"$PERFDB" ingest "$work/d13.json" >/dev/null || fail "ingest d13"
[ "$(name latest)" = d13 ] || fail "latest after d13 is $(name latest)"
[ "$(name latest~3)" = d10 ] || fail "latest~3 after d13 is $(name latest~3)"
"$PERFDB" detect --format json > "$work/detect" || fail "detect after d13"
grep -q '"run_after": "run9"' "$work/detect" || fail "detect after d13: $(cat "$work/detect")"
# an older run stored after detect cached the history: it takes its place
# (the 7th run, so the step moves to the 8th) and the cache gives what a
# full read gives
sed 's/"d06"/"d06b"/; s/000000000006"/000000000066"/; s/T12:00/T18:00/' "$work/d06.json" > "$work/d06b.json"
"$PERFDB" ingest "$work/d06b.json" >/dev/null || fail "ingest d06b"
[ "$(name latest~7)" = d06b ] || fail "latest~7 after d06b is $(name latest~7)"
"$PERFDB" detect --format json > "$work/cached" || fail "detect after d06b"
"$PERFDB" detect --format json --no-cache > "$work/full" || fail "detect --no-cache after d06b"
cmp -s "$work/cached" "$work/full" || fail "detect's cache differs from a full read: $(diff "$work/full" "$work/cached")"
grep -q '"index": 7,' "$work/full" || fail "detect after d06b: $(cat "$work/full")"
echo "run-order: ok"
