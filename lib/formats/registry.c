/* Formats: the table of adapters, lookup by name and detection by content. */
#include <string.h>

#include "formats/format.h"

extern const struct pdb_format pdb_format_canonical;

const struct pdb_format *const pdb_formats[] = {
	&pdb_format_canonical,
	NULL,
};

const struct pdb_format *pdb_format_find(const char *name)
{
	for (size_t i = 0; pdb_formats[i]; i++)
		if (strcmp(pdb_formats[i]->name, name) == 0)
			return pdb_formats[i];
	return NULL;
}

const struct pdb_format *pdb_format_detect(const struct pdb_source *src)
{
	const struct pdb_format *best = NULL;
	int best_score = 0;

	for (size_t i = 0; pdb_formats[i]; i++) {
		int score = pdb_formats[i]->detect(src);
		if (score > best_score) {
			best = pdb_formats[i];
			best_score = score;
		}
	}
	return best;
}
