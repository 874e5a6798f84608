/* Sampled series: their names, and which series of a run are sampled ones. */
#include "sampled.h"

#include <math.h>
#include <string.h>

const struct pdb_sampled_name pdb_sampled_process[PDB_SAMPLED_NPROCESS] = {
	[PDB_SAMPLED_CPU] = { "cpu", "%", PDB_SAMPLED_PROCESS },
	[PDB_SAMPLED_CPU_USER] = { "cpu_user", "%", PDB_SAMPLED_DETAIL },
	[PDB_SAMPLED_CPU_SYSTEM] = { "cpu_system", "%", PDB_SAMPLED_DETAIL },
	[PDB_SAMPLED_RSS] = { "rss", "B", PDB_SAMPLED_PROCESS },
};

const struct pdb_sampled_name pdb_sampled_machine[PDB_SAMPLE_MACHINE] = {
	[PDB_SAMPLE_LOAD1] = { "load1", "count", PDB_SAMPLED_MACHINE },
	[PDB_SAMPLE_BUSY] = { "cpu_busy", "%", PDB_SAMPLED_MACHINE },
	[PDB_SAMPLE_MEM] = { "mem_used", "B", PDB_SAMPLED_MACHINE },
	[PDB_SAMPLE_DISK_READ] = { "disk_read", "B/s", PDB_SAMPLED_MACHINE },
	[PDB_SAMPLE_DISK_WRITE] = { "disk_write", "B/s", PDB_SAMPLED_MACHINE },
	[PDB_SAMPLE_NET_RX] = { "net_rx", "B/s", PDB_SAMPLED_MACHINE },
	[PDB_SAMPLE_NET_TX] = { "net_tx", "B/s", PDB_SAMPLED_MACHINE },
};

int pdb_sampled_kind(const struct pdb_result *r)
{
	int process = pdb_result_get_dim(r, "process") != NULL;

	for (size_t k = 0; k < PDB_SAMPLED_NPROCESS; k++)
		if (strcmp(r->metric, pdb_sampled_process[k].metric) == 0 && strcmp(r->unit, pdb_sampled_process[k].unit) == 0)
			return process ? pdb_sampled_process[k].kind : 0;
	for (size_t m = 0; m < PDB_SAMPLE_MACHINE; m++)
		if (strcmp(r->metric, pdb_sampled_machine[m].metric) == 0 && strcmp(r->unit, pdb_sampled_machine[m].unit) == 0)
			return process ? 0 : PDB_SAMPLED_MACHINE;
	return 0;
}

const struct pdb_result *pdb_sampled_busiest(const struct pdb_run *run)
{
	const struct pdb_result *best = NULL;
	double top = -INFINITY;

	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		struct pdb_summary s;
		if (pdb_sampled_kind(r) != PDB_SAMPLED_PROCESS || strcmp(r->metric, "cpu") != 0)
			continue;
		pdb_result_summary(r, &s);
		if (isfinite(s.mean) && s.mean > top) {
			top = s.mean;
			best = r;
		}
	}
	return best;
}
