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

/* v rounded to digits (1 to 17) significant digits: the double that
 * strtod reads from printf's %.{digits}g of v (NaN and infinities as they
 * are, -0 as 0). */
double pdb_round_significant(double v, int digits);

/* Output gathered in a block, written with one fwrite when full. */
struct pdb_json_writer {
	FILE *out;
	size_t len;
	char buf[16384];
};

/* A document written piece by piece, laid out as pdb_json_write lays out
 * the same value, for output too large to build as one tree first (a
 * compare of 20,000 series). In an object, each value follows its
 * pdb_json_key; in an array each value is on a line of its own (arrays of
 * numbers, kept on one line, go whole through pdb_json_put_value). */
struct pdb_json_stream {
	struct pdb_json_writer w;
	int indent, depth;
	char kind[32];       /* 'o' or 'a', for each open level */
	unsigned char n[32]; /* whether the level has an item yet */
};

void pdb_json_stream_init(struct pdb_json_stream *s, FILE *out, int indent);
/* Writes what is still buffered; the levels must all be closed. */
void pdb_json_stream_flush(struct pdb_json_stream *s);
void pdb_json_begin_object(struct pdb_json_stream *s);
void pdb_json_end_object(struct pdb_json_stream *s);
void pdb_json_begin_array(struct pdb_json_stream *s);
void pdb_json_end_array(struct pdb_json_stream *s);
void pdb_json_key(struct pdb_json_stream *s, const char *key);
/* NULL is written as null. */
void pdb_json_put_string(struct pdb_json_stream *s, const char *v);
/* NaN and infinities are written as null. */
void pdb_json_put_real(struct pdb_json_stream *s, double v);
void pdb_json_put_int(struct pdb_json_stream *s, long long v);
void pdb_json_put_bool(struct pdb_json_stream *s, int v);
void pdb_json_put_null(struct pdb_json_stream *s);
void pdb_json_put_value(struct pdb_json_stream *s, const json_t *v);

#endif
