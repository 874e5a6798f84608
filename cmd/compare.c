/* perfdb compare: two runs (or run groups), a verdict per series, an exit status for CI. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare.h"
#include "compare_text.h"
#include "json_out.h"
#include "units.h"
#include "util.h"

static int compare_main(int argc, char **argv, struct cmd_ctx *ctx);

const struct command cmd_compare = {
	"compare", compare_main,
	"perfdb compare [OPTIONS] BASE CANDIDATE\n"
	"  -F, --format FMT     text (default), markdown, json, junit or csv\n"
	"  -t, --threshold PCT  fail level in % (default 5, 10 for p95 and beyond)\n"
	"  -a, --alpha A        significance level (default 0.01)\n"
	"  -c, --config FILE    thresholds, directions, ignores (default ./perfdb.yaml)\n"
	"  -m, --metric GLOB    only metrics matching GLOB\n"
	"  -b, --bench GLOB     only benchmarks matching GLOB\n"
	"      --fail-on WHAT   regression (default), noisy or never\n"
	"      --holm           Holm-adjust p-values across series\n"
	"      --strict-env     exit 3 when cpu_model, vcpus or host differ\n"
	"  -n, --last N         BASE is the last N runs matching its selector\n"
	"      --cand-last N    CANDIDATE is the last N runs matching its selector\n"
	"      --db FILE        the database\n"
	"BASE, CANDIDATE: a run selector (run42, latest~1, latest:branch=main) or a\n"
	"comma-separated group (run40,run41,run42); a group's runs give one value each.\n"
	"Exit: 0 no regression, 1 regression, 2 usage, 3 unknown run, 4 database error.\n",
	"compare two runs or run groups, exit 1 on a regression",
};

enum { FMT_TEXT, FMT_MARKDOWN, FMT_JSON, FMT_JUNIT, FMT_CSV };
enum { FAIL_REGRESSION, FAIL_NOISY, FAIL_NEVER };
enum { OPT_FAIL_ON = 0x2000, OPT_HOLM, OPT_STRICT_ENV, OPT_CAND_LAST };

struct compare_opts {
	int format, fail_on, strict_env, last, cand_last;
	const char *config;
	struct pdb_compare_opts cmp;
};

/* ---- shared cell text ---- */

static void verdict_text(const struct pdb_compare_row *r, char *out, size_t size)
{
	snprintf(out, size, "%s%s", pdb_verdict_name(r->verdict), r->warn ? " (warn)" : "");
}

static void run_label(const struct pdb_compare_run *runs, size_t n, struct pdb_buf *b)
{
	for (size_t i = 0; i < n; i++) {
		pdb_buf_printf(b, "%srun%lld", i ? "," : "", (long long)runs[i].id);
		if (n == 1 && runs[i].name)
			pdb_buf_printf(b, " (%s)", runs[i].name);
	}
}

static void summary_line(const struct pdb_compare *c, struct pdb_buf *b)
{
	int first = 1;

	for (int v = 0; v < PDB_VERDICT_COUNT; v++) {
		if (!c->counts[v])
			continue;
		pdb_buf_printf(b, "%s%zu %s", first ? "" : ", ", c->counts[v], pdb_verdict_name(v));
		first = 0;
	}
	if (first)
		pdb_buf_puts(b, "no series");
}

static void geomean_line(const struct pdb_compare *c, struct pdb_buf *b)
{
	for (size_t i = 0; i < c->ngeomean; i++)
		pdb_buf_printf(b, "%s%s %.4f", i ? ", " : "", c->geomean[i].metric,
			       c->geomean[i].ratio);
}

/* ---- text ---- */

static const char *verdict_color(int verdict)
{
	switch (verdict) {
	case PDB_VERDICT_REGRESSION: return "\033[31m";
	case PDB_VERDICT_IMPROVEMENT: return "\033[32m";
	case PDB_VERDICT_NOISY: return "\033[33m";
	default: return NULL;
	}
}

