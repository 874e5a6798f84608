/* Fingerprint: the environment a run was made in (host, os, cpu, git commit). */
#include "fingerprint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util.h"

static void set_default(struct pdb_run *run, const char *key, const char *value)
{
	if (value && *value && !pdb_run_get_attr(run, key))
		pdb_run_set_attr(run, key, value);
}

/* The value after "key<spaces>:" on the first matching line of a file. */
static int file_field(const char *path, const char *key, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t klen = strlen(key);
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof line, f)) {
		char *colon, *v;
		if (strncmp(line, key, klen) != 0 || !(colon = strchr(line + klen, ':')))
			continue;
		for (v = colon + 1; *v == ' ' || *v == '\t' || *v == '"'; v++)
			;
		v[strcspn(v, "\"\n")] = '\0';
		snprintf(out, size, "%s", v);
		found = 1;
	}
	fclose(f);
	return found;
}

/* First line of a command's output, or "" (quiet: stderr discarded). */
static void command_line(const char *cmd, char *out, size_t size)
{
	FILE *p = popen(cmd, "r");

	out[0] = '\0';
	if (!p)
		return;
	if (fgets(out, (int)size, p))
		out[strcspn(out, "\n")] = '\0';
	while (fgetc(p) != EOF)
		;
	if (pclose(p) != 0)
		out[0] = '\0';
}

/* dir quoted for /bin/sh (into buf). */
static void sh_quote(const char *dir, struct pdb_buf *buf)
{
	pdb_buf_puts(buf, "'");
	for (const char *p = dir; *p; p++)
		if (*p == '\'')
			pdb_buf_puts(buf, "'\\''");
		else
			pdb_buf_add(buf, p, 1);
	pdb_buf_puts(buf, "'");
}

/* The first line of git's output for args in dir (NULL: the current one). */
static void git_line(const char *dir, const char *args, char *out, size_t size)
{
	struct pdb_buf cmd;

	pdb_buf_init(&cmd);
	pdb_buf_puts(&cmd, "git ");
	if (dir) {
		pdb_buf_puts(&cmd, "-C ");
		sh_quote(dir, &cmd);
		pdb_buf_puts(&cmd, " ");
	}
	pdb_buf_puts(&cmd, args);
	command_line(cmd.data, out, size);
	pdb_buf_release(&cmd);
}

static void capture_git(struct pdb_run *run, const char *dir)
{
	const char *sha = getenv("GITHUB_SHA"), *ref = getenv("GITHUB_REF_NAME");
	char buf[256];

	if (!sha)
		sha = getenv("CI_COMMIT_SHA");
	if (!ref)
		ref = getenv("CI_COMMIT_REF_NAME");
	if (!dir) { /* CI checked out the current directory, not dir */
		set_default(run, "commit", sha);
		set_default(run, "branch", ref);
	}
	if (getenv("CI_JOB_ID"))
		set_default(run, "ci_job", getenv("CI_JOB_ID"));
	else if (getenv("GITHUB_RUN_ID"))
		set_default(run, "ci_job", getenv("GITHUB_RUN_ID"));
	git_line(dir, "rev-parse --is-inside-work-tree 2>/dev/null", buf, sizeof buf);
	if (strcmp(buf, "true") != 0)
		return;
	git_line(dir, "rev-parse HEAD 2>/dev/null", buf, sizeof buf);
	set_default(run, "commit", buf);
	git_line(dir, "rev-parse --abbrev-ref HEAD 2>/dev/null", buf, sizeof buf);
	/* a detached HEAD is on no branch: "HEAD" is no branch's name */
	if (strcmp(buf, "HEAD") != 0)
		set_default(run, "branch", buf);
	/* no program the repository configures may run: an untrusted checkout's
	 * fsmonitor hook or diff drivers must not execute on ingest */
	git_line(dir, "-c core.fsmonitor= -c core.untrackedCache=false --no-optional-locks "
		 "status --porcelain --untracked-files=no --no-renames 2>/dev/null | head -1 | wc -l",
		 buf, sizeof buf);
	set_default(run, "dirty", strcmp(buf, "0") == 0 ? "false" : "true");
}

void pdb_fingerprint_capture(struct pdb_run *run, const char *git_dir)
{
	struct utsname u;
	char buf[256];
	long n;

	if (uname(&u) == 0) {
		set_default(run, "host", u.nodename);
		set_default(run, "kernel", u.release);
		set_default(run, "arch", u.machine);
	}
	if (file_field("/etc/os-release", "PRETTY_NAME", buf, sizeof buf))
		set_default(run, "os", buf);
	if (file_field("/proc/cpuinfo", "model name", buf, sizeof buf))
		set_default(run, "cpu_model", buf);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n > 0) {
		snprintf(buf, sizeof buf, "%ld", n);
		set_default(run, "vcpus", buf);
	}
	if (file_field("/proc/meminfo", "MemTotal", buf, sizeof buf)) {
		long long kib = strtoll(buf, NULL, 10);
		snprintf(buf, sizeof buf, "%lld", kib * 1024);
		set_default(run, "memory", buf);
	}
	capture_git(run, git_dir);
}
