/* JSON output: jansson values written with the shortest exact form of each double. */
#include "json_out.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Output gathered in a block (on the stack) and written with one fwrite
 * when full: a compare of many series writes hundreds of thousands of
 * small pieces (struct pdb_json_writer, json_out.h). */
#define writer pdb_json_writer

static void flush(struct writer *w)
{
	if (w->len)
		fwrite(w->buf, 1, w->len, w->out);
	w->len = 0;
}

static void put(struct writer *w, const char *s, size_t n)
{
	if (n > sizeof w->buf - w->len) {
		flush(w);
		if (n > sizeof w->buf) {
			fwrite(s, 1, n, w->out);
			return;
		}
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

static void put_str(struct writer *w, const char *s)
{
	put(w, s, strlen(s));
}

static void put_char(struct writer *w, char c)
{
	if (w->len == sizeof w->buf)
		flush(w);
	w->buf[w->len++] = c;
}

static void newline(struct writer *w, int indent, int depth)
{
	static const char spaces[] = "                                                                ";
	size_t n;

	if (!indent)
		return;
	put_char(w, '\n');
	for (n = (size_t)indent * (size_t)depth; n > sizeof spaces - 1; n -= sizeof spaces - 1)
		put(w, spaces, sizeof spaces - 1);
	put(w, spaces, n);
}

/* s as jansson's json_dumps writes a string (no flags): quoted, with \" \\
 * \b \f \n \r \t and \u00XX for the other control characters, everything
 * else (UTF-8, checked when the value was made, '/', DEL) as it is. */
static void write_string(struct writer *w, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t start = 0;

	put_char(w, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[6];
		size_t n = 2;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(w, s + start, i - start);
		start = i + 1;
		esc[0] = '\\';
		switch (c) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\b': esc[1] = 'b'; break;
		case '\f': esc[1] = 'f'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		default:
			memcpy(esc + 1, "u00", 3);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			n = 6;
		}
		put(w, esc, n);
	}
	put(w, s + start, len - start);
	put_char(w, '"');
}

/* digits[0..n) rounded to p < n digits (half up: the caller has ruled out
 * the ambiguous halves), into out; returns the decimal exponent, one more
 * than exp when the digits carry over (9.99 -> 10.0). */
static int round_digits(const char *digits, int p, int exp, char *out)
{
	int i;

	memcpy(out, digits, (size_t)p);
	if (digits[p] >= '5') {
		for (i = p - 1; i >= 0 && out[i] == '9'; i--)
			out[i] = '0';
		if (i < 0) {
			out[0] = '1'; /* all nines: 1 followed by zeros */
			return exp + 1;
		}
		out[i]++;
	}
	return exp;
}

/* The text printf's %.{p}g gives for the value whose p significant digits
 * (correctly rounded) are digits, decimal exponent exp, sign neg. */
static void format_g(char *out, int neg, const char *digits, int p, int exp)
{
	int nd = p;
	char *o = out;

	while (nd > 1 && digits[nd - 1] == '0')
		nd--; /* %g drops trailing zeros */
	if (neg)
		*o++ = '-';
	if (exp < -4 || exp >= p) {
		*o++ = digits[0];
		if (nd > 1) {
			*o++ = '.';
			memcpy(o, digits + 1, (size_t)nd - 1);
			o += nd - 1;
		}
		o += sprintf(o, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
		return;
	}
	if (exp < 0) {
		*o++ = '0';
		*o++ = '.';
		for (int i = exp + 1; i < 0; i++)
			*o++ = '0';
		memcpy(o, digits, (size_t)nd);
		o += nd;
	} else if (exp + 1 >= nd) { /* an integer: its digits, then zeros */
		memcpy(o, digits, (size_t)nd);
		o += nd;
		for (int i = nd; i < exp + 1; i++)
			*o++ = '0';
	} else {
		memcpy(o, digits, (size_t)exp + 1);
		o += exp + 1;
		*o++ = '.';
		memcpy(o, digits + exp + 1, (size_t)(nd - exp - 1));
		o += nd - exp - 1;
	}
	*o = '\0';
}

/* A finite double's 17 significant digits, rounded as printf rounds (to
 * nearest, ties to even), and its decimal exponent; with what the integer
 * read-back test needs: v = m 2^e, v 10^k = m 5^k 2^sh (k = 16 - exp,
 * sh = e + k). exact is 0 when the digits came from printf. */
struct dec17 {
	char digits[17];
	int exp, neg, exact, k, sh, e;
	uint64_t m;
	int pow2; /* m is 2^52 above the smallest exponent: the ulp below is half */
};

/* A normal finite double's significand m (53 bits), binary exponent e
 * (|v| = m 2^e) and the estimate E of its decimal exponent (E or E + 1);
 * its biased exponent, or -1 for zero, a subnormal, an infinity or NaN. */
static int binary_parts(double v, uint64_t *m, int *e, int *E)
{
	uint64_t bits;
	int be;

	memcpy(&bits, &v, sizeof bits);
	be = (int)((bits >> 52) & 0x7ff);
	if (be == 0 || be == 0x7ff)
		return -1;
	*m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
	*e = be - 1075;
	/* 2^(be - 1023) <= |v| < 2^(be - 1022): the exponent is E or E + 1 */
	*E = (int)floor((be - 1023) * 0.30102999566398120);
	return be;
}

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

/* 5^0 .. 5^32, built at compile time (the pages' threads read it): 5^27 is
 * the last below 2^64, the others are products of it. */
#define POW5_27 ((u128)7450580596923828125ULL)
static const u128 pow5[33] = {
	1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125,
	244140625, 1220703125, 6103515625ULL, 30517578125ULL, 152587890625ULL,
	762939453125ULL, 3814697265625ULL, 19073486328125ULL, 95367431640625ULL,
	476837158203125ULL, 2384185791015625ULL, 11920928955078125ULL,
	59604644775390625ULL, 298023223876953125ULL, 1490116119384765625ULL,
	7450580596923828125ULL,
	POW5_27 * 5, POW5_27 * 25, POW5_27 * 125, POW5_27 * 625, POW5_27 * 3125,
};

/* v = m 2^e rounded to p <= 17 significant digits in integers, as printf
 * rounds (to nearest, ties to even): *n of p digits and the decimal
 * exponent *exp (E or E + 1 on entry's estimate E), with k = p - 1 - exp in
 * [0, 32] (v from about 1e-16 to 1e17 at 17 digits) so that m 5^k < 2^128
 * is exact. Returns -1 for the others. */
static int round_exact(uint64_t m, int e, int E, int p, uint64_t *n, int *exp)
{
	static const uint64_t p10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
		100000000, 1000000000, 10000000000, 100000000000, 1000000000000,
		10000000000000, 100000000000000, 1000000000000000, 10000000000000000,
		100000000000000000 };
	u128 lim = p10[p], low = p10[p - 1];

	for (int attempt = 0; attempt < 3; attempt++) {
		int k = p - 1 - E, sh = e + k;
		u128 x, q;
		if (k < 0 || k > 32)
			return -1;
		x = (u128)m * pow5[k];
		if (sh >= 0) {
			if (sh > 64 || (x >> (127 - sh)) != 0)
				return -1;
			q = x << sh;
		} else if (-sh < 128) {
			u128 rem, half;
			q = x >> -sh;
			if (q >= lim) { /* the exponent is one more */
				E++;
				continue;
			}
			rem = x & (((u128)1 << -sh) - 1);
			half = (u128)1 << (-sh - 1);
			if (rem > half || (rem == half && (q & 1)))
				q++;
			if (q == lim) { /* rounded up to the next power of ten */
				q = low;
				E++;
			}
		} else {
			return -1;
		}
		if (q >= lim) {
			E++;
			continue;
		}
		if (q < low) {
			E--;
			continue;
		}
		*n = (uint64_t)q;
		*exp = E;
		return 0;
	}
	return -1;
}

/* The 17 digits in integers for v normal and non-zero; -1 when out of
 * round_exact's range. */
static int digits17(double v, struct dec17 *d)
{
	uint64_t m, n;
	int be, e, E;

	if ((be = binary_parts(v, &m, &e, &E)) < 0)
		return -1;
	if (round_exact(m, e, E, 17, &n, &d->exp) < 0)
		return -1;
	for (int i = 16; i >= 0; i--) {
		d->digits[i] = (char)('0' + (int)(n % 10));
		n /= 10;
	}
	d->exact = 1;
	d->k = 16 - d->exp;
	d->sh = e + d->k;
	d->e = e;
	d->m = m;
	d->pow2 = m == UINT64_C(1) << 52 && be > 1;
	return 0;
}

/* Whether the decimal n 10^(exp - p + 1) (n of p <= 17 digits, exp within
 * one of d->exp) reads back as the double of d, in integers: it must lie
 * between the midpoints to the neighbouring doubles, or on one when m is
 * even (ties to even). Times 10^k, the decimal is n 10^q and a midpoint
 * A 5^k 2^(sh-2) with A = 4m + 2 or 4m - 2 (4m - 1 below a power of two).
 * Returns -1 when the numbers would not fit in 128 bits. */
static int reads_back(const struct dec17 *d, uint64_t n, int p, int exp)
{
	int q = exp - d->exp + 17 - p, sh = d->sh - 2;
	u128 D, hi, lo, f;

	if (!d->exact || q < 0 || q > 3 || d->k > 31 || sh < -63 || sh > 8)
		return -1;
	D = n;
	for (int i = 0; i < q; i++)
		D *= 10;
	f = pow5[d->k];
	hi = (u128)(4 * d->m + 2) * f;
	lo = (u128)(4 * d->m - (d->pow2 ? 1 : 2)) * f;
	if (sh >= 0) {
		hi <<= sh;
		lo <<= sh;
	} else {
		D <<= -sh;
	}
	if (D > lo && D < hi)
		return 1;
	return (D == lo || D == hi) && (d->m & 1) == 0;
}
#else
static int round_exact(uint64_t m, int e, int E, int p, uint64_t *n, int *exp)
{
	(void)m;
	(void)e;
	(void)E;
	(void)p;
	(void)n;
	(void)exp;
	return -1;
}

static int digits17(double v, struct dec17 *d)
{
	(void)v;
	(void)d;
	return -1;
}

static int reads_back(const struct dec17 *d, uint64_t n, int p, int exp)
{
	(void)d;
	(void)n;
	(void)p;
	(void)exp;
	return -1;
}
#endif

/* The same text as pdb_fmt_double (the first of %.15g, %.16g, %.17g that
 * reads back as v) without printf or strtod for most values: the 17
 * significant digits, the 15- and 16-digit roundings and whether each reads
 * back are found in integers (round_exact, reads_back). Out of their range
 * the 17 digits of %.16e give the roundings, except when the digits dropped
 * are about a half (rounding rounded digits again could differ from
 * rounding v: pdb_fmt_double itself is asked), and strtod says whether they
 * read back. The 15 digits are tried only when they can be within half an
 * ulp of v: v's ulp is at most 23 units of its 17th digit, so the 15-digit
 * form is at most 12 of them away from the 17-digit one when it reads
 * back. Checked against pdb_fmt_double on 26 million doubles. */
static void fmt_real(double v, char out[32])
{
	struct dec17 d;
	char r[17];
	int tail;

	if (!isfinite(v) || (v != 0 && fabs(v) < 0x1p-1022)) {
		pdb_fmt_double(v, out); /* and subnormals: their ulp is wider */
		return;
	}
	d.neg = signbit(v) != 0;
	if (digits17(v, &d) < 0) {
		char e17[40];
		const char *p = e17 + d.neg;
		snprintf(e17, sizeof e17, "%.16e", v);
		d.digits[0] = p[0];
		memcpy(d.digits + 1, p + 2, 16); /* d.dddddddddddddddd */
		d.exp = atoi(p + 19);            /* after the 'e' */
		d.exact = 0;
	}
	tail = (d.digits[15] - '0') * 10 + (d.digits[16] - '0');
	for (int p = 15; p <= 16; p++) {
		int e, back;
		uint64_t n = 0;

		if (p == 15 && !(tail <= 12 || tail >= 88))
			continue;
		if (d.exact && round_exact(d.m, d.e, d.exp, p, &n, &e) == 0) {
			/* rounded from v itself: no second rounding */
			uint64_t t = n;
			for (int i = p - 1; i >= 0; i--, t /= 10)
				r[i] = (char)('0' + (int)(t % 10));
		} else if (p == 16 && d.digits[16] == '5') { /* a half, or close */
			pdb_fmt_double(v, out);
			return;
		} else {
			e = round_digits(d.digits, p, d.exp, r);
			for (int i = 0; i < p; i++)
				n = n * 10 + (uint64_t)(r[i] - '0');
		}
		format_g(out, d.neg, r, p, e);
		back = reads_back(&d, n, p, e);
		if (back < 0)
			back = strtod(out, NULL) == v;
		if (back)
			return;
	}
	format_g(out, d.neg, d.digits, 17, d.exp);
}

static void write_real(struct writer *w, double v)
{
	char num[32];

	fmt_real(v, num);
	/* keep it a real when read back: 1e+20 is fine, "3" needs no dot,
	 * but "-0" would read back as the integer 0: -0 is "-0.0" */
	put_str(w, strcmp(num, "-0") == 0 ? "-0.0" : num);
}

static void write_int(struct writer *w, long long v)
{
	char num[24], *p = num + sizeof num;
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;

	do
		*--p = (char)('0' + (int)(u % 10));
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	put(w, p, (size_t)(num + sizeof num - p));
}

static void write_value(struct writer *w, const json_t *v, int indent, int depth)
{
	const char *sep = indent ? ": " : ":";

	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		const char *key;
		json_t *item;
		int first = 1;
		if (json_object_size(v) == 0) {
			put_str(w, "{}");
			break;
		}
		put_char(w, '{');
		json_object_foreach((json_t *)v, key, item) {
			if (!first)
				put_char(w, ',');
			first = 0;
			newline(w, indent, depth + 1);
			write_string(w, key, strlen(key));
			put_str(w, sep);
			write_value(w, item, indent, depth + 1);
		}
		newline(w, indent, depth);
		put_char(w, '}');
		break;
	}
	case JSON_ARRAY: {
		size_t i;
		json_t *item;
		int scalars = 1;
		if (json_array_size(v) == 0) {
			put_str(w, "[]");
			break;
		}
		/* arrays of numbers stay on one line: samples read better */
		json_array_foreach((json_t *)v, i, item)
			scalars = scalars && (json_is_number(item) || json_is_null(item));
		put_char(w, '[');
		json_array_foreach((json_t *)v, i, item) {
			if (i)
				put_str(w, scalars && indent ? ", " : ",");
			if (!scalars)
				newline(w, indent, depth + 1);
			write_value(w, item, indent, depth + 1);
		}
		if (!scalars)
			newline(w, indent, depth);
		put_char(w, ']');
		break;
	}
	case JSON_STRING:
		write_string(w, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		write_int(w, json_integer_value(v));
		break;
	case JSON_REAL:
		write_real(w, json_real_value(v));
		break;
	case JSON_TRUE:
		put_str(w, "true");
		break;
	case JSON_FALSE:
		put_str(w, "false");
		break;
	case JSON_NULL:
		put_str(w, "null");
		break;
	}
}

