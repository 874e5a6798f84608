#!/bin/sh
# A CSV with many columns: for each reader that keeps a column it has no
# metric for as a run attribute (hyperfine --export-csv, JMeter, Locust),
# every one of 400,000 columns is stored: counted and one value read back
# with sqlite3. With BENCH_BOUNDS=1 (make bench: tests/bench/bench-csv-wide-linear.sh)
# it also checks that the time is linear in the columns: 400,000 columns take
# at most 8 times the CPU time of 100,000 (4 when linear, 16 when quadratic:
# before the fix 300,000 took 20 times as long as 100,000). The bound is a
# timing, which a loaded machine can miss, so it is not part of make check.
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB_FINGERPRINT=off
# FORMAT COLUMNS: a file of that format with COLUMNS extra text columns x0..
gen() {
  awk -v fmt="$1" -v n="$2" 'BEGIN {
	if (fmt == "hyperfine-csv") {
		head = "command,mean,stddev,median,user,system,min,max"
		rows[1] = "echo,1,0.1,1,0.5,0.1,0.9,1.1"
	} else if (fmt == "jmeter") {
		head = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect"
		rows[1] = "1551783627191,351,JR-OK,200,Good request,Thread Group 1-1,text,true,,18,8,1,1,null,0,0,0"
		rows[2] = "1551783627543,192,JR-OK,200,Good request,Thread Group 1-1,text,true,,18,8,1,1,null,0,0,0"
	} else {
		head = "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%"
		rows[1] = "GET,/index.html,438,0,6,6.07,2.8,16.4,6.0,36.4,0.0,6,6,7,8,9,10,12,15,16,16,16"
	}
	printf "%s", head
	for (i = 0; i < n; i++) printf ",x%d", i
	printf "\n"
	for (r = 1; r in rows; r++) {
		printf "%s", rows[r]
		for (i = 0; i < n; i++) printf ",v%d", i
		printf "\n"
	}
  }' > "$work/$1-$2.csv"
}
# FORMAT COLUMNS: the best user CPU seconds of two ingests
cpu() {
  best=
  for i in 1 2; do
    rm -f "$work/p.db"*
    /usr/bin/time -f %U -o "$work/t" "$PERFDB" --db "$work/p.db" ingest --format "$1" "$work/$1-$2.csv" \
      >/dev/null 2>"$work/err" || { cat "$work/err" >&2; echo fail; return; }
    t=$(cat "$work/t")
    best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
  done
  echo "$best"
}
status=0
for fmt in hyperfine-csv jmeter locust; do
  gen "$fmt" 400000
  if [ "${BENCH_BOUNDS:-0}" = 1 ]; then
    gen "$fmt" 100000
    small=$(cpu "$fmt" 100000)
    big=$(cpu "$fmt" 400000)
    [ "$small" = fail ] || [ "$big" = fail ] && { echo "$fmt: ingest failed"; status=1; continue; }
  else
    rm -f "$work/p.db"*
    "$PERFDB" --db "$work/p.db" ingest --format "$fmt" "$work/$fmt-400000.csv" >/dev/null 2>"$work/err" ||
      { cat "$work/err"; echo "$fmt: ingest failed"; status=1; continue; }
  fi
  # the last ingest's database: every column one attribute, with its value
  case $fmt in
    hyperfine-csv) key='x399999[echo]';;
    jmeter) key='x399999';;
    locust) key='/index.html.x399999';;
  esac
  got=$(sqlite3 "$work/p.db" "SELECT count(*) FROM run_attrs WHERE key GLOB '*x[0-9]*'; SELECT value FROM run_attrs WHERE key = '$key'" | tr '\n' ' ')
  [ "$got" = "400000 v399999 " ] || { echo "$fmt: stored '$got', expected 400000 attributes and $key = v399999"; status=1; }
  [ "${BENCH_BOUNDS:-0}" = 1 ] || { echo "$fmt: 400,000 columns stored"; continue; }
  awk -v f="$fmt" -v s="$small" -v b="$big" 'BEGIN {
	r = b / (s > 0.01 ? s : 0.01)
	printf "%s: 100,000 columns %.2f s, 400,000 columns %.2f s CPU: %.1f x (bound 8)\n", f, s, b, r
	exit !(r <= 8)
  }' || status=1
done
exit $status