static void print_text(const struct pdb_compare *c, FILE *out)
{
	static const char *header[] = { "benchmark", "dims", "metric", "n", "baseline",
					"candidate", "change", "interval", "p", "verdict" };
	int color = cmd_use_color(out);
	struct cmd_table t;
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_puts(&b, "baseline  ");
	run_label(c->base, c->nbase, &b);
	pdb_buf_puts(&b, "\ncandidate ");
	run_label(c->cand, c->ncand, &b);
	fprintf(out, "%s\n\n", b.data);
	cmd_table_init(&t, 10, "llllrrrrrl");
	cmd_table_add(&t, header);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		const char *col = color ? verdict_color(r->verdict) : NULL;
		char n[48], mb[64], mc[64], ch[64], iv[160], p[32], v[64], vc[96];
		const char *row[10];

		snprintf(n, sizeof n, "%zu/%zu", r->n_base, r->n_cand);
		pdb_compare_value_text(r->median_base, r->unit, mb, sizeof mb);
		pdb_compare_value_text(r->median_cand, r->unit, mc, sizeof mc);
		pdb_compare_change_text(r, ch, sizeof ch);
		pdb_compare_interval_text(r, iv, sizeof iv);
		pdb_compare_p_text(r->p_value, p, sizeof p);
		verdict_text(r, v, sizeof v);
		/* the verdict is the last column: colour codes cannot upset widths */
		snprintf(vc, sizeof vc, "%s%s%s", col ? col : "", v, col ? "\033[0m" : "");
		row[0] = r->benchmark; row[1] = *r->dims ? r->dims : "-"; row[2] = r->metric;
		row[3] = n; row[4] = mb; row[5] = mc; row[6] = ch; row[7] = iv; row[8] = p;
		row[9] = vc;
		cmd_table_add(&t, row);
	}
	cmd_table_print(&t, out);
	cmd_table_release(&t);
	pdb_buf_release(&b);
	pdb_buf_init(&b);
	pdb_buf_puts(&b, "\nsummary: ");
	summary_line(c, &b);
	if (c->ngeomean) {
		pdb_buf_puts(&b, "\ngeomean (candidate/baseline, > 1 is worse): ");
		geomean_line(c, &b);
	}
	fprintf(out, "%s\n", b.data);
	pdb_buf_release(&b);
}

/* ---- markdown ---- */

static void md_cell(FILE *out, const char *s)
{
	fputs(" ", out);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else
			fputc(*s, out);
	}
	fputs(" |", out);
}

static void print_markdown(const struct pdb_compare *c, FILE *out)
{
	size_t reg = c->counts[PDB_VERDICT_REGRESSION];
	struct pdb_buf b;

	pdb_buf_init(&b);
	pdb_buf_printf(&b, "**perfdb compare: %s** — ", reg ? "regression" : "no regression");
	summary_line(c, &b);
	pdb_buf_puts(&b, " (baseline ");
	run_label(c->base, c->nbase, &b);
	pdb_buf_puts(&b, ", candidate ");
	run_label(c->cand, c->ncand, &b);
	fprintf(out, "%s)\n\n", b.data);
	fprintf(out, "| benchmark | dims | metric | n | baseline | candidate | change | "
		"interval | p | verdict |\n|---|---|---|--:|--:|--:|--:|--:|--:|---|\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		char n[48], mb[64], mc[64], ch[64], iv[160], p[32], v[64];

		snprintf(n, sizeof n, "%zu/%zu", r->n_base, r->n_cand);
		pdb_compare_value_text(r->median_base, r->unit, mb, sizeof mb);
		pdb_compare_value_text(r->median_cand, r->unit, mc, sizeof mc);
		pdb_compare_change_text(r, ch, sizeof ch);
		pdb_compare_interval_text(r, iv, sizeof iv);
		pdb_compare_p_text(r->p_value, p, sizeof p);
		verdict_text(r, v, sizeof v);
		if (r->verdict == PDB_VERDICT_REGRESSION)
			snprintf(v, sizeof v, "**regression**");
		fputs("|", out);
		md_cell(out, r->benchmark);
		md_cell(out, *r->dims ? r->dims : "-");
		md_cell(out, r->metric);
		md_cell(out, n);
		md_cell(out, mb);
		md_cell(out, mc);
		md_cell(out, ch);
		md_cell(out, iv);
		md_cell(out, p);
		md_cell(out, v);
		fputc('\n', out);
	}
	if (c->ngeomean) {
		pdb_buf_release(&b);
		pdb_buf_init(&b);
		geomean_line(c, &b);
		fprintf(out, "\nGeometric mean of candidate/baseline (> 1 is worse): %s\n", b.data);
	}
	pdb_buf_release(&b);
}

