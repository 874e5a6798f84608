#!/bin/sh
# perfdb site in headless Chromium: the index, a benchmark page and a run page
# load with no console message, their charts are drawn (inline SVG with its
# paths), every link and resource is a file of the site (nothing external),
# the filter box narrows the rows, and the text of the rows is what the
# database holds (tests/site-check.py on the DOM Chromium built). The checks
# must catch a page with a script error, a broken chart, an external resource
# and a link to no file. Screenshots (desktop and phone width) go to
# $SITE_SHOTS (default: a temporary directory).
# chromium is in the Makefile's TEST_DEBS: this skips only outside make check.
command -v chromium >/dev/null 2>&1 || { echo "chromium not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/perfdb.db" PERFDB_FINGERPRINT=off SOURCE_DATE_EPOCH=1764000000
shots=${SITE_SHOTS:-$work/shots}
mkdir -p "$shots"

chromium_run() {
  profile=$(mktemp -d "$work/profile.XXXXXX")
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" "$@"
}
# load URL into DOM, console messages into LOG
load() {
  chromium_run --enable-logging=stderr --v=0 --dump-dom "$1" >"$2" 2>"$3"
}
# shot URL PNG WIDTHxHEIGHT
shot() {
  chromium_run --hide-scrollbars --window-size="$3" --screenshot="$2" "$1" >/dev/null 2>&1 &&
    [ -s "$2" ] || { echo "FAIL: no screenshot $2"; return 1; }
}
# a page is clean when Chromium printed its DOM and no console message
clean() {
  grep -q '</html>' "$1" && ! grep -q 'CONSOLE' "$2"
}
# every figure.chart holds an SVG that draws (at least 20 paths or glyph uses)
charts_drawn() {
  /usr/bin/python3 - "$1" <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.figures, self.depth = [], 0
    def handle_starttag(self, tag, attrs):
        if tag == "figure" and ("class", "chart") in attrs:
            self.figures.append({"svg": 0, "marks": 0})
        elif self.figures and tag == "svg":
            self.figures[-1]["svg"] += 1
        elif self.figures and tag in ("path", "use"):
            self.figures[-1]["marks"] += 1
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
bad = [f for f in p.figures if f["svg"] != 1 or f["marks"] < 20]
print(f"{len(p.figures)} charts, {len(bad)} broken")
sys.exit(1 if not p.figures or bad else 0)
PY
}
fail=0

# ---- the checks catch bad pages ----
printf '<!DOCTYPE html><html><body><p>x</p><script>noSuchFunction();</script></body></html>\n' >"$work/bad.html"
load "file://$work/bad.html" "$work/bad.dom" "$work/bad.log" || { echo "chromium failed"; cat "$work/bad.log"; exit 1; }
clean "$work/bad.dom" "$work/bad.log" && { echo "FAIL: the check missed the script error of a bad page"; fail=1; }

sh "$ROOT/tests/site-scenario.sh" "$PERFDB" || { echo "scenario failed"; exit 1; }
"$PERFDB" site -o "$work/site" --title 'CI dashboard' >/dev/null || exit 1
bench=$(cd "$work/site" && ls b/api_get-*.html)
run=r/run30.html

# a copy of the benchmark page whose chart lost its drawing
cp -r "$work/site" "$work/broken"
/usr/bin/python3 - "$work/broken/$bench" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
text = re.sub(r'(<figure class="chart">\s*<svg[^>]*>).*?</svg>', r'\1</svg>', text, count=1, flags=re.S)
open(sys.argv[1], "w", encoding="utf-8").write(text)
PY
load "file://$work/broken/$bench" "$work/broken.dom" "$work/broken.log" || exit 1
charts_drawn "$work/broken.dom" >/dev/null && { echo "FAIL: the check missed a broken chart"; fail=1; }
# a copy of the index with an external image, and one with a link to no file
sed 's|</body>|<img src="https://example.com/pixel.png" alt=""></body>|' "$work/site/index.html" >"$work/broken/index.html"
/usr/bin/python3 "$ROOT/tests/site-check.py" "$PERFDB" "$work/broken" >"$work/check.out" 2>&1 &&
  { echo "FAIL: the check missed an external resource"; fail=1; }
grep -q 'external img https://example.com/pixel.png' "$work/check.out" ||
  { echo "FAIL: the external resource is not named"; cat "$work/check.out"; fail=1; }
sed 's|</body>|<a href="b/no-such-page.html">x</a></body>|' "$work/site/index.html" >"$work/broken/index.html"
/usr/bin/python3 "$ROOT/tests/site-check.py" "$PERFDB" "$work/broken" >"$work/check.out" 2>&1 &&
  { echo "FAIL: the check missed a link to no file"; fail=1; }
grep -q 'b/no-such-page.html: no such file' "$work/check.out" ||
  { echo "FAIL: the broken link is not named"; cat "$work/check.out"; fail=1; }

# ---- the site ----
cp -r "$work/site" "$work/dom"
for page in index.html "$bench" "$run"; do
  name=$(echo "$page" | tr / _ | sed 's/\.html$//')
  load "file://$work/site/$page" "$work/dom/$page" "$work/$name.log" || { echo "chromium failed on $page"; exit 1; }
  clean "$work/dom/$page" "$work/$name.log" ||
    { echo "FAIL: $page: console messages"; grep CONSOLE "$work/$name.log"; fail=1; }
  shot "file://$work/site/$page" "$shots/$name.png" 1280,1600 || fail=1
done
shot "file://$work/site/index.html" "$shots/index-phone.png" 390,1400 || fail=1
charts_drawn "$work/dom/$bench" || { echo "FAIL: $bench: a chart is not drawn"; fail=1; }
grep -q -i '<script' "$work/dom/$run" && { echo "FAIL: a script element in a run page"; fail=1; }
# the facts of the DOMs Chromium built, against the database
/usr/bin/python3 "$ROOT/tests/site-check.py" "$PERFDB" "$work/dom" || fail=1

# the filter: #q= fills the box and the script hides the rows that do not match
load "file://$work/site/index.html#q=db/scan" "$work/filter.dom" "$work/filter.log" || exit 1
rows=$(grep -c '<tr class="a[0-9]" data-name=' "$work/filter.dom")
hidden=$(grep -c '<tr class="a[0-9]" data-name="[^"]*" hidden' "$work/filter.dom")
[ "$rows" = 6 ] && [ "$hidden" = 4 ] ||
  { echo "FAIL: filter db/scan: $hidden of $rows rows hidden, expected 4 of 6"; fail=1; }
grep -q '2 of 6 series shown' "$work/filter.dom" || { echo "FAIL: the filter's count"; fail=1; }
exit $fail
