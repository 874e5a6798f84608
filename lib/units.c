/* Units: map a tool's unit string to a canonical unit, a scale and a direction. */
#include "units.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

struct unit_row {
	const char *name;
	const char *canonical;
	double scale;
	int direction;
};

/* Amounts (the numerator of a rate, or a value on its own). */
static const struct unit_row amounts[] = {
	{ "ns", "s", 1e-9, PDB_DIR_LOWER },   { "nsec", "s", 1e-9, PDB_DIR_LOWER },
	{ "us", "s", 1e-6, PDB_DIR_LOWER },   { "µs", "s", 1e-6, PDB_DIR_LOWER },
	{ "μs", "s", 1e-6, PDB_DIR_LOWER },   { "usec", "s", 1e-6, PDB_DIR_LOWER },
	{ "ms", "s", 1e-3, PDB_DIR_LOWER },   { "msec", "s", 1e-3, PDB_DIR_LOWER },
	{ "s", "s", 1, PDB_DIR_LOWER },       { "sec", "s", 1, PDB_DIR_LOWER },
	{ "secs", "s", 1, PDB_DIR_LOWER },    { "second", "s", 1, PDB_DIR_LOWER },
	{ "seconds", "s", 1, PDB_DIR_LOWER }, { "min", "s", 60, PDB_DIR_LOWER },
	{ "minutes", "s", 60, PDB_DIR_LOWER },{ "h", "s", 3600, PDB_DIR_LOWER },
	{ "hour", "s", 3600, PDB_DIR_LOWER }, { "hours", "s", 3600, PDB_DIR_LOWER },
	{ "b", "B", 1, PDB_DIR_LOWER },       { "byte", "B", 1, PDB_DIR_LOWER },
	{ "bytes", "B", 1, PDB_DIR_LOWER },   { "kb", "B", 1e3, PDB_DIR_LOWER },
	{ "kib", "B", 1024.0, PDB_DIR_LOWER },{ "mb", "B", 1e6, PDB_DIR_LOWER },
	{ "mib", "B", 1048576.0, PDB_DIR_LOWER },
	{ "gb", "B", 1e9, PDB_DIR_LOWER },    { "gib", "B", 1073741824.0, PDB_DIR_LOWER },
	{ "tb", "B", 1e12, PDB_DIR_LOWER },   { "tib", "B", 1099511627776.0, PDB_DIR_LOWER },
	{ "bit", "B", 0.125, PDB_DIR_LOWER }, { "bits", "B", 0.125, PDB_DIR_LOWER },
	{ "kbit", "B", 125.0, PDB_DIR_LOWER },{ "mbit", "B", 125e3, PDB_DIR_LOWER },
	{ "gbit", "B", 125e6, PDB_DIR_LOWER },
};

/* Rates written as one word. */
static const struct unit_row rate_words[] = {
	{ "hz", "1/s", 1, PDB_DIR_HIGHER },    { "khz", "1/s", 1e3, PDB_DIR_HIGHER },
	{ "mhz", "1/s", 1e6, PDB_DIR_HIGHER }, { "rps", "req/s", 1, PDB_DIR_HIGHER },
	{ "qps", "queries/s", 1, PDB_DIR_HIGHER }, { "tps", "tx/s", 1, PDB_DIR_HIGHER },
	{ "iops", "io/s", 1, PDB_DIR_HIGHER }, { "bps", "B/s", 0.125, PDB_DIR_HIGHER },
	{ "kbps", "B/s", 125.0, PDB_DIR_HIGHER }, { "mbps", "B/s", 125e3, PDB_DIR_HIGHER },
	{ "gbps", "B/s", 125e6, PDB_DIR_HIGHER },
};

/* Plain units that are not rates and not amounts. */
static const struct unit_row plain[] = {
	{ "%", "%", 1, PDB_DIR_NONE },         { "percent", "%", 1, PDB_DIR_NONE },
	{ "count", "count", 1, PDB_DIR_NONE }, { "", "count", 1, PDB_DIR_NONE },
	{ "1", "count", 1, PDB_DIR_NONE },     { "ratio", "ratio", 1, PDB_DIR_NONE },
	{ "x", "ratio", 1, PDB_DIR_NONE },
};