/* ---- json ---- */

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *side_json(const struct pdb_compare_run *runs, size_t n)
{
	json_t *o = json_object(), *a = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *r = json_object();
		json_object_set_new(r, "id", json_integer(runs[i].id));
		json_object_set_new(r, "name", runs[i].name ? json_string(runs[i].name) : json_null());
		json_object_set_new(r, "created_at", runs[i].created_at
				    ? json_string(runs[i].created_at) : json_null());
		json_object_set_new(r, "commit", runs[i].commit
				    ? json_string(runs[i].commit) : json_null());
		json_object_set_new(r, "branch", runs[i].branch
				    ? json_string(runs[i].branch) : json_null());
		json_array_append_new(a, r);
	}
	json_object_set_new(o, "runs", a);
	return o;
}

static json_t *stats_json(size_t n, double median, double mean)
{
	json_t *o = json_object();
	json_object_set_new(o, "n", json_integer((json_int_t)n));
	json_object_set_new(o, "median", num(median));
	json_object_set_new(o, "mean", num(mean));
	return o;
}

static json_t *row_json(const struct pdb_compare_row *r)
{
	json_t *o = json_object(), *dims = json_loads(r->dims_json, 0, NULL);

	json_object_set_new(o, "benchmark", json_string(r->benchmark));
	json_object_set_new(o, "dims", dims ? dims : json_object());
	json_object_set_new(o, "metric", json_string(r->metric));
	json_object_set_new(o, "unit", json_string(r->unit));
	json_object_set_new(o, "direction", json_string(pdb_direction_name(r->direction)));
	json_object_set_new(o, "baseline", stats_json(r->n_base, r->median_base, r->mean_base));
	json_object_set_new(o, "candidate", stats_json(r->n_cand, r->median_cand, r->mean_cand));
	json_object_set_new(o, "change_pct", num(r->change_pct));
	json_object_set_new(o, "ci_low_pct", num(r->ci_low_pct));
	json_object_set_new(o, "ci_high_pct", num(r->ci_high_pct));
	if (!isnan(r->change_abs)) {
		json_object_set_new(o, "change_abs", num(r->change_abs));
		json_object_set_new(o, "ci_low_abs", num(r->ci_low_abs));
		json_object_set_new(o, "ci_high_abs", num(r->ci_high_abs));
	}
	json_object_set_new(o, "p_value", num(r->p_value));
	json_object_set_new(o, "verdict", json_string(pdb_verdict_name(r->verdict)));
	json_object_set_new(o, "band", r->band ? json_string(r->band) : json_null());
	json_object_set_new(o, "band_pct", num(r->band_pct));
	json_object_set_new(o, "threshold_pct", num(r->threshold_pct));
	json_object_set_new(o, "warn", json_boolean(r->warn));
	return o;
}

