#!/bin/sh
# Regenerates fixtures/gate-noise/: real noisy histories for scoring the CI
# gate (issue 38; tests/bench/gate-replay.sh replays them). Each "commit" is
# one invocation in a scratch folder while tests/bench/hog.sh runs with a
# fixed number of workers per set (D also runs a second, steady load: an
# `xz -9` loop); the hog (and the loop) start 1 s before the invocation and
# are stopped by their PIDs after it; load.txt gets, per file, the load and
# /proc/loadavg before and after. The commands and inputs stay the same
# commit after commit except for one real change per set (more input).
# After the history, pull-request runs under the same load, alternating:
# prNN-slow (odd NN: the stepped benchmark does 2x the work of main's
# newest commit) and prNN-same (even NN: nothing changed).
#   C  hyperfine; gzip, sort, python3 unchanged; b2sum's input +25 % at c13;
#      hog 2 workers; pr01..pr12
#   D  held out: hyperfine; xz, md5sum unchanged; awk's input 2x at c17;
#      hog 3 workers and an xz -9 loop; pr01..pr12
#   E  perfdb run (warmup 1, repeat 10); bzip2, perl, sort unchanged;
#      sha1sum's input +50 % at c11; hog 2 workers; pr01..pr12
#   F  held out: perfdb run, interleaved; gzip -9, python3, tac|grep
#      unchanged; b2sum's input +10 % at c15; hog 3 workers; no PRs
#   G  held out: Google Benchmark (libbenchmark-dev), a C++ file of 3
#      benchmarks, linked once per commit with the step's size (g++ -O2); sort, string search
#      unchanged; the hash's buffer +30 % at c14; hog 3 workers;
#      pr01..pr12 (each also built)
#   H  held out: pytest-benchmark (python3-pytest-benchmark); json, regex,
#      sort unchanged; the sum of squares' range +50 % at c12; hog 2 workers
#      and stress-ng --cpu 1 --cpu-load 70; pr01..pr12
#   I  held out (second round): perfdb run (warmup 1, repeat 10) of 6
#      benchmarks, two of them C programs compiled once (chase.c, a pointer
#      chase through 32 MB; matmul.c); zstd, sha256sum, sort, matmul unchanged;
#      the chase's steps +30 % at c10, and an improvement: the python script's
#      passes 13 -> 10 at c18 (1.3x less work); hog 2 workers and stress-ng
#      --vm 1 --vm-bytes 1G; slow PRs: the chase 2x; pr01..pr12
#   J  held out (second round): hyperfine --warmup 1 --runs 5 of 5 commands
#      (lz4, sha512sum, sed -E with back-references, jq, cc -O2 -c), bounded
#      by timeout; sed's input 1.5x at c16; slow PRs: jq's input 2x (not the
#      step's command: step.txt's pr_bench); hog 3 workers and stress-ng --cpu 1
#      --cpu-load 60; pr01..pr12
#   K  held out (third round): Google Benchmark's CSV output
#      (--benchmark_format=csv) of 7 benchmarks, two families with a
#      parameter (BM_copy/64, /4096, /262144; BM_crc32/256, /16384), BM_parse,
#      BM_sieve; BM_parse's repetitions 5 -> 6 at c12 (+20 % work); slow PRs:
#      BM_sieve's 2x (step.txt's pr_bench); hog 2 workers and a build loop
#      (make -j2 -B of 6 C files with gcc -O2, over and over); pr01..pr12
#   L  held out (third round): perfdb run (warmup 1, repeat 10) of 4
#      benchmarks, two of them modes of one C program (kern.c: mix-sum and
#      mix-scan both run its shared mix()); at c14 mix()'s rounds 1.4x (both
#      modes 1.4x slower: step.txt's bench twice), at c20 every benchmark 1.3x
#      the work (a global regression: global_commit, global_factor); slow PRs:
#      awk's input 2x; hog 1 worker and stress-ng --cache 2; pr01..pr12
#   M  held out (fourth round): hyperfine --runs 10 of 5 commands (cksum of
#      4 MB, ~10 ms; bc -l computing pi to 900 digits, ~250 ms CPU; xxd; od; fmt);
#      xxd's input +30 % at c10; an improvement: fmt's input 1.3x smaller at
#      c18; slow PRs: od's input 2x (step.txt's pr_bench); hog 2 workers with
#      its longest bursts (hog.sh's LONGEST 10: bursts of 0.2-10 s) and an
#      I/O loop (dd of 64 MB with conv=fsync, then sha256sum of it); pr01..pr12
#   N  held out (fourth round): perfdb run (warmup 1, repeat 5) of 5
#      benchmarks: lcg.c, a C program whose work is compiled in and built
#      again every commit (a code change, not more input), factor, a
#      cut|sort|uniq pipeline, sum -r, tr|wc; lcg's steps 1.15x at c16 (100 M
#      -> 115 M), slow PRs 2x (230 M); the runner's load changes half way:
#      c01..c12 only stress-ng --cpu 1 --cpu-load 70 (steady, no bursts),
#      c13..c24 and the PRs only the hog (2 workers); pr01..pr12
#   O  held out (fifth round): Google Benchmark JSON (--benchmark_repetitions=5
#      --benchmark_min_time=0.1 --benchmark_format=json) of 5 benchmarks: BM_chase (a
#      pointer chase through 32 MB: memory-bound), BM_alloc (a list of 64-byte
#      strings: allocates), BM_memcpy (16 MB copies), BM_crc32, BM_sort;
#      BM_alloc's items +25 % at c08, BM_memcpy's copies 1.5x at c17; slow PRs:
#      BM_crc32's work 2x (step.txt's pr_bench); no hog: stress-ng --cache 1
#      --cpu 1 whose --cpu-load changes every 3 commits (20, 80, 50, 100, 35,
#      65, 90, 25 %; the PRs 60, 100, 30, 80 %); pr01..pr12. The aggregate
#      rows (_mean, _median, _stddev, _cv) are dropped to keep the set under
#      300 KB: perfdb computes its own from the repetitions (the gate's
#      replay of G gives the same output with and without them).
#   P  held out (fifth round): perfdb run (warmup 2, repeat 7) of 5 shell-level
#      benchmarks: sort -n, awk, jq -n -f filter.jq, python3 work.py, gzip -6;
#      a code change at c06: jq's filter walks 600,000 numbers, not 300,000
#      (2x); an improvement at c19: work.py's loop 1.4x shorter; slow PRs:
#      gzip's input 2x (pr_bench); no hog: a real noisy neighbour, a clone of
#      perfdb built with make -j2 build, then make clean, over and over;
#      pr01..pr12
# G's, H's and I's JSON is kept without the whitespace between tokens (every
# other byte as the tool wrote it) to keep each set under 300 KB.
# A perfdb run commit is run into a scratch database with --attr branch=main
# --attr commit=cNN and written out by `perfdb show latest --format json`
# (canonical JSON, which `perfdb ingest` reads back); each file is ingested
# again and its samples checked against the run's.
# The programs a set builds (G's and K's bench.cpp, H's test_h.py, I's chase.c,
# matmul.c and words.py, J's prog.c, L's kern.c, N's lcg.c) are kept once, in the set's
# fixture folder, and copied from there (sources).
# Not run by the suite: about 6 minutes a set on 2 loaded cores (M 18, N 8).
# load.txt also says `uptime` when a set starts and when it ends (other work
# on the machine).
# Usage: sh tests/bench/make-gate-noise.sh [OUT [SETS]]
#   OUT defaults to fixtures/gate-noise, SETS to "C D E F G H I J K L M N O P"; PERFDB to build/perfdb;
#   COMMITS (default 24) and PRS (default 12) shorten a trial.
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/fixtures/gate-noise}
sets=${2:-C D E F G H I J K L M N O P}
commits=${COMMITS:-24}
prs=${PRS:-12}
perfdb=${PERFDB:-$root/build/perfdb}
py=/usr/bin/python3
command -v hyperfine >/dev/null || { echo "hyperfine is missing"; exit 1; }
[ -x "$perfdb" ] || { echo "no perfdb at $perfdb (make -j2)"; exit 1; }
[ -x "$py" ] || { echo "no $py"; exit 1; }
for set in $sets; do
	case $set in C | D | E | F | G | H | I | J | K | L | M | N | O | P) ;; *) echo "unknown set $set (C ... P)"; exit 2 ;; esac
	case $set in
	G) [ -e /usr/include/benchmark/benchmark.h ] && command -v g++ >/dev/null ||
		{ echo "G needs g++ and libbenchmark-dev"; exit 1; } ;;
	H) "$py" -c 'import pytest_benchmark' 2>/dev/null && command -v stress-ng >/dev/null ||
		{ echo "H needs python3-pytest-benchmark and stress-ng"; exit 1; } ;;
	I) command -v stress-ng >/dev/null && command -v cc >/dev/null && command -v zstd >/dev/null ||
		{ echo "I needs stress-ng, cc and zstd"; exit 1; } ;;
	J) command -v stress-ng >/dev/null && command -v cc >/dev/null && command -v lz4 >/dev/null &&
		command -v jq >/dev/null || { echo "J needs stress-ng, cc, lz4 and jq"; exit 1; } ;;
	K) [ -e /usr/include/benchmark/benchmark.h ] && command -v g++ >/dev/null && command -v gcc >/dev/null &&
		command -v make >/dev/null || { echo "K needs g++, gcc, make and libbenchmark-dev"; exit 1; } ;;
	L) command -v stress-ng >/dev/null && command -v cc >/dev/null && command -v gzip >/dev/null ||
		{ echo "L needs stress-ng, cc and gzip"; exit 1; } ;;
	M) command -v bc >/dev/null && command -v xxd >/dev/null && command -v sha256sum >/dev/null ||
		{ echo "M needs bc, xxd and sha256sum"; exit 1; } ;;
	N) command -v stress-ng >/dev/null && command -v cc >/dev/null && command -v factor >/dev/null ||
		{ echo "N needs stress-ng, cc and factor"; exit 1; } ;;
	O) [ -e /usr/include/benchmark/benchmark.h ] && command -v g++ >/dev/null && command -v stress-ng >/dev/null ||
		{ echo "O needs g++, libbenchmark-dev and stress-ng"; exit 1; } ;;
	P) command -v jq >/dev/null && command -v gzip >/dev/null && command -v git >/dev/null &&
		command -v make >/dev/null || { echo "P needs jq, gzip, git and make"; exit 1; } ;;
	esac
