#!/bin/sh
# bench-plot: a 100,000-point latency-over-time series (one run whose samples
# carry time offsets) to a 1200x700 PNG line chart: perfdb against matplotlib
# (Agg) and gnuplot (pngcairo) on the same data. Prints both ratios.
: "${PERFDB:?}" "${ROOT:?}"
PY=/usr/bin/python3
if ! $PY -c 'import matplotlib' 2>/dev/null || ! command -v gnuplot >/dev/null; then
  sh "$ROOT/tests/deps.sh" python3-matplotlib gnuplot-nox >/dev/null 2>&1
fi
$PY -c 'import matplotlib' 2>/dev/null || { echo "bench-plot: python3-matplotlib missing: skipped"; exit 0; }
command -v gnuplot >/dev/null || { echo "bench-plot: gnuplot missing: skipped"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/bench.db"

# A long load test: 10 minutes, a latency sample every 6 ms, with bursts.
awk 'BEGIN {
  srand(42); n = 100000
  printf "{\"uuid\":\"5b0c8f1e-2d4a-4e7b-9c3f-6a1d2e3f4a5b\",\"name\":\"loadtest\",\"created_at\":\"2026-01-01T00:00:00Z\",\"tool\":\"bench\",\"format\":\"perfdb\",\"source\":\"bench\",\"status\":\"complete\",\"attrs\":{},\"results\":[{\"benchmark\":\"load\",\"dims\":{},\"metric\":\"latency\",\"unit\":\"s\",\"direction\":\"lower\",\"samples\":[" > "'"$work"'/run.json"
  for (i = 0; i < n; i++) {
    t = i * 0.006; u1 = rand(); u2 = rand()
    g = sqrt(-2 * log(u1 + 1e-12)) * cos(6.283185307 * u2)
    v = 0.002 * exp(0.35 * g) * (1 + 0.5 * sin(t / 40))
    if (rand() < 0.002) v *= 20
    printf "%s{\"value\":%.6g,\"t\":%.3f}", (i ? "," : ""), v, t > "'"$work"'/run.json"
    printf "%.3f %.6g\n", t, v > "'"$work"'/data.txt"
  }
  printf "],\"stats\":{}}]}\n" > "'"$work"'/run.json"
}'
"$PERFDB" ingest "$work/run.json" >/dev/null || exit 1

# CPU time (user + system) of a command, from getrusage to the microsecond
# (GNU time rounds to 10 ms); the machine may be shared, so wall-clock time
# says little about the work done.
cpu() {
  $PY -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f" % (r.ru_utime + r.ru_stime))' "$@" || exit 1
}
best=
for i in 1 2 3; do
  t=$(cpu "$PERFDB" plot latency loadtest -o "$work/perfdb.png" --width 1200 --height 700)
  best=$(awk -v t="$t" -v b="$best" 'BEGIN { print (b == "" || t < b) ? t : b }')
done

cat > "$work/plot.py" <<'PYEOF'
import sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
t, v = [], []
with open(sys.argv[1]) as f:
    for line in f:
        a, b = line.split()
        t.append(float(a)); v.append(float(b))
fig, ax = plt.subplots(figsize=(12, 7), dpi=100)
ax.plot(t, v, linewidth=1)
ax.set_xlabel("time (s)"); ax.set_ylabel("latency (s)"); ax.set_title("Latency over time")
fig.savefig(sys.argv[2])
PYEOF
mpl=$(cpu $PY "$work/plot.py" "$work/data.txt" "$work/mpl.png")

gp=$(cpu gnuplot -e "set terminal pngcairo size 1200,700; set output '$work/gnuplot.png'; set title 'Latency over time'; set xlabel 'time (s)'; set ylabel 'latency (s)'; plot '$work/data.txt' using 1:2 with lines notitle")

printf 'perfdb     %.3f s CPU (best of 3; spectrum + latency over time, 100000 points)\n' "$best"
printf 'matplotlib %.3f s CPU (Agg, line chart)\n' "$mpl"
printf 'gnuplot    %.3f s CPU (pngcairo, line chart)\n' "$gp"
awk -v p="$best" -v m="$mpl" -v g="$gp" 'BEGIN {
  printf "ratio matplotlib/perfdb %.1fx (goal >= 20x)\n", m / p
  printf "ratio gnuplot/perfdb    %.1fx (goal >= 100x)\n", g / p
}'
