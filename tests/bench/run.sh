#!/bin/sh
# make bench: each tests/bench/bench-*.sh runs perfdb and its peer on the same
# input in one run and prints the ratio. Absolute times are noise here.
root=$(cd "$(dirname "$0")/../.." && pwd)
export PERFDB="$root/build/perfdb" ROOT="$root"
status=0
for b in "$root"/tests/bench/bench-*.sh; do
  [ -f "$b" ] || continue
  echo "== $(basename "$b" .sh)"
  sh "$b" || status=1
done
# the gate on held-out real noise (fixtures/hyperfine-loaded/B)
echo "== gate-heldout"
sh "$root/tests/bench/gate-heldout.sh" || status=1
exit $status