done
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
work=$(mktemp -d) || exit 1
hog= load2=
stop_load() {
	if [ -n "$hog" ]; then kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null; fi
	# timeout runs its command in a process group of its own and passes TERM on to it
	if [ -n "$load2" ]; then kill "$load2" 2>/dev/null; wait "$load2" 2>/dev/null; fi
	hog= load2=
}
cleanup() {
	stop_load
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

text() { # text BYTES: seeded pseudo-random words, the same for a given awk
	awk -v n="$1" 'BEGIN {
		srand(7)
		while (m < n) {
			w = ""
			for (k = int(rand() * 9) + 2; k > 0; k--) w = w sprintf("%c", 97 + int(rand() * 26))
			line = line (line == "" ? "" : " ") w
			if (length(line) > 70) { print line; m += length(line) + 1; line = "" }
		}
	}' | head -c "$1"
}
text 1000000 >"$work/mb"
blob() { # blob MB FILE: MB copies of one seeded megabyte
	k=0; : >"$2"
	while [ "$k" -lt "$1" ]; do cat "$work/mb" >>"$2"; k=$((k + 1)); done
}
lines() { # lines N: N lines "KEY N", keys seeded pseudo-random
	awk -v n="$1" 'BEGIN { srand(11); for (i = 1; i <= n; i++) printf "%08d %d\n", int(rand() * 1e8), i }'
}

