#!/bin/sh
# The CI recipes of ci-examples/ played locally by tests/ci-play.py from the YAML as
# written. On a push to main three matrix jobs benchmark into their own databases,
# the gate job restores main's database from the cache, merges the shards and
# compares each with main's previous run of its shard; a pull request is an A/B run
# of the target branch and the pull request's head on one runner. Pipelines, for
# each system:
#   1. a push to main: nothing to compare with (exit 0);
#   2. a push to main, unchanged (exit 0);
#   3. a push to main whose shard 3 ran on a slower machine (its CPU time 1.5x as
#      well as its wall time: a noisy neighbour alone moves no CPU time and would
#      not fail the gate) (exit 1), then its re-run
#      (the same pipeline id, attempt 2) on a quiet one: exit 0, gating attempt 2's
#      numbers, attempt 1's runs gone from the cache;
#   4. a pull request that slows shard 2 by 30 %: its A/B run exits 1, naming
#      shard 2 only; main's cache untouched, the pull request saves none;
#   5. two more pushes to main, then the pull request's fix: its A/B run exits 0,
#      its baseline main's newest commit.
/usr/bin/python3 -c 'import yaml' 2>/dev/null || { echo "python3-yaml is missing"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/repo"
ln -s "$PERFDB" "$work/bin/perfdb"
export PATH="$work/bin:$PATH" PERFDB_FINGERPRINT=off
# the repository's benchmarks: shard S gives 10 wall and CPU times of "shard S",
# scaled by the factor in slow-S (1 unless a commit or the machine makes it slower)
cat > "$work/repo/bench.sh" <<'SH'
#!/bin/sh
factor=$(cat "slow-$1" 2>/dev/null || echo 1)
samples=$(awk -v f="$factor" 'BEGIN { for (i = 0; i < 10; i++) printf "%s%.6f", i ? ", " : "", f * (1 + i / 100) }')
cpu=$(awk -v f="$factor" 'BEGIN { for (i = 0; i < 10; i++) printf "%s%.6f", i ? ", " : "", 0.9 * f * (1 + i / 100) }')
printf '{"tool": "bench.sh", "results": [{"benchmark": "shard %s", "dims": {}, "metric": "time", "unit": "s", "direction": "lower", "samples": [%s]}, {"benchmark": "shard %s", "dims": {}, "metric": "cpu_time", "unit": "s", "direction": "lower", "samples": [%s]}]}\n' "$1" "$samples" "$1" "$cpu"
SH
chmod +x "$work/repo/bench.sh"
# what the A/B job runs: bench.sh of each side's checkout; bench.sh times itself
cat > "$work/repo/bench.yaml" <<'YAML'
matrix: {shard: [1, 2, 3]}
benchmarks:
  - {name: shard, cwd: "{dir}", command: ["./bench.sh", "{shard}"], parse: {format: perfdb}}
YAML
cat > "$work/repo/perfdb.yaml" <<'YAML'
compare: {rules: [{benchmark: shard, metric: "*_time", gate: false}]}
YAML
git() { command git -C "$work/repo" -c user.name=ci -c user.email=ci@example.com "$@"; }
git init -q -b main && git add . && git commit -qm "the benchmarks" || exit 1
git remote add origin "$work/repo" && git fetch -q origin || exit 1
fail=0
check() { # check WHAT EXPECTED GOT
  if [ "$2" = "$3" ]; then echo "ok: $1: $3"; else echo "FAIL: $1: expected $2, got $3"; fail=1; fi
}
runs_in() { # the runs of a cached database, or "none"
  db=$(ls -d $1 2>/dev/null | tail -1)
  if [ -n "$db" ]; then perfdb --db "$db" sql --format tsv 'SELECT count(*) FROM runs' | sed 1d; else echo none; fi
}
play() { # play SYSTEM BRANCH RUN [--pr] [--attempt N]: prints the gate's status
  log="$work/log-$1-$3$(echo "$*" | sed -n 's/.*--attempt \([0-9]*\).*/.\1/p')"
  sys=$1 br=$2 id=$3
  shift 3
  /usr/bin/python3 "$ROOT/tests/ci-play.py" "$sys" "$yaml" "$work/repo" "$state" "$br" "$id" "$@" \
    > "$log" 2>&1
  echo $?
}
last_line() { grep "^perf gate:" "$work/log-$1" | tail -1; }
for system in github gitlab; do
  state="$work/state-$system"
  case $system in
    github) yaml="$ROOT/ci-examples/github-actions.yml"
            main_cache() { echo "$state/caches/main/perfdb-main-$1-${2:-1}/perfdb.db"; }
            pr_caches() { echo "$state/caches/1/merge/*/perfdb.db"; } ;;
    gitlab) yaml="$ROOT/ci-examples/gitlab-ci.yml"
            main_cache() { echo "$state/caches/gl/perfdb-main-protected/perfdb.db"; }
            pr_caches() { echo "$state/caches/gl/perfdb-feature*/perfdb.db"; } ;;
  esac
  rm -f "$work"/repo/slow-*
  check "$system: main, first run" 0 "$(play $system main 101)"
  check "$system: shards without a baseline" 3 \
    "$(grep "no main run to compare with yet" "$work/log-$system-101" | sort -u | wc -l)"
  check "$system: main's cache" 3 "$(runs_in "$(main_cache 101)")"
  check "$system: main, unchanged" 0 "$(play $system main 102)"
  check "$system: main's cache" 6 "$(runs_in "$(main_cache 102)")"
  check "$system: main, unchanged: last line" "perf gate: PASS" "$(last_line $system-102)"
  echo 1.5 > "$work/repo/slow-3"
  check "$system: main, shard 3 on a slower machine" 1 "$(play $system main 103)"
  check "$system: ... its last line" "perf gate: FAIL in shard 3" "$(last_line $system-103)"
  rm "$work/repo/slow-3"
  check "$system: main, the re-run" 0 "$(play $system main 103 --attempt 2)"
  check "$system: ... its last line" "perf gate: PASS" "$(last_line $system-103.2)"
  check "$system: main's cache after the re-run: attempt 1's runs replaced" 9 \
    "$(runs_in "$(main_cache 103 2)")"
  git checkout -qb feature && echo 1.3 > "$work/repo/slow-2" && git add slow-2 &&
    git commit -qm "slower shard 2" || exit 1
  check "$system: pull request slowing shard 2" 1 "$(play $system feature 104 --pr)"
  check "$system: ... its A/B run's headline" "FAIL: 2 regressions, 4 unchanged" \
    "$(grep -o "FAIL: [^(;]*[^ (;]" "$work/log-$system-104" | head -1)"
  check "$system: ... the regressions, of shard 2 only" "shard 2" \
    "$(grep -E "^(\| )?shard/shard [0-9].*regression" "$work/log-$system-104" |
       grep -o "shard [0-9]" | sort -u | tr '\n' ' ' | sed 's/ $//')"
  check "$system: main's cache untouched" 9 "$(runs_in "$(main_cache 103 2)")"
  check "$system: the pull request's cache" none "$(runs_in "$(pr_caches)")"
  git checkout -q main
  check "$system: main, unchanged" 0 "$(play $system main 105)"
  check "$system: main, unchanged" 0 "$(play $system main 106)"
  git checkout -q feature && git rm -q slow-2 && git commit -qm "shard 2 fixed" || exit 1
  check "$system: pull request fixing it" 0 "$(play $system feature 107 --pr)"
  check "$system: ... its A/B run's headline" "PASS: 6 unchanged" \
    "$(grep -o "PASS: [^(;]*[^ (;]" "$work/log-$system-107" | head -1)"
  check "$system: ... its baseline main's commit" "$(git rev-parse main)" \
    "$(perfdb --db "$(ls "$state"/jobs/107/ab*/ab.db)" sql --format tsv \
       "SELECT value FROM run_attrs WHERE key = 'commit' AND run_id = 1" | sed 1d)"
  check "$system: the pull request's cache" none "$(runs_in "$(pr_caches)")"
  git checkout -q main && git branch -qD feature
  [ $fail = 0 ] || { for f in "$work"/log-$system-*; do echo "--- $f"; cat "$f"; done; exit 1; }
done
echo "GitHub Actions and GitLab CI recipes: baselines, unchanged, a re-run, a pull request's A/B regression gated, its fix passed"
