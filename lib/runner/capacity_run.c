/* Capacity searches of stream: and kafka: workloads: their steps. */
#include "runner/capacity_run.h"

#include <stdio.h>
#include <string.h>

#include "logstream/settle.h"
#include "kafka/workload.h"
#include "logstream/workload.h"

#define QUIET 1.0 /* s without a new line: the pipeline has settled */

struct stream_ctx {
	struct pdb_logstream_spec spec;  /* the benchmark's, its duration the step's */
	const struct pdb_capacity_notes *n;
	int outstanding;                 /* the last step left lines undelivered */
	char settled[200];
};

static int stream_step(void *vctx, double rate, struct pdb_run *const runs[2], const char *bench,
		       const struct pdb_attr *dims, size_t ndims, struct pdb_err *err)
{
	struct stream_ctx *c = vctx;
	struct pdb_logstream_opts lo = { .spec = &c->spec, .rate = rate, .stop = c->n->stop, .seed = c->n->seed };
	struct pdb_logstream_result lr;

	if (pdb_logstream_run(&lo, &lr, err) < 0)
		return -1;
	if (lr.interrupted) {
		pdb_logstream_result_release(&lr);
		return 1;
	}
	if (lr.sent == 0 && lr.errors > 0) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "stream: nothing sent: %.400s", lr.error);
		pdb_logstream_result_release(&lr);
		return -1;
	}
	if (lr.warning[0])
		c->n->note(c->n->ctx, lr.warning);
	c->outstanding = 0;
	for (size_t k = 0; k < lr.nprobed; k++)
		c->outstanding |= !lr.tally[k].matched || atomic_load(&lr.tally[k].received) < lr.sent;
	for (int i = 0; i < 2; i++)
		pdb_logstream_result_to_run(&lr, &c->spec, runs[i], bench, dims, ndims);
	pdb_logstream_result_release(&lr);
	return 0;
}

static void stream_note(void *vctx, const char *line)
{
	struct stream_ctx *c = vctx;
	c->n->note(c->n->ctx, line);
}

static const char *stream_settle(void *vctx)
{
	struct stream_ctx *c = vctx;
	struct pdb_err err;
	double waited;
	int quiet;

	if (!c->outstanding || c->spec.search->settle <= 0)
		return NULL;
	quiet = pdb_logstream_settle(&c->spec, QUIET, c->spec.search->settle, c->n->stop, &waited, &err);
	if (quiet < 0)
		snprintf(c->settled, sizeof c->settled, "settling: %.150s", err.msg);
	else if (quiet)
		snprintf(c->settled, sizeof c->settled, "the pipeline was quiet %.1f s after the step", waited);
	else
		snprintf(c->settled, sizeof c->settled, "the pipeline was still delivering %.0f s after the step: "
			 "the next step may meet its backlog", waited);
	return c->settled;
}

int pdb_capacity_run_stream(const struct pdb_logstream_spec *ls, const struct pdb_capacity_notes *n,
			    struct pdb_run *run, const char *bench, const struct pdb_attr *dims, size_t ndims,
			    struct pdb_capacity_outcome *out, struct pdb_err *err)
{
	struct stream_ctx c = { .spec = *ls, .n = n };
	struct pdb_capacity_ops ops = { .step = stream_step, .settle = stream_settle, .note = stream_note,
					.ctx = &c, .unit = "lines/s" };

	if (ls->search->step > 0)
		c.spec.duration = ls->search->step;
	return pdb_capacity_search(ls->search, &ops, run, bench, dims, ndims, out, err);
}

struct kafka_ctx {
	struct pdb_kafka_spec spec;      /* the benchmark's, its duration the step's */
	const struct pdb_capacity_notes *n;
};

static int kafka_step(void *vctx, double rate, struct pdb_run *const runs[2], const char *bench,
		      const struct pdb_attr *dims, size_t ndims, struct pdb_err *err)
{
	struct kafka_ctx *c = vctx;
	struct pdb_kafka_workload_opts wo = { .spec = &c->spec, .rate = rate, .stop = c->n->stop, .seed = c->n->seed };
	struct pdb_kafka_result kr;

	if (pdb_kafka_workload_run(&wo, &kr, err) < 0)
		return -1;
	if (kr.interrupted) {
		pdb_kafka_result_release(&kr);
		return 1;
	}
	if (kr.warning[0])
		c->n->note(c->n->ctx, kr.warning);
	for (int i = 0; i < 2; i++)
		pdb_kafka_result_to_run(&kr, runs[i], bench, dims, ndims);
	pdb_kafka_result_release(&kr);
	return 0;
}

static void kafka_note(void *vctx, const char *line)
{
	struct kafka_ctx *c = vctx;
	c->n->note(c->n->ctx, line);
}

int pdb_capacity_run_kafka(const struct pdb_kafka_spec *ks, const struct pdb_capacity_notes *n,
			   struct pdb_run *run, const char *bench, const struct pdb_attr *dims, size_t ndims,
			   struct pdb_capacity_outcome *out, struct pdb_err *err)
{
	struct kafka_ctx c = { .spec = *ks, .n = n };
	struct pdb_capacity_ops ops = { .step = kafka_step, .note = kafka_note, .ctx = &c, .unit = "msg/s" };

	if (ks->search->step > 0) {
		c.spec.duration = ks->search->step;
		c.spec.count = 0;
	}
	return pdb_capacity_search(ks->search, &ops, run, bench, dims, ndims, out, err);
}
