#!/bin/sh
# make bench: the stream sender's pacing. RFC 5424 syslog lines, octet
# counted, at 50,000 lines/s for 10 s over tcp to a loopback sink (a tiny
# reader that counts the messages and throws them away), then for 5 s to
# /dev/null (the sender alone, no socket). Achieved rate (lines sent over the
# time from the first line's due time to the last line's send) within 1 % of
# the target; pacing error (send time minus due time) p99.9 under 2 ms.
# On a shared machine the scheduler decides most of that error: where chrt
# may give perfdb a real-time priority, the /dev/null run is repeated so, to
# show the sender's own error (reported, not part of the verdict).
PERFDB=${PERFDB:-build/perfdb}
dir=$(mktemp -d)
sink=
trap '[ -n "$sink" ] && kill $sink 2>/dev/null; rm -rf "$dir"' EXIT
command -v python3 >/dev/null 2>&1 || { echo "stream: skipped (no python3 for the sink)"; exit 0; }
python3 - "$dir/port" "$dir/count" <<'PY' &
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(1)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
c, _ = s.accept()
n, tail = 0, b""
while True:
    b = c.recv(1 << 20)
    if not b:
        break
    b = tail + b
    n += b.count(b"<134>1 ")
    tail = b[-6:]
open(sys.argv[2], "w").write(str(n))
PY
sink=$!
for _ in $(seq 50); do [ -s "$dir/port" ] && break; sleep 0.1; done
cat > "$dir/spec.yaml" <<YAML
repeat: 1
benchmarks:
  - name: paced
    stream: {target: "tcp://127.0.0.1:$(cat "$dir/port")", framing: syslog, rate: 50000, duration: 10}
YAML
PERFDB_FINGERPRINT=off "$PERFDB" --db "$dir/db" run "$dir/spec.yaml" >/dev/null 2>"$dir/err" || { cat "$dir/err"; exit 1; }
for _ in $(seq 50); do [ -s "$dir/count" ] && break; sleep 0.1; done
cat > "$dir/null.yaml" <<YAML
repeat: 1
benchmarks:
  - name: devnull
    stream: {target: "file:/dev/null", framing: syslog, rate: 50000, duration: 5}
YAML
PERFDB_FINGERPRINT=off "$PERFDB" --db "$dir/db" run "$dir/null.yaml" >/dev/null 2>"$dir/err" || { cat "$dir/err"; exit 1; }
rt=
if chrt -f 10 true 2>/dev/null; then
  sed 's/name: devnull/name: devnull-rt/' "$dir/null.yaml" >"$dir/rt.yaml"
  PERFDB_FINGERPRINT=off chrt -f 10 "$PERFDB" --db "$dir/db" run "$dir/rt.yaml" >/dev/null 2>"$dir/err" || { cat "$dir/err"; exit 1; }
  rt=devnull-rt
fi
stat() { # BENCH METRIC STAT
  sqlite3 "$dir/db" "SELECT st.value FROM stats st JOIN results r ON r.id = st.result_id
    JOIN series s ON s.id = r.series_id WHERE s.benchmark = '$1' AND s.metric = '$2' AND st.name = '$3'"
}
ok=0
for b in paced devnull $rt; do
  awk -v b=$b -v rate="$(stat $b send_rate mean)" -v p999="$(stat $b send_delay p99.9)" -v p99="$(stat $b send_delay p99)" \
      -v got="$(cat "$dir/count" 2>/dev/null)" 'BEGIN {
    off = (rate > 50000 ? rate - 50000 : 50000 - rate) / 500
    printf "stream: syslog %s at 50000 lines/s: achieved %.1f lines/s (%.3f %% off, target <= 1 %%), pacing error p99 %.1f us, p99.9 %.1f us (target < 2000 us)", b == "paced" ? "over tcp for 10 s" : b == "devnull" ? "to /dev/null for 5 s" : "to /dev/null for 5 s under chrt -f 10", rate, off, p99 * 1e6, p999 * 1e6
    if (b == "paced")
      printf "; the sink counted %d of 500000", got
    printf "\n"
    exit b != "devnull-rt" && !(off <= 1 && p999 < 0.002 && (b != "paced" || got == 500000))
  }' || ok=1
done
exit $ok