/* Seconds per denominator word of a rate ("/s", "/ms", "/sec", "/op"...). */
static const struct unit_row per[] = {
	{ "s", "s", 1, 0 },      { "sec", "s", 1, 0 },   { "second", "s", 1, 0 },
	{ "ms", "s", 1e-3, 0 },  { "us", "s", 1e-6, 0 }, { "µs", "s", 1e-6, 0 },
	{ "ns", "s", 1e-9, 0 },  { "min", "s", 60, 0 },  { "m", "s", 60, 0 },
	{ "h", "s", 3600, 0 },   { "hour", "s", 3600, 0 },
};

static const struct unit_row *find(const struct unit_row *rows, size_t n,
				   const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(rows[i].name, name) == 0)
			return &rows[i];
	return NULL;
}

#define FIND(rows, name) find(rows, sizeof rows / sizeof rows[0], name)

static void set(struct pdb_unit *out, const char *canonical, double scale,
		int direction)
{
	snprintf(out->canonical, sizeof out->canonical, "%s", canonical);
	out->scale = scale;
	out->direction = direction;
	out->known = 1;
}

/* A rate "X/Y": X an amount or a noun, Y a time word. */
static int parse_rate(const char *raw, struct pdb_unit *out)
{
	char num[48], den[48];
	const char *slash = strrchr(raw, '/');
	const struct unit_row *a, *d;
	size_t nlen;

	if (!slash || slash == raw)
		return -1;
	nlen = (size_t)(slash - raw);
	if (nlen >= sizeof num || strlen(slash + 1) >= sizeof den)
		return -1;
	memcpy(num, raw, nlen);
	num[nlen] = '\0';
	snprintf(den, sizeof den, "%s", slash + 1);

	if (strcasecmp(den, "op") == 0 || strcasecmp(den, "ops") == 0 ||
	    strcasecmp(den, "iter") == 0 || strcasecmp(den, "call") == 0) {
		/* time per operation, e.g. ns/op: a time, lower is better */
		a = FIND(amounts, num);
		if (!a)
			return -1;
		set(out, a->canonical, a->scale, a->direction);
		if (strcmp(a->canonical, "B") == 0)
			snprintf(out->canonical, sizeof out->canonical, "B/op");
		return 0;
	}
	d = FIND(per, den);
	if (!d)
		return -1;
	a = FIND(amounts, num);
	if (a && strcmp(a->canonical, "B") == 0) { /* bytes or bits per time */
		set(out, "B/s", a->scale / d->scale, PDB_DIR_HIGHER);
		return 0;
	}
	if (a) /* time per time: unusual, keep as is */
		return -1;
	/* a noun per time: ops/s, req/s, docs/s, msg/s */
	for (const char *p = num; *p; p++)
		if (!isalpha((unsigned char)*p) && *p != '_' && *p != '-')
			return -1;
	{
		char canonical[64];
		snprintf(canonical, sizeof canonical, "%s/s", num);
		set(out, canonical, 1.0 / d->scale, PDB_DIR_HIGHER);
	}
	return 0;
}

int pdb_unit_parse(const char *raw, struct pdb_unit *out)
{
	const struct unit_row *r;
	char text[48];
	size_t n;

	if (!raw)
		raw = "";
	while (isspace((unsigned char)*raw))
		raw++;
	n = strlen(raw);
	while (n > 0 && isspace((unsigned char)raw[n - 1]))
		n--;
	if (n >= sizeof text)
		goto unknown;
	memcpy(text, raw, n);
	text[n] = '\0';
	/* "per second" spellings */
	if (n > 4 && strcasecmp(text + n - 4, "/sec") == 0)
		text[n - 2] = '\0';

	if ((r = FIND(plain, text)) || (r = FIND(rate_words, text)) ||
	    (r = FIND(amounts, text))) {
		set(out, r->canonical, r->scale, r->direction);
		return 0;
	}
	if (parse_rate(text, out) == 0)
		return 0;
unknown:
	snprintf(out->canonical, sizeof out->canonical, "%.*s",
		 (int)(sizeof out->canonical - 1), raw);
	out->scale = 1;
	out->direction = PDB_DIR_NONE;
	out->known = 0;
	return -1;
}