static void print_json(const struct pdb_compare *c, FILE *out)
{
	json_t *doc = json_object(), *results = json_array(), *summary = json_object();
	json_t *geo = json_object(), *env = json_array();

	json_object_set_new(doc, "baseline", side_json(c->base, c->nbase));
	json_object_set_new(doc, "candidate", side_json(c->cand, c->ncand));
	json_object_set_new(doc, "alpha", json_real(c->alpha));
	for (size_t i = 0; i < c->nrows; i++)
		json_array_append_new(results, row_json(&c->rows[i]));
	json_object_set_new(doc, "results", results);
	for (int v = 0; v < PDB_VERDICT_COUNT; v++)
		json_object_set_new(summary, pdb_verdict_name(v),
				    json_integer((json_int_t)c->counts[v]));
	for (size_t i = 0; i < c->ngeomean; i++)
		json_object_set_new(geo, c->geomean[i].metric, num(c->geomean[i].ratio));
	json_object_set_new(summary, "geomean", geo);
	json_object_set_new(doc, "summary", summary);
	for (size_t i = 0; i < c->nenv; i++) {
		json_t *e = json_object();
		json_object_set_new(e, "key", json_string(c->env[i].key));
		json_object_set_new(e, "baseline", json_string(c->env[i].base));
		json_object_set_new(e, "candidate", json_string(c->env[i].cand));
		json_array_append_new(env, e);
	}
	json_object_set_new(doc, "environment_differs", env);
	pdb_json_write(out, doc, 2);
	fputc('\n', out);
	json_decref(doc);
}

/* ---- junit ---- */

static void xml_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

static int junit_failed(const struct pdb_compare_row *r, int fail_on)
{
	if (r->direction == PDB_DIR_NONE || fail_on == FAIL_NEVER)
		return 0;
	return r->verdict == PDB_VERDICT_REGRESSION ||
	       (fail_on == FAIL_NOISY && r->verdict == PDB_VERDICT_NOISY);
}

static void print_junit(const struct pdb_compare *c, int fail_on, FILE *out)
{
	size_t failures = 0, skipped = 0;
	struct pdb_buf name;

	for (size_t i = 0; i < c->nrows; i++) {
		failures += junit_failed(&c->rows[i], fail_on);
		skipped += c->rows[i].verdict == PDB_VERDICT_INSUFFICIENT ||
			   c->rows[i].verdict == PDB_VERDICT_NEW ||
			   c->rows[i].verdict == PDB_VERDICT_MISSING;
	}
	pdb_buf_init(&name);
	pdb_buf_puts(&name, "perfdb compare ");
	run_label(c->base, c->nbase, &name);
	pdb_buf_puts(&name, " vs ");
	run_label(c->cand, c->ncand, &name);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", out);
	xml_text(out, name.data);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n", c->nrows, failures,
		skipped);
	fputs("  <testsuite name=\"", out);
	xml_text(out, name.data);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n", c->nrows, failures,
		skipped);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		char mb[64], mc[64], ch[64], iv[160], p[32], v[64];

		pdb_compare_value_text(r->median_base, r->unit, mb, sizeof mb);
		pdb_compare_value_text(r->median_cand, r->unit, mc, sizeof mc);
		pdb_compare_change_text(r, ch, sizeof ch);
		pdb_compare_interval_text(r, iv, sizeof iv);
		pdb_compare_p_text(r->p_value, p, sizeof p);
		verdict_text(r, v, sizeof v);
		fputs("    <testcase classname=\"", out);
		xml_text(out, r->benchmark);
		fputs("\" name=\"", out);
		xml_text(out, r->metric);
		if (*r->dims) {
			fputs(" [", out);
			xml_text(out, r->dims);
			fputs("]", out);
		}
		fputs("\">\n", out);
		if (junit_failed(r, fail_on) || r->verdict == PDB_VERDICT_INSUFFICIENT ||
		    r->verdict == PDB_VERDICT_NEW || r->verdict == PDB_VERDICT_MISSING) {
			char msg[512];
			snprintf(msg, sizeof msg, "%s: %s -> %s, change %s, interval %s, p %s, "
				 "n %zu/%zu", v, mb, mc, ch, iv, p, r->n_base, r->n_cand);
			fprintf(out, "      <%s message=\"", junit_failed(r, fail_on)
				? "failure" : "skipped");
			xml_text(out, msg);
			if (junit_failed(r, fail_on))
				fprintf(out, "\" type=\"%s\"/>\n", pdb_verdict_name(r->verdict));
			else
				fputs("\"/>\n", out);
		} else {
			fputs("      <system-out>", out);
			fprintf(out, "%s: %s -> %s, change %s, interval %s, p %s", v, mb, mc, ch, iv, p);
			fputs("</system-out>\n", out);
		}
		fputs("    </testcase>\n", out);
	}
	fputs("  </testsuite>\n</testsuites>\n", out);
	pdb_buf_release(&name);
}

