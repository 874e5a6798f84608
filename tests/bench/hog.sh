#!/bin/sh
# A bursting CPU hog, the noise of a shared CI runner: WORKERS busy loops,
# each running for a random 0.2-LONGEST s (LONGEST whole seconds, 2 to 10,
# default 2), then resting for a random 0.2-2.0 s, until SECONDS have passed
# (at most 1800). Bounded, and stopped by its PID: TERM or INT ends every
# worker at once. Prints nothing.
# Usage: sh tests/bench/hog.sh [SECONDS [WORKERS [LONGEST]]] &  ...  kill $!
secs=${1:-60}
workers=${2:-2}
longest=${3:-2}
[ "$secs" -gt 1800 ] && secs=1800
[ "$longest" -lt 2 ] && longest=2
[ "$longest" -gt 10 ] && longest=10
end=$(( $(date +%s) + secs ))

tenths() { # tenths MAX: a random number of tenths of a second in 2..MAX
  echo $(( $(od -An -N2 -tu2 /dev/urandom) % ($1 - 1) + 2 ))
}

worker() {
  while [ "$(date +%s)" -lt "$end" ]; do
    t=$(tenths $((longest * 10)))
    timeout "$((t / 10)).$((t % 10))" sh -c 'while :; do :; done'
    t=$(tenths 20)
    sleep "$((t / 10)).$((t % 10))"
  done
}

pids=""
stop() {
  for p in $pids; do
    pkill -TERM -P "$p" 2>/dev/null # its timeout and busy loop
    kill -TERM "$p" 2>/dev/null
  done
  pkill -TERM -P $$ 2>/dev/null
  exit 0
}
trap stop TERM INT HUP

i=0
while [ "$i" -lt "$workers" ]; do
  worker &
  pids="$pids $!"
  i=$((i + 1))
done
wait
