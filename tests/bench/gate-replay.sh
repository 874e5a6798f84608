#!/bin/sh
# Scores a perfdb binary's CI gate on real noisy histories (issue 38): for
# each set folder (fixtures/gate-noise/C ... L, fixtures/hyperfine-loaded/A, B),
# replays main's commits as ci-examples/ gate a push (compare
# latest~1:branch=main latest:branch=main after each ingest), gates each
# pull-request run against main's newest run (compare latest:branch=main
# latest:branch=pr-N), runs detect --where branch=main over the history, and
# prints a summary per set and a table with a total line. Scores only: exit 0
# unless perfdb cannot be run. Not run by the suite (about a minute a set).
# The work is in tests/bench/gate-replay.py (python3, standard library).
# Usage: sh tests/bench/gate-replay.sh [-v] PERFDB SET_DIR [SET_DIR ...]
#   -v: each commit's gate exit and failing rows, every row of the stepped
#   benchmark in each PR gate; --push-args, --pr-args: more compare options
#   (gate-replay.py -h); --young N: main from N commits before the step on
exec python3 "$(dirname "$0")/gate-replay.py" "$@"
