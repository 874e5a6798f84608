# Sourced by the bench-ingest-*.sh that time perfdb ingest against a C
# program that only parses the same file with jansson's json_load_file.
# ingest_peer DIR NAME: build that program as DIR/load (exit 0 with a skip
# line when it cannot be built). ingest_pairs NAME FORMAT FILE PAIRS WHAT
# RATIO: PAIRS pairs, perfdb then the peer (the machine is shared and one
# pair can be off by a quarter either way, so the target is read on the
# median ratio, its range printed too); prints the times and the peak RSS
# of both, and returns 1 when the ratio is above RATIO or perfdb's RSS
# above 1.5 times the file.
ingest_peer() {
	cat > "$1/load.c" <<'C'
#include <jansson.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	json_error_t err;
	json_t *doc = json_load_file(argv[1], 0, &err);
	if (!doc || argc != 2) {
		fprintf(stderr, "load: %s\n", err.text);
		return 1;
	}
	json_decref(doc);
	return 0;
}
C
	cc -O2 -o "$1/load" "$1/load.c" -ljansson ||
		{ echo "$2: skipped (cannot build the jansson peer)"; exit 0; }
}

ingest_pairs() {
	name=$1 format=$2 file=$3 pairs=$4 what=$5 target=$6
	work=$(dirname "$file")
	: > "$work/p"; : > "$work/j"
	for i in $(seq "$pairs"); do
		rm -f "$work/p.db"
		PERFDB_FINGERPRINT=off /usr/bin/time -f "%e %M" -o "$work/t" \
			"$PERFDB" --db "$work/p.db" ingest --format "$format" "$file" >/dev/null ||
			{ echo "$name: perfdb ingest failed"; return 1; }
		cat "$work/t" >> "$work/p"
		/usr/bin/time -f "%e %M" -o "$work/t" "$work/load" "$file" ||
			{ echo "$name: json_load_file failed"; return 1; }
		cat "$work/t" >> "$work/j"
	done
	paste -d' ' "$work/p" "$work/j" | awk -v size="$(wc -c < "$file")" -v name="$name" \
		-v what="$what" -v target="$target" '
	{ p[NR] = $1; j[NR] = $3; r[NR] = $1 / $3; if ($2 > rss) rss = $2; if ($4 > jrss) jrss = $4 }
	END {
		for (a = 1; a <= NR; a++)
			for (b = a + 1; b <= NR; b++)
				if (r[b] < r[a]) { t = r[a]; r[a] = r[b]; r[b] = t }
		for (a = 1; a <= NR; a++) {
			if (a == 1 || p[a] < pb) pb = p[a]
			if (a == 1 || j[a] < jb) jb = j[a]
		}
		median = r[(NR + 1) / 2]
		mem = rss * 1024 / size
		printf "%s: %.0f MB, %s: perfdb %.2f s, json_load_file %.2f s (best of %d each); ratio %.2f (median of %d pairs, range %.2f-%.2f; target <= %s)\n", name, size / 1e6, what, pb, jb, NR, median, NR, r[1], r[NR], target
		printf "%s: peak RSS perfdb %.0f MB = %.2f x the file (target <= 1.5), json_load_file %.0f MB = %.2f x\n", name, rss * 1024 / 1e6, mem, jrss * 1024 / 1e6, jrss * 1024 / size
		exit !(median <= target && mem <= 1.5)
	}'
}
