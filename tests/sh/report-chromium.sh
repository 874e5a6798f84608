#!/bin/sh
# perfdb report's HTML in headless Chromium: it loads with no console message and
# keeps its structure (title, inline charts, tables); the injected benchmark name
# stays text. The check itself must catch a page with a script error.
# Skipped when chromium is not installed (Debian packages chromium, chromium-driver).
command -v chromium >/dev/null 2>&1 || { echo "chromium not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/perfdb.db" PERFDB_FINGERPRINT=off SOURCE_DATE_EPOCH=1764000000

# load PAGE into DOM, console messages into LOG; 0 when Chromium ran
load() {
  profile=$(mktemp -d "$work/profile.XXXXXX")
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 \
    --dump-dom "file://$1" >"$2" 2>"$3"
}
# a page is clean when Chromium printed its DOM and no console message
clean() {
  grep -q '</html>' "$1" && ! grep -q 'CONSOLE' "$2"
}

printf '<!DOCTYPE html><html><body><p>x</p><script>noSuchFunction();</script></body></html>\n' >"$work/bad.html"
load "$work/bad.html" "$work/bad.dom" "$work/bad.log" || { echo "chromium failed"; cat "$work/bad.log"; exit 1; }
if clean "$work/bad.dom" "$work/bad.log"; then
  echo "FAIL: the check missed the script error of a bad page"; exit 1
fi

sh "$ROOT/tests/report-scenario.sh" "$PERFDB" "$ROOT/fixtures" || { echo "scenario failed"; exit 1; }
"$PERFDB" report v1.1 --baseline v1.0 -o "$work/out" -F html >/dev/null || exit 1
load "$work/out/index.html" "$work/page.dom" "$work/page.log" || { echo "chromium failed"; exit 1; }
clean "$work/page.dom" "$work/page.log" || { echo "FAIL: console messages"; grep CONSOLE "$work/page.log"; exit 1; }
fail=0
check() { # check WHAT EXPECTED COUNT_COMMAND
  got=$(grep -o -F "$2" "$work/page.dom" | wc -l)
  [ "$got" -ge "$3" ] || { echo "FAIL: $1: $got of '$2', expected at least $3"; fail=1; }
}
check "title" '<h1>Performance report: v1.1 against v1.0</h1>' 1
check "inline charts" '<svg ' 4
check "tables" '<table class="' 4
check "verdict" '<div class="verdict fail">' 1
grep -q -i '<script' "$work/page.dom" && { echo "FAIL: a script element in the page"; fail=1; }

# the benchmark named <script>alert(1)</script> is text in the DOM
cat >"$work/esc.json" <<JSON
{"uuid": "00000000-0000-4000-8000-0000000000e1", "name": "esc", "created_at": "2026-01-02T00:00:00Z",
 "tool": "t", "format": "perfdb", "source": "x.json", "status": "complete", "attrs": {},
 "results": [{"benchmark": "<script>alert(1)</script>", "dims": {}, "metric": "time", "unit": "s",
   "direction": "lower", "samples": [1.0, 1.1, 1.2], "stats": {}}]}
JSON
"$PERFDB" ingest "$work/esc.json" >/dev/null || exit 1
"$PERFDB" report esc --baseline v1.1 -o "$work/esc" -F html >/dev/null || exit 1
load "$work/esc/index.html" "$work/esc.dom" "$work/esc.log" || exit 1
clean "$work/esc.dom" "$work/esc.log" || { echo "FAIL: console messages (escape page)"; fail=1; }
grep -q -i '<script' "$work/esc.dom" && { echo "FAIL: the benchmark name became a script element"; fail=1; }
grep -q -F '&lt;script&gt;alert(1)&lt;/script&gt;' "$work/esc.dom" ||
  { echo "FAIL: the benchmark name is not shown as text"; fail=1; }

# a run's own report (no run before it): loads clean, its tables and figure in the DOM
"$PERFDB" --db "$work/own.db" ingest "$ROOT/fixtures/table/stream-rates.json" >/dev/null || exit 1
"$PERFDB" --db "$work/own.db" report latest -o "$work/own" -F html >/dev/null 2>"$work/own.err" || exit 1
load "$work/own/index.html" "$work/own.dom" "$work/own.log" || exit 1
clean "$work/own.dom" "$work/own.log" || { echo "FAIL: console messages (own report)"; fail=1; }
for want in '<h1>Performance report: stream-rates</h1>' '<h2>By matrix point</h2>' \
    '<table class="by-point">' '<svg '; do
  grep -q -F "$want" "$work/own.dom" || { echo "FAIL: own report: no $want"; fail=1; }
done
grep -q -F '<h2>Comparison</h2>' "$work/own.dom" && { echo "FAIL: own report has a comparison"; fail=1; }
exit $fail
