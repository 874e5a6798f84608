/* perfdb ingest: read result files into one new run, or one run each. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "formats/format.h"
#include "ingest.h"
#include "kafka/stream.h"
#include "util.h"

static int ingest_main(int argc, char **argv, struct cmd_ctx *ctx);

enum { OPT_FORCE = CMD_LONG_ONLY, OPT_STRICT, OPT_LIST, OPT_TO_KAFKA, OPT_FROM_KAFKA, OPT_GROUP,
       OPT_FOLLOW, OPT_BROKER_TIMEOUT, OPT_MAP, OPT_MAX_INPUT, OPT_MAX_RATIO, OPT_EACH };

static const struct cmd_option options[] = {
	{ "format", 'f', "FORMAT", "the tool's format (default: detected from content)" },
	{ "name", 'n', "NAME", "a unique name for the run" },
	{ "attr", 'a', "K=V", "set a run attribute (repeatable): commit, branch, ..." },
	{ "dim", 'd', "K=V", "add a dimension to every series (repeatable): vcpus=4" },
	{ "map", OPT_MAP, "MAP.yaml", "read a CSV/JSON/YAML file as MAP.yaml declares" },
	{ "each", OPT_EACH, NULL, "each FILE|DIR its own run, in the order given: a\n"
				  "history in one command (all stored, or none)" },
	{ "force", OPT_FORCE, NULL, "store a file that was ingested before" },
	{ "strict", OPT_STRICT, NULL, "a file of a directory that no adapter reads is an error" },
	{ "max-input", OPT_MAX_INPUT, "SIZE", "the most one input may give, decompressed or read\n"
					      "from a pipe (k, M, G, T; else $PERFDB_MAX_INPUT)",
	  .type = CMD_SIZE, .def = "1G" },
	{ "max-ratio", OPT_MAX_RATIO, "N", "the most a compressed input may grow past 64 MiB, as\n"
					   "N times its size (else $PERFDB_MAX_RATIO)",
	  .type = CMD_NUMBER, .min = 1, .max = INFINITY, .def = "100" },
	{ "verbose", 'v', NULL, "tell on stderr what was detected and stored" },
	{ "list-formats", OPT_LIST, NULL, "list the formats and exit" },
	{ "db", CMD_OPT_DB, "FILE", "the database (default $PERFDB_DB or ./perfdb.db)" },
	{ "to-kafka", OPT_TO_KAFKA, "BROKERS/TOPIC", "publish the run as canonical JSON (key: its\n"
						    "uuid) instead of storing it; with --db, do both" },
	{ "from-kafka", OPT_FROM_KAFKA, "BROKERS/TOPIC", "store the runs a topic holds (no files):\n"
							"at least once, deduplicated by uuid, a malformed\n"
							"message reported and skipped" },
	{ "group", OPT_GROUP, "G", "consumer group for --from-kafka", .def = "perfdb-ingest" },
	{ "follow", OPT_FOLLOW, NULL, "with --from-kafka, wait for more runs at the end" },
	{ "broker-timeout", OPT_BROKER_TIMEOUT, "SECONDS", "with --from-kafka and no --follow, give up\n"
							  "(exit 4) when no partition is assigned by then,\n"
							  "or nothing more comes: a broker unreachable or gone",
	  .type = CMD_NUMBER, .min = 0, .above = 1, .max = INFINITY, .def = "30" },
	{ 0 },
};

const struct command cmd_ingest = {
	.name = "ingest", .run = ingest_main,
	.summary = "store result files of any benchmarking tool as a run",
	.synopsis = "[OPTIONS] FILE|DIR|-...",
	.options = options,
	.text = "Several files make one run (with --each, one run each). Prints the new\n"
		"run's id (the uuid when only published), one line a run.\n",
	.operand = CMD_OPERAND_FILE,
};

struct kv_list {
	struct pdb_attr *items;
	size_t n, cap;
};

static int kv_add(struct kv_list *l, const char *text)
{
	struct pdb_attr a;

	if (cmd_split_kv(text, &a.key, &a.value) < 0)
		return -1;
	pdb_grow((void **)&l->items, &l->cap, l->n + 1, sizeof *l->items);
	l->items[l->n++] = a;
	return 0;
}

/* A branch or commit given empty (a CI variable that is empty on this
 * event, such as a pull request's on a push): said, since the run then
 * belongs to no branch and no sequential gate or history finds it. */
