#!/bin/sh
# sample: during a run, against real processes this test starts (and stops
# by PID): a shell burning CPU and an idle sleep, both started outside
# perfdb, matched by their command lines. The burner's cpu series is high
# (above 50 % where the machine has CPU to spare; always ten times the
# sleep's, and its mean within 40 % of what the burner's own /proc/PID/stat
# says it used over the run), the sleep's below 5 %; every repetition of a command
# and of a kafka: benchmark has the process and machine series with time
# offsets; a pattern that matches nothing is warned about; show names the
# burner as the busiest; plot latency draws the resource panels.
set -u
: "${PERFDB:?}"
work=$(mktemp -d) || exit 1
burn= idle=
cleanup() {
	[ -n "$burn" ] && kill "$burn" 2>/dev/null
	[ -n "$idle" ] && kill "$idle" 2>/dev/null
	wait 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "sample-resources: $*"; exit 1; }
export PERFDB_FINGERPRINT=off PERFDB_DB="$work/db"
command -v /usr/bin/python3 >/dev/null || { echo "no python3"; exit 77; }

printf 'while :; do :; done\n' > "$work/burn.sh"
timeout 60 sh "$work/burn.sh" &
burn=$!
idle_secs=47.$$
timeout 60 sleep "$idle_secs" &
idle=$!
sleep 0.3
bpid=$(pgrep -P "$burn" -f burn.sh) || fail "the burner did not start"
# patterns for this test's own processes only: make check runs this test
# for two builds at once, and what a pattern matches is summed
re() { printf '%s' "$1" | sed 's/[].[^$*+?(){}|\\]/\\&/g'; }
burn_re="^sh $(re "$work/burn.sh")\$"
idle_re="^sleep $(re "$idle_secs")\$"
ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$bpid/stat"; }

cat > "$work/spec.yaml" <<YAML
repeat: 2
sample:
  every: 0.5
  processes:
    burn: '$burn_re'
    idle: '$idle_re'
    none: 'no-such-process-anywhere'
benchmarks:
  - name: wait
    command: "sleep 3"
  - name: produce
    kafka: {brokers: "mock:1", topic: t, rate: 200, duration: 2, drain: 1}
YAML
t0=$(date +%s.%N)
u0=$(ticks)
"$PERFDB" run "$work/spec.yaml" >"$work/out" 2>"$work/err" || fail "run failed: $(cat "$work/err")"
u1=$(ticks)
t1=$(date +%s.%N)
hz=$(getconf CLK_TCK)
truth=$(awk -v a="$u0" -v b="$u1" -v hz="$hz" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.1f", 100 * (b - a) / hz / (t1 - t0) }')
grep -q "warning: wait: sample: process none: 'no-such-process-anywhere' matched no command line" "$work/err" ||
	fail "no warning of the pattern that matched nothing: $(cat "$work/err")"

"$PERFDB" show latest --format json > "$work/run.json" || fail "show --format json"
/usr/bin/python3 - "$work/run.json" "$truth" <<'PY' || fail "the sampled series are not as they should be (the burner used $truth % by its own /proc/PID/stat)"
import json, statistics, sys
run = json.load(open(sys.argv[1]))
truth = float(sys.argv[2])
series = {}
for r in run["results"]:
    series[(r["benchmark"], r["dims"].get("process"), r["metric"])] = r
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAIL:", what)
        ok = False
for bench in ("wait", "produce"):
    for proc in ("burn", "idle"):
        for m in ("cpu", "cpu_user", "cpu_system", "rss"):
            r = series.get((bench, proc, m))
            check(r is not None, f"{bench} {proc} {m}: no series")
            if r is None:
                continue
            check(all("t" in s for s in r["samples"]), f"{bench} {proc} {m}: a sample without a time offset")
            # sleep 3 at every 0.5: 5 or 6 whole periods a repetition; kafka: 3 s or more
            check(len(r["samples"]) >= 8, f"{bench} {proc} {m}: {len(r['samples'])} samples of 2 repetitions")
            check(r["direction"] == "none", f"{bench} {proc} {m}: direction {r['direction']}")
    for m in ("load1", "cpu_busy", "mem_used", "disk_read", "disk_write", "net_rx", "net_tx"):
        check((bench, None, m) in series, f"{bench} machine {m}: no series")
    check((bench, "none", "cpu") not in series, f"{bench}: a series of the pattern that matched nothing")
    cpu = [s["value"] for s in series[(bench, "burn", "cpu")]["samples"]]
    idle = [s["value"] for s in series[(bench, "idle", "cpu")]["samples"]]
    rss = [s["value"] for s in series[(bench, "burn", "rss")]["samples"]]
    busy = [s["value"] for s in series[(bench, None, "cpu_busy")]["samples"]]
    med = statistics.median(cpu)
    print(f"{bench}: burner cpu median {med:.1f} %, mean {statistics.mean(cpu):.1f} % (its own stat: {truth} % "
          f"over the run), idle max {max(idle):.1f} %, burner rss {min(rss):.0f}..{max(rss):.0f} B, "
          f"machine busy median {statistics.median(busy):.1f} %")
    # the burner is high: above 50 % of a CPU wherever the machine has CPU to
    # spare; on one that other work saturates, as high as its own stat says
    if statistics.median(busy) < 90:
        check(med > 50, f"{bench}: the burner's cpu median is {med:.1f} %, not above 50 %")
    check(med > 10 * max(max(idle), 1), f"{bench}: the burner ({med:.1f} %) is not well above the idle sleep")
    check(abs(statistics.mean(cpu) - truth) < max(10, 0.4 * truth),
          f"{bench}: the burner's mean cpu is {statistics.mean(cpu):.1f} %, its own stat says {truth} %")
    check(max(idle) < 5, f"{bench}: the idle sleep's cpu reached {max(idle):.1f} %")
    check(all(0 < v < 64 << 20 for v in rss), f"{bench}: the burner's rss is not a shell's: {rss}")
    t = [s["t"] for s in series[(bench, "burn", "cpu")]["samples"]]
    steps = [b - a for a, b in zip(t, t[1:]) if b > a]
    check(t[0] == 0 and 0.4 < statistics.median(steps) < 0.6, f"{bench}: offsets {t} are not every 0.5 s from 0")
    check(all(0 <= v <= 100 for v in busy), f"{bench}: cpu_busy outside 0..100: {busy}")
sys.exit(0 if ok else 1)
PY
"$PERFDB" show latest > "$work/show" || fail "show"
grep -q '^busiest  burn: mean CPU ' "$work/show" || fail "show does not name the burner the busiest: $(head -8 "$work/show")"
"$PERFDB" plot latency latest --bench wait -o "$work/lat.png" --layout > "$work/layout" 2>"$work/plot.err" ||
	fail "plot latency: $(cat "$work/plot.err")"
for p in "CPU of processes" "Memory of processes" "Machine CPU busy" "Machine load average" \
	"Machine memory used" "Machine disk" "Machine network"; do
	grep -q "^panel [0-9]* \"$p" "$work/layout" || fail "plot latency has no panel \"$p\": $(grep '^panel' "$work/layout")"
done
grep -q 'series "process=burn" ' "$work/layout" || fail "plot latency: no line of the burner"
echo "ok"
