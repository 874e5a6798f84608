/* Exec: run one command in its own process group, pinned, timed, with rusage. */
#include "runner/exec.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner/counters.h"
#include "runner/proc.h"
#include "runner/steady_env.h"
#include "util.h"

#define KILL_GRACE_MS 1000

int pdb_exec_cpus_allowed(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof set, &set) < 0)
		return (int)sysconf(_SC_NPROCESSORS_ONLN);
	return CPU_COUNT(&set);
}

/* The first n CPUs of this process's affinity mask. */
static int pin(int n)
{
	cpu_set_t allowed, want;
	int taken = 0;

	if (sched_getaffinity(0, sizeof allowed, &allowed) < 0)
		return -1;
	CPU_ZERO(&want);
	for (int cpu = 0; cpu < CPU_SETSIZE && taken < n; cpu++)
		if (CPU_ISSET(cpu, &allowed)) {
			CPU_SET(cpu, &want);
			taken++;
		}
	if (taken < n)
		return -1;
	return sched_setaffinity(0, sizeof want, &want);
}

extern char **environ;

static int env_sets(const struct pdb_exec_opts *o, const char *name)
{
	for (size_t i = 0; i < o->nenv; i++)
		if (strcmp(o->env[i].key, name) == 0)
			return 1;
	return 0;
}

/* In the child: never returns. Failures are reported as exit 127. The
 * child dies with perfdb (parent: its pid, taken before the fork), even
 * by SIGKILL, which perfdb cannot catch to stop it. With go_fd, it execs
 * when the parent has written a byte there (its counters opened on it). */
static void child(const struct pdb_exec_opts *o, int err_fd, int go_fd, pid_t parent)
{
	const char *shell[] = { "/bin/sh", "-c", o->shell, NULL };
	const char *const *cmd = o->argv ? o->argv : shell;
	const char **full;
	size_t nwrap = 0, ncmd = 0;
	int out;
	char go;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127); /* perfdb died before the request took: nobody waits */
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (o->vcpus > 0 && pin(o->vcpus) < 0) {
		dprintf(err_fd, "perfdb: cannot pin to %d CPUs: %s\n", o->vcpus, strerror(errno));
		_exit(127);
	}
	out = open(o->stdout_path ? o->stdout_path : "/dev/null",
		   O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0 || dup2(out, 1) < 0 || dup2(err_fd, 2) < 0)
		_exit(127);
	for (size_t i = 0; i < o->nenv; i++)
		setenv(o->env[i].key, o->env[i].value, 1);
	if (o->steady_env && !env_sets(o, "PYTHONHASHSEED"))
		setenv("PYTHONHASHSEED", "0", 1); /* else each run hashes its strings apart */
	if (o->cwd && chdir(o->cwd) < 0) {
		dprintf(2, "perfdb: cannot enter %s: %s\n", o->cwd, strerror(errno));
		_exit(127);
	}
	while (o->wrap && o->wrap[nwrap])
		nwrap++;
	while (cmd[ncmd])
		ncmd++;
	full = pdb_xcalloc(nwrap + ncmd + 1, sizeof *full);
	if (nwrap)
		memcpy(full, o->wrap, nwrap * sizeof *full);
	memcpy(full + nwrap, cmd, ncmd * sizeof *full);
	if (o->steady_env)
		environ = pdb_steady_env(cmd, environ);
	if (go_fd >= 0 && read(go_fd, &go, 1) != 1)
		_exit(127); /* the parent could not open the counters: it says why */
	execvp(full[0], (char *const *)full);
	dprintf(2, "perfdb: cannot run %s: %s\n", full[0], strerror(errno));
	_exit(127);
}

/* A guard outlives perfdb to stop the command's whole process group, which
 * PR_SET_PDEATHSIG cannot (it reaches the direct child only, not what a
 * shell started): a process that reads the group's id from a pipe whose
 * only writer is perfdb, then waits for the pipe's end, which comes when
 * perfdb dies (even by SIGKILL), and kills the group. perfdb kills the guard
 * when the command is over. Started before the command, so that its fork
 * is not timed. */
struct guard {
	pid_t pid; /* -1: none (the direct child still dies with perfdb) */
	int fd;    /* the pipe's writing end */
};

static void guard_main(int fd)
{
	pid_t group = 0;
	char c;

	signal(SIGINT, SIG_IGN); /* Ctrl-C reaches perfdb's group: perfdb stops the command */
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	close_range(0, (unsigned)fd - 1, 0);
	close_range((unsigned)fd + 1, ~0U, 0);
	if (read(fd, &group, sizeof group) == (ssize_t)sizeof group && group > 0) {
		while (read(fd, &c, 1) != 0 && errno == EINTR)
			;
		kill(-group, SIGKILL);
	}
	_exit(0);
}

static struct guard guard_start(void)
{
	struct guard g = { -1, -1 };
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		return g;
	if ((g.pid = fork()) == 0)
		guard_main(p[0]);
	close(p[0]);
	if (g.pid < 0)
		close(p[1]);
	else
		g.fd = p[1];
	return g;
}

static void guard_stop(struct guard *g)
{
	if (g->pid <= 0)
		return;
	kill(g->pid, SIGKILL);
	while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
		;
	close(g->fd);
	g->pid = -1;
}

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Stop the whole process group: TERM, then KILL after a grace period. */
static void stop_group(pid_t pid, int pidfd)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	kill(-pid, SIGTERM);
	if (poll(&p, 1, KILL_GRACE_MS) <= 0)
		kill(-pid, SIGKILL);
}

