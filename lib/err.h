/* Errors: exit codes and the error record the library fills for cmd/ to print. */
#ifndef PDB_ERR_H
#define PDB_ERR_H

/* Exit status of every command (ARCHITECTURE.md); never renumbered. */
enum pdb_exit {
	PDB_EXIT_OK = 0,
	PDB_EXIT_REGRESSION = 1, /* compare/detect found a regression */
	PDB_EXIT_USAGE = 2,
	PDB_EXIT_INPUT = 3,      /* unreadable, malformed, unknown format or run */
	PDB_EXIT_RUNTIME = 4,    /* database, I/O, broker */
};

struct pdb_err {
	int code;           /* an enum pdb_exit value */
	char source[512];   /* file name, or "" */
	int line, col;      /* 1-based; 0 when unknown */
	char msg[512];
};

void pdb_err_clear(struct pdb_err *err);
/* Set code and message (printf-style); leaves no location. Returns -1. */
int pdb_err_set(struct pdb_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Set code, location and message. Returns -1. */
int pdb_err_at(struct pdb_err *err, int code, const char *source, int line,
	       int col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* "source:line:col: msg" (parts that are unknown left out) into buf. */
void pdb_err_format(const struct pdb_err *err, char *buf, unsigned long size);

#endif
