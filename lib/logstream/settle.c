/* Log stream settling: wait until the pipeline's probes see nothing new. */
#include "logstream/settle.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "logstream/probe.h"
#include "util.h"

#define NS 1000000000LL

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * NS + t.tv_nsec;
}

int pdb_logstream_settle(const struct pdb_logstream_spec *ls, double quiet, double max,
			 volatile sig_atomic_t *stop, double *waited, struct pdb_err *err)
{
	size_t n = ls->nprobes ? ls->nprobes : (size_t)ls->has_probe;
	const struct pdb_logstream_probe *src = ls->nprobes ? ls->probes : &ls->probe;
	struct pdb_logstream_probe *p = pdb_xcalloc(n + 1, sizeof *p);
	struct pdb_logstream_tally *t = pdb_xcalloc(n + 1, sizeof *t);
	struct pdb_logstream_prober **pr = pdb_xcalloc(n + 1, sizeof *pr);
	int64_t start = now_ns(), last = start, hush = (int64_t)(quiet * 1e9);
	unsigned long long *seen = pdb_xcalloc(n + 1, sizeof *seen);
	int ret = -1;

	for (size_t k = 0; k < n; k++) {
		p[k] = src[k];
		p[k].match = NULL; /* count every line: any of them means the pipeline is still busy */
		if (p[k].command && (int64_t)(2 * p[k].every * 1e9) > hush)
			hush = (int64_t)(2 * p[k].every * 1e9);
		t[k].rate = 1;
		t[k].t0 = start;
		if (!(pr[k] = pdb_logstream_probe_open(&p[k], &t[k], err)) ||
		    pdb_logstream_probe_start(pr[k], err) < 0)
			goto out;
	}
	for (;;) {
		int64_t now = now_ns();
		for (size_t k = 0; k < n; k++) {
			unsigned long long got = atomic_load(&t[k].received);
			if (got != seen[k]) {
				seen[k] = got;
				last = now;
			}
		}
		if (now - last >= hush) {
			ret = 1;
			break;
		}
		if ((double)(now - start) / 1e9 >= max || (stop && *stop)) {
			ret = 0;
			break;
		}
		nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
	}
out:
	*waited = (double)(now_ns() - start) / 1e9;
	for (size_t k = 0; k < n; k++)
		pdb_logstream_probe_close(pr[k]);
	for (size_t k = 0; k < n; k++) {
		free(t[k].delay);
		free(t[k].arrived);
		free(t[k].delay_p99);
	}
	free(seen);
	free(pr);
	free(t);
	free(p);
	return ret;
}
