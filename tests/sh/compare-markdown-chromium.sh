#!/bin/sh
# compare's Markdown with hostile names (HTML, a pipe, a newline, an ESC
# sequence, a formula), rendered by GitHub's Markdown renderer (cmark-gfm, raw
# HTML allowed as a comment or a step summary would) and opened in headless
# Chromium: no element or attribute of the page came from the data, every name
# is there as text, every table row keeps its cells, and summaries appended to
# one file (shards writing $GITHUB_STEP_SUMMARY) stay apart.
# Skipped without chromium or cmark-gfm (Debian packages chromium, cmark-gfm).
command -v chromium >/dev/null 2>&1 || { echo "chromium not installed"; exit 77; }
command -v cmark-gfm >/dev/null 2>&1 || { echo "cmark-gfm not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/perfdb.db" PERFDB_FINGERPRINT=off SOURCE_DATE_EPOCH=1764000000

for v in 1 2; do
  failures='[]'
  [ $v = 2 ] && failures='[{"benchmark": "<b>boom</b>", "dims": {"k": "<i>d</i>"}, "reason": "exit <img src=y onerror=alert(3)> | `x`"}]'
  cat >"$work/run$v.json" <<JSON
{"uuid": "00000000-0000-4000-8000-00000000001$v", "name": "<u>r$v</u>", "created_at": "2026-01-0${v}T00:00:00Z",
 "tool": "t", "format": "perfdb", "source": "x.json", "status": "complete", "attrs": {},
 "results": [
  {"benchmark": "<img src=x onerror=alert(1)>", "dims": {"k": "<a href=x>v</a>"}, "metric": "time", "unit": "s",
   "direction": "lower", "samples": [1.0$v, 1.1$v, 1.2$v, 1.3$v, 1.4$v, 1.5$v]},
  {"benchmark": "a|b", "dims": {}, "metric": "time", "unit": "s",
   "direction": "lower", "samples": [1.0, 1.1, 1.2, 1.3, 1.4, 1.5]},
  {"benchmark": "new\nline", "dims": {}, "metric": "time", "unit": "s",
   "direction": "lower", "samples": [1.0$v, 1.1$v, 1.2$v, 1.3$v, 1.4$v, 1.5$v]},
  {"benchmark": "\u001b[31mred **bold** [l](http://x) www.x.org", "dims": {}, "metric": "time", "unit": "s",
   "direction": "lower", "samples": [1.0$v, 1.1$v, 1.2$v, 1.3$v, 1.4$v, 1.5$v]},
  {"benchmark": "=HYPERLINK(\"x\")", "dims": {}, "metric": "time", "unit": "s",
   "direction": "lower", "samples": [1.0$v, 1.1$v, 1.2$v, 1.3$v, 1.4$v, 1.5$v]}$( [ $v = 1 ] && echo ',
  {"benchmark": "<b>boom</b>", "dims": {"k": "<i>d</i>"}, "metric": "time", "unit": "s",
   "direction": "lower", "samples": [1, 1.1, 1.2, 1.3, 1.4, 1.5]}')
 ],
 "failures": $failures}
JSON
  "$PERFDB" ingest "$work/run$v.json" >/dev/null 2>&1 || { echo "ingest failed"; exit 1; }
done
# two shards' summaries appended to one file, then a report's Markdown
"$PERFDB" compare run1 run2 --format markdown --title '<i>shard</i> 1' >>"$work/summary.md"
"$PERFDB" compare run1 run2 --format markdown --title 'shard | 2' >>"$work/summary.md"
"$PERFDB" report run2 --baseline run1 -o "$work/report" -F markdown >/dev/null || { echo "report failed"; exit 1; }
for md in summary report/index; do
  { printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>t</title></head><body>\n'
    cmark-gfm --unsafe -e table -e autolink -e strikethrough "$work/$md.md"
    printf '</body></html>\n'; } >"$work/$(basename $md).html"
done
fail=0
for page in summary index; do
  profile=$(mktemp -d "$work/profile.XXXXXX")
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
    --dump-dom "file://$work/$page.html" >"$work/$page.dom" 2>"$work/$page.log" ||
    { echo "chromium failed"; cat "$work/$page.log"; exit 1; }
  /usr/bin/python3 - "$work/$page.dom" "$page" <<'PY' || fail=1
import sys
from html.parser import HTMLParser
# what the Markdown itself makes: cmark-gfm's elements for perfdb's Markdown,
# and the <details> perfdb writes; nothing else may appear
ELEMENTS = {"html", "head", "meta", "title", "body", "p", "strong", "em", "h1", "h2", "h3",
            "table", "thead", "tbody", "tr", "th", "td", "details", "summary", "sub", "ul",
            "li", "blockquote", "code", "br"}
ATTRS = {("meta", "charset"), ("th", "align"), ("td", "align"), ("img", "src"), ("img", "alt")}
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.bad, self.text, self.rows, self.cells, self.tags = [], [], [], None, {}
    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        # a report's chart is an image of its own: compare.png, nothing else
        if tag == "img" and dict(attrs).get("src") != "compare.png":
            self.bad.append("img %r" % attrs)
        elif tag not in ELEMENTS and tag != "img":
            self.bad.append("element <%s>" % tag)
        for k, v in attrs:
            if (tag, k) not in ATTRS:
                self.bad.append("attribute %s=%r on <%s>" % (k, v, tag))
        if tag == "tr":
            self.cells = 0
        if tag in ("td", "th") and self.cells is not None:
            self.cells += 1
    def handle_endtag(self, tag):
        if tag == "tr":
            self.rows.append(self.cells)
            self.cells = None
    def handle_data(self, d):
        self.text.append(d)
path, page = sys.argv[1], sys.argv[2]
p = P()
p.feed(open(path, encoding="utf-8").read())
text = "".join(p.text)
fail = [page + ": " + b for b in p.bad]
for name in ["<img src=x onerror=alert(1)>", "<a href=x>v</a>", "a|b", "new line",
             "=HYPERLINK(\"x\")", "red **bold** [l](http://x) www.x.org", "<b>boom</b>",
             "exit <img src=y onerror=alert(3)> | `x`", "<u>r2</u>"]:
    if name not in text:
        fail.append("%s: %r is not in the text" % (page, name))
if "\x1b" in text:
    fail.append(page + ": an ESC character reached the page")
compare_rows = [n for n in p.rows if n not in (5,)]  # the geomean table's
if any(n != 11 for n in compare_rows if n is not None and n > 5):
    fail.append("%s: a row with %s cells (expected 11)" % (page, sorted(set(compare_rows))))
if page == "summary":
    if p.tags.get("h3") != 2 or "<i>shard</i> 1" not in text or "shard | 2" not in text:
        fail.append("summary: the two shards' headings are not two <h3> with their text")
    if text.count("perfdb compare: ") != 2:
        fail.append("summary: %d headlines, expected one per shard" % text.count("perfdb compare: "))
for f in fail:
    print("FAIL:", f)
sys.exit(1 if fail else 0)
PY
done
[ $fail = 0 ] && echo "ok: no element or attribute from the data, names as text"
exit $fail
