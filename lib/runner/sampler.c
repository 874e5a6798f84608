/* Sampler: a thread reading /proc every `every` seconds while a measured step runs. */
#include "runner/sampler.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <regex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner/proc.h"
#include "util.h"

#define READ_MAX 65536              /* of one /proc file: /proc/stat on 1000 CPUs fits */
#define MAX_VALUES (1 << 21)        /* doubles of readings a step keeps: 16 MiB */
#define NAP_MAX 0.02                /* seconds the thread sleeps at once: how soon it stops */

/* A process that matched process spec proc, as last read. */
struct task {
	int pid;
	unsigned proc;
	struct pdb_proc_task stat;
};

struct snapshot {
	double at, boot;            /* CLOCK_MONOTONIC and CLOCK_BOOTTIME seconds */
	struct task *tasks;         /* by (proc, pid) */
	size_t ntasks, cap;
	double *rss;                /* per process: summed over its tasks */
	size_t *count;              /* per process: tasks matched */
	struct pdb_proc_cpu cpu;
	double load1, mem, disk_read, disk_write, net_rx, net_tx; /* NaN: unreadable */
	int has_cpu;
};

struct pdb_sampler {
	const struct pdb_sample_spec *spec;
	regex_t *re;
	size_t nre;
	pthread_t thread;
	int started;
	atomic_int stop;
	double hz, t0;              /* clock ticks a second; the first reading's time */
	struct snapshot prev, cur;
	size_t cap, max_rows;
	char *buf;                  /* READ_MAX + 1 */
	struct pdb_sample_readings rd;
};

