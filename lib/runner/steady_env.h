/* A steady environment for counting instructions. A program's count moves
 * with its environment: the C library's startup and every getenv scan
 * the variables (ten more moved /bin/ls's count under cachegrind by
 * 1.2 %), and the strings of the arguments and the environment sit at the
 * top of the stack, so their length moves every stack address and the
 * alignment that string and copy loops take their path by (Mytkowicz et
 * al., "Producing wrong data without doing anything obviously wrong",
 * ASPLOS 2009; 0.07 % for /bin/ls). A benchmark with measure: runs with
 * pad variables that make both steady: see pdb_steady_env. */
#ifndef PDB_STEADY_ENV_H
#define PDB_STEADY_ENV_H

#define PDB_STEADY_VARS 32        /* the count of variables: a multiple of this */
#define PDB_STEADY_BYTES 32768    /* the bytes of arguments and environment: a multiple of this */
#define PDB_STEADY_PAD "PERFDB_PAD" /* the pad variables' names: PERFDB_PAD00=, PERFDB_PAD01=, ... */

/* envp with pad variables added (at least one): the count of variables
 * the next multiple of PDB_STEADY_VARS, and the bytes the kernel puts on
 * the stack for argv and envp (each string with its NUL, each pointer, the
 * two NULLs) the next multiple of PDB_STEADY_BYTES, so that whatever
 * environment below those sizes a benchmark is given, its process starts
 * with the same number of variables and the same stack pointer. A new
 * NULL-terminated array: the strings of envp are its, the pads and the
 * array the caller's to free (or to exec). */
char **pdb_steady_env(const char *const *argv, char *const *envp);

#endif
