/* Spec keys: every key a run spec reader knows is in the key table of
 * docs/commands.md (run), and every key that table names is known. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/spec_keys.h"
#include "util.h"

/* The run section of docs/commands.md (from "## run" to the next "## "). */
static char *run_section(void)
{
	const char *root = getenv("ROOT");
	char *path = pdb_xasprintf("%s/docs/commands.md", root ? root : ".");
	FILE *f = fopen(path, "rb");
	char *text = pdb_xcalloc(1 << 20, 1), *start, *end;
	size_t n;

	if (!f)
		fail_msg("%s: not readable (ROOT names the source tree)", path);
	n = fread(text, 1, (1 << 20) - 1, f);
	text[n] = '\0';
	fclose(f);
	free(path);
	start = strstr(text, "\n## run\n");
	assert_non_null(start);
	if ((end = strstr(start + 1, "\n## ")))
		*end = '\0';
	memmove(text, start, strlen(start) + 1);
	return text;
}

static void every_key_documented(void **state)
{
	char *doc = run_section();
	size_t nsections, missing = 0;
	const struct pdb_spec_section *const *sections = pdb_spec_sections(&nsections);

	(void)state;
	assert_true(nsections >= 8);
	for (size_t s = 0; s < nsections; s++)
		for (size_t k = 0; k < sections[s]->nkeys; k++) {
			char *row = pdb_xasprintf("\n| %s | `%s` |", sections[s]->name, sections[s]->keys[k].name);
			if (!strstr(doc, row)) {
				fprintf(stderr, "not in docs/commands.md (run): %s\n", row + 1);
				missing++;
			}
			free(row);
		}
	assert_int_equal(missing, 0);
	free(doc);
}

static int known(const char *section, const char *key)
{
	size_t nsections;
	const struct pdb_spec_section *const *sections = pdb_spec_sections(&nsections);

	for (size_t s = 0; s < nsections; s++)
		for (size_t k = 0; strcmp(sections[s]->name, section) == 0 && k < sections[s]->nkeys; k++)
			if (strcmp(sections[s]->keys[k].name, key) == 0)
				return 1;
	return 0;
}

/* Rows "| SECTION | `KEY` | ..." of the table name keys that exist. */
static void every_documented_key_known(void **state)
{
	char *doc = run_section(), *line = doc;
	size_t rows = 0, unknown = 0;

	(void)state;
	while ((line = strstr(line, "\n| "))) {
		char section[64], key[64];
		line += 3;
		if (sscanf(line, "%63[^|] | `%63[^`]` |", section, key) != 2)
			continue;
		section[strcspn(section, "|")] = '\0';
		while (*section && section[strlen(section) - 1] == ' ')
			section[strlen(section) - 1] = '\0';
		rows++;
		if (!known(section, key)) {
			fprintf(stderr, "docs/commands.md (run) names a key no reader knows: %s %s\n", section, key);
			unknown++;
		}
	}
	assert_true(rows > 50);
	assert_int_equal(unknown, 0);
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_key_documented),
		cmocka_unit_test(every_documented_key_known),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