# load W SECOND: the hog with W workers (none if W is 0), its bursts up to
# $longest s (hog.sh's LONGEST), and, if SECOND is xz, an xz -9 loop;
# if stress, stress-ng --cpu 1 --cpu-load 70; if vm, stress-ng --vm 1
# --vm-bytes 1G; if stress60, stress-ng --cpu 1 --cpu-load 60; if build, a
# loop of make -j2 -B over $work/build's six C files; if cache, stress-ng
# --cache 2; if io, a loop of dd (64 MB to a file, conv=fsync) and sha256sum
# of that file; if cachecpuPCT, stress-ng --cache 1 --cpu 1 --cpu-load PCT; if
# perfbuild, a loop of make -j2 build and make clean in $work/pdb (a clone of
# perfdb). timeout signals its whole process group, so make and its gcc stop too.
longest=2
load() {
	if [ "$1" -gt 0 ]; then
		sh "$root/tests/bench/hog.sh" 300 "$1" "$longest" 2>/dev/null &
		hog=$!
	fi
	case $2 in
	xz)
		timeout 300 sh -c 'while :; do xz -9 -c "$1" >/dev/null; done' sh "$work/mb" 2>/dev/null &
		load2=$! ;;
	stress)
		timeout 300 stress-ng --cpu 1 --cpu-load 70 --timeout 300 --quiet >/dev/null 2>&1 &
		load2=$! ;;
	vm)
		timeout 300 stress-ng --vm 1 --vm-bytes 1G --timeout 300 --quiet >/dev/null 2>&1 &
		load2=$! ;;
	stress60)
		timeout 300 stress-ng --cpu 1 --cpu-load 60 --timeout 300 --quiet >/dev/null 2>&1 &
		load2=$! ;;
	build)
		timeout 300 sh -c 'while :; do make -s -j2 -B -C "$1" >/dev/null 2>&1; done' sh "$work/build" &
		load2=$! ;;
	cache)
		timeout 300 stress-ng --cache 2 --timeout 300 --quiet >/dev/null 2>&1 &
		load2=$! ;;
	cachecpu*)
		timeout 300 stress-ng --cache 1 --cpu 1 --cpu-load "${2#cachecpu}" --timeout 300 --quiet >/dev/null 2>&1 &
		load2=$! ;;
	perfbuild)
		timeout 300 sh -c 'while :; do make -s -j2 -C "$1" build >/dev/null 2>&1; make -s -C "$1" clean >/dev/null 2>&1; done' \
			sh "$work/pdb" &
		load2=$! ;;
	io)
		timeout 300 sh -c 'while :; do dd if=/dev/zero of="$1" bs=1M count=64 conv=fsync 2>/dev/null
			sha256sum "$1" >/dev/null; done' sh "$work/io.bin" &
		load2=$! ;;
	esac
	sleep 1
	before=$(cut -d' ' -f1-3 /proc/loadavg)
}
note() { # note FILE W SECOND: after the invocation, its line of load.txt
	after=$(cut -d' ' -f1-3 /proc/loadavg)
	stop_load
	l=; [ "$longest" != 2 ] && [ "$2" -gt 0 ] && l=" hog_longest=$longest"
	echo "$(basename "$1") hog_workers=$2$l${3:+ second_load=$3} loadavg_before=$before loadavg_after=$after" |
		tee -a "$(dirname "$1")/load.txt"
}
start() { # start SET TOOL COMMIT BENCH FACTOR: makes OUT/SET, its step.txt, and starts its load.txt
	mkdir -p "$out/$1" "$work/$1" || exit 1
	printf '# the real change (tests/bench/gate-replay.sh reads it)\ncommit %s\nbench %s\nfactor %s\n' \
		"$3" "$4" "$5" >"$out/$1/step.txt"
	printf '# %s, %s, %s cpus: file, hog workers, second load, /proc/loadavg (1, 5, 15 min) before and after\n' \
		"$(date -u +%Y-%m-%dT%H:%MZ)" "$2" "$(nproc)" >"$out/$1/load.txt"
	echo "# uptime at the start: $(uptime)" >>"$out/$1/load.txt"
}
finish() { # finish SET: the last line of its load.txt
	echo "# uptime at the end: $(uptime)" >>"$out/$1/load.txt"
}

sources() { # sources SET FILE...: the set's programs, kept once in fixtures/gate-noise/SET
	src=$root/fixtures/gate-noise/$1 set_=$1
	shift
	for f in "$@"; do
		cp "$src/$f" "$work/$set_/$f" || exit 1
		[ "$out/$set_/$f" -ef "$src/$f" ] || cp "$src/$f" "$out/$set_/$f" || exit 1
	done
}

hf_runs=10
hf() { # hf DIR FILE W SECOND CMD...: one hyperfine invocation (--runs $hf_runs) under the load
	dir=$1 file=$2 w=$3 second=$4
	shift 4
	load "$w" "$second"
	(cd "$dir" && timeout 600 hyperfine -N --style none --warmup 1 --runs "$hf_runs" \
		--export-json "$file" "$@") >/dev/null || exit 1
	note "$file" "$w" "$second"
}

pr() { # pr N: the name of pull-request run N: odd slow, even same
	if [ $(($1 % 2)) = 1 ]; then printf 'pr%02d-slow' "$1"; else printf 'pr%02d-same' "$1"; fi
}

# run DIR FILE W BRANCH COMMIT [SECOND]: one perfdb run of DIR/spec.yaml under the
# load, written out as canonical JSON and checked to read back the same samples
run() {
	dir=$1 file=$2 w=$3 second=${6:-}
	load "$w" "$second"
	(cd "$dir" && PERFDB_DB="$work/scratch.db" timeout 900 "$perfdb" run spec.yaml \
		--attr branch="$4" --attr commit="$5") \
		>/dev/null 2>"$work/run.err" || { cat "$work/run.err"; exit 1; }
	note "$file" "$w" "$second"
	"$perfdb" --db "$work/scratch.db" show latest --format json >"$file" || exit 1
	rm -f "$work/check.db"
	PERFDB_FINGERPRINT=off "$perfdb" --db "$work/check.db" ingest "$file" >/dev/null || exit 1
	"$perfdb" --db "$work/check.db" show latest --format json >"$work/back.json" || exit 1
	"$py" - "$file" "$work/back.json" <<-'EOF' || exit 1
	import json, sys
	a, b = (json.load(open(p)) for p in sys.argv[1:3])
	key = lambda r: [(x["benchmark"], x["metric"], x["samples"]) for x in r["results"]]
	want = {"wall_time", "user_time", "sys_time", "cpu_time", "peak_rss"}
	have = {x["metric"] for x in a["results"]}
	if key(a) != key(b) or not want <= have:
	    sys.exit("round trip of %s: samples differ or metrics missing (%s)" % (sys.argv[1], sorted(have)))
	EOF
}

# C (tuning set): b2sum's input 24 MB, 30 MB from c13 (+25 %); slow PRs 60 MB
if case " $sets " in *" C "*) true ;; *) false ;; esac; then
	start C "$(hyperfine --version)" c13 "b2sum blob.bin" 1.25
	d=$work/C
	text 1000000 >"$d/text.txt"
	lines 100000 >"$d/lines.txt"
	blob 24 "$d/blob.bin"
	set -- 'gzip -c text.txt' 'sort lines.txt' "$py -c \"print(sum(i * i for i in range(300000)))\"" 'b2sum blob.bin'
	i=1
	while [ "$i" -le "$commits" ]; do
		[ "$i" = 13 ] && blob 30 "$d/blob.bin"
		hf "$d" "$out/C/$(printf c%02d "$i").json" 2 "" "$@"
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$prs" ]; do
		case $(pr "$i") in *slow) blob 60 "$d/blob.bin" ;; *) blob 30 "$d/blob.bin" ;; esac
		hf "$d" "$out/C/$(pr "$i").json" 2 "" "$@"
		i=$((i + 1))
	done
