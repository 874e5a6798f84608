/* Hardware counters (perf_event_open): the user-space events of a process
 * tree, counted from its exec, its children's added as they end. */
#include "runner/counters.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runner/instrument.h"

static const unsigned long long event_of[PDB_COUNTERS_MAX] = {
	PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES,
	PERF_COUNT_HW_BRANCH_MISSES, PERF_COUNT_HW_CACHE_MISSES,
};

/* Event i on pid (0: this process), disabled until pid execs, inherited
 * by the children it starts after, the kernel's and hypervisor's part left out. */
static int open_event(int i, pid_t pid)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_HARDWARE;
	a.config = event_of[i];
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

int pdb_counters_probe(unsigned mask, char *why, size_t size)
{
	for (int i = 0; i < PDB_COUNTERS_MAX; i++) {
		int fd;
		if (!(mask & (1u << i)))
			continue;
		if ((fd = open_event(i, 0)) < 0) {
			snprintf(why, size, "no hardware counter of %s here (perf_event_open: %s)",
				 pdb_measure_names[i], strerror(errno));
			return -1;
		}
		close(fd);
	}
	return 0;
}

int pdb_counters_open(struct pdb_counters *c, unsigned mask, pid_t pid, struct pdb_err *err)
{
	c->mask = mask;
	for (int i = 0; i < PDB_COUNTERS_MAX; i++)
		c->fd[i] = -1;
	for (int i = 0; i < PDB_COUNTERS_MAX; i++) {
		if (!(mask & (1u << i)))
			continue;
		if ((c->fd[i] = open_event(i, pid)) < 0) {
			int e = errno;
			double unused[PDB_COUNTERS_MAX];
			pdb_counters_close(c, unused);
			return pdb_err_set(err, PDB_EXIT_RUNTIME, "perf_event_open (%s): %s", pdb_measure_names[i],
					   strerror(e));
		}
	}
	return 0;
}

void pdb_counters_close(struct pdb_counters *c, double counts[PDB_COUNTERS_MAX])
{
	for (int i = 0; i < PDB_COUNTERS_MAX; i++) {
		uint64_t v[3]; /* value, time enabled, time running */
		counts[i] = 0;
		if (c->fd[i] < 0)
			continue;
		if (read(c->fd[i], v, sizeof v) == (ssize_t)sizeof v)
			counts[i] = v[2] > 0 && v[2] < v[1] ? (double)v[0] * (double)v[1] / (double)v[2] : (double)v[0];
		close(c->fd[i]);
		c->fd[i] = -1;
	}
}
