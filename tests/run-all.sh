#!/bin/sh
# The whole suite for each build directory given: cmocka unit tests, golden
# CLI cases, facts tests (tests/facts: every fixture checked series by series
# against an independent reader), and shell tests (tests/sh/*.sh: exit 0 pass, 77 skip, else fail).
#
# Every test of every build is one job: a unit test binary, one golden case
# (tests/run-cases.sh BUILD NAME), the facts of one format (tests/facts/run.sh
# BUILD FORMAT) or one shell test; the shell tests of tests/optimised-only.txt
# run for the first build only. $JOBS jobs (default: one more than the CPUs)
# run at once at nice 10, the long ones first (tests/slow.txt), and beside
# them the timed ones of tests/timed.txt one at a time at the usual priority. Each job's output goes to
# its own file; a line "ok"/"skip"/"FAIL" is printed as each one ends, and the
# whole output of every failed job, one after the other, at the end.
# Ends with the line "N passed, N failed, N skipped", and "(N for want of
# ../shared/corpus)" when some skipped for that; exit status 1 on a failure.
# Usage: run-all.sh BUILD_DIR...
root=$(cd "$(dirname "$0")/.." && pwd)
self="$root/tests/run-all.sh"

# run-all.sh --one KIND|BUILD|NAME: one job; its output in $RUNALL_OUT/ID.log,
# "PASSED FAILED SKIPPED SKIPPED_FOR_CORPUS MILLISECONDS CPU_MILLISECONDS LABEL"
# in $RUNALL_OUT/ID.res
# (the CPU time, user and system, of the job's processes)
# millis 1m2.345000s: 62345 (the times builtin's form)
millis() {
  _m=${1%%m*} _r=${1#*m}
  _r=${_r%s}
  _s=${_r%%.*} _f=${_r#*.}000
  _f=${_f%"${_f#???}"}
  echo $(( (_m * 60 + _s) * 1000 + 1$_f - 1000 ))
}

if [ "$1" = --one ]; then
  IFS='|' read -r kind build name <<EOF
$2
EOF
  id=$(printf '%s' "$kind-$build-$name" | tr -c 'A-Za-z0-9._-' '_')
  log="$RUNALL_OUT/$id.log"
  # (builtins where they do: the suite runs about 1,700 jobs, and a process
  # started costs about 3 ms of CPU on these machines)
  label="${build##*/} $kind ${name##*/}"
  t0=$(date +%s%N)
  p=0 f=0 s=0
  case $kind in
    unit)
      "$name" >"$log" 2>&1
      rc=$?
      # cmocka's "[  PASSED  ] N test(s)." lines, the last of each
      while IFS= read -r l; do
        case $l in
          '[  PASSED  ] '*) set -- $l; p=$4;;
          '[  FAILED  ] '*' test'*) set -- $l; f=$4;;
          '[  SKIPPED ] '*' test'*) set -- $l; s=$4;;
        esac
      done <"$log"
      [ $rc = 0 ] || [ "${f:-0}" != 0 ] || f=1;;
    case|facts)
      if [ $kind = case ]; then
        sh "$root/tests/run-cases.sh" "$build" "$name" >"$log" 2>&1
      else
        sh "$root/tests/facts/run.sh" "$build" "$name" >"$log" 2>&1
      fi
      rc=$?
      # the last "...: N passed, N failed, N skipped" line
      line=
      while IFS= read -r l; do
        case $l in *': '*' passed, '*' failed, '*' skipped') line=$l;; esac
      done <"$log"
      if [ -n "$line" ]; then
        set -- $line
        p=$2 f=$4 s=$6
      else
        f=1
      fi
      [ $rc = 0 ] || [ "${f:-0}" != 0 ] || f=1;;
    sh)
      # leaks are checked by the unit tests, facts and golden cases; a shell
      # test starts perfdb hundreds of times, and at exit LeakSanitizer
      # takes about 45 ms of each start (40 % of the cases' time)
      ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" \
      PERFDB="$build/perfdb" BUILD="$build" ROOT="$root" sh "$name" >"$log" 2>&1
      rc=$?
      case $rc in
        0) p=1;;
        77) s=1;;
        *) f=1;;
      esac;;
  esac
  p=${p:-0} f=${f:-0} s=${s:-0}
  # of the skips, those for want of ../shared/corpus: each says so in a
  # line (the unit tests' skip_without_corpus, the cases, facts and shell
  # tests that read it)
  c=0
  if [ "$s" != 0 ]; then
    c=$(grep -c 'no \.\./shared/corpus' "$log")
    [ "$c" -le "$s" ] || c=$s
  fi
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  # the builtin's second line: the children's user and system time, "0m1.500000s"
  times >"$RUNALL_OUT/$id.times"
  { read -r l; read -r cu cs; } <"$RUNALL_OUT/$id.times"
  cpu=$(( $(millis "$cu") + $(millis "$cs") ))
  echo "$p $f $s $c $ms $cpu $label" >"$RUNALL_OUT/$id.res"
  secs=$((ms / 1000)).$((ms % 1000 / 100))
  # one short write per line: lines of jobs ending together do not mix
  if [ "$f" != 0 ]; then
    echo "FAIL $label (${secs} s; its output follows at the end)"
    echo "$id" >"$RUNALL_OUT/$id.failed"
  elif [ $kind = sh ] && [ "$s" != 0 ]; then
    echo "skip $label: $(tail -1 "$log")"
  elif [ $kind = unit ] || [ $kind = sh ]; then
    more=; [ "$s" = 0 ] || more=", $s skipped"
    echo "ok   $label ($p passed$more, $secs s)"
  else
    # a case or facts job prints only what it skipped
    while IFS= read -r l; do
      case $l in 'skip '*) echo "${build##*/} $kind: $l";; esac
    done <"$log"
  fi
  exit 0
