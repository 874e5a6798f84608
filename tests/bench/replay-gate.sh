#!/bin/sh
# Replays a folder of hyperfine runs, one per commit (c01.json, c02.json, ...
# in order), the way the CI recipes of ci-examples/ gate a push to main:
#   perfdb ingest cNN.json --name cNN --attr branch=main --attr commit=cNN
#   perfdb compare latest~1:branch=main cNN --format csv
# and prints one tab-separated line per series compared:
#   COMMIT  GATE-EXIT  VERDICT  CHANGE-PCT  BENCHMARK  METRIC  FAILS-GATE
# Used by tests/sh/gate-real-noise.sh and tests/bench/gate-heldout.sh.
# Usage: PERFDB=... PERFDB_DB=... sh tests/bench/replay-gate.sh DIR
: "${PERFDB:?}" "${PERFDB_DB:?}"
dir=${1:?usage: replay-gate.sh DIR}
first=1
for f in "$dir"/c[0-9]*.json; do
	c=$(basename "$f" .json)
	"$PERFDB" ingest "$f" --name "$c" --attr branch=main --attr commit="$c" >/dev/null || exit 1
	[ -n "$first" ] && first= && continue
	"$PERFDB" compare latest~1:branch=main "$c" --format csv >"$PERFDB_DB.csv" 2>/dev/null
	rc=$?
	[ $rc -le 1 ] || { echo "replay-gate: compare at $c: exit $rc" >&2; exit 1; }
	# csv: benchmark,dims,metric,...,change_pct (12),...,verdict (18),
	# reason (19), fails_gate (20); the benchmarks here are hyperfine
	# commands without commas, and a reason with one is quoted: read the
	# fails_gate from the end
	awk -F, -v c="$c" -v rc="$rc" 'NR > 1 { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c, rc, $18, $12, $1, $3, $(NF - 4) }' "$PERFDB_DB.csv"
done
rm -f "$PERFDB_DB.csv"