fi

# D (held out): awk over 400,000 lines, 800,000 from c17 (2x); slow PRs 1,600,000
if case " $sets " in *" D "*) true ;; *) false ;; esac; then
	start D "$(hyperfine --version), second load xz -9 loop ($(xz --version | head -1))" \
		c17 "awk '{ s += length(\$2) } END { print s }' lines.txt" 2
	d=$work/D
	text 120000 >"$d/words.txt"
	blob 24 "$d/blob.bin"
	lines 400000 >"$d/lines.txt"
	set -- 'xz -c words.txt' 'md5sum blob.bin' "awk '{ s += length(\$2) } END { print s }' lines.txt"
	i=1
	while [ "$i" -le "$commits" ]; do
		[ "$i" = 17 ] && lines 800000 >"$d/lines.txt"
		hf "$d" "$out/D/$(printf c%02d "$i").json" 3 xz "$@"
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$prs" ]; do
		case $(pr "$i") in *slow) lines 1600000 >"$d/lines.txt" ;; *) lines 800000 >"$d/lines.txt" ;; esac
		hf "$d" "$out/D/$(pr "$i").json" 3 xz "$@"
		i=$((i + 1))
	done
fi

# E (tuning set): sha1sum's input 24 MB, 36 MB from c11 (+50 %); slow PRs 72 MB
if case " $sets " in *" E "*) true ;; *) false ;; esac; then
	start E "$("$perfdb" --version) at $(git -C "$root" rev-parse --short HEAD)" c11 sha1sum 1.5
	d=$work/E
	text 400000 >"$d/words.txt"
	lines 100000 >"$d/lines.txt"
	blob 24 "$d/data.bin"
	cat >"$d/spec.yaml" <<-'EOF'
	warmup: 1
	repeat: 10
	benchmarks:
	  - name: bzip2
	    command: "bzip2 -c words.txt > /dev/null"
	  - name: perl-loop
	    command: "perl -e '$s = 0; $s += $_ * $_ for 1 .. 2000000; print $s' > /dev/null"
	  - name: sha1sum
	    command: "sha1sum data.bin > /dev/null"
	  - name: sort
	    command: "sort -n lines.txt > /dev/null"
	EOF
	cp "$d/spec.yaml" "$out/E/spec.yaml"
	rm -f "$work/scratch.db"
	i=1
	while [ "$i" -le "$commits" ]; do
		[ "$i" = 11 ] && blob 36 "$d/data.bin"
		c=$(printf c%02d "$i")
		run "$d" "$out/E/$c.json" 2 main "$c"
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$prs" ]; do
		case $(pr "$i") in *slow) blob 72 "$d/data.bin" ;; *) blob 36 "$d/data.bin" ;; esac
		run "$d" "$out/E/$(pr "$i").json" 2 "pr-$i" "$(pr "$i")"
		i=$((i + 1))
	done
fi

# F (held out): b2sum's input 30 MB, 33 MB from c15 (+10 %)
if case " $sets " in *" F "*) true ;; *) false ;; esac; then
	start F "$("$perfdb" --version) at $(git -C "$root" rev-parse --short HEAD)" c15 b2sum 1.1
	d=$work/F
	text 1000000 >"$d/text.txt"
	lines 800000 >"$d/lines.txt"
	blob 30 "$d/blob.bin"
	cat >"$d/spec.yaml" <<-EOF
	warmup: 1
	repeat: 10
	interleave: true
	benchmarks:
	  - name: gzip-9
	    command: "gzip -9 -c text.txt > /dev/null"
	  - name: python-loop
	    command: "$py -c 'print(sum(i * i for i in range(300000)))' > /dev/null"
	  - name: b2sum
	    command: "b2sum blob.bin > /dev/null"
	  - name: tac-grep
	    command: "tac lines.txt | grep -c 7 > /dev/null"
	EOF
	cp "$d/spec.yaml" "$out/F/spec.yaml"
	rm -f "$work/scratch.db"
	i=1
	while [ "$i" -le "$commits" ]; do
		[ "$i" = 15 ] && blob 33 "$d/blob.bin"
		c=$(printf c%02d "$i")
		run "$d" "$out/F/$c.json" 3 main "$c"
		i=$((i + 1))
	done
fi

# strip FILE: the tool's JSON without the whitespace between its tokens (every
# byte of every string and number kept as the tool wrote it)
strip() {
	"$py" - "$1" <<-'EOF' || exit 1
	import sys
	src = open(sys.argv[1]).read()
	out, instr, esc = [], False, False
	for ch in src:
	    if esc:
	        esc = False
	    elif instr:
	        esc = ch == "\\"
	        instr = ch != '"'
	    elif ch in " \t\r\n":
	        continue
	    else:
	        instr = ch == '"'
	    out.append(ch)
	open(sys.argv[1], "w").write("".join(out) + "\n")
	EOF
}

# G (held out): Google Benchmark; the FNV-1a hash's buffer 64 KiB, +30 % from
# c14 (85,197 bytes); slow PRs 2x (170,394 bytes). bench.cpp is compiled once;
# each commit compiles its step.cpp (the buffer's size) and links a binary of
# its own (compiling bench.cpp itself took over a minute a commit at load 20).
gb() { # gb DIR FILE HASH_BYTES: build the commit's binary, run it once under the load
	printf '#include <cstddef>\nextern const std::size_t kHashBytes = %s;\n' "$3" >"$1/step.cpp"
	g++ -O2 -std=c++17 -o "$1/bench" "$1/bench.o" "$1/step.cpp" -lbenchmark -lpthread || exit 1
	load 3 ""
	"$1/bench" --benchmark_repetitions=5 --benchmark_min_time=0.02 \
		--benchmark_format=json --benchmark_out_format=json --benchmark_out="$2" >/dev/null ||
		exit 1
	note "$2" 3 ""
	strip "$2"
}
if case " $sets " in *" G "*) true ;; *) false ;; esac; then
	start G "Google Benchmark $(dpkg-query -W -f '${Version}' libbenchmark-dev), $(g++ --version | head -1)" \
		c14 BM_fnv1a 1.3
	d=$work/G
	sources G bench.cpp
	g++ -O2 -std=c++17 -c -o "$d/bench.o" "$d/bench.cpp" || exit 1
	i=1
	while [ "$i" -le "$commits" ]; do
		n=65536
		[ "$i" -ge 14 ] && n=85197
		gb "$d" "$out/G/$(printf c%02d "$i").json" "$n"
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$prs" ]; do
		case $(pr "$i") in *slow) n=170394 ;; *) n=85197 ;; esac
		gb "$d" "$out/G/$(pr "$i").json" "$n"
		i=$((i + 1))
	done
