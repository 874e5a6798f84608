/* Checkouts: the git: REV of each A/B variant in a temporary worktree, built there;
 * without git: variants, the current checkout, built once. */
#include "runner/checkout.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/exec.h"
#include "runner/git.h"
#include "runner/placeholder.h"
#include "runner/plan.h"
#include "util.h"

#define BUILD_TAIL_LINES 5
#define BUILD_TAIL_BYTES 320

static const char *tmp_root(void)
{
	const char *dir = getenv("TMPDIR");
	return dir && *dir ? dir : "/tmp";
}

/* pdb_git, the first line of its output in out. */
static int git(const char *const *args, char *out, size_t size, char why[512], struct pdb_err *err)
{
	char *text = NULL;
	int status = pdb_git(args, &text, why, err);

	snprintf(out, size, "%.*s", text ? (int)strcspn(text, "\n") : 0, text ? text : "");
	free(text);
	return status;
}

static const char *rev_of(const struct pdb_variant *v)
{
	return v->git ? v->git : "HEAD";
}


/* The branch a REV names, given rev-parse --symbolic-full-name's answer:
 * REV itself when it is a local branch (refs/heads/REV), the branch of a
 * remote-tracking one (origin/main: main); NULL for HEAD, a tag, a sha or
 * an expression (HEAD~1), whose branch is not theirs to say. */
static char *branch_named(const char *rev, const char *full)
{
	const char *slash;

	if (strncmp(full, "refs/heads/", 11) == 0 && strcmp(full + 11, rev) == 0)
		return pdb_xstrdup(rev);
	if (strncmp(full, "refs/remotes/", 13) == 0 && strcmp(full + 13, rev) == 0 &&
	    (slash = strchr(rev, '/')) != NULL && slash[1])
		return pdb_xstrdup(slash + 1);
	return NULL;
}

int pdb_checkouts_resolve(const struct pdb_spec *spec, struct pdb_checkouts *co,
			  struct pdb_err *err)
{
	static const char *const top[] = { "rev-parse", "--show-toplevel", NULL };
	char out[PATH_MAX], why[512];
	int status;

	memset(co, 0, sizeof *co);
	if ((status = git(top, out, sizeof out, why, err)) < 0)
		return -1;
	if (status != 0 || !out[0])
		return pdb_err_set(err, PDB_EXIT_USAGE, "git: REV needs a git repository in the current directory (%s)",
				   why[0] ? why : "git found none");
	co->top = pdb_xstrdup(out);
	for (size_t v = 0; v < spec->nvariants && v < PDB_CHECKOUTS_MAX; v++) {
		const struct pdb_variant *var = &spec->variants[v];
		char *commit = pdb_xasprintf("%s^{commit}", rev_of(var));
		const char *verify[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", commit, NULL };
		/* no --end-of-options: rev-parse would print it; a REV that
		 * verified is no option (no ref begins with '-') */
		const char *branch[] = { "rev-parse", "--symbolic-full-name", rev_of(var), NULL };
		status = git(verify, out, sizeof out, why, err);
		free(commit);
		if (status < 0)
			return -1;
		if (status != 0 || !out[0])
			return pdb_err_set(err, PDB_EXIT_USAGE, "variant '%s': git: '%s' names no commit here%s",
					   var->name, rev_of(var), var->git ? "" : " (the current checkout)");
		co->commit[v] = pdb_xstrdup(out);
		if (var->git && (status = git(branch, out, sizeof out, why, err)) < 0)
			return -1;
		if (var->git && status == 0)
			co->branch[v] = branch_named(rev_of(var), out);
	}
	return 0;
}

int pdb_checkouts_here(struct pdb_spec *spec, struct pdb_checkouts *co, struct pdb_err *err)
{
	static const char *const top[] = { "rev-parse", "--show-toplevel", NULL };
	static const char *const head[] = { "rev-parse", "--verify", "--quiet", "HEAD^{commit}", NULL };
	char out[PATH_MAX], why[512];
	struct pdb_err ignored;

	memset(co, 0, sizeof *co);
	/* no git, or not a repository: the current directory */
	if (git(top, out, sizeof out, why, &ignored) == 0 && out[0]) {
		co->top = pdb_xstrdup(out);
		if (git(head, out, sizeof out, why, &ignored) == 0 && out[0])
			co->here_commit = pdb_xstrdup(out);
	} else if (getcwd(out, sizeof out)) {
		co->top = pdb_xstrdup(out);
	} else {
		return pdb_err_set(err, PDB_EXIT_RUNTIME, "the current directory: %s", strerror(errno));
	}
	free(spec->here);
	spec->here = pdb_xstrdup(co->top);
	return 0;
}

int pdb_checkouts_add(struct pdb_spec *spec, struct pdb_checkouts *co, struct pdb_err *err)
{
	char *tmpl = pdb_xasprintf("%s/perfdb-ab-XXXXXX", tmp_root()), real[PATH_MAX], out[PATH_MAX], why[512];
	int status;

	if (!mkdtemp(tmpl) || !realpath(tmpl, real)) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "temporary folder in %s: %s", tmp_root(), strerror(errno));
		free(tmpl);
		return -1;
	}
	free(tmpl);
	co->tmp = pdb_xstrdup(real);
	for (size_t v = 0; v < spec->nvariants && v < PDB_CHECKOUTS_MAX; v++) {
		struct pdb_variant *var = &spec->variants[v];
		if (!var->git) {
			co->dir[v] = pdb_xstrdup(co->top);
		} else {
			co->dir[v] = pdb_xasprintf("%s/%s", co->tmp, var->name);
			const char *add[] = { "worktree", "add", "--detach", "--quiet", co->dir[v], co->commit[v], NULL };
			if ((status = git(add, out, sizeof out, why, err)) < 0)
				return -1;
			if (status != 0)
				return pdb_err_set(err, PDB_EXIT_RUNTIME, "variant '%s': git worktree add %s: %s",
						   var->name, var->git, why[0] ? why : "failed");
			co->added[v] = 1;
		}
		pdb_variant_set(var, "dir", co->dir[v]);
	}
	return 0;
}

