/* Instruments: what a benchmark's measured repetitions run under beside
 * the times and peak RSS always recorded (measure: in a spec, --measure):
 * the instructions the process tree retires (hardware counters, else
 * valgrind's cachegrind), its cycles, branch and cache misses (hardware
 * counters only). */
#ifndef PDB_INSTRUMENT_H
#define PDB_INSTRUMENT_H

#include <stddef.h>

#include "err.h"
#include "runner/exec.h"
#include "runner/plan.h"

enum pdb_measure {
	PDB_MEASURE_INSTRUCTIONS = 1 << 0,
	PDB_MEASURE_CYCLES = 1 << 1,
	PDB_MEASURE_BRANCH_MISSES = 1 << 2,
	PDB_MEASURE_CACHE_MISSES = 1 << 3,
};
#define PDB_MEASURE_COUNT 4

/* Their names as measure: and --measure write them, by bit position,
 * NULL-terminated; and the metric of each ("branch_misses"). */
extern const char *const pdb_measure_names[];
extern const char *const pdb_measure_metrics[];

/* The bit of the instrument named name, or 0 with why: "'NAME' is not an
 * instrument: instructions, cycles, ... (did you mean X?)". */
unsigned pdb_measure_find(const char *name, char *why, size_t size);
/* A comma-separated list of names ("" or "none": none) into *mask; 0, or
 * -1 with why as above. */
int pdb_measure_parse_list(const char *list, unsigned *mask, char *why, size_t size);
/* "instructions, cycles" of mask, into buf (returned). */
const char *pdb_measure_text(unsigned mask, char *buf, size_t size);

/* How the instruments are taken on this machine. */
struct pdb_instruments {
	unsigned mask;        /* every instrument a planned benchmark asks */
	char *valgrind;       /* instructions through cachegrind: valgrind's path; NULL: counters */
	char note[600];       /* what counts and its cost, to be said once; "" when nothing is measured */
};

/* Choose for the benchmarks plan runs: hardware counters when the machine
 * counts every instrument asked, else cachegrind for instructions alone;
 * -1 with err (PDB_EXIT_USAGE) naming what to install or what is missing.
 * Release with pdb_instruments_release. */
int pdb_instruments_choose(const struct pdb_spec *spec, const struct pdb_plan *plan,
			   struct pdb_instruments *out, struct pdb_err *err);
void pdb_instruments_release(struct pdb_instruments *in);
/* "counters" or "cachegrind": the attribute instrument.NAME of a run. */
const char *pdb_instruments_kind(const struct pdb_instruments *in, unsigned bit);

/* The values of mask for one measured repetition whose plain run (plain,
 * its counters counted) succeeded: the counters' counts, or, through
 * cachegrind, those of a second run of the same command under it (stdout
 * discarded, the timeout 50 times the plain one's). 0, or -1 with why (a
 * failed repetition); values by bit position. */
int pdb_instruments_values(const struct pdb_instruments *in, unsigned mask, const struct pdb_exec_opts *plain,
			   const struct pdb_exec_result *counted, double values[PDB_MEASURE_COUNT],
			   char *why, size_t size);

#endif
