#!/bin/sh
# make fuzz: build the libFuzzer targets tests/fuzz/fuzz_*.c into build-fuzz/
# (the library compiled with clang, ASan and UBSan), seed their corpora from
# fixtures/ (and ../shared/corpus when present), run each for FUZZ_SECONDS
# (default 60) and report crashes. FUZZ_TARGETS="json csv" picks targets.
# On a shared machine, one target at a time at the lowest priority:
# FUZZ_NICE=19 FUZZ_MODE="-jobs=1 -workers=1" (stops at a first finding,
# where the default fork mode goes on) FUZZ_TIMEOUT=60 (seconds a unit may
# take, wall time: 10 by default, which a 0.7 s unit passes at nice 19
# under a load of 15).
# Beside the fixtures, tests/fuzz/make-seeds.sh makes the hostile seeds of
# issue 31 (gzip bombs, XML entities, UTF-8 labels, keys given twice) and
# tests/fuzz/FAMILY.dict gives libFuzzer their tokens. The inputs of
# findings fixed are kept in tests/fuzz/regressions/TARGET/ and run first.
# The target "values" (tests/fuzz/values.py) is no libFuzzer one: it mutates
# the fixtures' numbers to ±DBL_MAX, ±1e308, ±5e-324, NaN, ±Infinity, 0, -0
# and their names to UTF-8 labels (tests/fuzz/labels.txt), ingests them and
# draws every chart, report and site with the ASan build (build-asan/perfdb,
# built here) under a timeout; crashes, hangs and cut UTF-8 (a chart cairo
# refused, a page that does not decode) go to build-fuzz/values.
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${FUZZ_BUILD:-$root/build-fuzz}
seconds=${FUZZ_SECONDS:-60}
mode=${FUZZ_MODE:--fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1}
unit_timeout=${FUZZ_TIMEOUT:-10}
niceness=${FUZZ_NICE:-0}
CLANG=${CLANG:-clang}
cd "$root" || exit 2
targets=${FUZZ_TARGETS:-$(ls tests/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||') values}
case " $targets " in *" values "*) values=1 ;; *) values=0 ;; esac
targets=$(echo " $targets " | sed 's/ values / /g')
# only the libFuzzer targets need clang and the library built for them
[ -z "$(echo $targets)" ] || command -v "$CLANG" >/dev/null 2>&1 ||
  apt-get install -y clang libclang-rt-14-dev >/dev/null 2>&1 ||
  { echo "fuzz: clang is missing (apt-get install clang libclang-rt-14-dev)"; exit 2; }
mkdir -p "$out/obj" "$out/crashes"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
pkgs=$(sed -n 's/^PKGS *= *//p' Makefile) # the Makefile's list, one source of truth
cflags="-std=c11 -g -O1 -D_GNU_SOURCE -Ilib -I$out $san -fno-omit-frame-pointer \
  $(pkg-config --cflags $pkgs)"
libs="$(pkg-config --libs $pkgs) -lcsv -lm"

# the library, compiled with coverage for the fuzzer (rebuilt when newer)
sh scripts/embed-schema.sh schema/*.sql > "$out/schema.c" || exit 2
sh scripts/embed-templates.sh reports/*.tmpl > "$out/report_templates.c" || exit 2
objs=""
[ -z "$(echo $targets)" ] || for src in lib/*.c lib/*/*.c "$out/schema.c" "$out/report_templates.c"; do
  obj="$out/obj/$(echo "$src" | sed "s|^$out/||; s|/|_|g; s|\.c$|.o|")"
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ -n "$(find lib -name '*.h' -newer "$obj")" ]; then
    $CLANG $cflags -fsanitize=fuzzer-no-link -c -o "$obj" "$src" || { echo "fuzz: cannot compile $src"; exit 2; }
  fi
  objs="$objs $obj"
done

