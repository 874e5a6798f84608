#!/bin/sh
# Facts tests: every fixture of every adapter, read by an independent reader
# (tests/facts/readers/FORMAT.py, Python standard library + PyYAML) and checked
# series by series against `perfdb show RUN --format json` (tests/facts/check.py).
# Cases are tests/facts/cases.txt: "FORMAT PATH-OR-GLOB" relative to the project
# root; "corpus/..." is ../shared/corpus (or $FACTS_CORPUS), skipped when that
# folder is absent. "map DATA MAP.yaml" ingests DATA with --map MAP.yaml (the
# reader gets the MAP in $FACTS_MAP).
# Usage: run.sh BUILD_DIR [FORMAT...]; ends with "facts: N passed, N failed, N skipped".
build=$(cd "${1:?usage: run.sh BUILD_DIR [FORMAT...]}" && pwd) || exit 2
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
py=/usr/bin/python3
corpus=${FACTS_CORPUS:-../shared/corpus}   # relative to the project root (the cd below)
pass=0 fail=0 skip=0 n=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root" || exit 2
while read -r fmt pattern map; do
  case $fmt in ''|'#'*) continue;; esac
  if [ $# -gt 0 ]; then
    want=0; for f in "$@"; do [ "$f" = "$fmt" ] && want=1; done
    [ $want = 1 ] || continue
  fi
  case $pattern in
    corpus/*)
      if [ ! -d "$corpus" ]; then
        echo "skip $fmt $pattern (no $corpus)"; skip=$((skip + 1)); continue
      fi
      pattern="$corpus/${pattern#corpus/}";;
  esac
  found=0
  for path in $pattern; do
    [ -e "$path" ] || continue
    found=1
    db="$work/perfdb.db"
    rm -f "$db" "$db-wal" "$db-shm"
    how="--format $fmt"
    [ -n "$map" ] && how="--map $map"
    if ! run=$(PERFDB_FINGERPRINT=off TZ=UTC LC_ALL=C.UTF-8 "$build/perfdb" --db "$db" ingest $how "$path" 2>"$work/err"); then
      echo "FAIL $fmt $path"; echo "  perfdb ingest failed: $(head -3 "$work/err")"; fail=$((fail + 1)); continue
    fi
    if ! "$build/perfdb" --db "$db" show "$run" --format json >"$work/show.json" 2>"$work/err"; then
      echo "FAIL $fmt $path"; echo "  perfdb show failed: $(head -3 "$work/err")"; fail=$((fail + 1)); continue
    fi
    # checked at the end, all in one Python
    n=$((n + 1))
    mv "$work/show.json" "$work/show-$n.json"
    printf '%s\t%s\t%s\t%s\n' "$fmt" "$path" "$work/show-$n.json" "$map" >>"$work/batch"
  done
  if [ $found = 0 ]; then
    case $pattern in
      *[*?[]*) echo "skip $fmt $pattern (no match yet)"; skip=$((skip + 1));;
      *) echo "FAIL $fmt $pattern: no such file"; fail=$((fail + 1));;
    esac
  fi
done <"$root/tests/facts/cases.txt"
if [ -s "$work/batch" ]; then
  "$py" "$root/tests/facts/check.py" --batch "$work/batch" >"$work/checked"
  cat "$work/checked"
  pass=$((pass + $(grep -c '^ok ' "$work/checked")))
  fail=$((fail + $(grep -c '^FAIL ' "$work/checked")))
  # a Python that died before a file's line is a failure
  [ $(($(grep -c '^ok \|^FAIL ' "$work/checked"))) = "$(wc -l <"$work/batch")" ] || fail=$((fail + 1))
fi
echo "facts: $pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