fi

# H (held out): pytest-benchmark; sum of squares over range(N), N 50,000,
# 75,000 from c12 (+50 %); slow PRs 150,000. N is read from H_SQUARES.
pt() { # pt DIR FILE N: one pytest run under the load
	load 2 stress
	(cd "$1" && H_SQUARES=$3 "$py" -m pytest -q -p no:cacheprovider test_h.py \
		--benchmark-json="$2" --benchmark-min-rounds=10 --benchmark-max-time=0.1 \
		--benchmark-warmup=off) >/dev/null || exit 1
	note "$2" 2 stress
	strip "$2"
}
if case " $sets " in *" H "*) true ;; *) false ;; esac; then
	start H "pytest-benchmark $(dpkg-query -W -f '${Version}' python3-pytest-benchmark), $($py --version), second load stress-ng --cpu 1 --cpu-load 70 ($(stress-ng --version 2>&1 | head -1))" \
		c12 test_squares 1.5
	d=$work/H
	sources H test_h.py
	i=1
	while [ "$i" -le "$commits" ]; do
		n=50000
		[ "$i" -ge 12 ] && n=75000
		pt "$d" "$out/H/$(printf c%02d "$i").json" "$n"
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$prs" ]; do
		case $(pr "$i") in *slow) n=150000 ;; *) n=75000 ;; esac
		pt "$d" "$out/H/$(pr "$i").json" "$n"
		i=$((i + 1))
	done
fi

# I (held out, second round): perfdb run of six benchmarks under the hog (2
# workers) and stress-ng --vm 1 --vm-bytes 1G (memory and cache contention).
# The work of the chase and of the python script is read from a file (chase.n,
# words.n), so that spec.yaml stays the same commit after commit: the chase
# 400,000 steps, 520,000 from c10 (+30 %), slow PRs 1,040,000 (2x main's
# newest); the python script 13 passes, 10 from c18 (1.3x less work: an
# improvement, which must not fail the gate). Each file is written out whole
# (and checked to read back), then stripped of its whitespace (strip, above).
if case " $sets " in *" I "*) true ;; *) false ;; esac; then
	start I "$("$perfdb" --version) at $(git -C "$root" rev-parse --short HEAD), second load stress-ng --vm 1 --vm-bytes 1G ($(stress-ng --version 2>&1 | head -1))" \
		c10 chase 1.3
	printf 'improved_commit c18\nimproved_bench python-words\nimproved_factor 1.3\n' >>"$out/I/step.txt"
	d=$work/I
	text 1000000 >"$d/text.txt"
	head -c 50000 "$d/text.txt" >"$d/small.txt"
	blob 16 "$d/blob.bin"
	lines 200000 >"$d/lines.txt"
	sources I chase.c
	sources I matmul.c
	sources I words.py
	cc -O2 -o "$d/chase" "$d/chase.c" && cc -O2 -o "$d/matmul" "$d/matmul.c" || exit 1
	"$d/chase" make "$d/chase.bin" 8000000 || exit 1
	cat >"$d/spec.yaml" <<-EOF
	warmup: 1
	repeat: 10
	benchmarks:
	  - name: zstd
	    command: "zstd -12 -c text.txt > /dev/null"
	  - name: sha256sum
	    command: "sha256sum blob.bin > /dev/null"
	  - name: sort
	    command: "sort -n lines.txt > /dev/null"
	  - name: python-words
	    command: "$py words.py small.txt words.n > /dev/null"
	  - name: chase
	    command: "./chase run chase.bin chase.n > /dev/null"
	  - name: matmul
	    command: "./matmul 400 > /dev/null"
	EOF
	cp "$d/spec.yaml" "$out/I/" || exit 1
	rm -f "$work/scratch.db"
	echo 13 >"$d/words.n"
	i=1
	while [ "$i" -le "$commits" ]; do
		n=400000
		[ "$i" -ge 10 ] && n=520000
		echo "$n" >"$d/chase.n"
		[ "$i" -ge 18 ] && echo 10 >"$d/words.n"
		c=$(printf c%02d "$i")
		run "$d" "$out/I/$c.json" 2 main "$c" vm
		strip "$out/I/$c.json"
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$prs" ]; do
		case $(pr "$i") in *slow) echo 1040000 >"$d/chase.n" ;; *) echo 520000 >"$d/chase.n" ;; esac
		run "$d" "$out/I/$(pr "$i").json" 2 "pr-$i" "$(pr "$i")" vm
		strip "$out/I/$(pr "$i").json"
		i=$((i + 1))
	done
fi

# J (held out, second round): hyperfine --warmup 1 --runs 5 of five commands
# under the hog (3 workers) and stress-ng --cpu 1 --cpu-load 60; sed's input
# 500 kB, 750 kB from c16 (1.5x); the slow PRs double jq's input (60,000
# objects -> 120,000), not sed's: the 2x PR is another command than the step's.
# (sed, not grep -c: GNU grep stops at the first match when its output is
# /dev/null, as hyperfine's is, and timed 2 ms for 150 ms of work.)
if case " $sets " in *" J "*) true ;; *) false ;; esac; then
	jq_cmd="jq -c 'map(.v) | add' data.json"
	sed_cmd="sed -n -E '/([a-z])[a-z]*\\1[a-z]*\\1/p' words.txt"
	start J "$(hyperfine --version), --runs 5, second load stress-ng --cpu 1 --cpu-load 60 ($(stress-ng --version 2>&1 | head -1))" \
		c16 "$sed_cmd" 1.5
	printf 'pr_bench %s\n' "$jq_cmd" >>"$out/J/step.txt"
	d=$work/J
	text 1000000 >"$d/text.txt"
	blob 16 "$d/blob.bin"
	objects() { # objects N: a JSON array of N seeded objects {"k": i, "v": x}
		awk -v n="$1" 'BEGIN { srand(3); printf "["
			for (i = 0; i < n; i++) printf "%s{\"k\":%d,\"v\":%.6f}", i ? "," : "", i, rand()
			print "]" }'
	}
	objects 60000 >"$d/data.json"
	sources J prog.c
	set -- 'lz4 -9 -c text.txt' 'sha512sum blob.bin' "$sed_cmd" "$jq_cmd" 'cc -O2 -c -o prog.o prog.c'
	hf_runs=5
	i=1
	while [ "$i" -le "$commits" ]; do
		if [ "$i" -ge 16 ]; then head -c 750000 "$d/text.txt" >"$d/words.txt"
		else head -c 500000 "$d/text.txt" >"$d/words.txt"; fi
		hf "$d" "$out/J/$(printf c%02d "$i").json" 3 stress60 "$@"
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$prs" ]; do
		case $(pr "$i") in *slow) objects 120000 >"$d/data.json" ;; *) objects 60000 >"$d/data.json" ;; esac
		hf "$d" "$out/J/$(pr "$i").json" 3 stress60 "$@"
		i=$((i + 1))
	done
