#!/bin/sh
# Every accepted input round-trips: about 2,000 seeded mutations of the files of
# fixtures/ (and ../shared/corpus when present), each ingested, shown as
# canonical JSON, ingested again and shown again: the two must be the same
# bytes (tests/roundtrip-mutants.py says why nothing may differ).
exec /usr/bin/python3 "$ROOT/tests/roundtrip-mutants.py" "$PERFDB" "$ROOT" 8 21
