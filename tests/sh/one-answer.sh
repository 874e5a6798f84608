#!/bin/sh
# One answer everywhere: for each history below, compare (exit and headline),
# report (verdict, default baseline), plot compare (legend), the site's run page
# (headline, the run compared with) give the same answer. Histories: a benchmark
# failing in the candidate; a perfdb.yaml that ignores every benchmark; a
# threshold of 50 % that makes a +26 % change pass; another tool's run between
# two of one tool's; a feature branch's run between two of main's; runs
# without a branch; a --since that leaves one branch the most runs.
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
mkdir bin && ln -s "$PERFDB" bin/perfdb
export PATH="$work/bin:$PATH" PERFDB_DB="$work/p.db" PERFDB_FINGERPRINT=off SOURCE_DATE_EPOCH=1764000000 NO_COLOR=1
fail=0
check() { # check WHAT EXPECTED GOT
  if [ "$2" = "$3" ]; then echo "ok: $1: $3"; else echo "FAIL: $1: expected '$2', got '$3'"; fail=1; fi
}
# run N TOOL BRANCH SORT_VALUE [failed]: a canonical run; BRANCH "-" gives it
# none, SORT_VALUE "-" leaves the sort benchmark out, "failed" fails it
run() {
  /usr/bin/python3 - "$@" > r.json <<'PY'
import json, sys
n, tool, branch, v = sys.argv[1:5]
failed = len(sys.argv) > 5
res = [{"benchmark": "parse", "dims": {}, "metric": "time", "unit": "s", "direction": "lower",
        "samples": [0.100, 0.101, 0.102, 0.099, 0.100]}]
if tool == "fio":
    res = [{"benchmark": "randread", "dims": {}, "metric": "iops", "unit": "op/s",
            "direction": "higher", "samples": [1000, 1010, 990, 1005, 995]}]
elif v != "-" and not failed:
    x = float(v)
    res.append({"benchmark": "sort", "dims": {}, "metric": "time", "unit": "s",
                "direction": "lower", "samples": [x, x * 1.01, x * 0.99, x * 1.005, x * 0.995]})
doc = {"uuid": "6f1c2d3e-4b5a-4c6d-8e7f-9012345678%02d" % int(n), "name": "r" + n,
       "created_at": "2026-11-01T12:%02d:00Z" % int(n), "tool": tool, "format": tool,
       "source": "r.json", "status": "complete",
       "attrs": {"branch": branch} if branch != "-" else {}, "results": res,
       "failures": [{"benchmark": "sort", "dims": {}, "reason": "exit status 1"}] if failed else []}
print(json.dumps(doc))
PY
  perfdb ingest r.json > /dev/null || echo "ingest $1 failed"
}
headline() { perfdb compare "$1" "$2" 2>/dev/null | head -1 | sed 's/:.*//'; }
# (the headline counts failed benchmarks, "1 benchmark failed"; each here
# has one row, as the chart counts them)
counts() { perfdb compare "$1" "$2" 2>/dev/null | head -1 |
  sed 's/^[A-Z ]*: //; s/ (fails on.*//; s/ benchmarks\{0,1\} failed/ failed/'; }
report_verdict() { # of report CAND [--baseline B]
  rm -rf rep; perfdb report "$@" -o rep -F markdown > /dev/null 2>&1
  sed -n 's/^\*\*Verdict: \([A-Z ]*\):.*/\1/p' rep/index.md
}
report_baseline() { sed -n 's/.*against baseline \*\*\(run[0-9]*\).*/\1/p' rep/index.md; }
chart_rows() { # plot compare's rows as compare counts verdicts: "1 failed, 1 unchanged"
  # (a bar's verdict is its series' legend, a row without a bar says it in its label)
  perfdb plot compare "$1" "$2" --layout 2>/dev/null > layout
  { sed -n 's/^  series "\([a-z]*\) (\([0-9]*\))".*/\2 \1/p' layout
    grep '^    ticks "[^%]*"@' layout | grep -o ': failed"' | sed 's/.*/failed/' | sort | uniq -c |
      awk '{ print $1, $2 }'; } | sort -k2,2 |
    awk '{ o[$2] = $1 } END { n = split("failed regression improvement unchanged inconclusive insufficient new missing", v, " ");
      for (i = 1; i <= n; i++) if (o[v[i]]) printf "%s%d %s", s++ ? ", " : "", o[v[i]], v[i]; print "" }'
}
site_run() { # site_run RUN: "HEADLINE against runN" from the site's page of RUN
  rm -rf site; perfdb site -o site > /dev/null 2>&1
  f="site/r/$1.html"
  [ -f "$f" ] || { echo "no page"; return; }
  h=$(sed -n 's/.*<strong>\([A-Z ]*\):.*/\1/p' "$f" | head -1)
  b=$(sed -n 's/.*Compared with <a[^>]*>\(run[0-9]*\).*/\1/p; s/.*Compared with \(run[0-9]*\).*/\1/p' "$f" | head -1)
  echo "$h against $b"
}

