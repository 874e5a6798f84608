/* A steady environment for counting instructions (steady_env.h says why). */
#include "runner/steady_env.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

#define NAME_LEN (sizeof PDB_STEADY_PAD + 3) /* "PERFDB_PAD00=" and its NUL */

static size_t strings(const char *const *v, size_t *n)
{
	size_t bytes = 0;

	for (*n = 0; v[*n]; (*n)++)
		bytes += strlen(v[*n]) + 1 + sizeof(char *);
	return bytes + sizeof(char *); /* the NULL */
}

char **pdb_steady_env(const char *const *argv, char *const *envp)
{
	size_t nargs, nenv, bytes = strings(argv, &nargs) + strings((const char *const *)envp, &nenv);
	size_t pads = PDB_STEADY_VARS - nenv % PDB_STEADY_VARS, fill;
	char **out = pdb_xcalloc(nenv + pads + 1, sizeof *out);

	memcpy(out, envp, nenv * sizeof *out);
	/* each pad "PERFDB_PADNN=" (its NUL and pointer too), the last one's value the rest */
	bytes += pads * (NAME_LEN + sizeof(char *));
	fill = (PDB_STEADY_BYTES - bytes % PDB_STEADY_BYTES) % PDB_STEADY_BYTES;
	for (size_t i = 0; i < pads; i++) {
		size_t len = i + 1 < pads ? 0 : fill;
		char *pad = pdb_xmalloc(NAME_LEN + len);
		int head = snprintf(pad, NAME_LEN, "%s%02zu=", PDB_STEADY_PAD, i);
		memset(pad + head, 'x', len);
		pad[head + len] = '\0';
		out[nenv + i] = pad;
	}
	return out;
}
