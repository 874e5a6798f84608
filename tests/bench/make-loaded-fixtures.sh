#!/bin/sh
# Regenerates fixtures/hyperfine-loaded/: real hyperfine runs on a loaded
# machine, one hyperfine invocation per "commit", the same commands on the
# same input commit after commit except for one real change per set. A
# bursting CPU hog (tests/bench/hog.sh) runs during every invocation, with 1
# to 3 workers chosen at random per commit, so that the load changes from run
# to run as on a shared CI runner; /proc/loadavg is recorded per commit in
# load.txt. Not run by the suite (about 15 minutes on 2 cores).
#   A/c01..c32.json    sha256sum, sort, gzip; --runs 10; gzip's input 2x from c25
#   A/runs3/c01..c12   the same commands, --runs 3; sha256sum's input 3x from c09
#   B/c01..c32.json    held out: xz, md5sum, python3; --runs 10; md5sum's input 1.5x from c25
# Usage: sh tests/bench/make-loaded-fixtures.sh [OUT [SETS]]
#   OUT defaults to fixtures/hyperfine-loaded, SETS to "A runs3 B" (any of them)
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/fixtures/hyperfine-loaded}
sets=${2:-A runs3 B}
command -v hyperfine >/dev/null || { echo "hyperfine is missing"; exit 1; }
work=$(mktemp -d) || exit 1
hog=
cleanup() {
	if [ -n "$hog" ]; then kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null; fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$out/A/runs3" "$out/B" "$work/A" "$work/B" || exit 1

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
blob() { # blob MB FILE: MB copies of one seeded megabyte (k, not the callers' i)
	text 1000000 > "$work/mb"
	k=0; : > "$2"
	while [ "$k" -lt "$1" ]; do cat "$work/mb" >> "$2"; k=$((k + 1)); done
}
lines() { # lines N: N lines "KEY N", keys seeded pseudo-random
	awk -v n="$1" 'BEGIN { srand(11); for (i = 1; i <= n; i++) printf "%08d %d\n", int(rand() * 1e8), i }'
}

bench() { # bench DIR OUT RUNS CMD...: one hyperfine run in DIR under the hog
	dir=$1 file=$2 runs=$3
	shift 3
	w=$(($(od -An -N1 -tu1 /dev/urandom) % 3 + 1))
	sh "$root/tests/bench/hog.sh" 300 "$w" &
	hog=$!
	sleep 1
	before=$(cut -d' ' -f1-3 /proc/loadavg)
	(cd "$dir" && hyperfine -N --style none --warmup 1 --runs "$runs" --export-json "$file" "$@") \
		> /dev/null || exit 1
	after=$(cut -d' ' -f1-3 /proc/loadavg)
	kill "$hog"
	wait "$hog" 2>/dev/null
	hog=
	echo "$(basename "$file") hog_workers=$w loadavg_before=$before loadavg_after=$after" |
		tee -a "$(dirname "$file")/load.txt"
}

want() { # want SET: SET is to be made; then starts its load.txt
	case " $sets " in *" $1 "*) ;; *) return 1 ;; esac
	case $1 in A) f=$out/A/load.txt ;; runs3) f=$out/A/runs3/load.txt ;; B) f=$out/B/load.txt ;; esac
	printf '# %s, %s, %s cpus: file, hog workers, /proc/loadavg (1, 5, 15 min) before and after\n' \
		"$(date -u +%Y-%m-%dT%H:%MZ)" "$(hyperfine --version)" "$(nproc)" > "$f"
}
for set in $sets; do
	case $set in A | runs3 | B) ;; *) echo "unknown set $set (A, runs3, B)"; exit 2 ;; esac
done

# A: gzip's input doubles at c25; runs3: sha256sum's input triples at c09
blob 16 "$work/A/data.bin"
lines 100000 > "$work/A/lines.txt"
text 1000000 > "$work/A/text.txt"
want A && for i in $(seq 1 32); do
	[ "$i" = 25 ] && text 2000000 > "$work/A/text.txt"
	bench "$work/A" "$out/A/$(printf c%02d "$i").json" 10 \
		'sha256sum data.bin' 'sort lines.txt' 'gzip -c text.txt'
done
text 1000000 > "$work/A/text.txt"
want runs3 && for i in $(seq 1 12); do
	[ "$i" = 9 ] && blob 48 "$work/A/data.bin"
	bench "$work/A" "$out/A/runs3/$(printf c%02d "$i").json" 3 \
		'sha256sum data.bin' 'sort lines.txt' 'gzip -c text.txt'
done

# B (held out): md5sum's input grows 1.5x at c25
blob 40 "$work/B/blob.bin"
text 120000 > "$work/B/words.txt"
want B && for i in $(seq 1 32); do
	[ "$i" = 25 ] && blob 60 "$work/B/blob.bin"
	bench "$work/B" "$out/B/$(printf c%02d "$i").json" 10 \
		'xz -c words.txt' 'md5sum blob.bin' 'python3 -c "print(sum(i * i for i in range(100000)))"'
done