fi

# buildload: $work/build, six generated C files (300 small functions each) and a
# Makefile that compiles them with gcc -O2: the second load of K
buildload() {
	mkdir -p "$work/build" || exit 1
	k=1
	while [ "$k" -le 6 ]; do
		awk -v k="$k" 'BEGIN {
			print "/* generated: a file for the build loop to compile */"
			for (f = 0; f < 300; f++) {
				printf "unsigned long f%d_%d(const unsigned char *p, unsigned long n)\n{\n", k, f
				printf "\tunsigned long h = %d;\n\tfor (unsigned long i = 0; i < n; i++)\n", f + 1
				printf "\t\th = (h ^ p[i]) * %du + (h >> %d);\n\treturn h;\n}\n", 2 * f + 3, f % 13 + 1
			}
		}' >"$work/build/u$k.c"
		k=$((k + 1))
	done
	printf 'OBJ = u1.o u2.o u3.o u4.o u5.o u6.o\nall: $(OBJ)\n%%.o: %%.c\n\tgcc -O2 -c -o $@ $<\n' \
		>"$work/build/Makefile"
}

# K (held out, third round): Google Benchmark, its CSV output; seven
# benchmarks, two families with a parameter. bench.cpp is compiled once; each
# commit compiles its step.cpp (BM_parse's and BM_sieve's repetitions) and
# links a binary of its own. BM_parse 5 repetitions of its buffer, 6 from c12
# (+20 % work); BM_sieve 4, slow PRs 8 (2x main's newest).
gbcsv() { # gbcsv DIR FILE PARSE_REPS SIEVE_REPS: build the commit's binary, run it once under the load
	printf 'extern const int kParseReps = %s;\nextern const int kSieveReps = %s;\n' "$3" "$4" >"$1/step.cpp"
	g++ -O2 -std=c++17 -o "$1/bench" "$1/bench.o" "$1/step.cpp" -lbenchmark -lpthread || exit 1
	load 2 build
	"$1/bench" --benchmark_repetitions=5 --benchmark_min_time=0.05 \
		--benchmark_out_format=csv --benchmark_out="$2" >/dev/null 2>&1 || exit 1
	note "$2" 2 build
}
if case " $sets " in *" K "*) true ;; *) false ;; esac; then
	start K "Google Benchmark $(dpkg-query -W -f '${Version}' libbenchmark-dev) (CSV), $(g++ --version | head -1), second load a make -j2 build loop ($(make --version | head -1))" \
		c12 BM_parse 1.2
	printf 'pr_bench BM_sieve\n' >>"$out/K/step.txt"
	buildload
	d=$work/K
	mkdir -p "$d" || exit 1
	sources K bench.cpp
	g++ -O2 -std=c++17 -c -o "$d/bench.o" "$d/bench.cpp" || exit 1
	i=1
	while [ "$i" -le "$commits" ]; do
		n=5
		[ "$i" -ge 12 ] && n=6
		gbcsv "$d" "$out/K/$(printf c%02d "$i").csv" "$n" 4
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$prs" ]; do
		case $(pr "$i") in *slow) s=8 ;; *) s=4 ;; esac
		gbcsv "$d" "$out/K/$(pr "$i").csv" 6 "$s"
		i=$((i + 1))
	done
fi

# L (held out, third round): perfdb run of four benchmarks under the hog (1
# worker) and stress-ng --cache 2. mix-sum and mix-scan are two modes of one C
# program (kern.c) whose time is its shared mix(): its rounds (mix.n) 100, 140
# from c14 (both modes 1.4x: a slower shared code path). At c20 every
# benchmark does 1.3x the work (a global regression): kern's items (kern.n)
# 150,000 -> 195,000, gzip's input 500 kB -> 650 kB, awk's lines 200,000 ->
# 260,000; the slow PRs double awk's (520,000). The work is read from files,
# so spec.yaml stays the same commit after commit. Each file is written out
# whole (and checked to read back), then stripped of its whitespace (strip).
if case " $sets " in *" L "*) true ;; *) false ;; esac; then
	start L "$("$perfdb" --version) at $(git -C "$root" rev-parse --short HEAD), second load stress-ng --cache 2 ($(stress-ng --version 2>&1 | head -1))" \
		c14 mix-sum 1.4
	printf 'bench mix-scan\nglobal_commit c20\nglobal_factor 1.3\npr_bench awk-sum\n' >>"$out/L/step.txt"
	d=$work/L
	mkdir -p "$d" || exit 1
	sources L kern.c
	cc -O2 -o "$d/kern" "$d/kern.c" || exit 1
	text 650000 >"$d/text.all"
	cat >"$d/spec.yaml" <<-'EOF'
	warmup: 1
	repeat: 10
	benchmarks:
	  - name: mix-sum
	    command: "./kern sum kern.n mix.n > /dev/null"
	  - name: mix-scan
	    command: "./kern scan kern.n mix.n > /dev/null"
	  - name: gzip-6
	    command: "gzip -6 -c text.txt > /dev/null"
	  - name: awk-sum
	    command: "awk '{ s += $2 } END { print s }' lines.txt > /dev/null"
	EOF
	cp "$d/spec.yaml" "$out/L/" || exit 1
	rm -f "$work/scratch.db"
	i=1
	while [ "$i" -le "$commits" ]; do
		if [ "$i" -ge 14 ]; then echo 140 >"$d/mix.n"; else echo 100 >"$d/mix.n"; fi
		if [ "$i" -ge 20 ]; then
			echo 195000 >"$d/kern.n"; head -c 650000 "$d/text.all" >"$d/text.txt"; lines 260000 >"$d/lines.txt"
		else
			echo 150000 >"$d/kern.n"; head -c 500000 "$d/text.all" >"$d/text.txt"; lines 200000 >"$d/lines.txt"
		fi
		c=$(printf c%02d "$i")
		run "$d" "$out/L/$c.json" 1 main "$c" cache
		strip "$out/L/$c.json"
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$prs" ]; do
		case $(pr "$i") in *slow) lines 520000 >"$d/lines.txt" ;; *) lines 260000 >"$d/lines.txt" ;; esac
		run "$d" "$out/L/$(pr "$i").json" 1 "pr-$i" "$(pr "$i")" cache
		strip "$out/L/$(pr "$i").json"
		i=$((i + 1))
	done