echo "-- a benchmark that fails in the candidate"
run 1 hyperfine main 0.5; run 2 hyperfine main - failed
perfdb compare run1 run2 > /dev/null 2>&1; check "compare's exit" 1 $?
check "compare" FAIL "$(headline run1 run2)"
check "report" FAIL "$(report_verdict run2 --baseline run1)"
check "plot compare's rows: compare's counts" "$(counts run1 run2)" "$(chart_rows run1 run2)"
check "site" "FAIL against run1" "$(site_run run2)"

echo "-- a configuration that ignores every benchmark"
printf 'compare:\n  ignore:\n    - benchmark: "*"\n' > perfdb.yaml
perfdb compare run1 run2 > /dev/null 2>&1; check "compare's exit" 3 $?
check "compare" "NO COMPARISON" "$(headline run1 run2)"
check "report" "NO COMPARISON" "$(report_verdict run2 --baseline run1)"
perfdb plot compare run1 run2 -o c.svg > /dev/null 2>&1; check "plot compare's exit" 3 $?
check "site" "NO COMPARISON against run1" "$(site_run run2)"
rm perfdb.yaml

echo "-- a threshold of 50 %: +26 % passes"
run 3 hyperfine main 0.63
# (run_noise 0: a quiet machine's configuration, whose two runs are judged
# by their samples, so that the threshold alone decides)
printf 'compare:\n  run_noise: 0\n' > perfdb.yaml
check "without it, compare" FAIL "$(headline run1 run3)"
printf 'compare:\n  run_noise: 0\n  threshold: 50%%\n' > perfdb.yaml
check "compare" PASS "$(headline run1 run3)"
check "report" PASS "$(report_verdict run3 --baseline run1)"
check "plot compare's rows: compare's counts" "$(counts run1 run3)" "$(chart_rows run1 run3)"
rm perfdb.yaml

echo "-- another tool's run between two of one tool's"
run 4 fio main -; run 5 hyperfine main 0.63
perfdb compare run4 run5 > /dev/null 2>&1; check "compare of the two tools' runs: exit" 3 $?
check "report's default baseline: the run before with a series in common" run3 \
  "$(report_verdict run5 > /dev/null; report_baseline)"
check "site" "PASS against run3" "$(site_run run5)"

echo "-- a feature branch's run between two of main's"
run 6 hyperfine feature 0.9; run 7 hyperfine main 0.63
check "report's default baseline: main's run before" run5 "$(report_verdict run7 > /dev/null; report_baseline)"
check "report's verdict: compare's with that baseline" "$(headline run5 run7)" "$(report_verdict run7)"
check "site" "$(headline run5 run7) against run5" "$(site_run run7)"
echo "-- runs without a branch are one branch, as the site has it"
run 8 hyperfine - 0.6; run 9 hyperfine main 0.63; run 10 hyperfine - 0.6
check "report's default baseline: the run before without a branch" run8 \
  "$(report_verdict run10 > /dev/null; report_baseline)"

echo "-- a --since after which another branch has the most runs"
export PERFDB_DB="$work/since.db"
for n in 11 12 13 14 15; do run $n hyperfine old 0.5; done
for n in 16 17 18; do run $n hyperfine new 0.5; done
note() { sed -n 's/.*the runs have 2 branches: reading \(branch=[a-z]*\).*/\1/p' "$1" | head -1; }
perfdb detect --since r15 > /dev/null 2> detect.err
perfdb site --since r15 -o site > /dev/null 2> site.err
check "detect --since reads the site's branch" "$(note site.err)" "$(note detect.err)"
check "the branch with the most runs since r15" branch=new "$(note detect.err)"

[ $fail = 0 ] && echo "one-answer: every front end agrees" || exit 1
