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
# G's and H's JSON is kept without the whitespace between tokens (every
# other byte as the tool wrote it) to keep each set under 300 KB.
# A perfdb run commit is run into a scratch database with --attr branch=main
# --attr commit=cNN and written out by `perfdb show latest --format json`
# (canonical JSON, which `perfdb ingest` reads back); each file is ingested
# again and its samples checked against the run's.
# Not run by the suite: about 6 minutes a set on 2 loaded cores.
# Usage: sh tests/bench/make-gate-noise.sh [OUT [SETS]]
#   OUT defaults to fixtures/gate-noise, SETS to "C D E F G H"; PERFDB to build/perfdb;
#   COMMITS (default 24) and PRS (default 12) shorten a trial.
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/fixtures/gate-noise}
sets=${2:-C D E F G H}
commits=${COMMITS:-24}
prs=${PRS:-12}
perfdb=${PERFDB:-$root/build/perfdb}
py=/usr/bin/python3
command -v hyperfine >/dev/null || { echo "hyperfine is missing"; exit 1; }
[ -x "$perfdb" ] || { echo "no perfdb at $perfdb (make -j2)"; exit 1; }
[ -x "$py" ] || { echo "no $py"; exit 1; }
for set in $sets; do
	case $set in C | D | E | F | G | H) ;; *) echo "unknown set $set (C, D, E, F, G, H)"; exit 2 ;; esac
	case $set in
	G) [ -e /usr/include/benchmark/benchmark.h ] && command -v g++ >/dev/null ||
		{ echo "G needs g++ and libbenchmark-dev"; exit 1; } ;;
	H) "$py" -c 'import pytest_benchmark' 2>/dev/null && command -v stress-ng >/dev/null ||
		{ echo "H needs python3-pytest-benchmark and stress-ng"; exit 1; } ;;
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

# load W SECOND: the hog with W workers (and, if SECOND is xz, an xz -9 loop;
# if stress, stress-ng --cpu 1 --cpu-load 70)
load() {
	sh "$root/tests/bench/hog.sh" 300 "$1" 2>/dev/null &
	hog=$!
	case $2 in
	xz)
		timeout 300 sh -c 'while :; do xz -9 -c "$1" >/dev/null; done' sh "$work/mb" 2>/dev/null &
		load2=$! ;;
	stress)
		timeout 300 stress-ng --cpu 1 --cpu-load 70 --timeout 300 --quiet >/dev/null 2>&1 &
		load2=$! ;;
	esac
	sleep 1
	before=$(cut -d' ' -f1-3 /proc/loadavg)
}
note() { # note FILE W SECOND: after the invocation, its line of load.txt
	after=$(cut -d' ' -f1-3 /proc/loadavg)
	stop_load
	echo "$(basename "$1") hog_workers=$2${3:+ second_load=$3} loadavg_before=$before loadavg_after=$after" |
		tee -a "$(dirname "$1")/load.txt"
}
start() { # start SET TOOL COMMIT BENCH FACTOR: makes OUT/SET, its step.txt, and starts its load.txt
	mkdir -p "$out/$1" "$work/$1" || exit 1
	printf '# the real change (tests/bench/gate-replay.sh reads it)\ncommit %s\nbench %s\nfactor %s\n' \
		"$3" "$4" "$5" >"$out/$1/step.txt"
	printf '# %s, %s, %s cpus: file, hog workers, second load, /proc/loadavg (1, 5, 15 min) before and after\n' \
		"$(date -u +%Y-%m-%dT%H:%MZ)" "$2" "$(nproc)" >"$out/$1/load.txt"
}

hf() { # hf DIR FILE W SECOND CMD...: one hyperfine invocation under the load
	dir=$1 file=$2 w=$3 second=$4
	shift 4
	load "$w" "$second"
	(cd "$dir" && hyperfine -N --style none --warmup 1 --runs 10 --export-json "$file" "$@") \
		>/dev/null || exit 1
	note "$file" "$w" "$second"
}

pr() { # pr N: the name of pull-request run N: odd slow, even same
	if [ $(($1 % 2)) = 1 ]; then printf 'pr%02d-slow' "$1"; else printf 'pr%02d-same' "$1"; fi
}

# run DIR FILE W BRANCH COMMIT: one perfdb run of DIR/spec.yaml under the load,
# written out as canonical JSON and checked to read back the same samples
run() {
	dir=$1 file=$2 w=$3
	load "$w" ""
	(cd "$dir" && PERFDB_DB="$work/scratch.db" "$perfdb" run spec.yaml --attr branch="$4" --attr commit="$5") \
		>/dev/null 2>"$work/run.err" || { cat "$work/run.err"; exit 1; }
	note "$file" "$w" ""
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
	cat >"$d/bench.cpp" <<-'EOF'
	// perfdb gate-noise set G: three small benchmarks; kHashBytes (step.cpp) is the step.
	#include <benchmark/benchmark.h>
	#include <algorithm>
	#include <cstdint>
	#include <random>
	#include <string>
	#include <vector>

	extern const std::size_t kHashBytes;

	static std::vector<unsigned char> bytes(size_t n)
	{
		std::mt19937 g(7);
		std::vector<unsigned char> v(n);
		for (auto &b : v)
			b = static_cast<unsigned char>(g());
		return v;
	}

	static void BM_fnv1a(benchmark::State &st)
	{
		auto buf = bytes(kHashBytes);
		for (auto _ : st) {
			uint64_t h = 1469598103934665603ull;
			for (unsigned char c : buf)
				h = (h ^ c) * 1099511628211ull;
			benchmark::DoNotOptimize(h);
		}
	}
	BENCHMARK(BM_fnv1a);

	static void BM_sort(benchmark::State &st)
	{
		std::mt19937 g(11);
		std::vector<uint32_t> src(20000);
		for (auto &x : src)
			x = g();
		for (auto _ : st) {
			auto v = src;
			std::sort(v.begin(), v.end());
			benchmark::DoNotOptimize(v.data());
		}
	}
	BENCHMARK(BM_sort);

	static void BM_find(benchmark::State &st)
	{
		std::string text;
		std::mt19937 g(13);
		while (text.size() < 200000)
			text += static_cast<char>('a' + g() % 26);
		for (auto _ : st)
			benchmark::DoNotOptimize(text.find("perfdbgate"));
	}
	BENCHMARK(BM_find);

	BENCHMARK_MAIN();
	EOF
	cp "$d/bench.cpp" "$out/G/bench.cpp"
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
	cat >"$d/test_h.py" <<-'EOF'
	# perfdb gate-noise set H: four small benchmarks; H_SQUARES is the step.
	import json
	import os
	import random
	import re

	N = int(os.environ["H_SQUARES"])
	rng = random.Random(5)
	DOC = {"k%d" % i: [rng.random() for _ in range(8)] for i in range(500)}
	TEXT = " ".join("".join(rng.choice("abcdefgh") for _ in range(rng.randint(2, 9)))
	                for _ in range(15000))
	PAIRS = [(rng.randint(0, 999), rng.random()) for _ in range(10000)]


	def test_json(benchmark):
	    benchmark(lambda: json.loads(json.dumps(DOC)))


	def test_regex(benchmark):
	    benchmark(lambda: len(re.findall(r"\b[abc]\w*h\b", TEXT)))


	def test_sort(benchmark):
	    benchmark(lambda: sorted(PAIRS))


	def test_squares(benchmark):
	    benchmark(lambda: sum(i * i for i in range(N)))
	EOF
	cp "$d/test_h.py" "$out/H/test_h.py"
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
