/* Units: map a tool's unit string to a canonical unit, a scale and a direction. */
#ifndef PDB_UNITS_H
#define PDB_UNITS_H

/* Direction of a metric: d = dir * ln(candidate / baseline) > 0 means worse. */
enum pdb_direction {
	PDB_DIR_HIGHER = -1, /* higher is better: ops/s, MB/s */
	PDB_DIR_NONE = 0,    /* reported, never gated */
	PDB_DIR_LOWER = 1,   /* lower is better: time, latency, bytes */
};

struct pdb_unit {
	char canonical[80]; /* "s", "B", "B/s", "ops/s", "%", ... or the raw text */
	double scale;       /* canonical value = raw value * scale */
	int direction;      /* enum pdb_direction, the unit's usual sense */
	int known;          /* 0: not understood; kept as is, direction none */
};

/* Parse raw (e.g. "ns/op", "MiB/s", "req/s", "µs"). Always fills out;
 * returns 0 when the unit is known, -1 when it is kept as it is. */
int pdb_unit_parse(const char *raw, struct pdb_unit *out);

/* "lower", "higher", "none" and back (-1 on an unknown name). */
const char *pdb_direction_name(int direction);
int pdb_direction_parse(const char *name, int *direction);
/* The sign that makes a change of a metric of this direction positive when
 * worse: -1 when higher is better, else +1 (a metric with no direction
 * reads as lower, and is never called worse by its sign alone). */
double pdb_direction_worse_sign(int direction);

/* A value of a canonical unit for people: "250 µs", "1.5 s", "12.5k docs/s",
 * "3.2 MB/s", "1.5 MiB" (bytes in binary steps), 4 significant digits. */
void pdb_unit_format(double value, const char *unit, char *out, unsigned long size);
/* The same with four significant digits always ("7.930 ms", "12.00k"), so the
 * two sides of a row read alike; whole counts stay whole. */
void pdb_unit_format_fixed(double value, const char *unit, char *out, unsigned long size);
/* A change in percent to one decimal with its sign ("+22.2%"), never "-0.0%". */
void pdb_pct_text(double pct, char *out, unsigned long size);
/* The same in words, as reasons print a change: "+22.2 %". */
void pdb_pct_change(double pct, char *out, unsigned long size);
/* A change and its interval in words: "+9.8 % [+6.1, +13.7]". */
void pdb_pct_interval(double pct, double lo, double hi, char *out, unsigned long size);
/* A percentage in words, as reasons and notes print it, never with an
 * exponent: three significant digits below 100 ("0.427 %", "7.25 %",
 * "17.5 %"), whole numbers from there ("2670 %"). Alone (beside NaN) trailing zeros go ("5 %"); beside
 * another it is written with the decimals of the larger of the two, so
 * that they read alike ("+73.0 % or -42.2 %"). sign: a "+" above 0. */
void pdb_pct_words(double pct, double beside, int sign, char *out, unsigned long size);
/* A speed-up (a ratio, lib/table.h's pdb_speedup) as every output prints
 * it: two decimals and an x ("1.22x"), two significant digits below 0.1
 * ("0.0072x"). */
void pdb_speedup_text(double ratio, char *out, unsigned long size);
/* A change in a unit with its sign ("+1.853 ms", "-3 docs"; 0 has none). */
void pdb_unit_signed_text(double value, const char *unit, char *out, unsigned long size);
/* Whether a canonical unit is a duration (seconds: a time, a latency), whose
 * values and statistics in its unit cannot be negative. */
int pdb_unit_is_duration(const char *canonical);
/* Whether a statistic named name is in its series' unit (mean, p99, stddev)
 * or a plain number (cv, skewness, kurtosis, n, rounds, variance). */
int pdb_stat_has_unit(const char *name);

#endif