/* ---- csv ---- */

static void csv_field(FILE *out, const char *s, int last)
{
	if (strpbrk(s, ",\"\n\r")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputc(last ? '\n' : ',', out);
}

static void csv_num(FILE *out, double v)
{
	char buf[32];

	if (!isnan(v)) {
		pdb_fmt_double(v, buf);
		fputs(buf, out);
	}
	fputc(',', out);
}

static void print_csv(const struct pdb_compare *c, FILE *out)
{
	fputs("benchmark,dims,metric,unit,direction,n_base,n_cand,median_base,median_cand,"
	      "mean_base,mean_cand,change_pct,ci_low_pct,ci_high_pct,change_abs,p_value,"
	      "band,verdict,warn\n", out);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pdb_compare_row *r = &c->rows[i];
		csv_field(out, r->benchmark, 0);
		csv_field(out, r->dims, 0);
		csv_field(out, r->metric, 0);
		csv_field(out, r->unit, 0);
		csv_field(out, pdb_direction_name(r->direction), 0);
		fprintf(out, "%zu,%zu,", r->n_base, r->n_cand);
		csv_num(out, r->median_base);
		csv_num(out, r->median_cand);
		csv_num(out, r->mean_base);
		csv_num(out, r->mean_cand);
		csv_num(out, r->change_pct);
		csv_num(out, r->ci_low_pct);
		csv_num(out, r->ci_high_pct);
		csv_num(out, r->change_abs);
		csv_num(out, r->p_value);
		csv_field(out, r->band ? r->band : "", 0);
		csv_field(out, pdb_verdict_name(r->verdict), 0);
		csv_field(out, r->warn ? "1" : "0", 1);
	}
}

/* ---- main ---- */

static int parse_pct(const char *s, double lo, double hi, double *out)
{
	return pdb_parse_double(s, out) == 0 && *out >= lo && *out <= hi ? 0 : -1;
}

static int parse_options(int argc, char **argv, struct cmd_ctx *ctx, struct compare_opts *o)
{
	static const struct option longopts[] = {
		{ "format", required_argument, 0, 'F' },
		{ "threshold", required_argument, 0, 't' },
		{ "alpha", required_argument, 0, 'a' },
		{ "config", required_argument, 0, 'c' },
		{ "metric", required_argument, 0, 'm' },
		{ "bench", required_argument, 0, 'b' },
		{ "last", required_argument, 0, 'n' },
		{ "cand-last", required_argument, 0, OPT_CAND_LAST },
		{ "fail-on", required_argument, 0, OPT_FAIL_ON },
		{ "holm", no_argument, 0, OPT_HOLM },
		{ "strict-env", no_argument, 0, OPT_STRICT_ENV },
		CMD_COMMON_OPTIONS,
		{ 0, 0, 0, 0 },
	};
	static const char *const formats[] = { "text", "markdown", "json", "junit", "csv", NULL };
	static const char *const fail_ons[] = { "regression", "noisy", "never", NULL };
	int c, status;
	int64_t n;

	while ((c = cmd_getopt(argc, argv, "F:t:a:c:m:b:n:h", longopts, &cmd_compare)) != -1) {
		switch (c) {
		case 'F':
			if ((o->format = cmd_parse_format(optarg, formats)) < 0)
				return cmd_usage_error(&cmd_compare, "unknown format '%s'", optarg);
			break;
		case 't':
			if (parse_pct(optarg, 0, 1e6, &o->cmp.threshold_pct) < 0)
				return cmd_usage_error(&cmd_compare,
						       "--threshold: expected a percentage, not '%s'",
						       optarg);
			break;
		case 'a':
			if (parse_pct(optarg, 1e-12, 0.5, &o->cmp.alpha) < 0)
				return cmd_usage_error(&cmd_compare,
						       "--alpha: expected a number in (0, 0.5], not '%s'",
						       optarg);
			break;
		case 'c': o->config = optarg; break;
		case 'm': o->cmp.metric_glob = optarg; break;
		case 'b': o->cmp.bench_glob = optarg; break;
		case 'n':
		case OPT_CAND_LAST:
			if (pdb_parse_int64(optarg, 1, 100000, &n) < 0)
				return cmd_usage_error(&cmd_compare, "--%s: expected a count, not '%s'",
						       c == 'n' ? "last" : "cand-last", optarg);
			*(c == 'n' ? &o->last : &o->cand_last) = (int)n;
			break;
		case OPT_FAIL_ON:
			if ((o->fail_on = cmd_parse_format(optarg, fail_ons)) < 0)
				return cmd_usage_error(&cmd_compare,
						       "--fail-on: expected regression, noisy or never");
			break;
		case OPT_HOLM: o->cmp.holm = 1; break;
		case OPT_STRICT_ENV: o->strict_env = 1; break;
		default:
			if ((status = cmd_common_option(&cmd_compare, ctx, c)) >= 0)
				return status;
		}
	}
	if (optind + 2 != argc)
		return cmd_usage_error(&cmd_compare, "expected BASE and CANDIDATE");
	return -1;
}

