/* JSON output: jansson values written with the shortest exact form of each double. */
#include "json_out.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static void newline(FILE *out, int indent, int depth)
{
	if (!indent)
		return;
	fputc('\n', out);
	fprintf(out, "%*s", indent * depth, "");
}

static void write_string(FILE *out, const char *s, size_t len)
{
	json_t *str = json_stringn(s, len);
	char *text = json_dumps(str, JSON_ENCODE_ANY);

	fputs(text ? text : "\"\"", out);
	free(text);
	json_decref(str);
}

static void write_value(FILE *out, const json_t *v, int indent, int depth)
{
	const char *sep = indent ? ": " : ":";
	char num[32];

	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		const char *key;
		json_t *item;
		int first = 1;
		if (json_object_size(v) == 0) {
			fputs("{}", out);
			break;
		}
		fputc('{', out);
		json_object_foreach((json_t *)v, key, item) {
			if (!first)
				fputc(',', out);
			first = 0;
			newline(out, indent, depth + 1);
			write_string(out, key, strlen(key));
			fputs(sep, out);
			write_value(out, item, indent, depth + 1);
		}
		newline(out, indent, depth);
		fputc('}', out);
		break;
	}
	case JSON_ARRAY: {
		size_t i;
		json_t *item;
		int scalars = 1;
		if (json_array_size(v) == 0) {
			fputs("[]", out);
			break;
		}
		/* arrays of numbers stay on one line: samples read better */
		json_array_foreach((json_t *)v, i, item)
			scalars = scalars && (json_is_number(item) || json_is_null(item));
		fputc('[', out);
		json_array_foreach((json_t *)v, i, item) {
			if (i)
				fputs(scalars && indent ? ", " : ",", out);
			if (!scalars)
				newline(out, indent, depth + 1);
			write_value(out, item, indent, depth + 1);
		}
		if (!scalars)
			newline(out, indent, depth);
		fputc(']', out);
		break;
	}
	case JSON_STRING:
		write_string(out, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		fprintf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		pdb_fmt_double(json_real_value(v), num);
		/* keep it a real when read back: 1e+20 is fine, "3" needs no dot */
		fputs(num, out);
		break;
	case JSON_TRUE:
		fputs("true", out);
		break;
	case JSON_FALSE:
		fputs("false", out);
		break;
	case JSON_NULL:
		fputs("null", out);
		break;
	}
}

void pdb_json_write(FILE *out, const json_t *v, int indent)
{
	write_value(out, v, indent, 0);
}
