/* Sample specs: the `sample:` section of a run spec or a benchmark. */
#include "runner/sample_spec.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "util.h"

#define DEFAULT_EVERY 1.0

static int read_processes(struct pdb_spec_reader *r, const struct pdb_spec_key *k, const json_t *v,
			  void *out)
{
	struct pdb_sample_spec *s = out;
	const char *name;
	json_t *x;

	if (!json_is_object(v) || json_object_size(v) == 0)
		return pdb_spec_bad(r, v, "%s: expected a mapping NAME: PATTERN (a regex of command lines)",
				    k->name);
	if (json_object_size(v) > PDB_SAMPLE_MAX_PROCESSES)
		return pdb_spec_bad(r, v, "%s: at most %d processes", k->name, PDB_SAMPLE_MAX_PROCESSES);
	s->processes = pdb_xcalloc(json_object_size(v), sizeof *s->processes);
	json_object_foreach((json_t *)v, name, x) {
		struct pdb_sample_process *p = &s->processes[s->nprocesses++];
		regex_t re;
		p->name = pdb_xstrdup(name);
		if (!*name)
			return pdb_spec_bad(r, x, "%s: a process needs a name", k->name);
		if (!json_is_string(x) || !*json_string_value(x))
			return pdb_spec_bad(r, x, "process %s: expected a pattern (a regex of command lines)", name);
		p->pattern = pdb_xstrdup(json_string_value(x));
		if (regcomp(&re, p->pattern, REG_EXTENDED | REG_NOSUB) != 0)
			return pdb_spec_bad(r, x, "process %s: not a valid POSIX extended regular expression", name);
		regfree(&re);
	}
	return 0;
}

static const char *const directions[] = { "none", "lower", NULL };
static const int direction_of[] = { PDB_DIR_NONE, PDB_DIR_LOWER };

static const struct pdb_spec_key sample_keys[] = {
	PDB_KEY_RANGE(struct pdb_sample_spec, "every", PDB_KEY_SECONDS, every, 0.05, 3600),
	PDB_KEY_READ("processes", read_processes),
	PDB_KEY(struct pdb_sample_spec, "machine", PDB_KEY_BOOL, machine),
	PDB_KEY_ONE_OF(struct pdb_sample_spec, "direction", direction, directions),
};
const struct pdb_spec_section pdb_sample_section = {
	"sample", sample_keys, sizeof sample_keys / sizeof sample_keys[0],
};

struct pdb_sample_spec *pdb_sample_spec_read(struct pdb_spec_reader *r, const json_t *v)
{
	struct pdb_sample_spec *s = pdb_xcalloc(1, sizeof *s);

	s->every = DEFAULT_EVERY;
	s->machine = 1;
	if (pdb_spec_read_map(r, v, &pdb_sample_section, s) < 0)
		goto fail;
	if (!s->nprocesses && !s->machine) {
		pdb_spec_bad(r, v, "%s: nothing to sample (give processes, or machine: true)", "sample");
		goto fail;
	}
	s->direction = direction_of[s->direction];
	return s;
fail:
	pdb_sample_spec_free(s);
	return NULL;
}

void pdb_sample_spec_free(struct pdb_sample_spec *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nprocesses; i++) {
		free(s->processes[i].name);
		free(s->processes[i].pattern);
	}
	free(s->processes);
	free(s);
}
