/* Tables of one run: a row per matrix point (the values of one or more
 * dims), a column per metric and statistic, as the documents print them
 * (per rate, per vCPU with speed-up). Computing (lib/table.c) and
 * rendering (lib/table_render.c): lib never prints. */
#ifndef PDB_TABLE_H
#define PDB_TABLE_H

#include <jansson.h>
#include <stddef.h>

#include "err.h"
#include "model.h"
#include "util.h"

/* What a column's cells are. */
enum pdb_table_stat {
	PDB_TSTAT_VALUE,      /* no STAT: the series' value as compare takes it (pdb_result_value) */
	PDB_TSTAT_MEAN, PDB_TSTAT_MEDIAN, PDB_TSTAT_MIN, PDB_TSTAT_MAX,
	PDB_TSTAT_STDDEV,     /* sample standard deviation (n - 1) */
	PDB_TSTAT_STDDEV_POP, /* population standard deviation (n) */
	PDB_TSTAT_PCT,        /* pN: percentile N (type 7, as numpy's default) */
	PDB_TSTAT_COUNT,      /* samples (a histogram's: the events) */
	PDB_TSTAT_SPEEDUP,    /* derived: the column before against the first row, a ratio (x) */
};

struct pdb_table_col {
	char *name;       /* the header: LABEL, else METRIC[:STAT] as written */
	char *metric;     /* NULL for speedup */
	int stat;         /* enum pdb_table_stat */
	double pct;       /* PDB_TSTAT_PCT: N */
	size_t of;        /* PDB_TSTAT_SPEEDUP: the column it derives from */
	char unit[80];    /* the unit of values[]: the series' canonical one or --unit's */
	double scale;     /* values[] = canonical value / scale */
	int direction;    /* the series' */
	/* how people read it (text, Markdown, HTML): cells = values[] / shown_scale
	 * with decimals digits after the point, the header "name (shown_unit)";
	 * a speed-up's cells say their unit ("1.22x": pdb_speedup_text), its
	 * header is its name */
	char shown_unit[96];
	double shown_scale;
	int decimals;
};

struct pdb_table {
	char *benchmark;
	char **dims;              /* the row dims */
	size_t ndims;
	struct pdb_table_col *cols;
	size_t ncols;
	size_t nrows;
	char **keys;              /* nrows * ndims: each row's dim values */
	double *values;           /* nrows * ncols, in each column's unit; NaN: none */
};

/* A unit for the columns named name (a LABEL, a METRIC[:STAT] as written,
 * or a METRIC): --unit NAME=UNIT. */
struct pdb_table_unit {
	const char *name, *unit;
};

struct pdb_table_spec {
	const char *benchmark;      /* a glob, NULL: any; of those, the one with the dims and metrics */
	const char *rows;           /* "DIM[,DIM]" */
	const char *cols;           /* "[LABEL=]METRIC[:STAT],...,speedup" */
	const struct pdb_table_unit *units;
	size_t nunits;
	struct pdb_dim_filter *dims; /* --dim K=V (NULL: none): series with another value of K
				      * are left out; a K no series of the run has is an error */
	int exact;                  /* only series whose dims are the rows' dims, no more, no fewer
				     * (lib/table_points.c: its tables, one per set of dims) */
};

/* Several runs as one table: run's series added to into's, where no series
 * (benchmark, dims, metric) is in both (runs of one test ingested apart,
 * each with its --dim threads=N); 0, or -1 with err naming the first
 * series in both (PDB_EXIT_USAGE). */
int pdb_table_merge_run(struct pdb_run *into, const struct pdb_run *run, struct pdb_err *err);

/* The one speed-up rule: a series' mean (of its samples: a rate's mean is
 * its rate over the seconds measured; else the tool's mean), as the
 * `:mean` statistic takes it, and v against first as a ratio (first's over
 * v where lower is better), printed by pdb_speedup_text ("1.22x").
 * `table --cols METRIC:mean,speedup` and plot scaling's speed-up (and
 * throughput) are these numbers. */
double pdb_table_mean(const struct pdb_result *r);
double pdb_speedup(double first, double v, int direction);

/* The table of run as spec asks; 0, or -1 with err: an unknown dim, metric or
 * statistic, an incompatible unit, a point with two series of a metric
 * (PDB_EXIT_INPUT); a malformed --cols (PDB_EXIT_USAGE). */
int pdb_table_build(const struct pdb_run *run, const struct pdb_table_spec *spec,
		    struct pdb_table *out, struct pdb_err *err);
/* The tables of one benchmark of run by matrix point, for the report and
 * the site (lib/table_points.c): one per set of dims its series have (a
 * stream's sender has the matrix point's, its stages `stage` too, the
 * processes `sample:` read `process`), in the order of their first series;
 * each with a row per point of those dims (the matrix's first, then `stage`
 * and `process`) and the columns cells says. Tables of fewer than min_rows
 * rows are left out. *out (*n of them) is malloc'ed: release it with
 * pdb_tables_release, also after -1 (err as pdb_table_build). */
enum pdb_table_cells {
	PDB_CELLS_VALUE,  /* a column per metric: its value as compare takes it */
	PDB_CELLS_MEAN,   /* the mean of its samples (`perfdb table --cols METRIC:mean`);
			   * a histogram's p50, p99 and max instead */
};
int pdb_table_by_point(const struct pdb_run *run, const char *benchmark, int cells,
		       size_t min_rows, struct pdb_table **out, size_t *n, struct pdb_err *err);
void pdb_tables_release(struct pdb_table *t, size_t n);
/* The table t with its benchmark, dims and columns set, filled as
 * pdb_table_build fills its own (lib/table_points.c's tables). */
int pdb_table_fill(const struct pdb_run *run, const struct pdb_table_spec *spec,
		   struct pdb_table *t, struct pdb_err *err);
void pdb_table_release(struct pdb_table *t); /* NULL-safe, idempotent */

/* Rendering (lib/table_render.c). */
enum pdb_table_format {
	PDB_TABLE_TEXT, PDB_TABLE_MARKDOWN, PDB_TABLE_CSV, PDB_TABLE_JSON, PDB_TABLE_HTML,
};
/* The cell of row r, column c as people read it ("12.30", "-" for none). Caller frees. */
char *pdb_table_cell(const struct pdb_table *t, size_t r, size_t c);
/* The header of column c ("throughput:mean (MB/s)"). Caller frees. */
char *pdb_table_header(const struct pdb_table *t, size_t c);
/* t in format (not JSON) appended to out: text aligned for a terminal, a
 * GitHub Markdown table, CSV (full precision in each column's unit), an HTML
 * <table>; every string escaped for its target. */
void pdb_table_render(const struct pdb_table *t, int format, struct pdb_buf *out);
/* t as JSON: benchmark, dims, columns (name, metric, stat, unit) and rows
 * (dims' values, values at full precision in the columns' units, null: none). */
json_t *pdb_table_json(const struct pdb_table *t);

#endif
