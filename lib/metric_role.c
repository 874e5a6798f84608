/* What a metric measures, for the gate (metric_role.h). */
#include "metric_role.h"

#include <stddef.h>
#include <string.h>

#include "util.h"

/* Wall-clock time of a whole benchmark, as each tool names it. */
static const char *const wall_metrics[] = {
	"time",       /* hyperfine, criterion, Catch2, go test, BenchmarkDotNet, ... */
	"wall_time",  /* perfdb run */
	"real_time",  /* Google Benchmark */
	NULL,
};

/* Reported, not gated unless named: memory, the user/system split of CPU
 * time (their sum is cpu_time; the split follows the clock tick), and the
 * machine's own series a `sample:` records. */
static const char *const resource_metrics[] = {
	"peak_rss", "max_rss", "rss", "user_time", "sys_time",
	"load1", "cpu_busy", "mem_used", "disk_read", "disk_write", "net_rx", "net_tx",
	/* stress-ng's beside its two bogo-ops rates, which gate: its memory,
	 * and the rates' parts, under -t the time given, the work done and
	 * the CPU the stressor got, under --ops the count asked */
	"max-rss", "bogo-ops", "wall-clock-time", "user-time", "system-time",
	"cpu-usage-per-instance",
	NULL,
};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A stress-ng stressor's own rates beside its bogo-ops rates, words
 * joined by '-' ("add-matrix-ops-per-sec", "cache-ops-per-second"): the
 * matrix stressor's per-method rates moved 0.077x to 61x between two
 * runs of one stress-ng where its bogo-ops rate moved +16 %
 * (docs/formats.md, "stress-ng"); reported, gated when named. */
static int stressor_own_rate(const char *metric)
{
	return strchr(metric, '-') && !strchr(metric, '_') && !strchr(metric, ' ') &&
	       (ends_with(metric, "-per-sec") || ends_with(metric, "-per-second"));
}

/* How a benchmark ran, not how fast: a tool's own calibration (Google
 * Benchmark's iterations) or the counts it was told to make. */
static const char *const bookkeeping_metrics[] = {
	"iterations", "repetitions", "rounds", "runs", "forks", "warmup_iterations", NULL,
};

/* Rates per CPU-second: the work over the CPU time (user + system) it took. */
static const char *const per_cpu_second_metrics[] = {
	"bogo-ops-per-second-usr-sys-time", /* stress-ng --metrics */
	NULL,
};

static int listed(const char *const *list, const char *metric)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(list[i], metric) == 0)
			return 1;
	return 0;
}

enum pdb_metric_role pdb_metric_role(const char *metric, int process_dim)
{
	if (process_dim || listed(resource_metrics, metric) || stressor_own_rate(metric))
		return PDB_ROLE_RESOURCE;
	if (listed(bookkeeping_metrics, metric))
		return PDB_ROLE_BOOKKEEPING;
	if (listed(wall_metrics, metric))
		return PDB_ROLE_WALL;
	if (strcmp(metric, PDB_METRIC_CPU) == 0)
		return PDB_ROLE_CPU;
	if (strcmp(metric, "instructions") == 0)
		return PDB_ROLE_COUNT_EXACT;
	return PDB_ROLE_PRIMARY;
}

enum pdb_metric_role pdb_metric_role_of_series(const char *metric, const char *dims_json)
{
	/* canonical dims: a key is always preceded by { or , */
	return pdb_metric_role(metric, strstr(dims_json, "{\"process\":") != NULL ||
				       strstr(dims_json, ",\"process\":") != NULL);
}

int pdb_metric_role_gated(enum pdb_metric_role role)
{
	return role != PDB_ROLE_RESOURCE && role != PDB_ROLE_BOOKKEEPING;
}

double pdb_metric_run_noise(enum pdb_metric_role role)
{
	switch (role) {
	case PDB_ROLE_COUNT_EXACT:
		return 0.001;
	case PDB_ROLE_CPU:
		return 0.07;
	case PDB_ROLE_WALL:
		return 0.30;
	default:
		return 0.10;
	}
}

int pdb_metric_series_by_default(const char *metric, const char *dims_json)
{
	return pdb_metric_role_gated(pdb_metric_role_of_series(metric, dims_json));
}

int pdb_metric_per_cpu_second(const char *metric)
{
	return listed(per_cpu_second_metrics, metric);
}

const char *pdb_metric_cpu_of(const char *wall_metric)
{
	return listed(wall_metrics, wall_metric) ? PDB_METRIC_CPU : NULL;
}

/* Whether the digits at d (a "pNN" part's) read as a percentile >= 95:
 * p95, p99.9, and p999 as 99.9, p9999 as 99.99. */
static int tail_percentile(const char *d)
{
	double pct = 0, scale = 10;
	size_t n = 0;
	int dot = 0;

	for (; (*d >= '0' && *d <= '9') || *d == '.'; d++) {
		if (*d == '.') {
			if (dot || n < 2)
				return 0;
			dot = 1;
			continue;
		}
		/* the first two digits are the integer part, the rest decimals */
		if (!dot && n < 2)
			pct = pct * 10 + (*d - '0');
		else if (scale < 1e10) { /* further digits change no verdict */
			pct += (*d - '0') / scale;
			scale *= 10;
		}
		n++;
	}
	return n >= 2 && pct >= 95 && pct <= 100;
}

double pdb_metric_default_threshold(const char *metric)
{
	if (strcmp(metric, "instructions") == 0)
		return 1.0;
	for (const char *s = metric; *s; s++)
		if ((*s == 'p' || *s == 'P') && (s == metric || strchr("_-. /", s[-1])) &&
		    s[1] != '.' && tail_percentile(s + 1))
			return 10.0;
	return 5.0;
}

double pdb_metric_resolution(const char *metric, const char *unit)
{
	if (!unit || strcmp(unit, "s") != 0)
		return 0.0;
	if (strcmp(metric, "user_time") == 0 || strcmp(metric, "sys_time") == 0)
		return PDB_CPU_SPLIT_TICK;
	return 0.0;
}
