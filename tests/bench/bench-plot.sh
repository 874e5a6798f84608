#!/bin/sh
# bench-plot: a 100,000-point latency-over-time series (one run whose samples
# carry time offsets) to a 1200x700 PNG line chart: perfdb against matplotlib
# (Agg) and gnuplot (pngcairo) on the same data. Three shapes of a 10-minute
# load test, a latency sample every 6 ms; the peers' time depends on how much
# ink the line lays down, perfdb's hardly (it reduces per pixel column):
# - steady: a flat band of noise (about +-17 %) that fills the plot's height,
#   the shape behind the issue's scale (gnuplot tens of seconds, matplotlib
#   several seconds);
# - swell: lognormal noise (sigma 0.35) on a slow swell;
# - bursty: the swell with 0.2 % of the samples 20 times higher, which
#   squeezes the band to the bottom of the axis: the peers draw it much faster.
: "${PERFDB:?}" "${ROOT:?}"
PY=/usr/bin/python3
if ! $PY -c 'import matplotlib' 2>/dev/null || ! command -v gnuplot >/dev/null; then
  sh "$ROOT/scripts/deps.sh" python3-matplotlib gnuplot-nox >/dev/null 2>&1
fi
$PY -c 'import matplotlib' 2>/dev/null || { echo "bench-plot: python3-matplotlib missing: skipped"; exit 0; }
command -v gnuplot >/dev/null || { echo "bench-plot: gnuplot missing: skipped"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/bench.db"

# gen NAME: the run NAME (perfdb canonical JSON, ingested) and NAME.txt (time
# and value per line, for the peers)
gen() {
  awk -v name="$1" -v dir="$work" 'BEGIN {
    srand(42); n = 100000; json = dir "/" name ".json"; txt = dir "/" name ".txt"
    printf "{\"name\":\"%s\",\"created_at\":\"2026-01-01T00:00:00Z\",\"tool\":\"bench\",\"format\":\"perfdb\",\"source\":\"bench\",\"status\":\"complete\",\"attrs\":{},\"results\":[{\"benchmark\":\"load\",\"dims\":{},\"metric\":\"latency\",\"unit\":\"s\",\"direction\":\"lower\",\"samples\":[", name > json
    for (i = 0; i < n; i++) {
      t = i * 0.006
      if (name == "steady") {
        v = 0.002 * exp(0.35 * (rand() - 0.5))
      } else {
        u1 = rand(); u2 = rand()
        g = sqrt(-2 * log(u1 + 1e-12)) * cos(6.283185307 * u2)
        v = 0.002 * exp(0.35 * g) * (1 + 0.5 * sin(t / 40))
        if (name == "bursty" && rand() < 0.002) v *= 20
      }
      printf "%s{\"value\":%.6g,\"t\":%.3f}", (i ? "," : ""), v, t > json
      printf "%.3f %.6g\n", t, v > txt
    }
    printf "],\"stats\":{}}]}\n" > json
  }'
  "$PERFDB" ingest "$work/$1.json" >/dev/null || exit 1
}

# CPU time (user + system) of a command, from getrusage to the microsecond
# (GNU time rounds to 10 ms); the machine may be shared, so wall-clock time
# says little about the work done.
cpu() {
  $PY -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f" % (r.ru_utime + r.ru_stime))' "$@" || exit 1
}

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

# shape NAME: time the three on it and print the ratios
shape() {
  gen "$1"
  best=
  for i in 1 2 3; do
    t=$(cpu "$PERFDB" plot latency "$1" -o "$work/perfdb.png" --width 1200 --height 700)
    best=$(awk -v t="$t" -v b="$best" 'BEGIN { print (b == "" || t < b) ? t : b }')
  done
  mpl=$(cpu $PY "$work/plot.py" "$work/$1.txt" "$work/mpl.png")
  gp=$(cpu gnuplot -e "set terminal pngcairo size 1200,700; set output '$work/gnuplot.png'; set title 'Latency over time'; set xlabel 'time (s)'; set ylabel 'latency (s)'; plot '$work/$1.txt' using 1:2 with lines notitle")
  awk -v name="$1" -v p="$best" -v m="$mpl" -v g="$gp" 'BEGIN {
    printf "plot %-6s perfdb %.3f s CPU (best of 3; spectrum + latency over time), matplotlib %.3f s, gnuplot %.3f s\n", name, p, m, g
    printf "plot %-6s ratio matplotlib/perfdb %.1fx (goal >= 20x), gnuplot/perfdb %.1fx (goal >= 100x)\n", name, m / p, g / p
  }'
}
shape steady
shape swell
shape bursty
