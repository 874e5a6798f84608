#!/bin/sh
# Every accepted input round-trips: seeded mutations of the files of
# fixtures/ (and ../shared/corpus when present), each ingested, shown as
# canonical JSON, ingested again and shown again: the two must be the same
# bytes (tests/roundtrip-mutants.py says why nothing may differ). make check
# takes 1 mutant a file and, under the sanitizers (four times slower), 1 of
# every third file: with the corpus beside the fixtures, 2 mutants a file took
# 102 s, the suite's longest job, and 4 and 1 of every file 465 s.
# ROUNDTRIP_PER_FILE=8 ROUNDTRIP_EVERY=1 runs the larger set.
case $BUILD in
  *asan*) per_file=${ROUNDTRIP_PER_FILE:-1} every=${ROUNDTRIP_EVERY:-3} ;;
  *) per_file=${ROUNDTRIP_PER_FILE:-1} every=${ROUNDTRIP_EVERY:-1} ;;
esac
exec /usr/bin/python3 "$ROOT/tests/roundtrip-mutants.py" "$PERFDB" "$ROOT" $per_file 21 $every