void pdb_json_fmt_real(double v, char out[32])
{
	fmt_real(v, out);
}

void pdb_json_write_at(FILE *out, const json_t *v, int indent, int depth)
{
	struct writer w;

	w.out = out;
	w.len = 0;
	write_value(&w, v, indent, depth);
	flush(&w);
}

void pdb_json_write(FILE *out, const json_t *v, int indent)
{
	pdb_json_write_at(out, v, indent, 0);
}

/* The exact digits when round_exact reaches them (v from about 1e-29 to
 * 1e4 at 4 digits), and one correctly rounded division by a power of ten
 * that is itself exact, as strtod's fast path; printf and strtod for the
 * others. */
double pdb_round_significant(double v, int digits)
{
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
		1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
		1e21, 1e22 };
	char text[40];
	uint64_t m, n;
	int e, E, exp, shift;

	if (!isfinite(v))
		return v;
	if (binary_parts(v, &m, &e, &E) >= 0 && digits >= 1 && digits <= 15 &&
	    round_exact(m, e, E, digits, &n, &exp) == 0) {
		shift = digits - 1 - exp; /* v ~ n / 10^shift, n < 2^53 */
		if (shift >= 0 && shift <= 22) {
			double r = (double)n / p10[shift];
			return signbit(v) ? -r : r;
		}
	}
	snprintf(text, sizeof text, "%.*g", digits, v);
	return strtod(text, NULL) + 0.0;
}

