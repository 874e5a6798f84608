#!/bin/sh
# Every accepted input round-trips: seeded mutations of the files of
# fixtures/ (and ../shared/corpus when present), each ingested, shown as
# canonical JSON, ingested again and shown again: the two must be the same
# bytes (tests/roundtrip-mutants.py says why nothing may differ). make check
# takes 4 mutants a file (about 1,000) and 1 under the sanitizers, several
# times slower: the two were half of the suite's time at 8 and 3.
# ROUNDTRIP_PER_FILE=8 runs the larger set.
case $BUILD in
  *asan*) per_file=${ROUNDTRIP_PER_FILE:-1} ;;
  *) per_file=${ROUNDTRIP_PER_FILE:-4} ;;
esac
exec /usr/bin/python3 "$ROOT/tests/roundtrip-mutants.py" "$PERFDB" "$ROOT" $per_file 21
