/* Log stream senders: framed lines to tcp, udp, unix sockets, a file or an http endpoint. */
#ifndef PDB_LOGSTREAM_SENDER_H
#define PDB_LOGSTREAM_SENDER_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "logstream/spec.h"

struct pdb_logstream_sender;

/* Connect to (or open) ls->target. NULL with err (PDB_EXIT_RUNTIME) when
 * it cannot be reached. Caller closes. */
struct pdb_logstream_sender *pdb_logstream_sender_open(const struct pdb_logstream_spec *ls,
						       struct pdb_err *err);
void pdb_logstream_sender_close(struct pdb_logstream_sender *s); /* NULL-safe */

/* Queue one message, framed as the spec says: RFC 5424 (octet counted on
 * streams, one datagram each on udp and unix datagram sockets, a line in
 * files and http bodies) or a plain line. */
void pdb_logstream_sender_add(struct pdb_logstream_sender *s, const char *msg, size_t len);
size_t pdb_logstream_sender_pending(const struct pdb_logstream_sender *s);

/* Send what is queued (one POST for http), waiting for a blocked socket
 * until deadline_ns (CLOCK_MONOTONIC) at most. Returns how many of the
 * queued messages failed (a refused datagram, a broken connection, a
 * non-2xx answer); a broken connection is opened again on the next flush.
 * The reason of the last failure is kept for pdb_logstream_sender_error. */
uint64_t pdb_logstream_sender_flush(struct pdb_logstream_sender *s, int64_t deadline_ns);
const char *pdb_logstream_sender_error(const struct pdb_logstream_sender *s); /* "" when none */

#endif
