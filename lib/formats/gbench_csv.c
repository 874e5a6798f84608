/* Format: Google Benchmark --benchmark_out_format=csv (console preamble, then one row per run). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/attrs_util.h"
#include "formats/format.h"
#include "parse/csv_util.h"
#include "util.h"

#define HEADER "name,iterations,real_time,cpu_time,time_unit"

/* Fixed columns of the header; user counters follow error_message. */
enum { COL_NAME, COL_ITER, COL_REAL, COL_CPU, COL_UNIT, NFIXED = 10 };

static const char *const fixed[NFIXED] = {
	"name", "iterations", "real_time", "cpu_time", "time_unit",
	"bytes_per_second", "items_per_second", "label", "error_occurred", "error_message",
};

/* Aggregates Google Benchmark appends to a name with repetitions. */
static const char *const aggregates[] = { "mean", "median", "stddev", "cv", NULL };

struct state {
	struct pdb_run *run;
	char **header;
	size_t ncols;
	struct pdb_buf caches, notes;
	int in_caches;
	char *fit_bench, *big_o;/* the last _BigO row: its _RMS row follows */
};

static int detect(const struct pdb_source *src)
{
	const char *h = (const char *)src->head;

	if (!h)
		return 0;
	return strncmp(h, HEADER, strlen(HEADER)) == 0 || strstr(h, "\n" HEADER) ? 95 : 0;
}

static char *trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

static void append(struct pdb_buf *b, const char *sep, const char *text)
{
	pdb_buf_printf(b, "%s%s", b->len ? sep : "", text);
}

/* The console context printed before the header (date, host CPUs, caches,
 * load average, warnings): kept as run attributes. */
static void preamble(struct state *st, char **fields, size_t n)
{
	struct pdb_buf line;
	char *text, *colon;
	int ncpus;
	double mhz;

	pdb_buf_init(&line);
	for (size_t i = 0; i < n; i++)
		pdb_buf_printf(&line, "%s%s", i ? "," : "", fields[i]);
	text = trim(line.data);
	if (st->in_caches && text[0] == 'L' && isdigit((unsigned char)text[1])) {
		append(&st->caches, ", ", text);
		goto out;
	}
	st->in_caches = 0;
	if (strncmp(text, "Running ", 8) == 0) {
		pdb_run_set_attr(st->run, "executable", text + 8);
	} else if (sscanf(text, "Run on (%d X %lf MHz CPU", &ncpus, &mhz) == 2) {
		char buf[32];
		snprintf(buf, sizeof buf, "%d", ncpus);
		pdb_run_set_attr(st->run, "num_cpus", buf);
		pdb_run_set_attr(st->run, "vcpus", buf);
		pdb_fmt_double(mhz, buf);
		pdb_run_set_attr(st->run, "mhz_per_cpu", buf);
	} else if (strcmp(text, "CPU Caches:") == 0) {
		st->in_caches = 1;
	} else if (strncmp(text, "Load Average:", 13) == 0) {
		struct pdb_buf avg;
		pdb_buf_init(&avg);
		pdb_buf_puts(&avg, "");
		for (char *p = text + 13; *p; p++)
			if (!isspace((unsigned char)*p))
				pdb_buf_add(&avg, p, 1);
		pdb_run_set_attr(st->run, "load_avg", avg.data);
		pdb_buf_release(&avg);
	} else if (!pdb_run_get_attr(st->run, "date") && isdigit((unsigned char)text[0])) {
		pdb_run_set_attr(st->run, "date", text);
	} else if ((colon = strstr(text, ": ")) && !memchr(text, ' ', (size_t)(colon - text))) {
		*colon = '\0';
		pdb_run_set_attr(st->run, text, trim(colon + 2));
	} else if (*text) {
		append(&st->notes, "; ", text);
	}
out:
	pdb_buf_release(&line);
}

static int header(struct state *st, struct pdb_csv *csv, char **fields, size_t n,
		  struct pdb_err *err)
{
	if (pdb_csv_unique_names(csv, fields, n, err) < 0)
		return -1;
	for (size_t i = 0; i < NFIXED; i++)
		if (i >= n || strcmp(fields[i], fixed[i]) != 0)
			return pdb_csv_bad(csv, err, i < n ? i : n - 1,
					   "expected column '%s' in the header", fixed[i]);
	st->header = pdb_xcalloc(n, sizeof *st->header);
	for (size_t i = 0; i < n; i++)
		st->header[i] = pdb_xstrdup(fields[i]);
	st->ncols = n;
	return 0;
}

