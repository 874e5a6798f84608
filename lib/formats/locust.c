/* Format: Locust --csv files (_stats, _stats_history, _failures, _exceptions), one run from several. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/format.h"
#include "parse/csv_util.h"
#include "util.h"

enum kind { KIND_STATS, KIND_HISTORY, KIND_FAILURES, KIND_EXCEPTIONS };

/* Header starts that name each file, as Locust 1.x-2.x write them. */
static const struct {
	enum kind kind;
	const char *first, *second, *head;
} kinds[] = {
	{ KIND_STATS, "Type", "Name", "Type,Name,Request Count,Failure Count," },
	{ KIND_HISTORY, "Timestamp", "User Count", "Timestamp,User Count,Type,Name," },
	{ KIND_FAILURES, "Method", "Name", "Method,Name,Error,Occurrences" },
	{ KIND_EXCEPTIONS, "Count", "Message", "Count,Message,Traceback,Nodes" },
};

enum role {
	ROLE_TYPE,       /* request type (method): the dimension "type" */
	ROLE_NAME,       /* request name: the benchmark */
	ROLE_TIME,       /* epoch seconds: time offsets */
	ROLE_DIM,        /* a text that tells series apart (error, message) */
	ROLE_SAMPLE,     /* a value of metric */
	ROLE_STAT,       /* statistic stat of metric */
	ROLE_EXTRA,      /* unknown: a metric when numeric, else an attribute */
};

#define DIR_OF_UNIT 2 /* keep the direction the unit implies */

struct known {
	enum kind kind;
	const char *column;
	enum role role;
	const char *metric, *unit, *stat;
	int direction;
};

static const struct known known[] = {
	{ KIND_STATS, "Type", ROLE_TYPE, NULL, NULL, NULL, 0 },
	{ KIND_STATS, "Name", ROLE_NAME, NULL, NULL, NULL, 0 },
	{ KIND_STATS, "Request Count", ROLE_SAMPLE, "requests", "count", NULL, PDB_DIR_NONE },
	{ KIND_STATS, "Failure Count", ROLE_SAMPLE, "failures", "count", NULL, PDB_DIR_LOWER },
	{ KIND_STATS, "Median Response Time", ROLE_STAT, "response_time", "ms", "median", DIR_OF_UNIT },
	{ KIND_STATS, "Average Response Time", ROLE_STAT, "response_time", "ms", "mean", DIR_OF_UNIT },
	{ KIND_STATS, "Min Response Time", ROLE_STAT, "response_time", "ms", "min", DIR_OF_UNIT },
	{ KIND_STATS, "Max Response Time", ROLE_STAT, "response_time", "ms", "max", DIR_OF_UNIT },
	{ KIND_STATS, "Average Content Size", ROLE_SAMPLE, "content_size", "B", NULL, PDB_DIR_NONE },
	{ KIND_STATS, "Requests/s", ROLE_SAMPLE, "throughput", "req/s", NULL, DIR_OF_UNIT },
	{ KIND_STATS, "Failures/s", ROLE_SAMPLE, "failure_rate", "failures/s", NULL, PDB_DIR_LOWER },
	{ KIND_HISTORY, "Timestamp", ROLE_TIME, NULL, NULL, NULL, 0 },
	{ KIND_HISTORY, "User Count", ROLE_SAMPLE, "users", "count", NULL, PDB_DIR_NONE },
	{ KIND_HISTORY, "Type", ROLE_TYPE, NULL, NULL, NULL, 0 },
	{ KIND_HISTORY, "Name", ROLE_NAME, NULL, NULL, NULL, 0 },
	{ KIND_HISTORY, "Requests/s", ROLE_SAMPLE, "current_rps", "req/s", NULL, DIR_OF_UNIT },
	{ KIND_HISTORY, "Failures/s", ROLE_SAMPLE, "current_failure_rate", "failures/s", NULL, PDB_DIR_LOWER },
	{ KIND_HISTORY, "Total Request Count", ROLE_SAMPLE, "total_requests", "count", NULL, PDB_DIR_NONE },
	{ KIND_HISTORY, "Total Failure Count", ROLE_SAMPLE, "total_failures", "count", NULL, PDB_DIR_LOWER },
	{ KIND_HISTORY, "Total Median Response Time", ROLE_SAMPLE, "total_response_time_median", "ms", NULL, DIR_OF_UNIT },
	{ KIND_HISTORY, "Total Average Response Time", ROLE_SAMPLE, "total_response_time_mean", "ms", NULL, DIR_OF_UNIT },
	{ KIND_HISTORY, "Total Min Response Time", ROLE_SAMPLE, "total_response_time_min", "ms", NULL, DIR_OF_UNIT },
	{ KIND_HISTORY, "Total Max Response Time", ROLE_SAMPLE, "total_response_time_max", "ms", NULL, DIR_OF_UNIT },
	{ KIND_HISTORY, "Total Average Content Size", ROLE_SAMPLE, "total_content_size", "B", NULL, PDB_DIR_NONE },
	{ KIND_FAILURES, "Method", ROLE_TYPE, NULL, NULL, NULL, 0 },
	{ KIND_FAILURES, "Name", ROLE_NAME, NULL, NULL, NULL, 0 },
	{ KIND_FAILURES, "Error", ROLE_DIM, "error", NULL, NULL, 0 },
	{ KIND_FAILURES, "Occurrences", ROLE_SAMPLE, "errors", "count", NULL, PDB_DIR_LOWER },
	{ KIND_EXCEPTIONS, "Count", ROLE_SAMPLE, "exceptions", "count", NULL, PDB_DIR_LOWER },
	{ KIND_EXCEPTIONS, "Message", ROLE_DIM, "message", NULL, NULL, 0 },
	{ KIND_EXCEPTIONS, "Traceback", ROLE_DIM, "traceback", NULL, NULL, 0 },
	{ KIND_EXCEPTIONS, "Nodes", ROLE_DIM, "nodes", NULL, NULL, 0 },
};