/* The last lines of text: at most BUILD_TAIL_LINES, and BUILD_TAIL_BYTES
 * (the rest of an error message fits). */
static const char *last_lines(const char *text)
{
	const char *end = text + strlen(text), *p = end;
	int lines = 0;

	while (p > text && end - p < BUILD_TAIL_BYTES && lines < BUILD_TAIL_LINES)
		if (*--p == '\n')
			lines++;
	return p > text && *p == '\n' ? p + 1 : p;
}

/* Run the spec's build in dir, its {KEY}s those of variant v (none past
 * the variants); what names the checkout in an error. */
static int build_in(const struct pdb_spec *spec, const char *dir, size_t v, const char *what,
		    volatile sig_atomic_t *stop, struct pdb_err *err)
{
	const struct pdb_command *b = &spec->build;
	struct pdb_exec_opts eo = { .cwd = dir, .stop = stop };
	struct pdb_exec_result res;
	char **argv = NULL, *shell = NULL;
	size_t n = 0;
	int ret;

	if (b->shell)
		eo.shell = shell = pdb_placeholder_expand(spec, 0, PDB_PLAN_NO_POINT, v, b->shell);
	else {
		while (b->argv[n])
			n++;
		argv = pdb_xcalloc(n + 1, sizeof *argv);
		for (size_t i = 0; i < n; i++)
			argv[i] = pdb_placeholder_expand(spec, 0, PDB_PLAN_NO_POINT, v, b->argv[i]);
		eo.argv = (const char *const *)argv;
	}
	ret = pdb_exec_run(&eo, &res, err);
	if (ret == 0 && res.interrupted)
		ret = 1;
	else if (ret == 0 && res.status != 0)
		ret = pdb_err_set(err, PDB_EXIT_RUNTIME, "the build of %s failed with exit status %d%s%s",
				  what, res.status,
				  res.stderr_tail[0] ? "; its last lines:\n" : " and wrote nothing to stderr",
				  last_lines(res.stderr_tail));
	for (size_t i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
	free(shell);
	return ret;
}

int pdb_checkouts_build(const struct pdb_spec *spec, const struct pdb_checkouts *co, size_t v,
			volatile sig_atomic_t *stop, struct pdb_err *err)
{
	const struct pdb_variant *var = &spec->variants[v];
	char *what = pdb_xasprintf("%s (%s, %.12s)", var->name, rev_of(var), co->commit[v]);
	int ret = build_in(spec, co->dir[v], v, what, stop, err);

	free(what);
	return ret;
}

int pdb_checkouts_build_here(const struct pdb_spec *spec, const struct pdb_checkouts *co,
			     volatile sig_atomic_t *stop, struct pdb_err *err)
{
	char *what = co->here_commit ? pdb_xasprintf("the current checkout (%.12s)", co->here_commit)
				     : pdb_xasprintf("the current directory %s", co->top);
	int ret = build_in(spec, co->top, spec->nvariants, what, stop, err);

	free(what);
	return ret;
}

int pdb_checkouts_release(struct pdb_checkouts *co, struct pdb_err *err)
{
	char out[PATH_MAX], why[512];
	int ret = 0, status;

	for (size_t v = 0; v < PDB_CHECKOUTS_MAX; v++) {
		const char *remove[] = { "worktree", "remove", "--force", co->dir[v], NULL };
		if (!co->added[v] || (status = git(remove, out, sizeof out, why, err)) == 0 || ret < 0)
			continue;
		ret = status < 0 ? -1 : pdb_err_set(err, PDB_EXIT_RUNTIME, "could not remove the worktree %s: %s",
						    co->dir[v], why);
	}
	if (co->tmp && rmdir(co->tmp) < 0 && ret == 0)
		ret = pdb_err_set(err, PDB_EXIT_RUNTIME, "could not remove %s: %s", co->tmp, strerror(errno));
	free(co->top);
	free(co->tmp);
	free(co->here_commit);
	for (size_t v = 0; v < PDB_CHECKOUTS_MAX; v++) {
		free(co->commit[v]);
		free(co->branch[v]);
		free(co->dir[v]);
	}
	memset(co, 0, sizeof *co);
	return ret;
}