/* Column col of the row as a number: 1, 0 when empty, -1 on an error. */
static int num(struct pdb_csv *csv, char **fields, size_t col, const struct state *st,
	       double *out, struct pdb_err *err)
{
	if (fields[col][0] == '\0')
		return 0;
	if (pdb_parse_double(fields[col], out) < 0)
		return pdb_csv_bad(csv, err, col, "%s: expected a number, found '%s'",
				   st->header[col], fields[col]);
	return 1;
}

/* The aggregate a name ends with ("_mean", ...), or NULL; *len is the
 * length of the benchmark name before it. */
static const char *suffix(const char *name, const char *const *list, size_t *len)
{
	size_t n = strlen(name);

	for (size_t i = 0; list[i]; i++) {
		size_t k = strlen(list[i]);
		if (n > k + 1 && name[n - k - 1] == '_' && strcmp(name + n - k, list[i]) == 0) {
			*len = n - k - 1;
			return list[i];
		}
	}
	return NULL;
}

static const char *counter_unit(const char *key)
{
	if (strcmp(key, "items_per_second") == 0)
		return "items/s";
	if (strcmp(key, "bytes_per_second") == 0)
		return "B/s";
	return "count";
}

/* _BigO: coefficients with the complexity as a dimension; the row names no
 * unit (its time_unit column holds the complexity) and 1.7.1 writes them in
 * ns whatever the family's unit (its JSON says so). _RMS: the normalised
 * RMS of each fit, a ratio. */
static int complexity(struct state *st, struct pdb_csv *csv, char **fields,
		      const char *bench, int is_bigo, struct pdb_err *err)
{
	static const char *const metric[2][2] = {
		{ "real_time_rms", "cpu_time_rms" },
		{ "real_time_coefficient", "cpu_time_coefficient" },
	};
	struct pdb_attr dim = { "big_o", NULL };
	size_t ndims = 0;
	double x;
	int got;

	if (is_bigo) {
		free(st->fit_bench);
		free(st->big_o);
		st->fit_bench = pdb_xstrdup(bench);
		st->big_o = pdb_xstrdup(fields[COL_UNIT]);
	}
	if (st->fit_bench && strcmp(st->fit_bench, bench) == 0) {
		dim.value = st->big_o;
		ndims = 1;
	}
	for (size_t c = COL_REAL; c <= COL_CPU; c++) {
		struct pdb_result *r;
		if ((got = num(csv, fields, c, st, &x, err)) < 0)
			return -1;
		if (!got)
			continue;
		r = pdb_run_result_with_dims(st->run, bench, &dim, ndims,
					     metric[is_bigo != 0][c - COL_REAL],
					     is_bigo ? "ns" : "ratio");
		pdb_result_add_raw(r, x);
	}
	return 0;
}

/* A user-defined statistic (ComputeStatistics("max", ...)): NAME_STAT where NAME
 * is a benchmark whose repetitions came before (the CSV says no more than that).
 * The statistic's name, or NULL; *len is NAME's length. */
static const char *user_statistic(const struct pdb_run *run, const char *name, size_t *len)
{
	const char *us = strrchr(name, '_');

	if (!us || us == name || !us[1] || strchr(us, '/'))
		return NULL;
	for (size_t i = run->nresults; i-- > 0;) {
		const char *b = run->results[i].benchmark;
		if (strlen(b) == (size_t)(us - name) && strncmp(b, name, (size_t)(us - name)) == 0) {
			*len = (size_t)(us - name);
			return us + 1;
		}
	}
	return NULL;
}

static int data_row(struct state *st, struct pdb_csv *csv, char **fields,
		    struct pdb_err *err)
{
	const char *stat = NULL, *name = fields[COL_NAME];
	char *bench;
	size_t len = strlen(name);
	double x;
	int got, ret = -1;

