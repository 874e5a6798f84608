/* perfdb bisect: each revision checked out and built once a bisection. */
#include "bisect_trees.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "util.h"

int bisect_trees_get(struct bisect_trees *t, struct pdb_spec *spec, const char *commit,
		     volatile sig_atomic_t *stop, const char **dir)
{
	static const char *const name = "rev";
	struct bisect_tree *tr;
	struct pdb_err err;
	int built;

	for (size_t i = 0; i < t->n; i++)
		if (t->tree[i].built && strcmp(t->tree[i].co.commit[0], commit) == 0) {
			*dir = t->tree[i].co.dir[0];
			return 0;
		}
	pdb_grow((void **)&t->tree, &t->cap, t->n + 1, sizeof *t->tree);
	tr = &t->tree[t->n++];
	memset(tr, 0, sizeof *tr);
	pdb_spec_set_revisions(spec, &name, &commit, 1);
	/* kept whatever happens: released (its worktree removed) at the end */
	if (pdb_checkouts_resolve(spec, &tr->co, &err) < 0 || pdb_checkouts_add(spec, &tr->co, &err) < 0)
		return cmd_fail("bisect", &err);
	if (spec->build.argv || spec->build.shell) {
		fprintf(stderr, "perfdb: bisect: building %.12s in %s\n", commit, tr->co.dir[0]);
		if ((built = pdb_checkouts_build(spec, &tr->co, 0, stop, &err)) < 0)
			return cmd_fail("bisect", &err);
		if (built) {
			fprintf(stderr, "perfdb: bisect: interrupted while building %.12s; nothing was measured\n",
				commit);
			return 130;
		}
	}
	tr->built = 1;
	*dir = tr->co.dir[0];
	return 0;
}

void bisect_trees_release(struct bisect_trees *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct pdb_err err;
		if (pdb_checkouts_release(&t->tree[i].co, &err) < 0) {
			char msg[1200];
			pdb_err_format(&err, msg, sizeof msg);
			fprintf(stderr, "perfdb: bisect: warning: %s\n", msg);
		}
	}
	free(t->tree);
	memset(t, 0, sizeof *t);
}
