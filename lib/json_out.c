/* JSON output: jansson values written with the shortest exact form of each double. */
#include "json_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Output gathered in a block and written with one fwrite when full: a
 * compare of many series writes hundreds of thousands of small pieces. */
struct writer {
	FILE *out;
	size_t len;
	char buf[65536];
};

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

/* The same text as pdb_fmt_double (the first of %.15g, %.16g, %.17g that
 * reads back as v) from one conversion: the 17 significant digits of %.16e
 * give the 15- and 16-digit roundings, except when the digits dropped are
 * exactly a half (then rounding the rounded digits again could differ from
 * rounding v: pdb_fmt_double itself is asked). The 15 digits are read back
 * only when they can be within half an ulp of v: v's ulp is at most 23
 * units of its 17th digit, so the 15-digit form is at most 12 of them away
 * from the 17-digit one when it reads back. */
static void fmt_real(double v, char out[32])
{
	char e17[40], digits[17], r[17];
	int exp, neg, tail;

	if (!isfinite(v) || (v != 0 && fabs(v) < 0x1p-1022)) {
		pdb_fmt_double(v, out); /* and subnormals: their ulp is wider */
		return;
	}
	snprintf(e17, sizeof e17, "%.16e", v);
	neg = e17[0] == '-';
	{
		const char *p = e17 + neg;
		digits[0] = p[0];
		memcpy(digits + 1, p + 2, 16); /* d.dddddddddddddddd */
		exp = atoi(p + 19);            /* after the 'e' */
	}
	tail = (digits[15] - '0') * 10 + (digits[16] - '0');
	if (tail <= 12 || tail >= 88) {
		int e = round_digits(digits, 15, exp, r);
		format_g(out, neg, r, 15, e);
		if (strtod(out, NULL) == v)
			return;
	}
	if (digits[16] == '5') { /* a half, or close: ask the slow way */
		pdb_fmt_double(v, out);
		return;
	}
	{
		int e = round_digits(digits, 16, exp, r);
		format_g(out, neg, r, 16, e);
		if (strtod(out, NULL) == v)
			return;
	}
	format_g(out, neg, digits, 17, exp);
}

static void write_value(struct writer *w, const json_t *v, int indent, int depth)
{
	const char *sep = indent ? ": " : ":";
	char num[48];

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
		snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		put_str(w, num);
		break;
	case JSON_REAL:
		fmt_real(json_real_value(v), num);
		/* keep it a real when read back: 1e+20 is fine, "3" needs no dot */
		put_str(w, num);
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

void pdb_json_write(FILE *out, const json_t *v, int indent)
{
	struct writer *w = pdb_xmalloc(sizeof *w);

	w->out = out;
	w->len = 0;
	write_value(w, v, indent, 0);
	flush(w);
	free(w);
}
