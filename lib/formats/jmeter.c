/* Format: JMeter JTL results saved as CSV (one row per sample), streamed row by row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/format.h"
#include "parse/csv_util.h"
#include "util.h"

enum role {
	ROLE_TIME,    /* timeStamp: epoch milliseconds */
	ROLE_LABEL,   /* label: the benchmark */
	ROLE_SUCCESS, /* success: "false" counts as an error */
	ROLE_SAMPLE,  /* a value per request, with its time offset */
	ROLE_SUM,     /* summed per label */
	ROLE_MAX,     /* largest per label */
	ROLE_DROP,    /* per-request text perfdb has no place for */
	ROLE_UNKNOWN, /* not seen a value yet: becomes ROLE_SAMPLE or ROLE_TEXT */
	ROLE_TEXT,    /* unknown text: a run attribute when the same on every row */
};

static const struct {
	const char *column;
	enum role role;
	const char *metric, *unit;
	int direction;
} known[] = {
	{ "timeStamp", ROLE_TIME, NULL, NULL, 0 },
	{ "label", ROLE_LABEL, NULL, NULL, 0 },
	{ "success", ROLE_SUCCESS, NULL, NULL, 0 },
	{ "elapsed", ROLE_SAMPLE, "elapsed", "ms", PDB_DIR_LOWER },
	{ "Latency", ROLE_SAMPLE, "latency", "ms", PDB_DIR_LOWER },
	{ "Connect", ROLE_SAMPLE, "connect", "ms", PDB_DIR_LOWER },
	{ "bytes", ROLE_SUM, "bytes", "B", PDB_DIR_NONE },
	{ "sentBytes", ROLE_SUM, "sent_bytes", "B", PDB_DIR_NONE },
	{ "IdleTime", ROLE_SUM, "idle_time", "ms", PDB_DIR_NONE },
	{ "grpThreads", ROLE_MAX, "group_threads", "count", PDB_DIR_NONE },
	{ "allThreads", ROLE_MAX, "all_threads", "count", PDB_DIR_NONE },
	{ "responseCode", ROLE_DROP, NULL, NULL, 0 },
	{ "responseMessage", ROLE_DROP, NULL, NULL, 0 },
	{ "threadName", ROLE_DROP, NULL, NULL, 0 },
	{ "dataType", ROLE_DROP, NULL, NULL, 0 },
	{ "failureMessage", ROLE_DROP, NULL, NULL, 0 },
	{ "URL", ROLE_DROP, NULL, NULL, 0 },
};

struct column {
	enum role role;
	const char *name, *metric, *unit;  /* name points into names */
	int direction;
	char *text;          /* ROLE_TEXT: the value of every row so far */
	int varies;          /* ROLE_TEXT: rows differ */
};

/* What one label has gathered; arrays are indexed by column. */
struct label {
	char *name;
	size_t *res;         /* ROLE_SAMPLE: result index + 1, 0 before the first value */
	size_t *first;       /* ROLE_SAMPLE: index of this file's first sample there */
	double *acc;         /* ROLE_SUM, ROLE_MAX */
	unsigned char *has;  /* a value was seen */
	int64_t errors;
};

struct reader {
	struct pdb_run *run;
	char **names;
	struct column *cols;
	size_t ncols;
	int time_col, label_col, success_col;
	struct label *labels;
	size_t nlabels, caplabels;
	size_t *slots;       /* open addressing over labels: index + 1 */
	size_t nslots;
	int64_t t0, tmin;
};

static const char *first_line_end(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl ? nl : s + strlen(s);
}

/* Does the first line of the head hold the column name exactly? */
static int head_has_column(const char *head, char delim, const char *name)
{
	const char *end = first_line_end(head), *p = head;
	size_t n = strlen(name);

	while (p < end) {
		const char *q = memchr(p, delim, (size_t)(end - p));
		const char *stop = q ? q : end;
		if (stop > p && stop[-1] == '\r')
			stop--;
		if ((size_t)(stop - p) == n && memcmp(p, name, n) == 0)
			return 1;
		p = q ? q + 1 : end;
	}
	return 0;
}