struct column {
	enum role role;
	char *name;                  /* header text */
	char *metric;                /* ROLE_SAMPLE, ROLE_STAT; ROLE_DIM: the dimension */
	const char *unit, *stat;
	char *stat_buf;              /* owned stat name for percentiles */
	int direction;
};

struct reader {
	struct pdb_run *run;
	enum kind kind;
	struct column *cols;
	size_t ncols;
	int name_col, type_col, time_col;
	int64_t t0;
	int have_t0;
};

static int detect(const struct pdb_source *src)
{
	const char *head = (const char *)src->head;

	for (size_t i = 0; head && i < sizeof kinds / sizeof kinds[0]; i++)
		if (strncmp(head, kinds[i].head, strlen(kinds[i].head)) == 0)
			return 80;
	return 0;
}

/* "99.9%" -> "p99.9"; NULL when col is not a percentile column. */
static char *percentile(const char *col)
{
	size_t n = strlen(col);
	double p;
	char *num, *out = NULL;

	if (n < 2 || col[n - 1] != '%')
		return NULL;
	num = pdb_xstrndup(col, n - 1);
	if (pdb_parse_double(num, &p) == 0 && p >= 0 && p <= 100)
		out = pdb_xasprintf("p%s", num);
	free(num);
	return out;
}

static void classify(struct reader *rd, struct column *c, const char *name)
{
	char *p;

	c->name = pdb_xstrdup(name);
	c->role = ROLE_EXTRA;
	c->direction = DIR_OF_UNIT;
	for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
		if (known[k].kind != rd->kind || strcmp(known[k].column, name) != 0)
			continue;
		c->role = known[k].role;
		c->metric = pdb_xstrdup(known[k].metric);
		c->unit = known[k].unit;
		c->stat = known[k].stat;
		c->direction = known[k].direction;
		return;
	}
	if ((rd->kind == KIND_STATS || rd->kind == KIND_HISTORY) && (p = percentile(name))) {
		c->unit = "ms";
		if (rd->kind == KIND_STATS) {
			c->role = ROLE_STAT;
			c->metric = pdb_xstrdup("response_time");
			c->stat = c->stat_buf = p;
		} else {
			c->role = ROLE_SAMPLE;
			c->metric = pdb_xasprintf("response_time_%s", p);
			free(p);
		}
	}
}

static int read_header(struct reader *rd, struct pdb_csv *csv, char **fields,
		       size_t nfields, struct pdb_err *err)
{
	size_t k;

	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		if (nfields >= 2 && strcmp(fields[0], kinds[k].first) == 0 &&
		    strcmp(fields[1], kinds[k].second) == 0)
			break;
	if (k == sizeof kinds / sizeof kinds[0])
		return pdb_csv_bad(csv, err, 0, "not a Locust CSV file: expected a header "
				   "such as Type,Name,Request Count,... or Timestamp,User Count,...");
	if (pdb_csv_unique_names(csv, fields, nfields, err) < 0)
		return -1;
	rd->kind = kinds[k].kind;
	rd->cols = pdb_xcalloc(nfields, sizeof *rd->cols);
	rd->ncols = nfields;
	rd->name_col = rd->type_col = rd->time_col = -1;
	for (size_t i = 0; i < nfields; i++) {
		classify(rd, &rd->cols[i], fields[i]);
		if (rd->cols[i].role == ROLE_NAME)
			rd->name_col = (int)i;
		else if (rd->cols[i].role == ROLE_TYPE)
			rd->type_col = (int)i;
		else if (rd->cols[i].role == ROLE_TIME)
			rd->time_col = (int)i;
	}
	if (rd->kind == KIND_HISTORY && rd->time_col < 0)
		return pdb_csv_bad(csv, err, 0, "no Timestamp column");
	if (rd->kind != KIND_EXCEPTIONS && rd->name_col < 0)
		return pdb_csv_bad(csv, err, 0, "no Name column");
	return 0;
}

