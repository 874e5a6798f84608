/* Log stream settling: wait until the pipeline's probes see nothing new. */
#ifndef PDB_LOGSTREAM_SETTLE_H
#define PDB_LOGSTREAM_SETTLE_H

#include <signal.h>

#include "err.h"
#include "logstream/spec.h"

/* Watch every probe of ls (counting lines only) until none has counted
 * anything new for quiet seconds (a command probe: for twice its every at
 * least), or max seconds have passed, or *stop. 1 when quiet, 0 when not
 * within max, -1 with err when a probe cannot be opened. *waited: the
 * seconds it took. */
int pdb_logstream_settle(const struct pdb_logstream_spec *ls, double quiet, double max,
			 volatile sig_atomic_t *stop, double *waited, struct pdb_err *err);

#endif