/* ---- a document written piece by piece ---- */

void pdb_json_stream_init(struct pdb_json_stream *s, FILE *out, int indent)
{
	s->w.out = out;
	s->w.len = 0;
	s->indent = indent;
	s->depth = 0;
}

void pdb_json_stream_flush(struct pdb_json_stream *s)
{
	flush(&s->w);
}

/* Before a value: in an array, the comma and the line it starts. */
static void item(struct pdb_json_stream *s)
{
	int d = s->depth - 1;

	if (d < 0 || s->kind[d] != 'a')
		return;
	if (s->n[d])
		put_char(&s->w, ',');
	s->n[d] = 1;
	newline(&s->w, s->indent, s->depth);
}

static void open_level(struct pdb_json_stream *s, char kind)
{
	item(s);
	put_char(&s->w, kind == 'o' ? '{' : '[');
	if (s->depth == (int)sizeof s->kind)
		abort(); /* a caller's bug: 32 levels of a document it writes */
	s->kind[s->depth] = kind;
	s->n[s->depth] = 0;
	s->depth++;
}

static void close_level(struct pdb_json_stream *s, char close)
{
	s->depth--;
	if (s->n[s->depth])
		newline(&s->w, s->indent, s->depth);
	put_char(&s->w, close);
}

void pdb_json_begin_object(struct pdb_json_stream *s)
{
	open_level(s, 'o');
}