static void set_start_time(struct pdb_run *run, int64_t epoch)
{
	time_t t = (time_t)epoch;
	struct tm tm;
	char text[32];

	if (gmtime_r(&t, &tm) && strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm))
		pdb_run_set_attr(run, "start_time", text);
}

/* The time offset of this row (history files), into sample. */
static int row_time(struct reader *rd, struct pdb_csv *csv, char **fields,
		    struct pdb_sample *sample, struct pdb_err *err)
{
	int64_t ts;

	if (rd->time_col < 0)
		return 0;
	if (pdb_parse_int64(fields[rd->time_col], 0, INT64_MAX / 2, &ts) < 0)
		return pdb_csv_bad(csv, err, (size_t)rd->time_col,
				   "expected a time in epoch seconds, found '%s'",
				   fields[rd->time_col]);
	if (!rd->have_t0) {
		rd->t0 = ts;
		rd->have_t0 = 1;
		set_start_time(rd->run, ts);
	}
	sample->t = (double)(ts - rd->t0);
	return 0;
}

static struct pdb_result *result_of(struct reader *rd, const char *bench,
				    const struct pdb_attr *dims, size_t ndims,
				    const struct column *c, const char *metric,
				    const char *unit)
{
	struct pdb_result *r = pdb_run_result_with_dims(rd->run, bench, dims, ndims,
							metric, unit);

	if (c->direction != DIR_OF_UNIT)
		r->direction = c->direction;
	if (c->role == ROLE_SAMPLE && strcmp(metric, c->name) != 0 && !r->raw_name)
		pdb_set_str(&r->raw_name, c->name);
	return r;
}

static int read_row(struct reader *rd, struct pdb_csv *csv, char **fields,
		    size_t nfields, struct pdb_err *err)
{
	struct pdb_attr dims[4], *text_cols;
	struct pdb_sample s = PDB_SAMPLE(NAN);
	const char *bench;
	size_t ndims = 0, ntext = 0;
	int ret = -1;

	if (nfields != rd->ncols)
		return pdb_csv_bad(csv, err, nfields < rd->ncols ? nfields - 1 : rd->ncols,
				   "expected %zu fields as in the header, found %zu",
				   rd->ncols, nfields);
	/* exceptions belong to no request: they get a benchmark of their own */
	bench = rd->name_col >= 0 ? fields[rd->name_col] : "exceptions";
	if (!*bench)
		return pdb_csv_bad(csv, err, (size_t)rd->name_col, "empty request name");
	if (row_time(rd, csv, fields, &s, err) < 0)
		return -1;
	if (rd->type_col >= 0 && *fields[rd->type_col])
		dims[ndims++] = (struct pdb_attr){ "type", fields[rd->type_col] };
	for (size_t i = 0; i < nfields && ndims < 4; i++)
		if (rd->cols[i].role == ROLE_DIM)
			dims[ndims++] = (struct pdb_attr){ rd->cols[i].metric, fields[i] };
	text_cols = pdb_xcalloc(nfields, sizeof *text_cols);
	for (size_t i = 0; i < nfields; i++) {
		const struct column *c = &rd->cols[i];
		struct pdb_result *r;
		const char *text = fields[i];
		double v;

		/* roles before ROLE_SAMPLE name the series; N/A and "" are missing */
		if (c->role < ROLE_SAMPLE || !*text || strcmp(text, "N/A") == 0)
			continue; /* missing stays absent */
		if (pdb_parse_double(text, &v) < 0) {
			if (c->role != ROLE_EXTRA) {
				pdb_csv_bad(csv, err, i, "expected a number in column '%s', found '%s'",
					    c->name, text);
				goto out;
			}
			text_cols[ntext].key = pdb_xasprintf("%s.%s", bench, c->name);
			text_cols[ntext++].value = (char *)text;
			continue;
		}
		if (c->role == ROLE_STAT) {
			r = result_of(rd, bench, dims, ndims, c, c->metric, c->unit);
			pdb_result_set_stat_raw(r, c->stat, v);
			continue;
		}
		r = result_of(rd, bench, dims, ndims, c, c->role == ROLE_EXTRA ? c->name : c->metric,
			      c->unit);
		s.value = pdb_result_canonical(r, v);
		pdb_result_add_sample(r, &s);
	}
	pdb_run_set_attrs(rd->run, text_cols, ntext); /* one merge, not a shift a column */
	ret = 0;
out:
	for (size_t i = 0; i < ntext; i++)
		free(text_cols[i].key);
	free(text_cols);
	return ret;
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
		free(rd.cols[i].metric);
		free(rd.cols[i].stat_buf);
	}
	free(rd.cols);
	if (ret == 0)
		pdb_set_str(&run->tool, "locust");
	return ret;
}

const struct pdb_format pdb_format_locust = {
	.name = "locust",
	.summary = "Locust --csv: PREFIX_stats.csv, _stats_history.csv, _failures.csv, _exceptions.csv",
	.detect = detect,
	.parse = parse,
};
