/* Times as tools write them, to UTC as perfdb writes created_at. */
#ifndef PDB_UTC_TIME_H
#define PDB_UTC_TIME_H

#include <stdint.h>

/* "YYYY-MM-DDTHH:MM:SS" (or a space for the T), optional fraction, then
 * "Z", "+HH:MM", "-HH:MM", "+HHMM" or nothing: as "YYYY-MM-DDTHH:MM:SSZ"
 * in out. Without an offset the time is UTC only when naive_is_utc (the
 * tool says so); otherwise, or when text is no such time, -1. */
int pdb_utc_from_iso8601(const char *text, int naive_is_utc, char out[32]);
/* Seconds since the epoch, as "YYYY-MM-DDTHH:MM:SSZ"; -1 out of range. */
int pdb_utc_from_epoch(int64_t seconds, char out[32]);

#endif