/* Whether a process of group pgid still runs: not a zombie, which the
 * group keeps until its parent reaps it (an orphan's is init, which may
 * never do so). */
static int group_runs(pid_t pgid)
{
	DIR *d;
	struct dirent *e;
	int runs = 0;

	if (kill(-pgid, 0) < 0)
		return 0;
	if (!(d = opendir("/proc")))
		return 1;
	while (!runs && (e = readdir(d))) {
		char path[64], text[1024], *end;
		long pid = strtol(e->d_name, &end, 10);
		struct pdb_proc_task t;
		ssize_t n;
		int fd;
		if (*end || pid <= 0)
			continue;
		snprintf(path, sizeof path, "/proc/%ld/stat", pid);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		n = read(fd, text, sizeof text - 1);
		close(fd);
		text[n > 0 ? n : 0] = '\0';
		runs = n > 0 && pdb_proc_pid_stat(text, &t) == 0 && t.pgrp == pgid && t.state != 'Z';
	}
	closedir(d);
	return runs;
}

void pdb_exec_group_stop(struct pdb_exec_group *g)
{
	struct guard guard = { g->guard, g->guard_fd };
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	if (g->pgid > 0) {
		kill(-g->pgid, SIGTERM);
		for (int ms = 0; ms < KILL_GRACE_MS && group_runs(g->pgid); ms += 10)
			nanosleep(&tick, NULL);
		kill(-g->pgid, SIGKILL);
	}
	guard_stop(&guard);
	*g = (struct pdb_exec_group){ 0, -1, -1 };
}

static void read_tail(int fd, char *out, size_t size)
{
	char buf[4096];
	size_t have = 0;
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	out[0] = '\0';
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		/* keep the last size-1 bytes seen */
		for (ssize_t i = 0; i < n; i++) {
			if (have == size - 1) {
				memmove(out, out + 1, size - 2);
				have--;
			}
			out[have++] = buf[i];
		}
	}
	while (have > 0 && (out[have - 1] == '\n' || out[have - 1] == ' '))
		have--;
	out[have] = '\0';
}

int pdb_exec_run(const struct pdb_exec_opts *o, struct pdb_exec_result *res,
		 struct pdb_err *err)
{
	char errpath[] = "/tmp/perfdb-stderr-XXXXXX";
	struct timespec t0;
	struct pdb_counters counters = { 0 };
	struct rusage ru;
	int err_fd, pidfd = -1, wstatus = 0, ret = -1, go[2] = { -1, -1 };
	struct guard guard;
	pid_t pid, parent;

	memset(res, 0, sizeof *res);
	if (o->keep)
		*o->keep = (struct pdb_exec_group){ 0, -1, -1 };
	if ((err_fd = mkstemp(errpath)) < 0)
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "temporary file: %s", strerror(errno));
	unlink(errpath);
	guard = guard_start();
	if (o->counters && pipe2(go, O_CLOEXEC) < 0) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "pipe: %s", strerror(errno));
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		child(o, err_fd, go[0], parent);
	setpgid(pid, pid); /* also in the parent: no race with kill(-pid) */
	if (guard.pid > 0 && write(guard.fd, &pid, sizeof pid) != (ssize_t)sizeof pid)
		guard_stop(&guard); /* told nothing: of no use */
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0 || (o->counters && pdb_counters_open(&counters, o->counters, pid, err) < 0)) {
		if (pidfd < 0)
			pdb_err_set(err, PDB_EXIT_RUNTIME, "pidfd_open: %s (Linux 5.3 or later is needed)",
				    strerror(errno));
		kill(-pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto out;
	}
	if (o->counters && write(go[1], "x", 1) != 1) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "pipe: %s", strerror(errno));
		kill(-pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pdb_counters_close(&counters, res->counts);
		goto out;
	}
	for (;;) {
		struct pollfd p = { .fd = pidfd, .events = POLLIN };
		int wait_ms = -1, rc;
		if (o->timeout > 0) {
			double left = o->timeout - since(&t0);
			wait_ms = left > 0 ? (int)(left * 1000) + 1 : 0;
		}
		if (o->stop && *o->stop) {
			res->interrupted = 1;
			stop_group(pid, pidfd);
			break;
		}
		rc = poll(&p, 1, wait_ms);
		if (rc > 0)
			break;
		if (rc == 0 && o->timeout > 0 && since(&t0) >= o->timeout) {
			res->timed_out = 1;
			stop_group(pid, pidfd);
			break;
		}
	}
	while (wait4(pid, &wstatus, 0, &ru) < 0 && errno == EINTR)
		;
	res->wall = since(&t0);
	if (o->keep && !res->timed_out && !res->interrupted && WIFEXITED(wstatus) &&
	    WEXITSTATUS(wstatus) == 0 && group_runs(pid)) {
		/* what it left running lives on, its guard with it */
		*o->keep = (struct pdb_exec_group){ .pgid = pid, .guard = guard.pid, .guard_fd = guard.fd };
		guard = (struct guard){ -1, -1 };
	} else
		kill(-pid, SIGKILL); /* anything the command left running in its group */
	if (o->counters)
		pdb_counters_close(&counters, res->counts);
	res->user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	res->sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	res->max_rss = (double)ru.ru_maxrss * 1024.0;
	res->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	read_tail(err_fd, res->stderr_tail, sizeof res->stderr_tail);
	ret = 0;
out:
	guard_stop(&guard);
	if (pidfd >= 0)
		close(pidfd);
	if (go[0] >= 0) {
		close(go[0]);
		close(go[1]);
	}
	close(err_fd);
	return ret;
}
