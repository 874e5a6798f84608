/* Format: Catch2 XML reporter (-r xml): BenchmarkResults with mean and std
 * dev bounds, failed test cases, read with libxml2. */
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "formats/attrs_util.h"
#include "formats/format.h"
#include "parse/json_util.h"
#include "util.h"

struct reader {
	const struct pdb_source *src;
	struct pdb_run *run;
	struct pdb_err *err;
	long nbench;
};

static int is(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The element's attribute as a copy (xmlFree it), or NULL. */
static char *attr(const xmlNode *n, const char *name)
{
	return (char *)xmlGetProp(n, (const xmlChar *)name);
}

static int bad(struct reader *rd, const xmlNode *n, const char *fmt, const char *arg)
{
	return pdb_err_at(rd->err, PDB_EXIT_INPUT, rd->src->name, (int)xmlGetLineNo(n), 0,
			  fmt, arg);
}

/* A numeric attribute; 0, 1 when absent, -1 (err) when not a number. */
static int num_attr(struct reader *rd, const xmlNode *n, const char *name, double *out)
{
	char *text = attr(n, name);
	int ret = 0;

	if (!text)
		return 1;
	if (pdb_parse_double(text, out) < 0)
		ret = pdb_err_at(rd->err, PDB_EXIT_INPUT, rd->src->name, (int)xmlGetLineNo(n), 0,
				 "<%s %s=\"%s\">: expected a number", (const char *)n->name,
				 name, text);
	xmlFree(text);
	return ret;
}

/* <mean value= lowerBound= upperBound=> in ns: stat, stat_ci_low, stat_ci_high in s. */
static int bounds(struct reader *rd, const xmlNode *n, struct pdb_result *r, const char *stat)
{
	static const char *const key[] = { "value", "lowerBound", "upperBound" };
	static const char *const suffix[] = { "", "_ci_low", "_ci_high" };
	char name[32];
	double v;
	int got;

	for (int i = 0; i < 3; i++) {
		if ((got = num_attr(rd, n, key[i], &v)) < 0)
			return -1;
		if (got > 0) {
			if (i == 0)
				return bad(rd, n, "<%s>: no value attribute", (const char *)n->name);
			continue;
		}
		snprintf(name, sizeof name, "%s%s", stat, suffix[i]);
		pdb_result_set_stat(r, name, v / 1e9); /* dividing, as the console adapter does */
	}
	return 0;
}

/* <outliers variance= lowMild= lowSevere= highMild= highSevere=>: the total as
 * stat outliers, the detail as an attribute. */
static int outliers(struct reader *rd, const xmlNode *n, struct pdb_result *r, const char *bench)
{
	static const char *const key[] = { "lowMild", "lowSevere", "highMild", "highSevere" };
	struct pdb_buf b;
	double v, total = 0;
	char *var = attr(n, "variance");
	int any = 0, ret = 0;

	pdb_buf_init(&b);
	for (int i = 0; i < 4; i++) {
		int got = num_attr(rd, n, key[i], &v);
		if (got < 0) {
			ret = -1;
			goto out;
		}
		if (got > 0)
			continue;
		total += v;
		any = 1;
		pdb_buf_printf(&b, "%s%s %g", b.len ? ", " : "", key[i], v);
	}
	if (var)
		pdb_buf_printf(&b, "%svariance %s", b.len ? ", " : "", var);
	if (any)
		pdb_result_set_stat(r, "outliers", total);
	if (b.len)
		pdb_attr_set_bench(rd->run, "outliers", bench, b.data);
out:
	pdb_buf_release(&b);
	xmlFree(var);
	return ret;
}

static void copy_attr(struct reader *rd, const xmlNode *n, const char *name,
		      const char *key, const char *bench, const char *suffix)
{
	char *v = attr(n, name);
	char *text;

	if (!v)
		return;
	text = pdb_xasprintf("%s%s", v, suffix);
	if (bench)
		pdb_attr_set_bench(rd->run, key, bench, text);
	else
		pdb_run_set_attr(rd->run, key, text);
	free(text);
	xmlFree(v);
}

/* One <BenchmarkResults>: series time (s) of benchmark name. */
static int benchmark(struct reader *rd, const xmlNode *n, const char *test_case, int *failed)
{
	char *name = attr(n, "name");
	struct pdb_result *r;
	double v;
	int got, ret = -1;

	if (!name || !*name) {
		bad(rd, n, "<BenchmarkResults> without a %s", "name");
		goto out;
	}
	r = pdb_run_add_result(rd->run, name, "time", "s");
	if ((got = num_attr(rd, n, "samples", &v)) < 0)
		goto out;
	if (got == 0)
		pdb_result_set_stat(r, "n", v);
	if ((got = num_attr(rd, n, "iterations", &v)) < 0)
		goto out;
	if (got == 0)
		pdb_result_set_stat(r, "iterations", v);
	copy_attr(rd, n, "estimatedDuration", "estimated", name, " ns");
	copy_attr(rd, n, "resamples", "catch2.resamples", NULL, "");
	copy_attr(rd, n, "clockResolution", "catch2.clock_resolution", NULL, " ns");
	if (test_case)
		pdb_attr_set_bench(rd->run, "test_case", name, test_case);
	*failed = 0;
	for (const xmlNode *c = n->children; c; c = c->next) {
		if (is(c, "mean") && bounds(rd, c, r, "mean") < 0)
			goto out;
		if (is(c, "standardDeviation") && bounds(rd, c, r, "stddev") < 0)
			goto out;
		if (is(c, "outliers") && outliers(rd, c, r, name) < 0)
			goto out;
		if (is(c, "failed")) {
			char *msg = attr(c, "message");
			pdb_run_add_failure(rd->run, name, NULL, 0, msg ? msg : "benchmark failed");
			xmlFree(msg);
			*failed = 1;
		}
	}
	rd->nbench++;
	ret = 0;
out:
	xmlFree(name);
	return ret;
}

/* Benchmarks under n (sections nest), their names collected in *names. */
static int walk(struct reader *rd, const xmlNode *n, const char *test_case,
		char ***names, size_t *nnames, size_t *cap)
{
	for (const xmlNode *c = n->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (is(c, "BenchmarkResults")) {
			int failed;
			if (benchmark(rd, c, test_case, &failed) < 0)
				return -1;
			if (!failed) {
				pdb_grow((void **)names, cap, *nnames + 1, sizeof **names);
				(*names)[(*nnames)++] = attr(c, "name");
			}
		} else if (walk(rd, c, test_case, names, nnames, cap) < 0)
			return -1;
	}
	return 0;
}

/* <TestCase name=...>: its benchmarks; when its OverallResult is not a
 * success, each of them failed. */
static int test_case(struct reader *rd, const xmlNode *n)
{
	char *name = attr(n, "name");
	char **names = NULL, *msg = NULL;
	size_t nnames = 0, cap = 0;
	int ret = -1, success = 1;

	if (walk(rd, n, name, &names, &nnames, &cap) < 0)
		goto out;
	for (const xmlNode *c = n->children; c; c = c->next)
		if (is(c, "OverallResult")) {
			char *s = attr(c, "success");
			if (!s || (strcmp(s, "true") != 0 && strcmp(s, "false") != 0)) {
				xmlFree(s);
				bad(rd, c, "<OverallResult>: expected success=\"true\" or \"%s\"", "false");
				goto out;
			}
			success = strcmp(s, "true") == 0;
			xmlFree(s);
		}
	if (!success) {
		msg = pdb_xasprintf("test case '%s' failed", name ? name : "");
		for (size_t i = 0; i < nnames; i++)
			if (names[i])
				pdb_run_add_failure(rd->run, names[i], NULL, 0, msg);
	}
	ret = 0;
out:
	for (size_t i = 0; i < nnames; i++)
		xmlFree(names[i]);
	free(names);
	free(msg);
	xmlFree(name);
	return ret;
}

static int walk_cases(struct reader *rd, const xmlNode *n)
{
	for (const xmlNode *c = n->children; c; c = c->next) {
		if (is(c, "TestCase")) {
			if (test_case(rd, c) < 0)
				return -1;
		} else if (c->type == XML_ELEMENT_NODE && walk_cases(rd, c) < 0)
			return -1;
	}
	return 0;
}

/* libxml2 reports some I/O errors through its generic handler, which prints:
 * the library never prints, so that handler is silenced while reading. */
static void quiet(void *ctx, const char *fmt, ...)
{
	(void)ctx;
	(void)fmt;
}

/* What the parse met that ends it: a document type declaration's line, or
 * the first error libxml2 raised (the last one is often an end of data
 * that the first caused, far from where the file breaks). */
struct stop {
	int dtd_line;
	xmlError first;
	int have_first;
};

static void keep_first(void *ctx, xmlErrorPtr e)
{
	struct stop *stop = ((xmlParserCtxtPtr)ctx)->_private;

	if (!stop->have_first && e && e->level >= XML_ERR_ERROR) {
		stop->first = *e;
		stop->first.message = e->message ? (char *)xmlStrdup((const xmlChar *)e->message) : NULL;
		stop->have_first = 1;
	}
}

/* A document type declaration: the parse stops there, its line kept. Catch2
 * writes none, and the entities one declares could expand without bound
 * (a 100 KB entity referenced 20,000 times in a name: 2 GB). */
static void refuse_dtd(void *ctx, const xmlChar *name, const xmlChar *external_id,
		       const xmlChar *system_id)
{
	xmlParserCtxtPtr ctxt = ctx;

	(void)name;
	(void)external_id;
	(void)system_id;
	((struct stop *)ctxt->_private)->dtd_line = ctxt->input ? ctxt->input->line : 1;
	xmlStopParser(ctxt);
}

static int detect(const struct pdb_source *src)
{
	if (!pdb_head_has(src, "<Catch"))
		return 0;
	if (pdb_head_has(src, "<BenchmarkResults"))
		return 95;
	return pdb_head_has(src, "<TestCase") || pdb_head_has(src, "<OverallResults") ? 60 : 0;
}

static int parse(const struct pdb_source *src, struct pdb_run *run, struct pdb_err *err)
{
	struct reader rd = { .src = src, .run = run, .err = err };
	xmlGenericErrorFunc saved = xmlGenericError;
	void *saved_ctx = xmlGenericErrorContext;
	xmlParserCtxtPtr ctxt;
	xmlDocPtr doc = NULL;
	const xmlNode *root;
	struct stop stop = { 0 };
	int ret = -1;

	if (src->is_dir)
		return pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0,
				  "a directory: give the Catch2 XML file");
	if (!(ctxt = xmlNewParserCtxt()))
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "out of memory");
	ctxt->sax->internalSubset = refuse_dtd;
	ctxt->sax->serror = keep_first;
	ctxt->_private = &stop;
	xmlSetGenericErrorFunc(NULL, quiet);
	doc = xmlCtxtReadFile(ctxt, src->path, NULL,
			      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	xmlSetGenericErrorFunc(saved_ctx, saved);
	if (stop.dtd_line) {
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, stop.dtd_line, 0, "a document type "
			   "declaration (<!DOCTYPE>): Catch2 writes none, and its entities could "
			   "expand without bound");
		goto out;
	}
	if (!doc) {
		const xmlError *e = stop.have_first ? &stop.first : xmlCtxtGetLastError(ctxt);
		char msg[256];
		size_t len;
		if (!e || !e->message) {
			pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0, "cannot read the XML");
			goto out;
		}
		snprintf(msg, sizeof msg, "%s", e->message);
		len = strlen(msg);
		while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
			msg[--len] = '\0';
		if (len > 0 && msg[0] >= 'A' && msg[0] <= 'Z')
			msg[0] = (char)(msg[0] - 'A' + 'a');
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, e->line, e->int2, "%s", msg);
		goto out;
	}
	root = xmlDocGetRootElement(doc);
	if (!root || (!is(root, "Catch") && !is(root, "Catch2TestRun"))) {
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, root ? (int)xmlGetLineNo(root) : 1, 0,
			   "not a Catch2 XML report: expected the root element <Catch>");
		goto out;
	}
	if (walk_cases(&rd, root) < 0)
		goto out;
	if (rd.nbench == 0) {
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0,
			   "no benchmark results (<BenchmarkResults> in a <TestCase>)");
		goto out;
	}
	copy_attr(&rd, root, "name", "catch2.binary", NULL, "");
	copy_attr(&rd, root, "filters", "catch2.filters", NULL, "");
	pdb_set_str(&run->tool, "catch2");
	ret = 0;
out:
	xmlFree(stop.first.message);
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctxt);
	return ret;
}

const struct pdb_format pdb_format_catch2_xml = {
	.name = "catch2-xml",
	.summary = "Catch2 XML reporter (-r xml): time mean and std dev with bounds per benchmark, "
		   "failed test cases",
	.detect = detect,
	.parse = parse,
};
