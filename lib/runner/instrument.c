/* Instruments: what a benchmark's measured repetitions run under beside
 * the times and peak RSS always recorded (instrument.h). */
#include "runner/instrument.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/cachegrind.h"
#include "runner/counters.h"
#include "util.h"

#define CACHEGRIND_TIMEOUT 50 /* times the benchmark's timeout: cachegrind runs 10 to 50 times slower */

const char *const pdb_measure_names[] = { "instructions", "cycles", "branch-misses", "cache-misses", NULL };
const char *const pdb_measure_metrics[] = { "instructions", "cycles", "branch_misses", "cache_misses", NULL };

unsigned pdb_measure_find(const char *name, char *why, size_t size)
{
	char hint[80];

	for (int i = 0; i < PDB_MEASURE_COUNT; i++)
		if (strcmp(name, pdb_measure_names[i]) == 0)
			return 1u << i;
	snprintf(why, size, "'%s' is not an instrument: instructions, cycles, branch-misses or cache-misses%s",
		 name, pdb_did_you_mean(name, pdb_measure_names, PDB_MEASURE_COUNT, hint, sizeof hint));
	return 0;
}

int pdb_measure_parse_list(const char *list, unsigned *mask, char *why, size_t size)
{
	char *copy = pdb_xstrdup(list), *save = NULL;
	int ret = 0;

	*mask = 0;
	if (strcmp(list, "none") != 0)
		for (char *t = strtok_r(copy, ",", &save); t && ret == 0; t = strtok_r(NULL, ",", &save)) {
			unsigned bit = pdb_measure_find(t, why, size);
			*mask |= bit;
			ret = bit ? 0 : -1;
		}
	free(copy);
	return ret;
}

const char *pdb_measure_text(unsigned mask, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < PDB_MEASURE_COUNT && len < size; i++)
		if (mask & (1u << i))
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "", pdb_measure_names[i]);
	return buf;
}

int pdb_instruments_choose(const struct pdb_spec *spec, const struct pdb_plan *plan,
			   struct pdb_instruments *out, struct pdb_err *err)
{
	char counters_why[200], names[120];

	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < plan->nsteps; i++)
		out->mask |= spec->benches[plan->steps[i].bench].measure;
	if (!out->mask)
		return 0;
	pdb_measure_text(out->mask, names, sizeof names);
	if (pdb_counters_probe(out->mask, counters_why, sizeof counters_why) == 0) {
		snprintf(out->note, sizeof out->note, "%s: counted by the hardware counters (perf_event_open), "
			 "user space, the whole process tree, in each measured repetition", names);
		return 0;
	}
	if (out->mask & ~(unsigned)PDB_MEASURE_INSTRUCTIONS) {
		char why[200];
		if (pdb_counters_probe(out->mask & ~(unsigned)PDB_MEASURE_INSTRUCTIONS, why, sizeof why) == 0)
			snprintf(why, sizeof why, "%s", counters_why); /* those counted, instructions not */
		return pdb_err_set(err, PDB_EXIT_USAGE, "measure: %s; only instructions can be counted without "
				   "hardware counters (by valgrind)", why);
	}
	if (!(out->valgrind = pdb_cachegrind_find()))
		return pdb_err_set(err, PDB_EXIT_USAGE, "measure: instructions: %s, and no valgrind on PATH to "
				   "count them instead (apt-get install valgrind)", counters_why);
	snprintf(out->note, sizeof out->note, "instructions: counted by valgrind's cachegrind, the whole "
		 "process tree, as there is %s: each measured repetition runs twice, as it is for the times and "
		 "under cachegrind (10 to 50 times slower) for the count", counters_why);
	return 0;
}

void pdb_instruments_release(struct pdb_instruments *in)
{
	free(in->valgrind);
	in->valgrind = NULL;
}

const char *pdb_instruments_kind(const struct pdb_instruments *in, unsigned bit)
{
	return in->valgrind && bit == PDB_MEASURE_INSTRUCTIONS ? "cachegrind" : "counters";
}

/* The command of plain once more under cachegrind: its instructions. */
static int under_cachegrind(const struct pdb_instruments *in, const struct pdb_exec_opts *plain,
			    double *ir, char *why, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = pdb_xasprintf("%s/perfdb-cachegrind-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	struct pdb_exec_opts o = *plain;
	struct pdb_exec_result res;
	struct pdb_err err;
	char **wrap, collect_why[400];
	int ret = -1;

	if (!mkdtemp(dir)) {
		snprintf(why, size, "cachegrind: temporary folder: %s", strerror(errno));
		free(dir);
		return -1;
	}
	wrap = pdb_cachegrind_wrap(in->valgrind, dir);
	o.wrap = (const char *const *)wrap;
	o.stdout_path = NULL;
	o.counters = 0;
	o.timeout = plain->timeout * CACHEGRIND_TIMEOUT;
	if (pdb_exec_run(&o, &res, &err) < 0)
		snprintf(why, size, "cachegrind: %s", err.msg);
	else if (res.interrupted)
		snprintf(why, size, "interrupted under cachegrind");
	else if (res.status != 0 || res.timed_out)
		snprintf(why, size, "under cachegrind: %s %d%s%s", res.timed_out ? "timed out, status" : "exit status",
			 res.status, res.stderr_tail[0] ? ": " : "", res.stderr_tail);
	else
		ret = 0;
	/* the files are removed whatever happened */
	if (pdb_cachegrind_collect(dir, ir, collect_why, sizeof collect_why) < 0 && ret == 0) {
		snprintf(why, size, "%s", collect_why);
		ret = -1;
	}
	pdb_cachegrind_wrap_free(wrap);
	free(dir);
	return ret;
}

int pdb_instruments_values(const struct pdb_instruments *in, unsigned mask, const struct pdb_exec_opts *plain,
			   const struct pdb_exec_result *counted, double values[PDB_MEASURE_COUNT],
			   char *why, size_t size)
{
	memcpy(values, counted->counts, sizeof counted->counts);
	if (in->valgrind && (mask & PDB_MEASURE_INSTRUCTIONS))
		return under_cachegrind(in, plain, &values[0], why, size);
	return 0;
}