static double clock_s(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void nap(double s)
{
	struct timespec t = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	nanosleep(&t, NULL);
}

/* The file's first READ_MAX bytes into s->buf; its length, or -1. */
static ssize_t slurp(struct pdb_sampler *s, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, len = 0;

	if (fd < 0)
		return -1;
	while (len < READ_MAX && (n = read(fd, s->buf + len, (size_t)(READ_MAX - len))) > 0)
		len += n;
	close(fd);
	s->buf[len] = '\0';
	return len;
}

/* A whole disk that is a device: not a partition, loop, RAM or mapper device. */
static int is_disk(const char *name, void *ctx)
{
	char path[128];

	(void)ctx;
	snprintf(path, sizeof path, "/sys/block/%s/device", name);
	return access(path, F_OK) == 0;
}

static int by_task(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Read the processes the patterns match into sn (the sampler's own left out). */
static void read_processes(struct pdb_sampler *s, struct snapshot *sn)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int self = getpid();

	sn->ntasks = 0;
	for (size_t p = 0; p < s->nre; p++) {
		sn->rss[p] = 0;
		sn->count[p] = 0;
	}
	while (d && (e = readdir(d))) {
		char path[64], *end;
		long pid = strtol(e->d_name, &end, 10);
		struct pdb_proc_task st = { 0 };
		double rss = 0;
		ssize_t n;
		int read_stat = 0;
		if (*end || pid <= 0 || pid == self)
			continue;
		snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
		if ((n = slurp(s, path)) <= 0)
			continue; /* gone, or a kernel thread */
		pdb_proc_cmdline(s->buf, (size_t)n);
		for (size_t p = 0; p < s->nre; p++) {
			if (regexec(&s->re[p], s->buf, 0, NULL, 0) != 0)
				continue;
			if (!read_stat) {
				char *cmdline = pdb_xstrdup(s->buf);
				snprintf(path, sizeof path, "/proc/%ld/stat", pid);
				read_stat = slurp(s, path) > 0 && pdb_proc_pid_stat(s->buf, &st) == 0 ? 1 : -1;
				snprintf(path, sizeof path, "/proc/%ld/status", pid);
				if (read_stat > 0 && (slurp(s, path) <= 0 || pdb_proc_rss(s->buf, &rss) < 0))
					rss = 0;
				strcpy(s->buf, cmdline); /* the other patterns see the command line again */
				free(cmdline);
			}
			if (read_stat < 0)
				break; /* it exited while being read */
			pdb_grow((void **)&sn->tasks, &sn->cap, sn->ntasks + 1, sizeof *sn->tasks);
			sn->tasks[sn->ntasks++] = (struct task){ .pid = (int)pid, .proc = (unsigned)p, .stat = st };
			sn->rss[p] += rss;
			sn->count[p]++;
		}
	}
	if (d)
		closedir(d);
	qsort(sn->tasks, sn->ntasks, sizeof *sn->tasks, by_task);
}

static void read_machine(struct pdb_sampler *s, struct snapshot *sn)
{
	sn->load1 = sn->mem = sn->disk_read = sn->disk_write = sn->net_rx = sn->net_tx = NAN;
	sn->has_cpu = slurp(s, "/proc/stat") > 0 && pdb_proc_stat(s->buf, &sn->cpu) == 0;
	if (slurp(s, "/proc/loadavg") <= 0 || pdb_proc_loadavg(s->buf, &sn->load1) < 0)
		sn->load1 = NAN;
	if (slurp(s, "/proc/meminfo") <= 0 || pdb_proc_meminfo(s->buf, &sn->mem) < 0)
		sn->mem = NAN;
	if (slurp(s, "/proc/diskstats") < 0 ||
	    pdb_proc_diskstats(s->buf, is_disk, NULL, &sn->disk_read, &sn->disk_write) < 0)
		sn->disk_read = sn->disk_write = NAN;
	if (slurp(s, "/proc/net/dev") <= 0 || pdb_proc_netdev(s->buf, &sn->net_rx, &sn->net_tx) < 0)
		sn->net_rx = sn->net_tx = NAN;
}

static void snapshot(struct pdb_sampler *s, struct snapshot *sn)
{
	sn->at = clock_s(CLOCK_MONOTONIC);
	sn->boot = clock_s(CLOCK_BOOTTIME);
	if (s->nre)
		read_processes(s, sn);
	if (s->spec->machine)
		read_machine(s, sn);
}

/* A counter's change per second; NaN when either reading is missing, 0
 * when it went back (a device gone). */
static double per_second(double before, double after, double dt)
{
	if (isnan(before) || isnan(after))
		return NAN;
	return after > before ? (after - before) / dt : 0;
}

/* The CPU ticks task t of b spent since a: since a's reading of it, or
 * all of them when it started after a; 0 when a did not see it (it has
 * only now come to match). */
static void task_ticks(const struct snapshot *a, const struct task *t, double hz, double *user, double *sys)
{
	const struct task *was = bsearch(t, a->tasks, a->ntasks, sizeof *t, by_task);

	*user = *sys = 0;
	if (was && was->stat.starttime == t->stat.starttime) {
		if (t->stat.utime >= was->stat.utime)
			*user = (double)(t->stat.utime - was->stat.utime);
		if (t->stat.stime >= was->stat.stime)
			*sys = (double)(t->stat.stime - was->stat.stime);
	} else if ((double)t->stat.starttime / hz >= a->boot - 1 / hz) {
		*user = (double)t->stat.utime;
		*sys = (double)t->stat.stime;
	}
}

/* The period from a to b as a row of the readings; 0, or -1 at the bound. */
static int add_row(struct pdb_sampler *s, const struct snapshot *a, const struct snapshot *b)
{
	struct pdb_sample_readings *rd = &s->rd;
	double dt = b->at - a->at, *row;

	if (rd->nrows == s->max_rows) {
		rd->truncated = 1;
		return -1;
	}
	if (rd->nrows == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		if (s->cap > s->max_rows)
			s->cap = s->max_rows;
		rd->t = pdb_xrealloc(rd->t, s->cap * sizeof *rd->t);
		rd->v = pdb_xrealloc(rd->v, s->cap * rd->width * sizeof *rd->v);
	}
	rd->t[rd->nrows] = a->at - s->t0;
	row = &rd->v[rd->nrows * rd->width];
	for (size_t p = 0; p < s->nre; p++) {
		double user = 0, sys = 0;
		for (size_t i = 0; i < b->ntasks; i++)
			if (b->tasks[i].proc == p) {
				double u, y;
				task_ticks(a, &b->tasks[i], s->hz, &u, &y);
				user += u;
				sys += y;
			}
		row[4 * p + PDB_SAMPLE_USER] = 100 * user / s->hz / dt;
		row[4 * p + PDB_SAMPLE_SYSTEM] = 100 * sys / s->hz / dt;
		row[4 * p + PDB_SAMPLE_RSS] = b->rss[p];
		row[4 * p + PDB_SAMPLE_COUNT] = (double)b->count[p];
		rd->matched[p] += b->count[p] > 0;
	}
	if (s->spec->machine) {
		double *m = &row[4 * s->nre];
		m[PDB_SAMPLE_LOAD1] = b->load1;
		m[PDB_SAMPLE_BUSY] = a->has_cpu && b->has_cpu && b->cpu.total > a->cpu.total &&
				     b->cpu.busy >= a->cpu.busy
			? 100 * (double)(b->cpu.busy - a->cpu.busy) / (double)(b->cpu.total - a->cpu.total) : NAN;
		m[PDB_SAMPLE_MEM] = b->mem;
		m[PDB_SAMPLE_DISK_READ] = per_second(a->disk_read, b->disk_read, dt);
		m[PDB_SAMPLE_DISK_WRITE] = per_second(a->disk_write, b->disk_write, dt);
		m[PDB_SAMPLE_NET_RX] = per_second(a->net_rx, b->net_rx, dt);
		m[PDB_SAMPLE_NET_TX] = per_second(a->net_tx, b->net_tx, dt);
	}
	rd->nrows++;
	return 0;
}

static void *sampler_main(void *arg)
{
	struct pdb_sampler *s = arg;
	double every = s->spec->every;
	size_t k = 1;

	while (!atomic_load(&s->stop)) {
		double next = s->t0 + (double)k * every, left = next - clock_s(CLOCK_MONOTONIC);
		struct snapshot t;
		if (left > 0) {
			nap(left > NAP_MAX ? NAP_MAX : left);
			continue;
		}
		snapshot(s, &s->cur);
		if (add_row(s, &s->prev, &s->cur) < 0)
			break; /* the bound: what was read stays */
		t = s->prev;
		s->prev = s->cur;
		s->cur = t;
		/* the next point of the grid, skipping what a late reading (a
		 * stalled machine) passed and one that would make a period
		 * shorter than half of every: ticks of 10 ms make short ones coarse */
		k = (size_t)((s->prev.at - s->t0) / every) + 1;
		if (s->t0 + (double)k * every - s->prev.at < every / 2)
			k++;
	}
	return NULL;
}

static void snapshot_init(struct snapshot *sn, size_t nproc)
{
	memset(sn, 0, sizeof *sn);
	sn->rss = pdb_xcalloc(nproc + 1, sizeof *sn->rss);
	sn->count = pdb_xcalloc(nproc + 1, sizeof *sn->count);
}

static void snapshot_release(struct snapshot *sn)
{
	free(sn->tasks);
	free(sn->rss);
	free(sn->count);
}

struct pdb_sampler *pdb_sampler_start(const struct pdb_sample_spec *spec, struct pdb_err *err)
{
	struct pdb_sampler *s = pdb_xcalloc(1, sizeof *s);
	long hz = sysconf(_SC_CLK_TCK);

	s->spec = spec;
	s->hz = hz > 0 ? (double)hz : 100;
	s->buf = pdb_xmalloc(READ_MAX + 1);
	s->re = pdb_xcalloc(spec->nprocesses + 1, sizeof *s->re);
	for (; s->nre < spec->nprocesses; s->nre++)
		if (regcomp(&s->re[s->nre], spec->processes[s->nre].pattern, REG_EXTENDED | REG_NOSUB) != 0) {
			pdb_err_set(err, PDB_EXIT_INPUT, "sample: process %s: '%s' is not a valid regular expression",
				    spec->processes[s->nre].name, spec->processes[s->nre].pattern);
			goto fail;
		}
	s->rd.spec = spec;
	s->rd.width = PDB_SAMPLE_PER_PROCESS * s->nre + (spec->machine ? PDB_SAMPLE_MACHINE : 0);
	s->rd.matched = pdb_xcalloc(s->nre + 1, sizeof *s->rd.matched);
	s->max_rows = MAX_VALUES / (s->rd.width ? s->rd.width : 1);
	snapshot_init(&s->prev, s->nre);
	snapshot_init(&s->cur, s->nre);
	snapshot(s, &s->prev);
	s->t0 = s->prev.at;
	if (pthread_create(&s->thread, NULL, sampler_main, s) != 0) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "sample: cannot start the sampler thread");
		goto fail;
	}
	s->started = 1;
	return s;
fail:
	pdb_sampler_free(s);
	return NULL;
}

const struct pdb_sample_readings *pdb_sampler_stop(struct pdb_sampler *s)
{
	if (s->started) {
		atomic_store(&s->stop, 1);
		pthread_join(s->thread, NULL);
		s->started = 0;
	}
	return &s->rd;
}

void pdb_sampler_free(struct pdb_sampler *s)
{
	if (!s)
		return;
	pdb_sampler_stop(s);
	for (size_t i = 0; i < s->nre; i++)
		regfree(&s->re[i]);
	free(s->re);
	snapshot_release(&s->prev);
	snapshot_release(&s->cur);
	free(s->rd.t);
	free(s->rd.v);
	free(s->rd.matched);
	free(s->buf);
	free(s);
}
