/* Parameter scans: the template of the commands of one scan (see scan_name.h). */
#include <stdlib.h>
#include <string.h>

#include "formats/scan_name.h"
#include "util.h"

/* Steps one template search may take; past that the search gives up (a
 * command of thousands of repeats of a one-character value). */
#define SEARCH_BUDGET 100000
/* The search recurses once a character: a longer command keeps its name. */
#define LONGEST_COMMAND 4096

struct search {
	const struct pdb_scan_item *const *g; /* the group; g[0] leads */
	size_t ng;
	size_t *pos;                          /* where each member's command is */
	struct pdb_buf tmpl;
	long budget;
};

static const char *value_of(const struct pdb_scan_item *it, const char *key)
{
	for (size_t i = 0; i < it->nparams; i++)
		if (strcmp(it->params[i].key, key) == 0)
			return it->params[i].value;
	return NULL;
}

static int same_keys(const struct pdb_scan_item *a, const struct pdb_scan_item *b)
{
	if (a->nparams != b->nparams)
		return 0;
	for (size_t i = 0; i < a->nparams; i++)
		if (!value_of(b, a->params[i].key))
			return 0;
	return 1;
}

/* Does every member's command continue with its value of key? */
static int all_start_with(struct search *s, const char *key)
{
	for (size_t k = 0; k < s->ng; k++) {
		const char *v = value_of(s->g[k], key);
		if (!*v || strncmp(s->g[k]->command + s->pos[k], v, strlen(v)) != 0)
			return 0;
	}
	return 1;
}

static void advance(struct search *s, const char *key, int sign)
{
	for (size_t k = 0; k < s->ng; k++)
		s->pos[k] = sign > 0 ? s->pos[k] + strlen(value_of(s->g[k], key))
				     : s->pos[k] - strlen(value_of(s->g[k], key));
}

/* Extend s->tmpl until it gives every member's whole command: 1 found. */
static int extend(struct search *s)
{
	const struct pdb_scan_item *lead = s->g[0];
	size_t len = s->tmpl.len;
	char c;

	if (--s->budget < 0)
		return 0;
	if (!lead->command[s->pos[0]]) {
		for (size_t k = 1; k < s->ng; k++)
			if (s->g[k]->command[s->pos[k]])
				return 0;
		return 1;
	}
	for (size_t p = 0; p < lead->nparams; p++) {
		const char *key = lead->params[p].key;
		if (!all_start_with(s, key))
			continue;
		advance(s, key, 1);
		pdb_buf_printf(&s->tmpl, "{%s}", key);
		if (extend(s))
			return 1;
		advance(s, key, -1);
		s->tmpl.len = len;
		s->tmpl.data[len] = '\0';
	}
	c = lead->command[s->pos[0]];
	for (size_t k = 1; k < s->ng; k++)
		if (s->g[k]->command[s->pos[k]] != c)
			return 0;
	for (size_t k = 0; k < s->ng; k++)
		s->pos[k]++;
	pdb_buf_add(&s->tmpl, &c, 1);
	if (extend(s))
		return 1;
	for (size_t k = 0; k < s->ng; k++)
		s->pos[k]--;
	s->tmpl.len = len;
	s->tmpl.data[len] = '\0';
	return 0;
}

/* The template that gives every command of g, or NULL. Caller frees. */
static char *template_of(const struct pdb_scan_item *const *g, size_t ng)
{
	struct search s = { .g = g, .ng = ng, .budget = SEARCH_BUDGET };
	int found;

	if (strlen(g[0]->command) > LONGEST_COMMAND)
		return NULL;
	s.pos = pdb_xcalloc(ng, sizeof *s.pos);
	pdb_buf_init(&s.tmpl);
	pdb_buf_puts(&s.tmpl, "");
	found = extend(&s);
	free(s.pos);
	if (!found) {
		pdb_buf_release(&s.tmpl);
		return NULL;
	}
	return s.tmpl.data;
}

/* Does tmpl, its placeholders replaced by the values of it, give its command? */
static int gives(const char *tmpl, const struct pdb_scan_item *it)
{
	const char *c = it->command;

	while (*tmpl) {
		const char *end = *tmpl == '{' ? strchr(tmpl, '}') : NULL, *v = NULL;
		if (end) {
			char *key = pdb_xasprintf("%.*s", (int)(end - tmpl - 1), tmpl + 1);
			v = value_of(it, key);
			free(key);
		}
		if (v) {
			if (strncmp(c, v, strlen(v)) != 0)
				return 0;
			c += strlen(v);
			tmpl = end + 1;
		} else if (*c++ != *tmpl++) {
			return 0;
		}
	}
	return !*c;
}

void pdb_scan_names(const struct pdb_scan_item *items, size_t n, char **names)
{
	const struct pdb_scan_item **g = pdb_xcalloc(n + 1, sizeof *g);
	size_t *member = pdb_xcalloc(n + 1, sizeof *member);

	for (size_t i = 0; i < n; i++)
		names[i] = items[i].nparams ? NULL : pdb_xstrdup(items[i].command);
	for (size_t i = 0; i < n; i++) {
		size_t ng = 1;
		char *tmpl = NULL;
		if (names[i])
			continue;
		g[0] = &items[i];
		member[0] = i;
		for (size_t j = i + 1; j < n; j++) {
			char *wider;
			if (names[j] || !same_keys(&items[i], &items[j]))
				continue;
			if (tmpl && gives(tmpl, &items[j])) {
				g[ng] = &items[j];
				member[ng++] = j;
				continue;
			}
			g[ng] = &items[j];
			if (!(wider = template_of(g, ng + 1)))
				continue;
			free(tmpl);
			tmpl = wider;
			member[ng++] = j;
		}
		if (!tmpl && !(tmpl = template_of(g, 1)))
			tmpl = pdb_xstrdup(items[i].command);
		for (size_t k = 0; k < ng; k++)
			names[member[k]] = k ? pdb_xstrdup(tmpl) : tmpl;
	}
	free(member);
	free(g);
}
