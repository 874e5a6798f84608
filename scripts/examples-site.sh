#!/bin/sh
# make examples: `perfdb site` on the site's test scenario into OUT (default
# docs/examples/site), and a screenshot of its index by headless Chromium
# (skipped without chromium).
# Usage: examples-site.sh [PERFDB [OUT]]
root=$(cd "$(dirname "$0")/.." && pwd)
perfdb=${1:-$root/build/perfdb}
out=${2:-$root/docs/examples/site}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/perfdb.db" PERFDB_FINGERPRINT=off SOURCE_DATE_EPOCH=1764000000
rm -rf "$out" && mkdir -p "$out"
sh "$root/tests/site-scenario.sh" "$perfdb" || exit 1
"$perfdb" site -o "$work/site" --title 'CI dashboard' || exit 1
if ! command -v chromium >/dev/null 2>&1; then
  echo "examples-site: chromium not installed: no screenshot" >&2
  exit 0
fi
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$work/profile" --hide-scrollbars --window-size=1280,900 \
  --screenshot="$out/screenshot.png" "file://$work/site/index.html" >/dev/null 2>&1 || exit 1
echo "$out/screenshot.png"