static int env_check(const struct pdb_compare *c, int strict)
{
	for (size_t i = 0; i < c->nenv; i++)
		fprintf(stderr, "perfdb: compare: %senvironments differ: %s '%s' (baseline) vs "
			"'%s' (candidate)\n", strict ? "" : "warning: ", c->env[i].key,
			c->env[i].base, c->env[i].cand);
	return strict && c->nenv ? -1 : 0;
}

static int compare_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct compare_opts o = { 0 };
	struct pdb_compare_config cfg;
	struct pdb_store *store = NULL;
	struct pdb_compare result = { 0 };
	struct pdb_err err;
	int64_t *base = NULL, *cand = NULL;
	size_t nbase = 0, ncand = 0;
	int status;

	pdb_compare_opts_init(&o.cmp);
	pdb_compare_config_init(&cfg);
	if ((status = parse_options(argc, argv, ctx, &o)) >= 0)
		goto out;
	if (cmd_compare_config(o.config, &cfg, &o.cmp.config, &err) < 0) {
		status = cmd_fail("compare", &err);
		goto out;
	}
	if (!(store = cmd_open_store(ctx, &err)) ||
	    pdb_store_resolve_group(store, argv[optind], o.last, &base, &nbase, &err) < 0 ||
	    pdb_store_resolve_group(store, argv[optind + 1], o.cand_last, &cand, &ncand,
				    &err) < 0 ||
	    pdb_compare_run_groups(store, base, nbase, cand, ncand, &o.cmp, &result, &err) < 0) {
		status = cmd_fail("compare", &err);
		goto out;
	}
	if (env_check(&result, o.strict_env) < 0) {
		status = PDB_EXIT_INPUT;
		goto out;
	}
	switch (o.format) {
	case FMT_TEXT: print_text(&result, stdout); break;
	case FMT_MARKDOWN: print_markdown(&result, stdout); break;
	case FMT_JSON: print_json(&result, stdout); break;
	case FMT_JUNIT: print_junit(&result, o.fail_on, stdout); break;
	default: print_csv(&result, stdout); break;
	}
	status = o.fail_on != FAIL_NEVER &&
		 pdb_compare_failed(&result, o.fail_on == FAIL_NOISY)
		? PDB_EXIT_REGRESSION : PDB_EXIT_OK;
out:
	pdb_compare_release(&result);
	pdb_compare_config_release(&cfg);
	free(base);
	free(cand);
	pdb_store_close(store);
	return status;
}
