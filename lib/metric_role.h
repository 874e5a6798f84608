/* What a metric measures, for the gate: which series it gates by default,
 * its default threshold, and which wall-clock series a CPU time speaks for.
 * The one place these rules are written (docs/gate-noise.md states them). */
#ifndef PDB_METRIC_ROLE_H
#define PDB_METRIC_ROLE_H

/* The CPU time (user + sys) of a benchmark, in every source that has it. */
#define PDB_METRIC_CPU "cpu_time"

enum pdb_metric_role {
	PDB_ROLE_PRIMARY,     /* what the benchmark measures: gated */
	PDB_ROLE_WALL,        /* wall-clock time of a command or benchmark: gated,
			       * and checked against its CPU time */
	PDB_ROLE_CPU,         /* CPU time (user + sys) of the same: gated */
	PDB_ROLE_COUNT_EXACT, /* instructions retired: near exact, gated at 1 % */
	PDB_ROLE_RESOURCE,    /* memory, user or system time alone, sampled
			       * processes and machine: reported, gated when named */
	PDB_ROLE_BOOKKEEPING, /* how it ran, not how fast (iterations, rounds):
			       * hidden, never gated or detected unless named */
};

/* The role of a metric (process_dim: the series has a `process` dim, as
 * the sampled processes of a `sample:` have). */
enum pdb_metric_role pdb_metric_role(const char *metric, int process_dim);

/* The same of a stored series, its dims as canonical JSON text. */
enum pdb_metric_role pdb_metric_role_of_series(const char *metric, const char *dims_json);

/* Whether a role is gated when neither perfdb.yaml nor --metric names it. */
int pdb_metric_role_gated(enum pdb_metric_role role);
/* Whether a stored series is looked at when no --metric names one: the
 * roles gated by default. The series detect splits and a history chart
 * draws, so that the chart shows the change points detect reports. */
int pdb_metric_series_by_default(const char *metric, const char *dims_json);

/* Whether a metric is a rate per CPU-second (work over the user + system
 * time it took, as stress-ng's bogo-ops-per-second-usr-sys-time): it does
 * not grow with the CPUs a benchmark is given, so it says nothing of
 * throughput. plot scaling draws it only when --metric names it. */
int pdb_metric_per_cpu_second(const char *metric);

/* The built-in fail level of a metric, in %: 1 for instructions, 10 for
 * p95 and beyond (a "pNN" part of its name with NN >= 95: p95, p99,
 * p99.9, p999, latency_p99), else 5. */
double pdb_metric_default_threshold(const char *metric);

/* A run's assumed run-to-run noise (SD of a run's log location) for a
 * comparison of one run with one run before the branch has a history of
 * the series: the samples of one run move together with the machine's
 * load, so their spread alone says nothing of the next run's. Measured on
 * a loaded 2-core runner (docs/gate-noise.md): wall time moved 40-60 % a
 * run, CPU time 5-8 %, instruction counts 0.01 %. As log SDs: wall time
 * 0.15 (but none when its CPU time is compared beside it: that decides,
 * compare_cpu.h), CPU time 0.07, instructions 0.001, anything else 0.10;
 * perfdb.yaml's `compare: run_noise:` sets one for every series. */
double pdb_metric_run_noise(enum pdb_metric_role role);

/* The CPU-time metric that speaks for a wall-clock one ("cpu_time"), or
 * NULL when the metric is not wall-clock time. */
const char *pdb_metric_cpu_of(const char *wall_metric);

/* One clock tick of the kernel's split of CPU time into user and
 * system time (250 Hz, Debian's kernels): the sum, cpu_time, is exact to
 * the microsecond, but each part is the sum shared out in proportion to
 * the ticks that fell in user or kernel mode, so a part moves by up to a
 * tick from run to run with nothing changed. */
#define PDB_CPU_SPLIT_TICK 0.004

/* The least move of a metric its instrument resolves, in its unit (a
 * canonical unit: seconds for times), or 0 when none is known: one
 * PDB_CPU_SPLIT_TICK for user_time and sys_time. detect takes no smaller
 * move for a change point. */
double pdb_metric_resolution(const char *metric, const char *unit);

#endif
