/* The detect cache's row of a series: plain data, which the store keeps
 * without interpreting it (lib/store/store_detect.h) and which detect's
 * states become and come from (lib/detect_cache.h). */
#ifndef PDB_DETECT_ROW_H
#define PDB_DETECT_ROW_H

#include <stdint.h>

/* A series' cached split state as the store keeps it: detect's numbers
 * and two lists of positions ("3,17,40"), as detect wrote them. */
struct pdb_detect_cache_row {
	int64_t covered, resume, xcovered;
	uint64_t checksum, xchecksum;
	char *weak, *spikes;   /* malloc'ed by get; NULL when the column is */
};

#endif