static void warn_empty_identity(const struct pdb_attr *a)
{
	if ((strcmp(a->key, "branch") == 0 || strcmp(a->key, "commit") == 0) && !a->value[0])
		fprintf(stderr, "perfdb: ingest: warning: --attr %s= is empty: the run is stored "
			"without a %s (was a CI variable empty on this event?)\n", a->key, a->key);
}

static void kv_release(struct kv_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->items[i].key);
		free(l->items[i].value);
	}
	free(l->items);
}

/* The limit of option name (max-input or max-ratio) not given on the
 * command line: the environment's variable var when set, checked as the
 * option's value is, else the table's default. 0, or a usage error's status. */
static int env_limit(struct pdb_input_limits *lim, const char *name, const char *var)
{
	const struct cmd_option *o = cmd_find_option(&cmd_ingest, name);
	const char *text = getenv(var);
	struct cmd_arg v;
	char why[256];

	if (cmd_option_value(o, text && *text ? text : NULL, &v, why, sizeof why) < 0)
		return cmd_usage_error(&cmd_ingest, "%s: expected %s, not '%s'", var, why, text);
	if (o->type == CMD_SIZE)
		lim->max_bytes = v.size;
	else
		lim->max_ratio = v.number;
	return 0;
}

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void on_stream_run(void *ctx, const struct pdb_run *run, int duplicate)
{
	(void)ctx;
	if (duplicate)
		cmd_say("ingest", "run %s is already stored as run%lld: skipped",
			run->uuid, (long long)run->id);
	else
		printf("run%lld\n", (long long)run->id);
	if (!duplicate && pdb_run_get_attr(run, "kafka.renamed_from"))
		cmd_say("ingest", "warning: a run named '%s' exists already: run%lld "
			"stored as '%s'", pdb_run_get_attr(run, "kafka.renamed_from"),
			(long long)run->id, run->name);
	fflush(stdout);
}

static void on_stream_bad(void *ctx, int32_t partition, int64_t offset, const struct pdb_err *err)
{
	char msg[1200];

	(void)ctx;
	(void)partition;
	(void)offset;
	pdb_err_format(err, msg, sizeof msg); /* the source names partition and offset */
	fprintf(stderr, "perfdb: ingest: %s: skipped\n", msg);
}

/* --from-kafka: consume runs into the database until the end (or a signal). */
static int from_kafka(struct cmd_ctx *ctx, const char *target, const char *group, int follow,
		      double broker_timeout)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct pdb_kafka_consume_opts o = { .target = target, .group = group, .follow = follow,
					    .broker_timeout = broker_timeout,
					    .stop = &stop_requested, .on_run = on_stream_run,
					    .on_bad = on_stream_bad };
	struct pdb_kafka_consume_stats stats;
	struct pdb_store *store;
	struct pdb_err err;
	int status = PDB_EXIT_OK;

	if (!(store = cmd_open_store(ctx, &err)))
		return cmd_fail("ingest", &err);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (pdb_kafka_consume_runs(store, &o, &stats, &err) < 0)
		status = cmd_fail("ingest", &err);
	else
		fprintf(stderr, "perfdb: ingest: %zu run%s stored, %zu duplicate%s and %zu malformed skipped\n",
			stats.stored, stats.stored == 1 ? "" : "s", stats.duplicates,
			stats.duplicates == 1 ? "" : "s", stats.bad);
	pdb_store_close(store);
	return status;
}

static void list_formats(void)
{
	for (size_t i = 0; pdb_formats[i]; i++)
		printf("%-22s %s\n", pdb_formats[i]->name, pdb_formats[i]->summary);
}

