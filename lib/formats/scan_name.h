/* Parameter scans (hyperfine -P/-L): one benchmark named by the command with
 * {param} placeholders, the parameter a dim. */
#ifndef PDB_SCAN_NAME_H
#define PDB_SCAN_NAME_H

#include <stddef.h>

#include "model.h"

/* One timed command as the tool wrote it: the expanded command (or the
 * expanded -n name) and the parameter values that made it. */
struct pdb_scan_item {
	const char *command;
	const struct pdb_attr *params;
	size_t nparams;
};

/* The benchmark name of each item, into names[i] (caller frees each).
 *
 * Items with the same parameter names are grouped, in order: an item joins
 * the first group for which one template T gives every member's command when
 * each {p} of T is replaced by that member's value of p. The group's name is
 * T. Among the templates that fit, the one that puts a placeholder wherever
 * the value of a parameter stands first (left to right) is taken, so that a
 * parameter with a single value (a scan of one value, or -L x a beside a
 * scanned -P) still becomes a placeholder. A name the user gave that is the
 * same for every value (-n fixed) has no placeholder and stays as it is; an
 * item without parameters keeps its command. */
void pdb_scan_names(const struct pdb_scan_item *items, size_t n, char **names);

#endif
