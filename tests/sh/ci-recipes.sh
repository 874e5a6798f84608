#!/bin/sh
# The CI recipes of ci-examples/ played locally by tests/ci-play.py from the YAML as
# written: three matrix jobs benchmark into their own databases, the gate job
# restores the branch's database from the cache (a pull request's from main's),
# merges the shards and compares with main. Pipelines: two pushes to main (nothing
# to compare, then unchanged: exit 0), a pull request that slows shard 2 by 30 %
# (exit 1, the regression named), then one that fixes it (exit 0); after each, the
# runs the cached databases hold are counted.
/usr/bin/python3 -c 'import yaml' 2>/dev/null || { echo "python3-yaml is missing"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/repo"
ln -s "$PERFDB" "$work/bin/perfdb"
export PATH="$work/bin:$PATH" PERFDB_FINGERPRINT=off
# the repository's benchmarks: shard S gives 10 times of "shard S", shard 2 scaled
# by the factor in slow (1 unless a commit makes it slower)
cat > "$work/repo/bench.sh" <<'SH'
#!/bin/sh
factor=$(cat slow 2>/dev/null || echo 1)
[ "$1" = 2 ] || factor=1
samples=$(awk -v f="$factor" 'BEGIN { for (i = 0; i < 10; i++) printf "%s%.6f", i ? ", " : "", f * (1 + i / 100) }')
printf '{"tool": "bench.sh", "results": [{"benchmark": "shard %s", "dims": {}, "metric": "time", "unit": "s", "direction": "lower", "samples": [%s]}]}\n' "$1" "$samples"
SH
chmod +x "$work/repo/bench.sh"
fail=0
check() { # check WHAT EXPECTED GOT
  if [ "$2" = "$3" ]; then echo "ok: $1: $3"; else echo "FAIL: $1: expected $2, got $3"; fail=1; fi
}
runs_in() { # the runs of a cached database, or "none"
  db=$(ls -d "$1" 2>/dev/null | tail -1)
  if [ -n "$db" ]; then perfdb --db "$db" sql --format tsv 'SELECT count(*) FROM runs' | sed 1d; else echo none; fi
}
play() { # play SYSTEM BRANCH RUN [--pr]: prints the gate's status
  /usr/bin/python3 "$ROOT/tests/ci-play.py" "$1" "$yaml" "$work/repo" "$state" "$2" "$3" $4 \
    > "$work/log-$1-$3" 2>&1
  echo $?
}
for system in github gitlab; do
  state="$work/state-$system"
  case $system in
    github) yaml="$ROOT/ci-examples/github-actions.yml"
            main_cache() { echo "$state/caches/main/perfdb-main-$1/perfdb.db"; }
            pr_cache() { echo "$state/caches/1/merge/perfdb-feature-$1/perfdb.db"; } ;;
    gitlab) yaml="$ROOT/ci-examples/gitlab-ci.yml"
            main_cache() { echo "$state/caches/gl/perfdb-main/perfdb.db"; }
            pr_cache() { echo "$state/caches/gl/perfdb-feature/perfdb.db"; } ;;
  esac
  rm -f "$work/repo/slow"
  check "$system: main, first run" 0 "$(play $system main 101)"
  check "$system: shards without a baseline" 3 "$(grep -c "no main run to compare with yet" "$work/log-$system-101")"
  check "$system: main's cache" 3 "$(runs_in "$(main_cache 101)")"
  check "$system: main, unchanged" 0 "$(play $system main 102)"
  check "$system: main's cache" 6 "$(runs_in "$(main_cache 102)")"
  grep -q "unchanged" "$work/log-$system-102" || { echo "FAIL: $system: no unchanged verdict"; fail=1; }
  echo 1.3 > "$work/repo/slow"
  check "$system: pull request slowing shard 2" 1 "$(play $system feature 103 --pr)"
  grep -E "cache.*(perfdb-main|saved by main)" "$work/log-$system-103" | head -1
  check "$system: the pull request's cache, main's runs and its own" 9 "$(runs_in "$(pr_cache 103)")"
  check "$system: regressions found" "shard 2" \
    "$(perfdb --db "$(pr_cache 103)" compare latest:branch=main,shard=2 latest:branch=feature,shard=2 --format csv |
       awk -F, 'NR > 1 && /regression/ { print $1 }')"
  check "$system: main's cache untouched" 6 "$(runs_in "$(main_cache 102)")"
  echo 1 > "$work/repo/slow"
  check "$system: pull request fixing it" 0 "$(play $system feature 104 --pr)"
  check "$system: the pull request's cache" 12 "$(runs_in "$(pr_cache 104)")"
  [ $fail = 0 ] || { for f in "$work"/log-$system-*; do echo "--- $f"; cat "$f"; done; exit 1; }
done
echo "GitHub Actions and GitLab CI recipes: baselines, unchanged, a regression gated, its fix passed"
