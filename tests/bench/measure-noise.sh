#!/bin/sh
# The noise of each instrument under a bursting neighbour: 5 runs of
# `perfdb run --measure instructions` of one benchmark (gzip -6 of 2 MB of
# text, 10 repetitions) beside tests/bench/hog.sh (2 workers, bounded, and
# stopped by its PID), and for wall_time, cpu_time and instructions: the
# spread of the 10 repetitions of each run (max - min over the median;
# the range over the 5 runs) and the spread of the 5 runs' medians.
# The figures of docs/gate-noise.md ("Which instrument sees what").
# Usage: sh tests/bench/measure-noise.sh [RUNS [WORKERS]]
PERFDB=${PERFDB:?} ROOT=${ROOT:?}
runs=${1:-5} workers=${2:-2}
work=$(mktemp -d) || exit 1
hog=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; rm -rf "$work"' EXIT
export PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off
seq 1 300000 | awk '{ print "line", $1, $1 * 7 % 1000, "of some text to compress" }' | head -c 2000000 >"$work/text"
cat > "$work/spec.yaml" <<YAML
repeat: 10
warmup: 1
measure: [instructions]
benchmarks:
  - {name: gzip, command: "gzip -6 -c $work/text > /dev/null"}
YAML
sh "$ROOT/tests/bench/hog.sh" 900 "$workers" &
hog=$!
for i in $(seq "$runs"); do
	"$PERFDB" run "$work/spec.yaml" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
done
kill "$hog"
wait "$hog" 2>/dev/null
hog=
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); instrument: $(sqlite3 "$PERFDB_DB" "SELECT DISTINCT value FROM run_attrs WHERE key = 'instrument.instructions'")"
"$PERFDB" export --bench gzip >"$work/csv" || exit 1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["metric"] ~ /^(wall_time|cpu_time|instructions)$/ { print $col["metric"], substr($col["run"], 4), $col["value"] }' "$work/csv" |
sort -k1,1 -k2,2n -k3,3g | awk '
  function median(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  function flush() {
    if (!n) return
    m = median(v, n); s = (v[n] - v[1]) / m
    if (!(metric in lo) || s < lo[metric]) lo[metric] = s
    if (!(metric in hi) || s > hi[metric]) hi[metric] = s
    med[metric, ++k[metric]] = m; n = 0
  }
  { if ($1 != metric || $2 != run) { flush(); metric = $1; run = $2 } v[++n] = $3 }
  END {
    flush()
    for (mt in k) {
      c = k[mt]; for (i = 1; i <= c; i++) x[i] = med[mt, i]
      for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
      printf "%-13s within a run (10 repetitions): %.3f-%.3f %%; the %d runs'"'"' medians: %.3f %% (%.10g to %.10g)\n",
        mt, 100 * lo[mt], 100 * hi[mt], c, 100 * (x[c] - x[1]) / median(x, c), x[1], x[c]
    }
  }'
