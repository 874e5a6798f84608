/* Compare text: the cells of a comparison row as people read them (text, Markdown, reports). */
#include "compare_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

void pdb_compare_value_text(double v, const char *unit, char *out, size_t size)
{
	if (isnan(v))
		snprintf(out, size, "-");
	else
		pdb_unit_format_fixed(v, unit, out, size);
}

/* A percentage to one decimal, never "-0.0". */
static void pct_text(double v, char *out, size_t size)
{
	if (fabs(v) < 0.05)
		v = 0;
	snprintf(out, size, "%+.1f%%", v + 0.0);
}

static void signed_value(double v, const char *unit, char *out, size_t size)
{
	char buf[48];

	pdb_unit_format(fabs(v), unit, buf, sizeof buf);
	snprintf(out, size, "%s%s", v < 0 ? "-" : v > 0 ? "+" : "", buf);
}

void pdb_compare_change_text(const struct pdb_compare_row *r, char *out, size_t size)
{
	if (!isnan(r->change_pct))
		pct_text(r->change_pct, out, size);
	else if (!isnan(r->change_abs))
		signed_value(r->change_abs, r->unit, out, size);
	else
		snprintf(out, size, "-");
}

void pdb_compare_interval_text(const struct pdb_compare_row *r, char *out, size_t size)
{
	char lo[64], hi[64];

	if (r->band && strcmp(r->band, "samples") != 0 && !isnan(r->band_pct))
		snprintf(out, size, "±%.1f%% %s", r->band_pct, r->band);
	else if (!isnan(r->ci_low_pct)) {
		pct_text(r->ci_low_pct, lo, sizeof lo);
		pct_text(r->ci_high_pct, hi, sizeof hi);
		snprintf(out, size, "[%s, %s]", lo, hi);
	}
	else if (!isnan(r->ci_low_abs)) {
		signed_value(r->ci_low_abs, r->unit, lo, sizeof lo);
		signed_value(r->ci_high_abs, r->unit, hi, sizeof hi);
		snprintf(out, size, "[%s, %s]", lo, hi);
	} else {
		snprintf(out, size, "-");
	}
}

void pdb_compare_p_text(double p, char *out, size_t size)
{
	if (isnan(p))
		snprintf(out, size, "-");
	else if (p < 0.0001)
		snprintf(out, size, "%.1e", p);
	else
		snprintf(out, size, "%.4f", p);
}