seed() { # seed FAMILY PATTERN...: copy matching fixture and corpus files
  fam=$1; shift
  mkdir -p "$out/corpus/$fam"
  for pat in "$@"; do
    find fixtures ../shared/corpus -type f -name "$pat" -size -200k 2>/dev/null |
      while read -r f; do cp "$f" "$out/corpus/$fam/seed-$(echo "$f" | tr '/' '_')"; done
  done
}
[ -z "$(echo $targets)" ] || sh tests/fuzz/make-seeds.sh "$out" || { echo "fuzz: cannot make the seeds"; exit 2; }
crashes=0
# the targets' temporary files (fuzz_common.h), removed at the end
scratch=$(mktemp -d) || exit 2
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM
for t in $targets; do
  $CLANG $cflags -fsanitize=fuzzer -o "$out/fuzz_$t" "tests/fuzz/fuzz_$t.c" $objs $libs ||
    { echo "fuzz: cannot build fuzz_$t"; exit 2; }
  case $t in
    json) seed json '*.json' ;;
    csv) seed csv '*.csv' '*.txt' '*.tsv' '*.log' 'cachegrind.out.*' 'callgrind.out.*' ;;
    xml) seed xml '*.xml' ;;
    yaml) seed yaml '*.yaml' '*.yml' ;;
    canonical) seed canonical '*.json' ;;
    spec) # run specs (fixtures/run, kafka, bisect, gate-noise) and perfdb.yaml (make-seeds.sh)
      seed spec 'spec*.yaml' 'demo.yaml' 'gzip.yaml' 'spin.yaml' 'metron.yaml' 'telemetry.yaml' 'input-only.yaml' ;;
    kafka) seed kafka '*.json' ;; # canonical runs as ingest --from-kafka takes them
    analysis) # the fixtures' runs as its input (tests/fuzz/seed_analysis.c)
      mkdir -p "$out/corpus/analysis"
      $CLANG $cflags -o "$out/seed_analysis" tests/fuzz/seed_analysis.c $objs $libs ||
        { echo "fuzz: cannot build seed_analysis"; exit 2; }
      find fixtures ../shared/corpus -type f -size -200k 2>/dev/null | sort |
        ASAN_OPTIONS=detect_leaks=0 xargs "$out/seed_analysis" "$out/corpus/analysis" >/dev/null 2>&1 ;;
    *) seed "$t" '*' ;;
  esac
  dict=tests/fuzz/$t.dict
  [ "$t" = canonical ] || [ "$t" = kafka ] && dict=tests/fuzz/json.dict
  dict=$([ -f "$dict" ] && echo "-dict=$root/$dict")
  # the inputs of findings fixed (tests/fuzz/regressions/TARGET/), each run once first
  if [ -d "tests/fuzz/regressions/$t" ] &&
     ! ( cd "$out" && TMPDIR=$(mktemp -d "$scratch/XXXXXX") ASAN_OPTIONS=detect_leaks=1 \
         "./fuzz_$t" "$root/tests/fuzz/regressions/$t"/* > "$out/fuzz_$t.regressions.log" 2>&1 ); then
    crashes=$((crashes + 1))
    echo "  REGRESSION: an input of tests/fuzz/regressions/$t fails (log: $out/fuzz_$t.regressions.log)"
  fi
  before=$(ls "$out/crashes" | wc -l)
  echo "== fuzz_$t for $seconds s"
  ( cd "$out" && TMPDIR=$(mktemp -d "$scratch/XXXXXX") ASAN_OPTIONS=detect_leaks=1 \
    nice -n "$niceness" "./fuzz_$t" -max_total_time="$seconds" $mode -max_len=65536 -timeout="$unit_timeout" -rss_limit_mb=2048 $dict \
      -artifact_prefix="$out/crashes/$t-" -print_final_stats=1 "corpus/$t" \
      > "$out/fuzz_$t.log" 2>&1 )
  # -jobs writes its worker's output to fuzz-JOB.log in the current folder
  [ ! -f "$out/fuzz-0.log" ] || { cat "$out/fuzz-0.log" >> "$out/fuzz_$t.log"; rm -f "$out/fuzz-0.log"; }
  tail -n 12 "$out/fuzz_$t.log" | grep -E "^#[0-9]+(:|[[:space:]]+DONE)[[:space:]]+cov|SUMMARY|ERROR" | tail -n 3 | sed 's/^/  /'
  after=$(ls "$out/crashes" | wc -l)
  if [ "$after" -gt "$before" ]; then
    crashes=$((crashes + after - before))
    echo "  CRASH: $(ls -t "$out/crashes" | head -1) (log: $out/fuzz_$t.log)"
  fi
done
if [ $values = 1 ]; then
  echo "== values for $seconds s"
  make --no-print-directory BUILD=build-asan \
    OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
    build-asan/perfdb >"$out/values-build.log" 2>&1 || { echo "fuzz: cannot build build-asan/perfdb"; exit 2; }
  kept() { find "$out/values/crashes" "$out/values/hangs" "$out/values/cuts" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }
  before=$(kept)
  python3 tests/fuzz/values.py build-asan/perfdb "$out/values" "$seconds" $FUZZ_SEED | sed 's/^/  /'
  after=$(kept)
  if [ "$after" -gt "$before" ]; then
    crashes=$((crashes + after - before))
    echo "  CRASH, HANG or CUT: see $out/values/crashes, hangs and cuts"
  fi
fi
echo "fuzz: $crashes new crash(es); artifacts in $out/crashes"
[ $crashes = 0 ]