	if (suffix(name, (const char *const[]){ "BigO", NULL }, &len) ||
	    suffix(name, (const char *const[]){ "RMS", NULL }, &len)) {
		bench = pdb_xstrndup(name, len);
		ret = complexity(st, csv, fields, bench, name[len + 1] == 'B', err);
		free(bench);
		return ret;
	}
	stat = suffix(name, aggregates, &len);
	if (!stat)
		stat = user_statistic(st->run, name, &len);
	bench = pdb_xstrndup(name, len);
	if (fields[7][0])
		pdb_attr_set_bench(st->run, "label", bench, fields[7]);
	if (strcmp(fields[8], "true") == 0) {
		pdb_attr_set_bench(st->run, "error_message", bench, fields[9]);
		pdb_run_add_failure(st->run, bench, NULL, 0,
				    fields[9][0] ? fields[9] : "the benchmark reported an error");
		ret = 0;
		goto out;
	}
	for (size_t c = COL_ITER; c < st->ncols; c++) {
		const char *metric = st->header[c], *unit = counter_unit(metric);
		struct pdb_result *r;
		if (c == COL_UNIT || (c >= 7 && c < NFIXED))
			continue;
		if (c == COL_ITER && stat)
			continue;
		/* 1.7.1 writes the cv of the times scaled (cv * 1e9 / repetitions):
		 * the cv is the stddev over the mean of the rows before it, as the
		 * JSON gives it */
		if (c <= COL_CPU && stat && strcmp(stat, "cv") == 0) {
			double mean, sd;
			r = pdb_run_add_result(st->run, bench, metric, fields[COL_UNIT]);
			if (pdb_result_get_stat(r, "mean", &mean) == 0 &&
			    pdb_result_get_stat(r, "stddev", &sd) == 0 && mean != 0)
				pdb_result_set_stat(r, stat, sd / mean);
			continue;
		}
		if ((got = num(csv, fields, c, st, &x, err)) < 0)
			goto out;
		if (!got)
			continue;
		if (c == COL_ITER)
			unit = "count";
		else if (c <= COL_CPU)
			unit = fields[COL_UNIT];
		r = pdb_run_add_result(st->run, bench, metric, unit);
		if (!stat)
			pdb_result_add_raw(r, x);
		else if (strcmp(stat, "cv") == 0)
			pdb_result_set_stat(r, stat, x);
		else
			pdb_result_set_stat_raw(r, stat, x);
	}
	ret = 0;
out:
	free(bench);
	return ret;
}

static int row(void *ctx, struct pdb_csv *csv, char **fields, size_t n,
	       struct pdb_err *err)
{
	struct state *st = ctx;

	if (!st->header) {
		if (n > 1 && strcmp(fields[0], "name") == 0 && strcmp(fields[1], "iterations") == 0)
			return header(st, csv, fields, n, err);
		preamble(st, fields, n);
		return 0;
	}
	if (n != st->ncols)
		return pdb_csv_bad(csv, err, n < st->ncols ? n - 1 : st->ncols,
				   "expected %zu fields, found %zu", st->ncols, n);
	return data_row(st, csv, fields, err);
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct state st = { .run = run };
	int ret;

	pdb_buf_init(&st.caches);
	pdb_buf_init(&st.notes);
	ret = pdb_csv_read(src, ',', row, &st, err);
	if (ret == 0 && !st.header)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, src->name, 1, 1,
				 "no header line 'name,iterations,real_time,...'");
	if (ret == 0) {
		if (st.caches.len)
			pdb_run_set_attr(run, "caches", st.caches.data);
		if (st.notes.len)
			pdb_run_set_attr(run, "preamble", st.notes.data);
		pdb_set_str(&run->tool, "google-benchmark");
	}
	for (size_t i = 0; i < st.ncols; i++)
		free(st.header[i]);
	free(st.header);
	free(st.fit_bench);
	free(st.big_o);
	pdb_buf_release(&st.caches);
	pdb_buf_release(&st.notes);
	return ret;
}

const struct pdb_format pdb_format_gbench_csv = {
	.name = "google-benchmark-csv",
	.summary = "Google Benchmark CSV (--benchmark_out_format=csv, console preamble first)",
	.detect = detect,
	.parse = parse,
};