fi

# M (held out, fourth round): hyperfine --runs 10 of five commands under the
# hog (2 workers, bursts of up to 10 s: hog.sh's longest) and an I/O loop (dd
# with conv=fsync, then sha256sum). cksum of 4 MB is the short command (about
# 10 ms), bc -l's 900 digits of pi the long one (about 250 ms of CPU). xxd's
# input 2,000,000 bytes, 2,600,000 from c10 (+30 %); fmt's input 1,000,000
# bytes, 769,231 from c18 (1.3x less work: an improvement); the slow PRs
# double od's input (150,000 -> 300,000 bytes), not xxd's.
if case " $sets " in *" M "*) true ;; *) false ;; esac; then
	xxd_cmd='xxd data.bin' fmt_cmd='fmt -w 50 text.txt' od_cmd='od -An -tx1 od.bin'
	start M "$(hyperfine --version), --runs 10, hog bursts up to 10 s, second load a dd conv=fsync + sha256sum loop ($(dd --version | head -1))" \
		c10 "$xxd_cmd" 1.3
	printf 'improved_commit c18\nimproved_bench %s\nimproved_factor 1.3\npr_bench %s\n' \
		"$fmt_cmd" "$od_cmd" >>"$out/M/step.txt"
	d=$work/M
	text 1000000 >"$d/text.all"
	blob 6 "$d/blob.all"
	head -c 4000000 "$d/blob.all" >"$d/small.bin"
	head -c 150000 "$d/blob.all" >"$d/od.bin"
	printf 'scale=900\n4*a(1)\nquit\n' >"$d/pi.bc"
	set -- 'cksum small.bin' 'bc -l pi.bc' "$xxd_cmd" "$od_cmd" "$fmt_cmd"
	hf_runs=10 longest=10
	i=1
	while [ "$i" -le "$commits" ]; do
		if [ "$i" -ge 10 ]; then head -c 2600000 "$d/blob.all" >"$d/data.bin"
		else head -c 2000000 "$d/blob.all" >"$d/data.bin"; fi
		if [ "$i" -ge 18 ]; then head -c 769231 "$d/text.all" >"$d/text.txt"
		else cp "$d/text.all" "$d/text.txt"; fi
		hf "$d" "$out/M/$(printf c%02d "$i").json" 2 io "$@"
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$prs" ]; do
		case $(pr "$i") in *slow) head -c 300000 "$d/blob.all" >"$d/od.bin" ;; *) head -c 150000 "$d/blob.all" >"$d/od.bin" ;; esac
		hf "$d" "$out/M/$(pr "$i").json" 2 io "$@"
		i=$((i + 1))
	done
	longest=2
	finish M
fi

# N (held out, fourth round): perfdb run (warmup 1, repeat 5) of five
# benchmarks on a runner whose load changes half way: c01..c12 under
# stress-ng --cpu 1 --cpu-load 70 alone (steady, no bursts), c13..c24 and the
# PRs under the hog alone (2 workers). lcg.c's work is compiled in (-DSTEPS),
# so each commit builds it again: 100,000,000 steps, 115,000,000 from c16
# (1.15x: a code change); the slow PRs 230,000,000 (2x main's newest). Each
# file is written out whole (and checked to read back), then stripped of its
# whitespace (strip).
if case " $sets " in *" N "*) true ;; *) false ;; esac; then
	start N "$("$perfdb" --version) at $(git -C "$root" rev-parse --short HEAD), $(cc --version | head -1), c01..c12 stress-ng --cpu 1 --cpu-load 70 alone ($(stress-ng --version 2>&1 | head -1)), c13.. the hog alone" \
		c16 lcg 1.15
	d=$work/N
	sources N lcg.c
	text 2000000 >"$d/text.txt"
	blob 40 "$d/blob.bin"
	cat >"$d/spec.yaml" <<-'EOF'
	warmup: 1
	repeat: 5
	benchmarks:
	  - name: lcg
	    command: "./lcg > /dev/null"
	  - name: factor
	    command: "seq 100000000000 100000040000 | factor > /dev/null"
	  - name: cut-sort-uniq
	    command: "cut -c 3-9 text.txt | sort | uniq -c > /dev/null"
	  - name: sum-r
	    command: "sum -r blob.bin > /dev/null"
	  - name: tr-wc
	    command: "tr -s 'a-m' 'n-z' < text.txt | wc -c > /dev/null"
	EOF
	cp "$d/spec.yaml" "$out/N/" || exit 1
	rm -f "$work/scratch.db"
	lcg() { cc -O2 -DSTEPS="$1" -o "$d/lcg" "$d/lcg.c" || exit 1; }
	i=1
	while [ "$i" -le "$commits" ]; do
		if [ "$i" -ge 16 ]; then lcg 115000000; else lcg 100000000; fi
		c=$(printf c%02d "$i")
		if [ "$i" -le 12 ]; then run "$d" "$out/N/$c.json" 0 main "$c" stress
		else run "$d" "$out/N/$c.json" 2 main "$c"; fi
		strip "$out/N/$c.json"
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$prs" ]; do
		case $(pr "$i") in *slow) lcg 230000000 ;; *) lcg 115000000 ;; esac
		run "$d" "$out/N/$(pr "$i").json" 2 "pr-$i" "$(pr "$i")"
		strip "$out/N/$(pr "$i").json"
		i=$((i + 1))
	done
	finish N
fi

