/* Format: redis-benchmark --csv ("test","rps" and, since Redis 7, latency columns in ms). */
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "parse/csv_util.h"
#include "util.h"

#define SIGNATURE "\"test\",\"rps\""
#define LATENCY_SUFFIX "_latency_ms"

enum column_kind {
	COL_TEST,     /* the benchmark name */
	COL_RPS,      /* throughput sample */
	COL_LATENCY,  /* a latency statistic in ms */
	COL_EXTRA,    /* unknown: a metric when numeric, else an attribute */
};

struct column {
	enum column_kind kind;
	char *name;   /* header text */
	char *stat;   /* COL_LATENCY: statistic name (mean, min, p50, ...) */
};

struct reader {
	struct pdb_run *run;
	struct column *cols;
	size_t ncols;
};

static int detect(const struct pdb_source *src)
{
	return src->head && strncmp((const char *)src->head, SIGNATURE, strlen(SIGNATURE)) == 0
		? 80 : 0;
}

/* "avg_latency_ms" -> "mean", "p50_latency_ms" -> "p50". */
static char *latency_stat(const char *col)
{
	size_t n = strlen(col) - strlen(LATENCY_SUFFIX);

	if (n == 3 && strncmp(col, "avg", 3) == 0)
		return pdb_xstrdup("mean");
	return pdb_xstrndup(col, n);
}

static int is_latency(const char *col)
{
	size_t n = strlen(col), k = strlen(LATENCY_SUFFIX);

	return n > k && strcmp(col + n - k, LATENCY_SUFFIX) == 0;
}

static int read_header(struct reader *rd, struct pdb_csv *csv, char **fields,
		       size_t nfields, struct pdb_err *err)
{
	if (nfields < 2 || strcmp(fields[0], "test") != 0 || strcmp(fields[1], "rps") != 0)
		return pdb_csv_bad(csv, err, 0,
				   "not a redis-benchmark CSV: expected the header \"test\",\"rps\",...");
	if (pdb_csv_unique_names(csv, fields, nfields, err) < 0)
		return -1;
	rd->cols = pdb_xcalloc(nfields, sizeof *rd->cols);
	rd->ncols = nfields;
	for (size_t i = 0; i < nfields; i++) {
		struct column *c = &rd->cols[i];
		c->name = pdb_xstrdup(fields[i]);
		if (i == 0)
			c->kind = COL_TEST;
		else if (i == 1)
			c->kind = COL_RPS;
		else if (is_latency(fields[i])) {
			c->kind = COL_LATENCY;
			c->stat = latency_stat(fields[i]);
		} else
			c->kind = COL_EXTRA;
	}
	return 0;
}

static int number(struct pdb_csv *csv, struct pdb_err *err, const struct column *c,
		  size_t i, const char *text, double *out)
{
	if (pdb_parse_double(text, out) < 0)
		return pdb_csv_bad(csv, err, i, "expected a number in column '%s', found '%s'",
				   c->name, text);
	return 0;
}

static int read_row(struct reader *rd, struct pdb_csv *csv, char **fields,
		    size_t nfields, struct pdb_err *err)
{
	const char *test = fields[0];
	struct pdb_result *r;
	double v;

	if (nfields != rd->ncols)
		return pdb_csv_bad(csv, err, nfields < rd->ncols ? nfields - 1 : rd->ncols,
				   "expected %zu fields as in the header, found %zu",
				   rd->ncols, nfields);
	if (!*test)
		return pdb_csv_bad(csv, err, 0, "empty test name");
	for (size_t i = 1; i < nfields; i++) {
		const struct column *c = &rd->cols[i];
		if (!*fields[i])
			continue; /* missing stays absent */
		if (c->kind == COL_EXTRA && pdb_parse_double(fields[i], &v) < 0) {
			char *key = pdb_xasprintf("%s.%s", test, c->name);
			pdb_run_set_attr(rd->run, key, fields[i]);
			free(key);
			continue;
		}
		if (number(csv, err, c, i, fields[i], &v) < 0)
			return -1;
		switch (c->kind) {
		case COL_RPS:
			r = pdb_run_add_result(rd->run, test, "throughput", "rps");
			pdb_set_str(&r->raw_name, c->name);
			pdb_result_add_raw(r, v);
			break;
		case COL_LATENCY:
			r = pdb_run_add_result(rd->run, test, "latency", "ms");
			pdb_result_set_stat_raw(r, c->stat, v);
			break;
		default:
			r = pdb_run_add_result(rd->run, test, c->name, NULL);
			pdb_result_add_raw(r, v);
			break;
		}
	}
	return 0;
}

static int on_row(void *ctx, struct pdb_csv *csv, char **fields, size_t nfields,
		  struct pdb_err *err)
{
	struct reader *rd = ctx;

	if (pdb_csv_row(csv) == 1)
		return read_header(rd, csv, fields, nfields, err);
	return read_row(rd, csv, fields, nfields, err);
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct reader rd = { .run = run };
	int ret;

	ret = pdb_csv_read(src, ',', on_row, &rd, err);
	for (size_t i = 0; i < rd.ncols; i++) {
		free(rd.cols[i].name);
		free(rd.cols[i].stat);
	}
	free(rd.cols);
	if (ret == 0)
		pdb_set_str(&run->tool, "redis-benchmark");
	return ret;
}

const struct pdb_format pdb_format_redis_benchmark = {
	.name = "redis-benchmark",
	.summary = "redis-benchmark --csv: requests/s and latency statistics per test",
	.detect = detect,
	.parse = parse,
};
