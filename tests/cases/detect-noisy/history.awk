# A history of 15 hyperfine runs (--export-json) on a loaded machine, for
# the detect-noisy cases: awk -v seed=N -f history.awk, in a directory
# with runs/. Each run's load, log-normal with sd 0.3, moves all its
# samples together; "sort input" takes 150 ms for runs 0-5 and 300 ms
# from run 6 on (its input doubled), "grep x input" 40 ms; run 14 is a
# one-run spike of sort (3 s). The per-run medians of sort (runs 0-13,
# ms) go to "medians". Park-Miller's generator: exact in awk's doubles.
function u() { seed = seed * 16807 % 2147483647; return seed / 2147483647 }
function z() { return sqrt(-2 * log(u())) * cos(6.283185307179586 * u()) }
# 10 samples around loc (5 % noise of their own) into t[], their median
function times(loc, k, j, v, s) {
	for (k = 0; k < 10; k++) {
		t[k] = loc * exp(0.05 * z())
		for (j = k; j > 0 && s[j - 1] > t[k]; j--)
			s[j] = s[j - 1]
		s[j] = t[k]
	}
	return (s[4] + s[5]) / 2
}
function list(k, out) {
	for (k = 0; k < 10; k++)
		out = out sprintf("%s%.6f", k ? ", " : "", t[k])
	return out
}
BEGIN {
	for (r = 0; r < 20; r++)
		u()
	for (r = 0; r < 15; r++) {
		file = sprintf("runs/run-%02d.json", r)
		load = exp(0.3 * z())
		loc = r == 14 ? 3.0 : 0.150 * (r >= 6 ? 2 : 1) * load
		med = times(loc)
		if (r < 14)
			printf "%s%.0f", r ? " " : "", 1000 * med > "medians"
		printf "{\"results\": [{\"command\": \"sort input\", \"times\": [%s]},", list() > file
		times(0.040 * load)
		printf " {\"command\": \"grep x input\", \"times\": [%s]}]}\n", list() > file
		close(file)
	}
}