/* -v: what was read (of the file given, with --each) */
static void report(const struct pdb_run *run, const char *format, const char *path)
{
	size_t samples = 0, stats = 0, benchmarks = 0;

	for (size_t i = 0; i < run->nresults; i++) {
		samples += run->results[i].nsamples;
		stats += run->results[i].nstats;
		if (i == 0 || strcmp(run->results[i].benchmark, run->results[i - 1].benchmark) != 0)
			benchmarks++;
	}
	fprintf(stderr, "perfdb: ingest: %s%sformat %s; %zu series in about %zu benchmarks, "
		"%zu samples, %zu stats\n", path ? path : "", path ? ": " : "", format,
		run->nresults, benchmarks, samples, stats);
}

/* One line on stderr for every file skipped and every benchmark that failed. */
static void warn(const struct pdb_run *run)
{
	static const char skipped[] = "ingest.skipped[", warning[] = "ingest.warning[";

	for (size_t i = 0; i < run->nattrs; i++) {
		const char *k = run->attrs[i].key;
		if (strncmp(k, skipped, sizeof skipped - 1) == 0)
			fprintf(stderr, "perfdb: ingest: skipped %.*s: %s\n",
				(int)(strlen(k) - sizeof skipped), k + sizeof skipped - 1,
				run->attrs[i].value);
		if (strncmp(k, warning, sizeof warning - 1) == 0) {
			char *line = pdb_xasprintf("%.*s:%s", (int)(strlen(k) - sizeof warning),
						   k + sizeof warning - 1, run->attrs[i].value);
			char *safe = cmd_escape_controls(line);
			fprintf(stderr, "perfdb: ingest: warning: %s\n", safe);
			free(safe);
			free(line);
		}
	}
	for (size_t i = 0; i < run->nfailures; i++) {
		const struct pdb_failure *f = &run->failures[i];
		char *dims = pdb_dims_display(f->dims, f->ndims);
		char *line = pdb_xasprintf("%s%s%s%s failed: %s", f->benchmark, *dims ? " [" : "",
					   dims, *dims ? "]" : "", f->reason);
		char *safe = cmd_escape_controls(line);
		fprintf(stderr, "perfdb: ingest: warning: %s\n", safe);
		free(safe);
		free(line);
		free(dims);
	}
}

static int stdin_twice(char *const *paths, int n)
{
	int seen = 0;

	for (int i = 0; i < n; i++)
		if (strcmp(paths[i], "-") == 0 && seen++)
			return 1;
	return 0;
}