static int detect(const struct pdb_source *src)
{
	const char *head = (const char *)src->head;
	char delim = pdb_csv_sniff(src);

	if (!head)
		return 0;
	if (head_has_column(head, delim, "timeStamp") && head_has_column(head, delim, "elapsed") &&
	    head_has_column(head, delim, "label"))
		return 80;
	return 0;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static size_t *label_slot(struct reader *rd, const char *name)
{
	size_t i = (size_t)hash_str(name) & (rd->nslots - 1);

	while (rd->slots[i] && strcmp(rd->labels[rd->slots[i] - 1].name, name) != 0)
		i = (i + 1) & (rd->nslots - 1);
	return &rd->slots[i];
}

static void rehash(struct reader *rd)
{
	free(rd->slots);
	rd->nslots = rd->nslots ? rd->nslots * 2 : 64;
	rd->slots = pdb_xcalloc(rd->nslots, sizeof *rd->slots);
	for (size_t i = 0; i < rd->nlabels; i++)
		*label_slot(rd, rd->labels[i].name) = i + 1;
}

static struct label *label_get(struct reader *rd, const char *name)
{
	size_t *slot;
	struct label *l;

	if ((rd->nlabels + 1) * 2 > rd->nslots)
		rehash(rd);
	slot = label_slot(rd, name);
	if (*slot)
		return &rd->labels[*slot - 1];
	pdb_grow((void **)&rd->labels, &rd->caplabels, rd->nlabels + 1, sizeof *rd->labels);
	l = &rd->labels[rd->nlabels++];
	*slot = rd->nlabels;
	l->name = pdb_xstrdup(name);
	l->res = pdb_xcalloc(rd->ncols, sizeof *l->res);
	l->first = pdb_xcalloc(rd->ncols, sizeof *l->first);
	l->acc = pdb_xcalloc(rd->ncols, sizeof *l->acc);
	l->has = pdb_xcalloc(rd->ncols, 1);
	l->errors = 0;
	return l;
}

static int read_header(struct reader *rd, struct pdb_csv *csv, char **fields,
		       size_t nfields, struct pdb_err *err)
{
	if (pdb_csv_unique_names(csv, fields, nfields, err) < 0)
		return -1;
	rd->cols = pdb_xcalloc(nfields, sizeof *rd->cols);
	rd->names = pdb_xcalloc(nfields, sizeof *rd->names);
	rd->ncols = nfields;
	rd->time_col = rd->label_col = rd->success_col = -1;
	for (size_t i = 0; i < nfields; i++) {
		struct column *c = &rd->cols[i];
		rd->names[i] = pdb_xstrdup(fields[i]);
		c->name = c->metric = rd->names[i];
		c->role = ROLE_UNKNOWN;
		c->direction = PDB_DIR_NONE;
		for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
			if (strcmp(known[k].column, fields[i]) == 0) {
				c->role = known[k].role;
				c->metric = known[k].metric;
				c->unit = known[k].unit;
				c->direction = known[k].direction;
			}
		if (c->role == ROLE_TIME)
			rd->time_col = (int)i;
		else if (c->role == ROLE_LABEL)
			rd->label_col = (int)i;
		else if (c->role == ROLE_SUCCESS)
			rd->success_col = (int)i;
	}
	if (rd->time_col < 0 || rd->label_col < 0)
		return pdb_csv_bad(csv, err, 0, "not a JMeter CSV results file: the header needs "
				   "timeStamp, elapsed and label columns");
	return 0;
}

static int bad_number(struct pdb_csv *csv, struct pdb_err *err, size_t i,
		      const struct column *c, const char *text)
{
	return pdb_csv_bad(csv, err, i, "expected a number in column '%s', found '%s'",
			   c->name, text);
}

static void add_sample(struct reader *rd, struct label *l, size_t i, double v, double t)
{
	const struct column *c = &rd->cols[i];
	struct pdb_result *r;
	struct pdb_sample s = PDB_SAMPLE(NAN);

	s.t = t;

	if (!l->res[i]) {
		r = pdb_run_add_result(rd->run, l->name, c->metric, c->unit);
		r->direction = c->direction;
		if (strcmp(c->metric, c->name) != 0)
			pdb_set_str(&r->raw_name, c->name);
		l->res[i] = (size_t)(r - rd->run->results) + 1;
		l->first[i] = r->nsamples;
	}
	r = &rd->run->results[l->res[i] - 1];
	s.value = pdb_result_canonical(r, v);
	pdb_result_add_sample(r, &s);
}

/* An unknown column's first value decides: numeric or text. */
static void settle(struct column *c, const char *text)
{
	double v;

	c->role = pdb_parse_double(text, &v) == 0 ? ROLE_SAMPLE : ROLE_TEXT;
	if (c->role == ROLE_TEXT)
		c->text = pdb_xstrdup(text);
}

static int read_cell(struct reader *rd, struct pdb_csv *csv, struct label *l, size_t i,
		     const char *text, double t, struct pdb_err *err)
{
	struct column *c = &rd->cols[i];
	double v;

	if (c->role == ROLE_UNKNOWN)
		settle(c, text);
	switch (c->role) {
	case ROLE_SUCCESS:
		if (strcmp(text, "false") == 0)
			l->errors++;
		else if (strcmp(text, "true") != 0)
			return pdb_csv_bad(csv, err, i, "expected true or false in column 'success', found '%s'",
					   text);
		l->has[i] = 1;
		return 0;
	case ROLE_TEXT:
		if (strcmp(c->text, text) != 0)
			c->varies = 1;
		return 0;
	case ROLE_SAMPLE:
	case ROLE_SUM:
	case ROLE_MAX:
		break;
	default:
		return 0;
	}
	if (pdb_parse_double(text, &v) < 0)
		return bad_number(csv, err, i, c, text);
	if (c->role == ROLE_SAMPLE)
		add_sample(rd, l, i, v, t);
	else if (c->role == ROLE_SUM)
		l->acc[i] += v;
	else if (!l->has[i] || v > l->acc[i])
		l->acc[i] = v;
	l->has[i] = 1;
	return 0;
}

static int read_row(struct reader *rd, struct pdb_csv *csv, char **fields,
		    size_t nfields, struct pdb_err *err)
{
	const char *ts_text = fields[rd->time_col];
	struct label *l;
	int64_t ts;

	if (nfields != rd->ncols)
		return pdb_csv_bad(csv, err, nfields < rd->ncols ? nfields - 1 : rd->ncols,
				   "expected %zu fields as in the header, found %zu",
				   rd->ncols, nfields);
	if (pdb_parse_int64(ts_text, 0, INT64_MAX / 2, &ts) < 0)
		return pdb_csv_bad(csv, err, (size_t)rd->time_col,
				   "expected a time in epoch milliseconds in column 'timeStamp', found '%s'",
				   ts_text);
	if (pdb_csv_row(csv) == 2)
		rd->t0 = rd->tmin = ts;
	else if (ts < rd->tmin)
		rd->tmin = ts;
	if (!*fields[rd->label_col])
		return pdb_csv_bad(csv, err, (size_t)rd->label_col, "empty label");
	l = label_get(rd, fields[rd->label_col]);
	for (size_t i = 0; i < nfields; i++)
		if (*fields[i] && read_cell(rd, csv, l, i, fields[i],
					    (double)(ts - rd->t0) / 1000.0, err) < 0)
			return -1;
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

static void add_aggregate(struct pdb_run *run, const char *bench, const char *metric,
			  const char *raw_name, const char *unit, int direction, double v)
{
	struct pdb_result *r = pdb_run_add_result(run, bench, metric, unit);

	r->direction = direction;
	if (raw_name && strcmp(raw_name, metric) != 0)
		pdb_set_str(&r->raw_name, raw_name);
	pdb_result_add_raw(r, v);
}

static void set_start_time(struct pdb_run *run, int64_t ms)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	char text[32], full[48];

	if (!gmtime_r(&t, &tm) || !strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm))
		return;
	snprintf(full, sizeof full, "%s.%03dZ", text, (int)(ms % 1000));
	pdb_run_set_attr(run, "start_time", full);
}

