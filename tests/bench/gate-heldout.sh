#!/bin/sh
# The gate on held-out real noise: fixtures/hyperfine-loaded/B, made like A
# (tests/sh/gate-real-noise.sh) but with other commands (xz, md5sum, python3)
# and a smaller step (md5sum's input 1.5x from c25), replayed the same way
# (tests/bench/replay-gate.sh). Nothing is tuned on B: it says whether what
# passes on A holds elsewhere. Prints, on the unchanged commits, the verdicts
# and the false alarms (regression series, failed gates) once the branch has
# 5 runs or more, and the power: whether the step commit gates regression for
# md5sum, and how many of the 8 runs after the step do against c24; and
# what perfdb detect finds in the whole history.
# Measures only: exit 0 unless perfdb fails.
PERFDB=${PERFDB:?} ROOT=${ROOT:?}
fx=$ROOT/fixtures/hyperfine-loaded/B
step=c25 bench='md5sum blob.bin'
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
export PERFDB PERFDB_DB="$work/db" PERFDB_FINGERPRINT=off
sh "$ROOT/tests/bench/replay-gate.sh" "$fx" >"$work/tsv" || exit 1
awk -F'\t' -v step="$step" -v bench="$bench" '
	$1 == step && $5 == bench { stepv = $3; steprc = $2; next }
	$1 == step { if ($3 == "regression") other++; next }
	{ n = substr($1, 2) + 0; v[$3]++; series++ }
	n >= 6 { checked[$1] = 1; if ($3 == "regression") fa++; if ($2 != 0) failed[$1] = 1 }
	END {
		split("regression improvement unchanged inconclusive insufficient failed missing new", order, " ")
		for (i = 1; i <= 8; i++) if (v[order[i]]) verdicts = verdicts sprintf("%s %s %d", verdicts == "" ? "" : ",", order[i], v[order[i]])
		for (k in checked) nc++
		for (k in failed) nf++
		printf "held out B: %d unchanged series pairs:%s\n", series, verdicts
		printf "  false alarms on the %d unchanged commits with >= 5 runs of history: %d regression series, %d failed gates\n", nc, fa, nf
		printf "  step at %s (%s, 1.5x): %s, gate exit %d; other series gated regression there: %d\n", step, bench, stepv, steprc, other
	}' "$work/tsv"
hit=0 i=25
while [ $i -le 32 ]; do
	"$PERFDB" compare c24 "c$i" --bench "$bench" --format csv 2>/dev/null | awk -F, 'NR > 1 { print $18 }' |
		grep -qx regression && hit=$((hit + 1))
	i=$((i + 1))
done
echo "  power: $hit of 8 runs after the step gate regression for $bench against c24"
"$PERFDB" detect --where branch=main --format markdown 2>&1 | awk -F'|' '
	NF == 13 && $5 ~ /^ *[0-9]+ *$/ { gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $7); gsub(/^ +| +$/, "", $12)
		cps = cps sprintf("; %s at %s: %s", $2, $7, $12); n++ }
	END { printf "  detect --where branch=main: %d change points%s (the step: md5sum blob.bin at c25)\n", n, cps }'