static int ingest_main(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct pdb_ingest_opts opts = { .fingerprint = 1 };
	struct kv_list attrs = { 0 }, dims = { 0 };
	struct pdb_store *store = NULL;
	struct pdb_run **runs = NULL;
	size_t nruns = 0, refused = 0;
	struct pdb_err err;
	const char **detected = NULL, *fp = getenv("PERFDB_FINGERPRINT");
	const char *to_kafka = NULL, *from_target = NULL;
	const char *group = cmd_default_text(&cmd_ingest, "group");
	int c, force = 0, verbose = 0, follow = 0, each = 0, status = PDB_EXIT_OK;
	int consumer_opts = 0; /* --group, --follow or --broker-timeout given */
	double broker_timeout = cmd_default_number(&cmd_ingest, "broker-timeout");


	while ((c = cmd_next_option(argc, argv, &cmd_ingest)) != -1) {
		switch (c) {
		case 'f': opts.format = optarg; break;
		case 'n': opts.name = optarg; break;
		case OPT_MAP: opts.map_path = optarg; break;
		case 'v': verbose = 1; break;
		case OPT_FORCE: force = 1; break;
		case OPT_EACH: each = 1; break;
		case OPT_STRICT: opts.strict = 1; break;
		case OPT_MAX_INPUT: opts.limits.max_bytes = cmd_arg.size; break;
		case OPT_MAX_RATIO: opts.limits.max_ratio = cmd_arg.number; break;
		case OPT_TO_KAFKA: to_kafka = optarg; break;
		case OPT_FROM_KAFKA: from_target = optarg; break;
		case OPT_GROUP: group = optarg; consumer_opts = 1; break;
		case OPT_FOLLOW: follow = 1; consumer_opts = 1; break;
		case OPT_BROKER_TIMEOUT: broker_timeout = cmd_arg.number; consumer_opts = 1; break;
		case OPT_LIST:
			list_formats();
			goto out;
		case 'a':
		case 'd':
			if (kv_add(c == 'a' ? &attrs : &dims, optarg) < 0) {
				status = cmd_usage_error(&cmd_ingest, "expected KEY=VALUE, got '%s'", optarg);
				goto out;
			}
			if (c == 'a')
				warn_empty_identity(&attrs.items[attrs.n - 1]);
			break;
		default:
			if ((status = cmd_common_option(&cmd_ingest, ctx, c)) >= 0)
				goto out;
			status = PDB_EXIT_OK;
		}
	}
	if (from_target) {
		if (optind < argc || to_kafka)
			status = cmd_usage_error(&cmd_ingest, "--from-kafka takes no files and no --to-kafka");
		else
			status = from_kafka(ctx, from_target, group, follow,
					    broker_timeout);
		goto out;
	}
	if (consumer_opts) {
		status = cmd_usage_error(&cmd_ingest, "--group, --follow and --broker-timeout go "
					 "with --from-kafka");
		goto out;
	}
	if (optind >= argc) {
		status = cmd_usage_error(&cmd_ingest, "no file to ingest");
		goto out;
	}
	if (each && opts.name) {
		status = cmd_usage_error(&cmd_ingest, "--each makes several runs: they cannot "
					 "share one --name");
		goto out;
	}
	if (stdin_twice(argv + optind, argc - optind)) {
		status = cmd_usage_error(&cmd_ingest, "- (standard input) given twice");
		goto out;
	}
	/* the environment's limits where no option gave one */
	if ((!opts.limits.max_bytes &&
	     (status = env_limit(&opts.limits, "max-input", "PERFDB_MAX_INPUT")) != 0) ||
	    (!opts.limits.max_ratio &&
	     (status = env_limit(&opts.limits, "max-ratio", "PERFDB_MAX_RATIO")) != 0))
		goto out;
	opts.attrs = attrs.items;
	opts.nattrs = attrs.n;
	opts.dims = dims.items;
	opts.ndims = dims.n;
	if (fp && (strcmp(fp, "0") == 0 || strcmp(fp, "off") == 0))
		opts.fingerprint = 0;
	nruns = each ? (size_t)(argc - optind) : 1;
	runs = pdb_xcalloc(nruns, sizeof *runs);
	detected = pdb_xcalloc(nruns, sizeof *detected);
	/* every file read before anything is stored */
	for (size_t i = 0; i < nruns; i++) {
		const char *const *paths = (const char *const *)argv + optind + (each ? i : 0);

		runs[i] = pdb_ingest_files(paths, each ? 1 : (size_t)(argc - optind), &opts,
					   &detected[i], &err);
		if (!runs[i]) {
			status = cmd_fail("ingest", &err);
			goto out;
		}
	}
	/* --to-kafka alone publishes; with an explicit --db it stores first */
	if ((!to_kafka || ctx->db_path) &&
	    (!(store = cmd_open_store(ctx, &err)) ||
	     pdb_store_insert_runs(store, runs, nruns, force, &refused, &err) < 0)) {
		/* the file given, of the run refused */
		if (store && refused < nruns && (each || argc - optind == 1) && !err.source[0])
			snprintf(err.source, sizeof err.source, "%s", argv[optind + refused]);
		status = cmd_fail("ingest", &err);
		goto out;
	}
	for (size_t i = 0; i < nruns; i++) {
		if (to_kafka && pdb_kafka_publish_run(to_kafka, runs[i], &err) < 0) {
			status = cmd_fail("ingest", &err);
			goto out;
		}
		warn(runs[i]);
		if (verbose)
			report(runs[i], detected[i], each ? argv[optind + i] : NULL);
		if (store)
			printf("run%lld\n", (long long)runs[i]->id);
		else
			printf("%s\n", runs[i]->uuid);
	}
out:
	for (size_t i = 0; runs && i < nruns; i++)
		pdb_run_free(runs[i]);
	free(runs);
	free(detected);
	pdb_store_close(store);
	kv_release(&attrs);
	kv_release(&dims);
	return status;
}
