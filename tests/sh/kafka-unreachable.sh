#!/bin/sh
# ingest --from-kafka with no broker behind the address gives up with exit 4
# and its reason once --broker-timeout passes, instead of retrying forever
# (SIGTERM then said "0 runs stored", exit 0); nothing is stored.
: "${PERFDB:?}"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off
# port 1 on loopback: nothing listens there
timeout 20 "$PERFDB" ingest --from-kafka 127.0.0.1:1/runs --broker-timeout 2 2>"$work/err"
rc=$?
reason=$(grep '^perfdb: ingest:' "$work/err")
echo "exit $rc: $reason"
fail=0
[ "$rc" = 4 ] || { echo "FAIL: want exit 4"; fail=1; }
case $reason in *"no partition assigned in 2 s"*"nothing stored"*) ;; *) echo "FAIL: want the reason"; fail=1;; esac
"$PERFDB" ingest --broker-timeout 2 "$work/err" 2>/dev/null
[ $? = 2 ] || { echo "FAIL: --broker-timeout without --from-kafka is a usage error"; fail=1; }
exit $fail
