/* JSON output: jansson values written with the shortest exact form of each double. */
#ifndef PDB_JSON_OUT_H
#define PDB_JSON_OUT_H

#include <jansson.h>
#include <stdio.h>

/* Write v to out, indented by indent spaces per level (0: compact),
 * object keys in insertion order, reals as the shortest text that reads
 * back exactly (0.1, not 0.10000000000000001). */
void pdb_json_write(FILE *out, const json_t *v, int indent);
/* The same for a value nested depth levels deep in a document written
 * piece by piece: its lines are indented as they would be in the whole. */
void pdb_json_write_at(FILE *out, const json_t *v, int indent, int depth);

/* v as the shortest text that reads back exactly, as pdb_fmt_double gives it
 * ("nan", "inf", "-inf" included), faster. */
void pdb_json_fmt_real(double v, char out[32]);

#endif