const char *pdb_direction_name(int direction)
{
	return direction < 0 ? "higher" : direction > 0 ? "lower" : "none";
}

double pdb_direction_worse_sign(int direction)
{
	return direction == PDB_DIR_HIGHER ? -1 : 1;
}

int pdb_direction_parse(const char *name, int *direction)
{
	if (strcmp(name, "lower") == 0 || strcmp(name, "smaller") == 0)
		*direction = PDB_DIR_LOWER;
	else if (strcmp(name, "higher") == 0 || strcmp(name, "bigger") == 0)
		*direction = PDB_DIR_HIGHER;
	else if (strcmp(name, "none") == 0)
		*direction = PDB_DIR_NONE;
	else
		return -1;
	return 0;
}

/* Binary steps for an amount of bytes: memory and sizes read as KiB, MiB, GiB. */
static int format_bytes(double value, const char *digits, char *out, unsigned long size)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double a = value < 0 ? -value : value;
	size_t i = 0;

	while (i + 1 < sizeof names / sizeof names[0] && a >= 1024 * 0.99995) {
		a /= 1024;
		value /= 1024;
		i++;
	}
	if (i == 0 && value == (double)(long long)value) /* whole bytes stay whole */
		return snprintf(out, size, "%.0f B", value);
	return snprintf(out, size, digits, value, names[i]);
}

/* digits: "%.4g" (shortest) or "%#.4g" (four significant digits, zeros kept). */
static void format_unit(double value, const char *unit, int fixed, char *out, unsigned long size)
{
	static const struct { double scale; const char *time, *si; } steps[] = {
		{ 1e12, NULL, "T" }, { 1e9, NULL, "G" }, { 1e6, NULL, "M" }, { 1e3, NULL, "k" },
		{ 1, "s", "" }, { 1e-3, "ms", "m" }, { 1e-6, "µs", "µ" }, { 1e-9, "ns", "n" },
	};
	int is_time = strcmp(unit, "s") == 0, is_bytes = unit[0] == 'B';
	double a = value < 0 ? -value : value;
	char num[64];
	size_t i, len;

	if (!(a == a) || a == 1.0 / 0.0) {
		snprintf(out, size, "%g %s", value, unit);
		return;
	}
	if (strcmp(unit, "B") == 0) {
		format_bytes(value, fixed ? "%#.4g %s" : "%.4g %s", out, size);
		return;
	}
	for (i = 0; i < sizeof steps / sizeof steps[0] - 1; i++) {
		if (is_time && !steps[i].time)
			continue;
		if (!is_time && steps[i].scale < 1)
			break;
		if (a >= steps[i].scale * 0.99995) /* what "%.4g" rounds up to the next step */
			break;
	}
	if (a == 0)
		i = 4;
	if (!is_time && steps[i].scale < 1)
		i = 4; /* no milli-ops: small rates stay plain */
	if (fixed && !(strcmp(unit, "count") == 0 && i == 4 && value == (double)(long long)value))
		snprintf(num, sizeof num, "%#.4g", value / steps[i].scale);
	else
		snprintf(num, sizeof num, "%.4g", value / steps[i].scale);
	len = strlen(num);
	if (len && num[len - 1] == '.') /* "%#.4g" of 1234 */
		num[len - 1] = '\0';
	if (strcmp(unit, "count") == 0) /* a plain number needs no unit */
		snprintf(out, size, "%s%s", num, steps[i].si);
	else if (is_time)
		snprintf(out, size, "%s %s", num, steps[i].time);
	else if (is_bytes || !*steps[i].si)
		snprintf(out, size, "%s %s%s", num, steps[i].si, unit);
	else
		snprintf(out, size, "%s%s %s", num, steps[i].si, unit);
}

/* The value in full, then cut to out: a unit is the data's text, of any
 * length and script, and snprintf would cut inside a UTF-8 character. */
