/* Report: a baseline and a candidate run, or one run alone, as a page (Markdown, HTML, charts). */
#ifndef PDB_REPORT_H
#define PDB_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "compare_config.h"
#include "err.h"
#include "store/store.h"

/* A template compiled in from reports/ (scripts/embed-templates.sh). */
struct pdb_report_template {
	const char *name;   /* file name: "report.md.tmpl", "report.html.tmpl" */
	const char *text;
};
/* The built-in templates, ended by { NULL, NULL } (generated). */
extern const struct pdb_report_template pdb_report_templates[];

enum { PDB_REPORT_MARKDOWN = 1, PDB_REPORT_HTML = 2 };

struct pdb_report_opts {
	const char *title;          /* NULL: a title from the runs */
	const char *outdir;         /* made when missing */
	int formats;                /* PDB_REPORT_MARKDOWN | PDB_REPORT_HTML */
	const char *templates_dir;  /* NULL: the built-in templates */
	const struct pdb_compare_config *config; /* NULL: none */
	const char *where;          /* the history's runs ("k=v,k=v"); NULL: the candidate's
				     * branch (branch=NAME), or every run without one */
};

/* What was written, in order; paths are malloc'ed (release the struct). */
struct pdb_report_files {
	char **paths;
	size_t n;
	int regression;             /* the comparison fails compare's default gate */
	char **notes;               /* what the page leaves out and why, one line each */
	size_t nnotes;
};
void pdb_report_files_release(struct pdb_report_files *f);

/* The runs a report of cand draws its history from and takes its default
 * baseline from: where, else cand's branch ("branch=NAME"), else NULL (all).
 * Caller frees. */
struct pdb_run;
char *pdb_report_history_where(const struct pdb_run *cand, const char *where);
/* The default baseline of cand: the newest older run with a series in
 * common among the runs of pdb_report_history_where, else (where NULL)
 * among all; 0 in *base when there is none. 0, or -1 with err. */
int pdb_report_default_baseline(struct pdb_store *store, int64_t cand, const char *where,
				int64_t *base, struct pdb_err *err);

/* Compare base with cand and write opts->outdir/index.md and/or index.html
 * with the charts beside them (NAME.png and NAME.svg; the HTML has them
 * inline); base 0: the run's own report (its tables by point, the outcome
 * of its capacity searches, its charts; no comparison). files is filled
 * (release it also after -1). 0 or -1 with err. */
int pdb_report_write(struct pdb_store *store, int64_t base, int64_t cand,
		     const struct pdb_report_opts *opts, struct pdb_report_files *files,
		     struct pdb_err *err);

#endif
