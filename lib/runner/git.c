/* git, run as perfdb runs it: no hook, no fsmonitor, a process group of its own. */
#include "runner/git.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/exec.h"
#include "util.h"

#define MAX_GIT_ARGS 16

static const char *tmp_root(void)
{
	const char *dir = getenv("TMPDIR");
	return dir && *dir ? dir : "/tmp";
}

static char *read_all(const char *path)
{
	struct pdb_buf b;
	char chunk[4096];
	size_t got;
	FILE *f = fopen(path, "r");

	pdb_buf_init(&b);
	pdb_buf_add(&b, "", 0);
	while (f && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
		pdb_buf_add(&b, chunk, got);
	if (f)
		fclose(f);
	return b.data;
}

int pdb_git(const char *const *args, char **out, char why[512], struct pdb_err *err)
{
	const char *argv[MAX_GIT_ARGS] = { "git", "-c", "core.fsmonitor=", "-c", "core.hooksPath=/dev/null",
					   "--no-optional-locks" };
	size_t n = 6;
	char *path = pdb_xasprintf("%s/perfdb-git-XXXXXX", tmp_root());
	struct pdb_exec_opts eo = { .argv = argv, .stdout_path = path };
	struct pdb_exec_result res;
	int fd;

	while (*args && n < MAX_GIT_ARGS - 1)
		argv[n++] = *args++;
	if ((fd = mkstemp(path)) < 0) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "temporary file in %s: %s", tmp_root(), strerror(errno));
		free(path);
		return -1;
	}
	close(fd);
	if (pdb_exec_run(&eo, &res, err) < 0) {
		unlink(path);
		free(path);
		return -1;
	}
	if (out)
		*out = read_all(path);
	unlink(path);
	free(path);
	snprintf(why, 512, "%.*s", (int)strcspn(res.stderr_tail, "\n"), res.stderr_tail);
	return res.status;
}

/* REV's commit (full sha, caller frees), or NULL. */
static char *commit_of(const char *rev)
{
	char *spec = pdb_xasprintf("%s^{commit}", rev), *out = NULL, why[512];
	const char *verify[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", spec, NULL };
	struct pdb_err err;
	int status = pdb_git(verify, &out, why, &err);

	free(spec);
	if (status != 0 || !out || !*out) {
		free(out);
		return NULL;
	}
	out[strcspn(out, "\n")] = '\0';
	return out;
}

/* The commits git log lists with args ("%H %s" lines), appended to out. */
static int log_commits(const char **args, struct pdb_git_commit **out, size_t *n, size_t *cap,
		       struct pdb_err *err)
{
	char *text = NULL, why[512];
	int status = pdb_git(args, &text, why, err);

	if (status != 0) {
		free(text);
		return status < 0 ? -1 : pdb_err_set(err, PDB_EXIT_RUNTIME, "git log: %s", why[0] ? why : "failed");
	}
	for (char *line = text, *end; *line; line = end + (*end != '\0')) {
		char *space = strchr(line, ' ');
		end = line + strcspn(line, "\n");
		if (!space || space > end)
			space = end;
		pdb_grow((void **)out, cap, *n + 1, sizeof **out);
		(*out)[*n].sha = pdb_xstrndup(line, (size_t)(space - line));
		(*out)[*n].subject = pdb_xstrndup(space + (space < end), (size_t)(end - space - (space < end)));
		(*n)++;
	}
	free(text);
	return 0;
}

int pdb_git_commits_between(const char *good, const char *bad, struct pdb_git_commit **out,
			    size_t *n, struct pdb_err *err)
{
	char *g = commit_of(good), *b = commit_of(bad), *range = NULL, why[512];
	const char *ancestor[] = { "merge-base", "--is-ancestor", g, b, NULL };
	const char *first[] = { "log", "-1", "--format=%H %s", "--end-of-options", g, NULL };
	const char *list[] = { "log", "--reverse", "--first-parent", "--format=%H %s", "--end-of-options", NULL, NULL };
	size_t cap = 0;
	int status, ret = -1;

	*out = NULL;
	*n = 0;
	if (!g || !b) {
		pdb_err_set(err, PDB_EXIT_USAGE, "git: '%s' names no commit here", g ? bad : good);
		goto done;
	}
	if ((status = pdb_git(ancestor, NULL, why, err)) < 0)
		goto done;
	if (status != 0 || strcmp(g, b) == 0) {
		pdb_err_set(err, PDB_EXIT_USAGE, "--good %s is not an ancestor of --bad %s%s", good, bad,
			    strcmp(g, b) == 0 ? " (the same commit)" : "");
		goto done;
	}
	list[5] = range = pdb_xasprintf("%s..%s", g, b);
	ret = log_commits(first, out, n, &cap, err) < 0 || log_commits(list, out, n, &cap, err) < 0 ? -1 : 0;
done:
	if (ret < 0) {
		pdb_git_commits_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	free(g);
	free(b);
	free(range);
	return ret;
}

void pdb_git_commits_free(struct pdb_git_commit *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].sha);
		free(c[i].subject);
	}
	free(c);
}

long pdb_git_distance(const char *a, const char *b)
{
	char *ca = commit_of(a), *cb = commit_of(b), *range, *out = NULL, why[512];
	const char *count[] = { "rev-list", "--count", "--end-of-options", NULL, NULL };
	struct pdb_err err;
	long n = -1;

	if (ca && cb) {
		count[3] = range = pdb_xasprintf("%s..%s", ca, cb);
		if (pdb_git(count, &out, why, &err) == 0 && out)
			n = strtol(out, NULL, 10);
		free(range);
		free(out);
	}
	free(ca);
	free(cb);
	return n;
}