void pdb_json_end_object(struct pdb_json_stream *s)
{
	close_level(s, '}');
}

void pdb_json_begin_array(struct pdb_json_stream *s)
{
	open_level(s, 'a');
}

void pdb_json_end_array(struct pdb_json_stream *s)
{
	close_level(s, ']');
}

void pdb_json_key(struct pdb_json_stream *s, const char *key)
{
	int d = s->depth - 1;

	if (s->n[d])
		put_char(&s->w, ',');
	s->n[d] = 1;
	newline(&s->w, s->indent, s->depth);
	write_string(&s->w, key, strlen(key));
	put_str(&s->w, s->indent ? ": " : ":");
}

void pdb_json_put_string(struct pdb_json_stream *s, const char *v)
{
	item(s);
	if (v)
		write_string(&s->w, v, strlen(v));
	else
		put_str(&s->w, "null");
}

void pdb_json_put_real(struct pdb_json_stream *s, double v)
{
	item(s);
	if (isfinite(v))
		write_real(&s->w, v);
	else
		put_str(&s->w, "null");
}

void pdb_json_put_int(struct pdb_json_stream *s, long long v)
{
	item(s);
	write_int(&s->w, v);
}

void pdb_json_put_bool(struct pdb_json_stream *s, int v)
{
	item(s);
	put_str(&s->w, v ? "true" : "false");
}

void pdb_json_put_null(struct pdb_json_stream *s)
{
	item(s);
	put_str(&s->w, "null");
}

void pdb_json_put_value(struct pdb_json_stream *s, const json_t *v)
{
	item(s);
	write_value(&s->w, v, s->indent, s->depth);
}
