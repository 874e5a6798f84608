#!/bin/sh
# perfdb site on a history where failures are hard to place, checked page by
# page by tests/site-check.py against the database file. Runs 1-15, branch
# topic: runs 6 and 12, the others main:
#   - parse: values in 1-7; fails in main's 9 and 11, with main's run 10
#     between that did not run it (failing since run 9); fails in topic's
#     12 (topic's 6 had a value: failing since 12);
#   - gone: a value in 8, fails in 11;
#   - main's runs 13 and 14 are of another tool (nothing in common): they
#     end nothing and hide nothing, and run 15 (flaky only) is compared with
#     run 11, not with them;
#   - flaky: fails in run 4 with timings (as hyperfine --ignore-failure
#     writes them, which are no values), then recovers.
# With --since run11, a failure whose run is the site's first says that it
# may have begun before. Without --where the site is main's (two branches),
# and says so, and a run of the other branch rewrites its index; a --where
# that matches no run is an error, not an empty site (nor an empty folder).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/perfdb.db" PERFDB_FINGERPRINT=off SOURCE_DATE_EPOCH=1764000000
/usr/bin/python3 - "$work" <<'PY' || exit 1
import json, sys
out = sys.argv[1]
def res(bench, v, metric="time"):
    return {"benchmark": bench, "dims": {}, "metric": metric, "unit": "s", "direction": "lower",
            "samples": [v * (1 + 0.01 * ((i * 7) % 5 - 2)) for i in range(5)]}
for r in range(1, 16):
    branch = "topic" if r in (6, 12) else "main"
    results, failures = [], []
    if r in (13, 14):
        results.append(res("fio/read", 0.002, "lat"))
    if r <= 7:
        results.append(res("parse", 0.010))
    if r in (9, 11, 12):
        failures.append({"benchmark": "parse", "dims": {}, "reason": "exit status 3"})
    if r == 8:
        results.append(res("gone", 0.5))
    if r == 11:
        failures.append({"benchmark": "gone", "dims": {}, "reason": "killed"})
    if (r <= 12 and r != 8) or r == 15:
        results.append(res("flaky", 0.0001 if r == 4 else 0.020))
    if r == 4:
        failures.append({"benchmark": "flaky", "dims": {}, "reason": "8 of 8 runs exited 1"})
    doc = {"uuid": "00000000-0000-4000-8000-%012d" % r, "name": "r%d" % r,
           "created_at": "2026-02-%02dT12:00:00Z" % r, "tool": "gen", "format": "perfdb",
           "attrs": {"branch": branch, "commit": "c%03d" % r, "host": "ci"}, "results": results,
           "failures": failures}
    json.dump(doc, open("%s/run-%03d.json" % (out, r), "w"))
PY
for f in "$work"/run-*.json; do
  "$PERFDB" ingest "$f" >/dev/null 2>&1 || { echo "ingest $f failed"; exit 1; }
done
fail=0
"$PERFDB" site -o "$work/site" >/dev/null || exit 1
/usr/bin/python3 "$ROOT/tests/site-check.py" "$PERFDB" "$work/site" || fail=1
# what the history above must give, said plainly (site-check derives it too)
grep -q 'run11</a> (r11)</td><td class="name"><a href="b/parse.html">parse</a></td><td class="dims">-</td><td class="name">exit status 3</td><td><a href="r/run9.html">run9' \
  "$work/site/index.html" || { echo "site-failures: parse on main is not failing since run9"; fail=1; }
grep -q 'run11</a> (r11)</td><td class="name"><a href="b/gone.html">gone' "$work/site/index.html" ||
  { echo "site-failures: gone (failed in run11, then only another tool) is not failing now"; fail=1; }
# parse's page counts the runs it failed in (main: values in 6, failures in 2)
# and its runs table says failed there
grep -q '<p class="sub">1 series over 8 runs.' "$work/site/b/parse.html" ||
  { echo "site-failures: b/parse.html: $(grep -o '<p class="sub">[^<]*' "$work/site/b/parse.html")"; fail=1; }
[ "$(sed -n '/<h2>Runs</,$p' "$work/site/b/parse.html" | grep -o 'badge failed">failed' | wc -l)" = 2 ] ||
  { echo "site-failures: b/parse.html: the runs table does not show the 2 failed runs"; fail=1; }
# two branches: the site shows main, says so, and topic has a site of its own
grep -q 'The runs have 2 branches, and each is a history of its own: this site shows main; the others: topic (2 runs)' \
  "$work/site/index.html" || { echo "site-failures: the index does not say it shows main of 2 branches"; fail=1; }
[ ! -e "$work/site/r/run12.html" ] || { echo "site-failures: topic's run12 is on main's site"; fail=1; }
"$PERFDB" site -o "$work/topic" --where branch=topic >/dev/null || exit 1
/usr/bin/python3 "$ROOT/tests/site-check.py" "$PERFDB" "$work/topic" branch=topic || fail=1
grep -q 'failed</span> in <a href="r/run12.html">run12</a> (r12)</td>' "$work/topic/index.html" ||
  { echo "site-failures: parse on topic (run12) is not shown failing"; fail=1; }
"$PERFDB" site -o "$work/typo" --where branch=nosuch >/dev/null 2>"$work/err"
rc=$?
[ $rc = 3 ] && grep -q 'no run matches' "$work/err" && [ ! -e "$work/typo" ] ||
  { echo "site-failures: --where branch=nosuch: exit $rc, $(cat "$work/err")"; fail=1; }
grep -c '<td class="name">flaky' "$work/site/index.html" | grep -q '^0$' ||
  { echo "site-failures: flaky recovered but is listed as failing"; fail=1; }
"$PERFDB" site -o "$work/since" --since run11 >/dev/null || exit 1
grep -q 'or before (the site starts at <a href="r/run11.html">run11</a>' "$work/since/index.html" ||
  { echo "site-failures: --since run11: parse's failures may begin before; not said"; fail=1; }
# a site of both branches (--where host=ci) names the branch of each failure
"$PERFDB" site -o "$work/mixed" --where host=ci >/dev/null || exit 1
/usr/bin/python3 "$ROOT/tests/site-check.py" "$PERFDB" "$work/mixed" host=ci || fail=1
grep -q '<th>branch</th><th>run</th><th>benchmark</th>' "$work/mixed/index.html" ||
  { echo "site-failures: --where host=ci: failing now has no branch column"; fail=1; }
# a run of the branch not shown changes the index (it counts the others'
# runs): the site kept up to date is still the site written from scratch
printf '{"format":"perfdb","attrs":{"branch":"topic","commit":"c099"},"results":[{"benchmark":"flaky","metric":"time","unit":"s","direction":"lower","samples":[0.02]}]}' > "$work/t.json"
"$PERFDB" ingest "$work/t.json" >/dev/null 2>&1 || exit 1
"$PERFDB" site -o "$work/site" >/dev/null 2>&1 || exit 1
"$PERFDB" site -o "$work/scratch" >/dev/null 2>&1 || exit 1
diff -r "$work/site" "$work/scratch" >/dev/null ||
  { echo "site-failures: after a topic run, the kept site differs from one from scratch"; fail=1; }
[ $fail = 0 ] && echo "site-failures: ok"
exit $fail
