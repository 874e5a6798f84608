#!/bin/sh
# Every accepted input round-trips: about 2,000 seeded mutations of the files of
# fixtures/ (and ../shared/corpus when present), each ingested, shown as
# canonical JSON, ingested again and shown again: the two must be the same
# bytes (tests/roundtrip-mutants.py says why nothing may differ). The
# sanitizer build, several times slower, takes 3 mutants a file (about 800).
case $BUILD in
  *asan*) per_file=3 ;;
  *) per_file=8 ;;
esac
exec /usr/bin/python3 "$ROOT/tests/roundtrip-mutants.py" "$PERFDB" "$ROOT" $per_file 21