static void format_unit_cut(double value, const char *unit, int fixed, char *out,
			    unsigned long size)
{
	size_t room = strlen(unit) + 96; /* the number, a prefix and spaces fit in 96 */
	char *full = pdb_xmalloc(room);

	format_unit(value, unit, fixed, full, room);
	pdb_utf8_copy(out, size, full);
	free(full);
}

void pdb_unit_format(double value, const char *unit, char *out, unsigned long size)
{
	format_unit_cut(value, unit, 0, out, size);
}

void pdb_unit_format_fixed(double value, const char *unit, char *out, unsigned long size)
{
	format_unit_cut(value, unit, 1, out, size);
}

void pdb_pct_text(double pct, char *out, unsigned long size)
{
	if (fabs(pct) < 0.05)
		pct = 0;
	snprintf(out, size, "%+.1f%%", pct + 0.0);
}

void pdb_speedup_text(double ratio, char *out, unsigned long size)
{
	/* below 0.1 two decimals would keep one digit or none: two significant */
	if (fabs(ratio) < 0.1 && ratio != 0)
		snprintf(out, size, "%.2gx", ratio);
	else
		snprintf(out, size, "%.2fx", ratio);
}

void pdb_pct_change(double pct, char *out, unsigned long size)
{
	char t[48];

	pdb_pct_text(pct, t, sizeof t);
	t[strlen(t) - 1] = '\0'; /* its % */
	snprintf(out, size, "%s %%", t);
}

void pdb_pct_interval(double pct, double lo, double hi, char *out, unsigned long size)
{
	char e[48], l[48], h[48];

	pdb_pct_change(pct, e, sizeof e);
	pdb_pct_text(lo, l, sizeof l);
	pdb_pct_text(hi, h, sizeof h);
	l[strlen(l) - 1] = h[strlen(h) - 1] = '\0'; /* in the estimate's % */
	snprintf(out, size, "%s [%s, %s]", e, l, h);
}

void pdb_pct_words(double pct, double beside, int sign, char *out, unsigned long size)
{
	double m = fmax(fabs(pct), isnan(beside) ? 0 : fabs(beside));
	int decimals = m < 1 ? 3 : m < 10 ? 2 : m < 100 ? 1 : 0;
	char num[64 + 2]; /* the number (at most 63 bytes), then " %" */
	size_t len;

	if (!isfinite(pct)) {
		snprintf(out, size, "%s %%", isnan(pct) ? "?" : pct > 0 ? "+inf" : "-inf");
		return;
	}
	if (m < 1 && m > 0) /* three significant digits below 1 too: 0.0123 */
		decimals = 2 - (int)floor(log10(m));
	if (decimals > 6)
		decimals = 6;
	if (fabs(pct) < 0.5 * pow(10, -decimals))
		pct = 0, sign = 0; /* never "-0.00" */
	snprintf(num, 64, sign ? "%+.*f" : "%.*f", decimals, pct + 0.0);
	len = strlen(num);
	if (isnan(beside) && strchr(num, '.')) {
		while (num[len - 1] == '0')
			num[--len] = '\0';
		if (num[len - 1] == '.')
			num[--len] = '\0';
	}
	/* (copied, not printed again: compare words every row's reason) */
	memcpy(num + len, " %", 3);
	len = len + 2 < size ? len + 2 : size - 1;
	if (size) {
		memcpy(out, num, len);
		out[len] = '\0';
	}
}

void pdb_unit_signed_text(double value, const char *unit, char *out, unsigned long size)
{
	char buf[48];

	pdb_unit_format(fabs(value), unit, buf, sizeof buf);
	snprintf(out, size, "%s%s", value < 0 ? "-" : value > 0 ? "+" : "", buf);
}

int pdb_stat_has_unit(const char *name)
{
	static const char *const plain[] = { "cv", "skewness", "kurtosis", "n", "count",
		"rounds", "iterations", "outliers", "variance", "measured_pct", NULL };

	for (size_t i = 0; plain[i]; i++)
		if (strcmp(name, plain[i]) == 0)
			return 0;
	return 1;
}

int pdb_unit_is_duration(const char *canonical)
{
	return canonical && strcmp(canonical, "s") == 0;
}
