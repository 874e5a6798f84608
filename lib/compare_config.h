/* Compare configuration: thresholds, direction overrides and ignores from perfdb.yaml. */
#ifndef PDB_COMPARE_CONFIG_H
#define PDB_COMPARE_CONFIG_H

#include <stddef.h>

#include "err.h"

/* A rule applies to a series when every glob it gives matches; later
 * rules override earlier ones field by field. */
struct pdb_compare_rule {
	char *benchmark, *metric;     /* globs, NULL: any */
	double threshold_pct, warn_pct; /* NaN: not set */
	int direction, has_direction; /* enum pdb_direction */
	int ignore;
	int gate;                     /* 1: gated, 0: reported only, -1: the metric's role decides */
};

struct pdb_compare_config {
	double alpha;                 /* NaN: not set */
	double threshold_pct, warn_pct; /* defaults for every series; NaN: not set */
	double run_noise_pct;         /* a run's assumed run-to-run noise before a
				       * history exists, for every series; NaN: the
				       * metric's role's (pdb_metric_run_noise) */
	struct pdb_compare_rule *rules;
	size_t nrules;
};

/* Read the `compare:` section of a perfdb.yaml (other top-level keys are
 * left to other commands). Errors are "FILE:LINE:COL: what" with code
 * PDB_EXIT_USAGE. Release with pdb_compare_config_release (also after -1). */
int pdb_compare_config_load(const char *path, struct pdb_compare_config *cfg,
			    struct pdb_err *err);
void pdb_compare_config_init(struct pdb_compare_config *cfg);
void pdb_compare_config_release(struct pdb_compare_config *cfg);

/* The rules' settings for one series (the section's own threshold and
 * warn are the caller's defaults): fields left as they are when no rule
 * sets them. Returns 1 when the series is ignored, else 0. */
/* 1 when a rule ignores the benchmark whole (every metric: no metric glob),
 * so that its failures are not gated either; else 0. */
int pdb_compare_config_ignores(const struct pdb_compare_config *cfg, const char *benchmark);
int pdb_compare_config_apply(const struct pdb_compare_config *cfg, const char *benchmark,
			     const char *metric, double *threshold_pct, double *warn_pct,
			     int *direction, int *gate);

#endif
