#!/bin/sh
# Names from the data (benchmarks, metrics, dims, run names, attributes) with ESC,
# BEL, HTML, a Markdown link, bidi overrides and isolates, U+2028 and U+2029: no
# raw control, bidi or separator character reaches a terminal's output (stdout of
# the text formats, every stderr note), and the Markdown of compare and report,
# rendered by cmark-gfm, has no link and no HTML element made from a name.
command -v cmark-gfm >/dev/null || { echo "no cmark-gfm"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_FINGERPRINT=off
cd "$work" || exit 1
/usr/bin/python3 - <<'PY' || exit 1
import json
H = ["esc\u001b[31mred\u001b[0m", "bel\u0007", "<img src=x>", "[x](https://evil.example)",
     "bidi\u202eevil\u2066", "ls\u2028ps\u2029", "c1\u009b31m"]
for i in range(10):
    scale = 1.0 if i < 6 else 1.5
    # 14 latencies: more than a chart holds, so report draws a figure per
    # benchmark and says so on stderr (every benchmark's name holds an ESC)
    res = [{"benchmark": "b\u001b[7m" + h, "dims": {"size": "v" + h}, "metric": "lat" + h, "unit": "s",
            "direction": "lower", "samples": [scale * (0.1 + 0.001 * k) for k in range(8)],
            "stats": {}} for h in H]
    res += [{"benchmark": "tbl" + H[0], "dims": {"size": "v" + h}, "metric": "lat" + H[4],
             "unit": "s", "direction": "lower", "samples": [scale], "stats": {}} for h in H]
    run = {"uuid": "00000000-0000-4000-8000-0000000000%02d" % i,
           "name": "r%d\u001b]0;title\u0007%s\u202e" % (i, H[3]),
           "created_at": "2026-11-%02dT12:00:00Z" % (i + 1), "tool": "hyperfine",
           "format": "hyperfine", "source": "x\u001b[2J.json", "status": "complete",
           "attrs": {"commit": "c" + H[0], "branch": "main", "note": "n" + H[4]}, "results": res}
    json.dump(run, open("r%d.json" % i, "w"))
PY
p() { "$PERFDB" --db p.db "$@"; }
for i in 0 1 2 3 4 5 6 7 8 9; do p ingest r$i.json >/dev/null 2>>ingest.err || exit 1; done
out() { # NAME CMD...: stdout into out.NAME, stderr into err.NAME, exit 0 or 1
  name=$1; shift
  p "$@" >"out.$name" 2>"err.$name"; s=$?
  [ $s -le 1 ] || { echo "$*: exit $s"; cat "err.$name"; exit 1; }
}
out compare compare run9 run1
out compare-md compare run9 run1 -F markdown
out compare-json compare run9 run1 -F json
out compare-junit compare run9 run1 -F junit
out compare-csv compare run9 run1 -F csv
out show show run9
out runs runs
out table table run9 -b "tbl*" --rows size --cols "$(printf 'latbidi\342\200\256evil\342\201\246')"
out detect detect
out report report run9 --baseline run1 -F markdown -o rep
out plot plot history run1 run9 -b "tbl*" -o h.svg
# text for a terminal: stdout of the text formats, stderr of all
/usr/bin/python3 - out.compare out.show out.runs out.table out.detect out.report err.* ingest.err <<'PY' || exit 1
import re, sys
bad = re.compile(rb'[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]|\xe2\x81[\xa6-\xa9]')
fail = 0
for f in sys.argv[1:]:
    found = set(bad.findall(open(f, "rb").read()))
    if found:
        print("%s: raw %s" % (f, sorted(found)))
        fail = 1
sys.exit(fail)
PY
grep -q 'evil' out.detect || { echo "detect named no series: the test shows nothing"; exit 1; }
grep -q 'geomean' out.compare || { echo "compare printed no geomean line"; exit 1; }
grep -q 'Left out of the figure below' err.report ||
  { echo "report said no latency note"; cat err.report; exit 1; }
# machine formats stay parseable and keep the names
/usr/bin/python3 -c 'import json,sys; json.load(open("out.compare-json"))' || exit 1
/usr/bin/python3 -c 'import xml.dom.minidom as m; m.parse("out.compare-junit")' || exit 1
# Markdown: no link, no element from a name (raw HTML let through to see it)
for f in out.compare-md rep/index.md; do
  cmark-gfm --unsafe -e table -e autolink -e strikethrough "$f" >"$f.html" || exit 1
  if grep -n 'evil\.example"\|<img src="\?x\|<a href' "$f.html"; then
    echo "$f: a link or an element from a name"; exit 1
  fi
done
exit 0
