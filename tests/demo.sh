#!/bin/sh
# make demo: the main job on the embedded default, in demo-out/ with a fresh database.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
perfdb="$root/build/perfdb"
out="$root/demo-out"
rm -rf "$out"; mkdir -p "$out"
export PERFDB_DB="$out/perfdb.db"
echo "\$ perfdb ingest fixtures/canonical/demo.json --attr commit=abc123"
"$perfdb" ingest "$root/fixtures/canonical/demo.json" --attr commit=abc123
echo "\$ perfdb runs"
"$perfdb" runs
echo "\$ perfdb show run1"
"$perfdb" show run1