/* Time offsets count from the earliest sample; aggregates become series. */
static void finish(struct reader *rd)
{
	double shift = (double)(rd->t0 - rd->tmin) / 1000.0;
	struct pdb_attr *same;
	size_t nsame = 0;

	for (size_t k = 0; k < rd->nlabels; k++) {
		struct label *l = &rd->labels[k];
		for (size_t i = 0; i < rd->ncols; i++) {
			const struct column *c = &rd->cols[i];
			if (c->role == ROLE_SAMPLE && l->res[i] && shift > 0) {
				struct pdb_result *r = &rd->run->results[l->res[i] - 1];
				for (size_t j = l->first[i]; j < r->nsamples; j++)
					r->samples[j].t += shift;
			} else if ((c->role == ROLE_SUM || c->role == ROLE_MAX) && l->has[i])
				add_aggregate(rd->run, l->name, c->metric, c->name, c->unit,
					      c->direction, l->acc[i]);
			else if (c->role == ROLE_SUCCESS && l->has[i])
				add_aggregate(rd->run, l->name, "errors", NULL, "count",
					      PDB_DIR_LOWER, (double)l->errors);
		}
	}
	same = pdb_xcalloc(rd->ncols + 1, sizeof *same);
	for (size_t i = 0; i < rd->ncols; i++)
		if (rd->cols[i].role == ROLE_TEXT && !rd->cols[i].varies)
			same[nsame++] = (struct pdb_attr){ (char *)rd->cols[i].name, rd->cols[i].text };
	pdb_run_set_attrs(rd->run, same, nsame); /* one merge, not a shift a column */
	free(same);
	if (rd->nlabels)
		set_start_time(rd->run, rd->tmin);
}

static void reader_release(struct reader *rd)
{
	for (size_t k = 0; k < rd->nlabels; k++) {
		free(rd->labels[k].name);
		free(rd->labels[k].res);
		free(rd->labels[k].first);
		free(rd->labels[k].acc);
		free(rd->labels[k].has);
	}
	free(rd->labels);
	free(rd->slots);
	for (size_t i = 0; i < rd->ncols; i++) {
		free(rd->names[i]);
		free(rd->cols[i].text);
	}
	free(rd->names);
	free(rd->cols);
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct reader rd = { .run = run };
	int ret;

	if (src->head && src->head[0] == '<')
		return pdb_err_at(err, PDB_EXIT_INPUT, src->name, 1, 1,
				  "JMeter XML results are not supported: save them as CSV "
				  "(jmeter.save.saveservice.output_format=csv)");
	ret = pdb_csv_read(src, pdb_csv_sniff(src), on_row, &rd, err);
	if (ret == 0) {
		finish(&rd);
		pdb_set_str(&run->tool, "jmeter");
	}
	reader_release(&rd);
	return ret;
}

const struct pdb_format pdb_format_jmeter = {
	.name = "jmeter",
	.summary = "JMeter JTL results as CSV: every sample's elapsed, latency and connect time per label",
	.detect = detect,
	.parse = parse,
};