# O (held out, fifth round): Google Benchmark JSON of five benchmarks under
# stress-ng --cache 1 --cpu 1 (cache and CPU pressure, no hog), its --cpu-load
# changing every 3 commits. bench.cpp is compiled once; each commit compiles
# its step.cpp and links a binary of its own. BM_alloc 4,000 strings, 5,000
# from c08 (+25 %); BM_memcpy 4 copies of 16 MB, 6 from c17 (1.5x); BM_crc32
# 4 passes, slow PRs 8 (2x main's newest). Each file is stripped of its
# whitespace and of the aggregate rows (perfdb computes its own).
opct() { # opct INDEX: the stress-ng --cpu-load of main's commit INDEX (1-based)
	set -- "$1" 20 80 50 100 35 65 90 25
	k=$(( ($1 - 1) / 3 + 2 ))
	eval "echo \${$k}"
}
ppct() { # ppct INDEX: the same for pull-request run INDEX
	set -- "$1" 60 100 30 80
	k=$(( ($1 - 1) / 3 + 2 ))
	eval "echo \${$k}"
}
noagg() { # noagg FILE: a stripped Google Benchmark JSON without its aggregate rows
	"$py" - "$1" <<-'EOF' || exit 1
	import json, re, sys
	s = open(sys.argv[1]).read()
	t = re.sub(r',?\{[^{}]*"run_type":"aggregate"[^{}]*\}', "", s).replace('"benchmarks":[,', '"benchmarks":[')
	d = json.loads(t)
	if not d["benchmarks"] or any(b["run_type"] != "iteration" for b in d["benchmarks"]):
	    sys.exit("noagg %s: no repetitions left" % sys.argv[1])
	open(sys.argv[1], "w").write(t)
	EOF
}
gbo() { # gbo DIR FILE ALLOC COPIES CRC PCT: build the commit's binary, run it once under the load
	printf 'extern const int kAllocItems = %s;\nextern const int kCopyReps = %s;\nextern const int kCrcReps = %s;\n' \
		"$3" "$4" "$5" >"$1/step.cpp"
	g++ -O2 -std=c++17 -o "$1/bench" "$1/bench.o" "$1/step.cpp" -lbenchmark -lpthread || exit 1
	load 0 "cachecpu$6"
	timeout 900 "$1/bench" --benchmark_repetitions=5 --benchmark_min_time=0.1 --benchmark_format=json >"$2" 2>/dev/null || exit 1
	note "$2" 0 "cachecpu$6"
	strip "$2"
	noagg "$2"
}
if case " $sets " in *" O "*) true ;; *) false ;; esac; then
	start O "Google Benchmark $(dpkg-query -W -f '${Version}' libbenchmark-dev) (JSON), $(g++ --version | head -1), no hog, load stress-ng --cache 1 --cpu 1 --cpu-load changing every 3 commits ($(stress-ng --version 2>&1 | head -1))" \
		c08 BM_alloc 1.25
	printf 'second_commit c17\nsecond_bench BM_memcpy\nsecond_factor 1.5\npr_bench BM_crc32\n' >>"$out/O/step.txt"
	d=$work/O
	mkdir -p "$d" || exit 1
	sources O bench.cpp
	g++ -O2 -std=c++17 -c -o "$d/bench.o" "$d/bench.cpp" || exit 1
	i=1
	while [ "$i" -le "$commits" ]; do
		a=4000 c=4
		[ "$i" -ge 8 ] && a=5000
		[ "$i" -ge 17 ] && c=6
		gbo "$d" "$out/O/$(printf c%02d "$i").json" "$a" "$c" 4 "$(opct "$i")"
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$prs" ]; do
		case $(pr "$i") in *slow) n=8 ;; *) n=4 ;; esac
		gbo "$d" "$out/O/$(pr "$i").json" 5000 6 "$n" "$(ppct "$i")"
		i=$((i + 1))
	done
	finish O
fi

# P (held out, fifth round): perfdb run (warmup 2, repeat 7) of five
# shell-level benchmarks under a real noisy neighbour: a clone of perfdb
# ($work/pdb) built with make -j2 build, then make clean, over and over (no
# hog). jq's filter (filter.jq, the benchmark's code) sums over 300,000
# numbers, 600,000 from c06 (2x); work.py's loop (py.n) 1,400,000, 1,000,000 from
# c19 (1.4x less work: an improvement); the slow PRs double gzip's input
# (1.5 MB -> 3 MB). spec.yaml stays the same commit after commit. Each file
# is written out whole (and checked to read back), then stripped (strip).
if case " $sets " in *" P "*) true ;; *) false ;; esac; then
	start P "$("$perfdb" --version) at $(git -C "$root" rev-parse --short HEAD), no hog, load a make -j2 build / make clean loop of a perfdb clone ($(make --version | head -1), $(cc --version | head -1))" \
		c06 jq-sum 2
	printf 'improved_commit c19\nimproved_bench python-digits\nimproved_factor 1.4\npr_bench gzip-6\n' >>"$out/P/step.txt"
	rm -rf "$work/pdb"
	git clone -q "$root" "$work/pdb" || exit 1
	d=$work/P
	mkdir -p "$d" || exit 1
	text 3000000 >"$d/text.all"
	lines 300000 >"$d/lines.txt"
	printf 'import sys\nn = int(open(sys.argv[1]).read())\nprint(sum(len(str(i * i)) for i in range(n)))\n' >"$d/work.py"
	cp "$d/work.py" "$out/P/" || exit 1
	cat >"$d/spec.yaml" <<-EOF
	warmup: 2
	repeat: 7
	benchmarks:
	  - name: sort-n
	    command: "sort -n lines.txt > /dev/null"
	  - name: awk-mod
	    command: "awk '{ s += \$1 % 97 } END { print s }' lines.txt > /dev/null"
	  - name: jq-sum
	    command: "jq -n -f filter.jq > /dev/null"
	  - name: python-digits
	    command: "$py work.py py.n > /dev/null"
	  - name: gzip-6
	    command: "gzip -6 -c text.txt > /dev/null"
	EOF
	cp "$d/spec.yaml" "$out/P/" || exit 1
	rm -f "$work/scratch.db"
	i=1
	while [ "$i" -le "$commits" ]; do
		n=300000
		[ "$i" -ge 6 ] && n=600000
		echo "[range($n) | . * . % 7] | add" >"$d/filter.jq"
		if [ "$i" -ge 19 ]; then echo 1000000 >"$d/py.n"; else echo 1400000 >"$d/py.n"; fi
		head -c 1500000 "$d/text.all" >"$d/text.txt"
		c=$(printf c%02d "$i")
		run "$d" "$out/P/$c.json" 0 main "$c" perfbuild
		strip "$out/P/$c.json"
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$prs" ]; do
		case $(pr "$i") in *slow) head -c 3000000 "$d/text.all" >"$d/text.txt" ;; *) head -c 1500000 "$d/text.all" >"$d/text.txt" ;; esac
		run "$d" "$out/P/$(pr "$i").json" 0 "pr-$i" "$(pr "$i")" perfbuild
		strip "$out/P/$(pr "$i").json"
		i=$((i + 1))
	done
	finish P
fi
