/* Valgrind's cachegrind: the instructions a process tree executes, each
 * process's count in a file of its own. */
#ifndef PDB_CACHEGRIND_H
#define PDB_CACHEGRIND_H

#include <stddef.h>

/* valgrind's path on PATH (with its cachegrind), or NULL. Caller frees. */
char *pdb_cachegrind_find(void);
/* The arguments put before a command to run it under cachegrind with
 * every child it execs, each process's count in DIR/cg.PID and valgrind's
 * own messages in DIR/vg.PID (apart from the command's stderr); NULL-
 * terminated. Free with pdb_cachegrind_wrap_free. */
char **pdb_cachegrind_wrap(const char *valgrind, const char *dir);
void pdb_cachegrind_wrap_free(char **wrap);
/* The instructions (Ir) of a cachegrind output file's text: its
 * "summary:" line. 0, or -1 when it has none. */
int pdb_cachegrind_summary(const char *text, double *ir);
/* The sum over the cg.* files in dir (at least one), every file and dir
 * then removed. 0, or -1 with why (a file without a count: valgrind's
 * last message). */
int pdb_cachegrind_collect(const char *dir, double *ir, char *why, size_t size);

#endif
