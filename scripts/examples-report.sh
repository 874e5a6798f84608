#!/bin/sh
# make examples: `perfdb report` on the fixtures into OUT (default docs/examples/report),
# and a screenshot of its HTML page by headless Chromium (skipped without chromium).
# Usage: examples-report.sh [PERFDB [OUT]]
root=$(cd "$(dirname "$0")/.." && pwd)
perfdb=${1:-$root/build/perfdb}
out=${2:-$root/docs/examples/report}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/perfdb.db" PERFDB_FINGERPRINT=off SOURCE_DATE_EPOCH=1764000000
rm -rf "$out"
sh "$root/tests/report-scenario.sh" "$perfdb" "$root/fixtures" || exit 1
"$perfdb" report v1.1 --baseline v1.0 -o "$out" --title 'Release 1.1: performance' || exit 1
if ! command -v chromium >/dev/null 2>&1; then
  echo "examples-report: chromium not installed: no screenshot" >&2
  exit 0
fi
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$work/profile" --hide-scrollbars --window-size=1280,5200 \
  --screenshot="$out/screenshot.png" "file://$out/index.html" >/dev/null 2>&1 || exit 1
echo "$out/screenshot.png"