fi

[ $# -gt 0 ] || { echo "usage: run-all.sh BUILD_DIR..." >&2; exit 2; }
builds=
for build in "$@"; do
  build=$(cd "$build" && pwd) || exit 2   # relative to the project root, or absolute
  builds="$builds $build"
done
first=${builds# }; first=${first%% *}
# one more than the CPUs: a job that waits (a sleep, a browser, a broker)
# leaves its CPU to the extra one
jobs=${JOBS:-$(( $(nproc 2>/dev/null || echo 1) + 1 ))}
RUNALL_OUT=$(mktemp -d) || exit 2
export RUNALL_OUT
trap 'rm -rf "$RUNALL_OUT"' EXIT
trap 'exit 130' INT TERM

# every job, "KIND NAME" (NAME a path for unit and sh), once per build
{
  for b in $builds; do
    for t in "$b"/tests/test_*; do
      case $t in *.d) continue;; esac
      [ -x "$t" ] && echo "unit $(basename "$t")"
    done
  done | sort -u
  ls "$root/tests/cases" | sed 's/^/case /'
  awk '$1 !~ /^#/ && NF { print $1 }' "$root/tests/facts/cases.txt" | sort -u | sed 's/^/facts /'
  for t in "$root"/tests/sh/*.sh; do [ -f "$t" ] && echo "sh $(basename "$t" .sh)"; done
} >"$RUNALL_OUT/all"
# the long ones first, in tests/slow.txt's order, then the rest in name order
grep -v '^#' "$root/tests/slow.txt" 2>/dev/null | grep -Fxf "$RUNALL_OUT/all" >"$RUNALL_OUT/order"
grep -Fxvf "$RUNALL_OUT/order" "$RUNALL_OUT/all" >>"$RUNALL_OUT/order"
# for each job, the builds in reverse order (the sanitizer build, given last,
# is the slower); the jobs of tests/optimised-only.txt for the first build only
rev=
for b in $builds; do rev="$b $rev"; done
grep -v '^#' "$root/tests/optimised-only.txt" 2>/dev/null >"$RUNALL_OUT/once"
while read -r kind name; do
  these=$rev
  grep -qFx "$kind $name" "$RUNALL_OUT/once" && these=$first
  for b in $these; do
    case $kind in
      unit) [ -x "$b/tests/$name" ] && echo "unit|$b|$b/tests/$name";;
      sh) echo "sh|$b|$root/tests/sh/$name.sh";;
      *) echo "$kind|$b|$name";;
    esac
  done
done <"$RUNALL_OUT/order" >"$RUNALL_OUT/jobs"

# the timed jobs (tests/timed.txt) one at a time beside the rest, which
# run at nice 10, so that the CPU goes to a timed job when it asks for it
grep -v '^#' "$root/tests/timed.txt" 2>/dev/null | sed 's#^sh \(.*\)#^sh[|].*/\1[.]sh$#' >"$RUNALL_OUT/timed-re"
grep -f "$RUNALL_OUT/timed-re" "$RUNALL_OUT/jobs" >"$RUNALL_OUT/timed"
grep -vf "$RUNALL_OUT/timed-re" "$RUNALL_OUT/jobs" >"$RUNALL_OUT/rest"
echo "== suite on$builds: $(wc -l <"$RUNALL_OUT/jobs") jobs, $jobs at a time, and the $(wc -l <"$RUNALL_OUT/timed") timed ones one at a time beside them"
cd "$root" || exit 2
xargs -d '\n' -P 1 -I @ sh "$self" --one @ <"$RUNALL_OUT/timed" &
timed=$!
trap 'kill $timed 2>/dev/null; exit 130' INT TERM
nice -n 10 xargs -d '\n' -P "$jobs" -I @ sh "$self" --one @ <"$RUNALL_OUT/rest"
wait $timed

pass=0 fail=0 skip=0 corpus=0
for r in "$RUNALL_OUT"/*.res; do
  [ -f "$r" ] || continue
  read -r p f s c ms cpu label <"$r"
  pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s)); corpus=$((corpus + c))
done
# a job that ended without a result (killed) is a failure
njobs=$(wc -l <"$RUNALL_OUT/jobs")
nres=$(ls "$RUNALL_OUT" | grep -c '\.res$')
if [ "$nres" != "$njobs" ]; then
  echo "FAIL: $((njobs - nres)) jobs gave no result"
  fail=$((fail + njobs - nres))
fi
for f in "$RUNALL_OUT"/*.failed; do
  [ -f "$f" ] || continue
  id=$(cat "$f")
  read -r p fl s c ms cpu label <"$RUNALL_OUT/$id.res"
  echo
  echo "=== FAIL $label: its output"
  cat "$RUNALL_OUT/$id.log"
  echo "=== end of $label"
done
# every job's wall and CPU time, slowest first, into the first build's
# test-times.txt (to keep tests/slow.txt up to date); the slowest printed,
# and the CPU time of the whole suite
cat "$RUNALL_OUT"/*.res 2>/dev/null | sort -k5,5nr |
  awk '{ ms = $5; cpu = $6; $1 = $2 = $3 = $4 = $5 = $6 = ""; sub(/^ +/, "")
    printf "  %6.1f  %6.1f  %s\n", ms / 1000, cpu / 1000, $0 }' >"$RUNALL_OUT/times"
cp "$RUNALL_OUT/times" "$first/test-times.txt" 2>/dev/null
echo
echo "slowest jobs (wall s, CPU s; all in $first/test-times.txt):"
head -12 "$RUNALL_OUT/times"
awk '{ cpu += $2 } END { printf "CPU time of all jobs: %.0f s\n", cpu }' "$RUNALL_OUT/times"
why=; [ $corpus = 0 ] || why=" ($corpus for want of ../shared/corpus)"
echo "$pass passed, $fail failed, $skip skipped$why"
[ $fail = 0 ]
