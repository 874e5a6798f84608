/* YAML documents: libyaml read into jansson values, with each value's line:col kept. */
#include "yaml_doc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util.h"

struct pdb_yaml_pos {
	const json_t *node;
	int line, col;
};

/* The slot of node in doc->slots: where it is, or the empty one where it
 * would go. */
static size_t slot_of(const struct pdb_yaml_doc *doc, const json_t *node)
{
	size_t i = ((uintptr_t)node >> 4) * 0x9E3779B97F4A7C15u & (doc->nslots - 1);

	while (doc->slots[i] && doc->pos[doc->slots[i] - 1].node != node)
		i = (i + 1) & (doc->nslots - 1);
	return i;
}

/* Index pos[k] by its node unless the node has a place already. */
static void index_pos(struct pdb_yaml_doc *doc, size_t k)
{
	size_t i = slot_of(doc, doc->pos[k].node);

	if (!doc->slots[i])
		doc->slots[i] = k + 1;
}

static void remember_at(struct pdb_yaml_doc *doc, const json_t *node, int line, int col)
{
	pdb_grow((void **)&doc->pos, &doc->cappos, doc->npos + 1, sizeof *doc->pos);
	doc->pos[doc->npos].node = node;
	doc->pos[doc->npos].line = line;
	doc->pos[doc->npos].col = col;
	doc->npos++;
	if (2 * doc->npos > doc->nslots) {
		free(doc->slots);
		doc->nslots = doc->nslots ? 2 * doc->nslots : 64;
		doc->slots = pdb_xcalloc(doc->nslots, sizeof *doc->slots);
		for (size_t k = 0; k < doc->npos; k++)
			index_pos(doc, k);
	} else {
		index_pos(doc, doc->npos - 1);
	}
}

/* Where a key of map stood, or where to look for it: in mapping from (an
 * alias's copy: every key, key NULL; a merge: that key). */
struct pdb_yaml_keypos {
	const json_t *map;
	char *key;
	int line, col;
	const json_t *from;
};

/* Keys are looked up only for an error: a list, searched newest first. */
static void remember_key(struct pdb_yaml_doc *doc, const json_t *map, const char *key, int line, int col,
			 const json_t *from)
{
	pdb_grow((void **)&doc->keys, &doc->capkeys, doc->nkeys + 1, sizeof *doc->keys);
	doc->keys[doc->nkeys++] = (struct pdb_yaml_keypos){ map, key ? pdb_xstrdup(key) : NULL, line, col, from };
}

/* The mapping whose keys map's copy kept (an alias's copy is freed once
 * merged, its original stays): the newest entry of map is near the end. */
static const json_t *origin(const struct pdb_yaml_doc *doc, const json_t *map)
{
	for (size_t i = doc->nkeys; i-- > 0;)
		if (doc->keys[i].map == map)
			return doc->keys[i].key ? map : doc->keys[i].from;
	return map;
}

static void remember(struct pdb_yaml_doc *doc, const json_t *node, const yaml_mark_t *m)
{
	remember_at(doc, node, (int)m->line + 1, (int)m->column + 1);
}

/* A plain scalar as YAML 1.2 core schema reads it. */
static json_t *scalar_value(const yaml_event_t *ev)
{
	const char *s = (const char *)ev->data.scalar.value;
	double d;
	int64_t i;

	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return json_string(s);
	if (!*s || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
	    strcmp(s, "NULL") == 0)
		return json_null();
	if (strcmp(s, "true") == 0 || strcmp(s, "True") == 0 || strcmp(s, "TRUE") == 0)
		return json_true();
	if (strcmp(s, "false") == 0 || strcmp(s, "False") == 0 || strcmp(s, "FALSE") == 0)
		return json_false();
	if (pdb_parse_int64(s, INT64_MIN, INT64_MAX, &i) == 0)
		return json_integer(i);
	if (strcmp(s, ".nan") == 0 || strcmp(s, ".NaN") == 0)
		return json_string("NaN");
	if (strcmp(s, ".inf") == 0 || strcmp(s, ".Inf") == 0)
		return json_string("Infinity");
	if ((s[0] >= '0' && s[0] <= '9') || s[0] == '-' || s[0] == '+' || s[0] == '.')
		if (pdb_parse_double(s, &d) == 0)
			return json_real(d);
	return json_string(s);
}

/* An anchor (&NAME) and the value it names, with how many values that is
 * (its own and every one inside it, aliases expanded). */
struct anchor {
	char *name;
	json_t *node;
	size_t values;
};

struct loader {
	yaml_parser_t parser;
	struct pdb_yaml_doc *doc;
	struct pdb_err *err;
	struct anchor *anchors;
	size_t nanchors, capanchors;
	size_t values;  /* values read so far, aliases expanded */
	size_t aliased; /* of which by aliases */
};

static const struct anchor *find_anchor(const struct loader *l, const char *name)
{
	for (size_t i = l->nanchors; i-- > 0;) /* a name given again names the later value */
		if (strcmp(l->anchors[i].name, name) == 0)
			return &l->anchors[i];
	return NULL;
}

/* A copy of an anchor's value for one of its aliases: each copied value
 * stands where its original stood, the whole at the alias (line, col). */
static json_t *copy_value(struct pdb_yaml_doc *doc, const json_t *v, int line, int col)
{
	json_t *copy, *item;
	const char *key;
	size_t i;
	int l2, c2;

	if (json_is_object(v)) {
		copy = json_object();
		json_object_foreach((json_t *)v, key, item) {
			pdb_yaml_where(doc, item, &l2, &c2);
			json_object_set_new(copy, key, copy_value(doc, item, l2, c2));
		}
		remember_key(doc, copy, NULL, 0, 0, v);
	} else if (json_is_array(v)) {
		copy = json_array();
		json_array_foreach(v, i, item) {
			pdb_yaml_where(doc, item, &l2, &c2);
			json_array_append_new(copy, copy_value(doc, item, l2, c2));
		}
	} else {
		copy = json_deep_copy(v);
	}
	remember_at(doc, copy, line, col);
	return copy;
}

/* *ALIAS: a copy of its anchor's value, within PDB_YAML_MAX_VALUES. */
static int read_alias(struct loader *l, const yaml_event_t *ev, json_t **out)
{
	const char *name = (const char *)ev->data.alias.anchor;
	const struct anchor *a = find_anchor(l, name);
	int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;

	if (!a)
		return pdb_err_at(l->err, PDB_EXIT_INPUT, l->doc->file, line, col,
				  "alias *%s names no anchor (&%s) before it", name, name);
	if (a->values > PDB_YAML_MAX_VALUES - l->aliased)
		return pdb_err_at(l->err, PDB_EXIT_INPUT, l->doc->file, line, col,
				  "alias *%s: the document's aliases expand past %d values", name,
				  PDB_YAML_MAX_VALUES);
	l->values += a->values;
	l->aliased += a->values;
	*out = copy_value(l->doc, a->node, line, col);
	return 0;
}

/* A mapping's "<<: *BASE" (or a list of them): BASE's keys that the
 * mapping does not give itself; keys given after it replace them. */
static int merge_keys(struct loader *l, json_t *node, json_t *merged, const json_t *from,
		      const yaml_mark_t *m)
{
	const json_t *list[1] = { from }, *item;
	size_t n = json_is_array(from) ? json_array_size(from) : 1;

	for (size_t i = 0; i < n; i++) {
		const char *key;
		json_t *v;
		const json_t *keys_of;
		item = json_is_array(from) ? json_array_get(from, i) : list[0];
		if (!json_is_object(item))
			return pdb_err_at(l->err, PDB_EXIT_INPUT, l->doc->file, (int)m->line + 1,
					  (int)m->column + 1, "<< merges a mapping (or a list of them)");
		keys_of = origin(l->doc, item);
		json_object_foreach((json_t *)item, key, v)
			if (!json_object_get(node, key)) {
				json_object_set(node, key, v);
				json_object_set_new(merged, key, json_true());
				remember_key(l->doc, node, key, 0, 0, keys_of);
			}
	}
	return 0;
}

static int fail_parser(struct loader *l)
{
	yaml_parser_t *p = &l->parser;
	const yaml_mark_t *m = p->problem ? &p->problem_mark : &p->context_mark;

	return pdb_err_at(l->err, PDB_EXIT_INPUT, l->doc->file, (int)m->line + 1,
			  (int)m->column + 1, "%s%s%s", p->problem ? p->problem : "malformed YAML",
			  p->context ? " " : "", p->context ? p->context : "");
}

static int next(struct loader *l, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&l->parser, ev))
		return fail_parser(l);
	return 0;
}

/* Read the node whose first event is ev (consumed) into *out. */
static int read_node(struct loader *l, yaml_event_t *ev, json_t **out, int depth)
{
	yaml_event_t child;
	json_t *node = NULL;

	json_t *merged = NULL; /* keys a << gave the mapping */
	const char *anchor = NULL;
	size_t first = l->values;

	if (depth > 256) {
		pdb_err_at(l->err, PDB_EXIT_INPUT, l->doc->file, (int)ev->start_mark.line + 1,
			   (int)ev->start_mark.column + 1, "YAML nested too deeply");
		yaml_event_delete(ev);
		return -1;
	}
	l->values++;
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		anchor = (const char *)ev->data.scalar.anchor;
		node = scalar_value(ev);
		break;
	case YAML_ALIAS_EVENT: {
		int rc = read_alias(l, ev, out);
		yaml_event_delete(ev);
		return rc;
	}
	case YAML_SEQUENCE_START_EVENT:
		anchor = (const char *)ev->data.sequence_start.anchor;
		node = json_array();
		for (;;) {
			json_t *item;
			if (next(l, &child) < 0)
				goto fail;
			if (child.type == YAML_SEQUENCE_END_EVENT) {
				yaml_event_delete(&child);
				break;
			}
			if (read_node(l, &child, &item, depth + 1) < 0)
				goto fail;
			json_array_append_new(node, item);
		}
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = (const char *)ev->data.mapping_start.anchor;
		node = json_object();
		merged = json_object();
		for (;;) {
			yaml_mark_t key_mark;
			json_t *value;
			char *key;
			if (next(l, &child) < 0)
				goto fail;
			if (child.type == YAML_MAPPING_END_EVENT) {
				yaml_event_delete(&child);
				break;
			}
			if (child.type != YAML_SCALAR_EVENT) {
				pdb_err_at(l->err, PDB_EXIT_INPUT, l->doc->file,
					   (int)child.start_mark.line + 1, (int)child.start_mark.column + 1,
					   "mapping keys must be plain text");
				yaml_event_delete(&child);
				goto fail;
			}
			key = pdb_xstrdup((const char *)child.data.scalar.value);
			key_mark = child.start_mark;
			if (strcmp(key, "<<") == 0 && child.data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
				yaml_event_delete(&child);
				free(key);
				if (next(l, &child) < 0 || read_node(l, &child, &value, depth + 1) < 0)
					goto fail;
				if (merge_keys(l, node, merged, value, &key_mark) < 0) {
					json_decref(value);
					goto fail;
				}
				json_decref(value);
				continue;
			}
			yaml_event_delete(&child);
			if (json_object_get(merged, key)) /* given after a <<: replaces the merged value */
				json_object_del(merged, key);
			else if (json_object_get(node, key)) { /* a second value would silently win */
				int line, col;
				pdb_yaml_key_where(l->doc, node, key, &line, &col);
				pdb_err_at(l->err, PDB_EXIT_INPUT, l->doc->file, (int)key_mark.line + 1,
					   (int)key_mark.column + 1, "duplicate key '%s' (given first "
					   "at %d:%d)", key, line, col);
				free(key);
				goto fail;
			}
			if (next(l, &child) < 0 || read_node(l, &child, &value, depth + 1) < 0) {
				free(key);
				goto fail;
			}
			json_object_set_new(node, key, value);
			remember_key(l->doc, node, key, (int)key_mark.line + 1, (int)key_mark.column + 1, NULL);
			free(key);
		}
		break;
	default:
		node = json_null();
	}
	remember(l->doc, node, &ev->start_mark);
	if (anchor) {
		pdb_grow((void **)&l->anchors, &l->capanchors, l->nanchors + 1, sizeof *l->anchors);
		l->anchors[l->nanchors++] = (struct anchor){ .name = pdb_xstrdup(anchor),
			.node = json_incref(node), .values = l->values - first };
	}
	json_decref(merged);
	yaml_event_delete(ev);
	*out = node;
	return 0;
fail:
	json_decref(node);
	json_decref(merged);
	yaml_event_delete(ev);
	return -1;
}

/* After the first document: its end (whether "..." ended it), then the
 * stream's. A second document (stress-ng writes a map, a tool may append)
 * is refused, not dropped. */
static int only_document(struct loader *l, struct pdb_yaml_doc *doc)
{
	yaml_event_t ev;

	for (;;) {
		int type;
		if (next(l, &ev) < 0)
			return -1;
		type = ev.type;
		if (type == YAML_DOCUMENT_START_EVENT) {
			int line = (int)ev.start_mark.line + 1, col = (int)ev.start_mark.column + 1;
			yaml_event_delete(&ev);
			return pdb_err_at(l->err, PDB_EXIT_INPUT, doc->file, line, col,
					  "a second YAML document: perfdb reads one a file "
					  "(split the file, one document each)");
		}
		if (type == YAML_DOCUMENT_END_EVENT)
			doc->explicit_end = !ev.data.document_end.implicit;
		yaml_event_delete(&ev);
		if (type == YAML_STREAM_END_EVENT)
			return 0;
	}
}

int pdb_yaml_load(const char *path, const char *name, struct pdb_yaml_doc *doc,
		  struct pdb_err *err)
{
	struct loader l = { .doc = doc, .err = err };
	yaml_event_t ev;
	FILE *f;
	int ret = -1;

	memset(doc, 0, sizeof *doc);
	doc->file = pdb_xstrdup(name ? name : path);
	if (!(f = fopen(path, "rb"))) {
		pdb_err_at(err, PDB_EXIT_INPUT, doc->file, 0, 0, "%s", strerror(errno));
		pdb_yaml_doc_release(doc);
		return -1;
	}
	yaml_parser_initialize(&l.parser);
	yaml_parser_set_input_file(&l.parser, f);
	/* stream start, document start (or stream end: an empty file) */
	do {
		if (next(&l, &ev) < 0)
			goto out;
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			pdb_err_at(err, PDB_EXIT_INPUT, doc->file, 1, 1, "empty file");
			goto out;
		}
		if (ev.type == YAML_STREAM_START_EVENT || ev.type == YAML_DOCUMENT_START_EVENT) {
			yaml_event_delete(&ev);
			continue;
		}
		break;
	} while (1);
	if ((ret = read_node(&l, &ev, &doc->root, 0)) == 0)
		ret = only_document(&l, doc);
out:
	for (size_t i = 0; i < l.nanchors; i++) {
		free(l.anchors[i].name);
		json_decref(l.anchors[i].node);
	}
	free(l.anchors);
	yaml_parser_delete(&l.parser);
	fclose(f);
	if (ret < 0)
		pdb_yaml_doc_release(doc);
	return ret;
}

void pdb_yaml_doc_release(struct pdb_yaml_doc *doc)
{
	json_decref(doc->root);
	free(doc->file);
	free(doc->pos);
	free(doc->slots);
	for (size_t i = 0; i < doc->nkeys; i++)
		free(doc->keys[i].key);
	free(doc->keys);
	memset(doc, 0, sizeof *doc);
}

int pdb_yaml_where(const struct pdb_yaml_doc *doc, const json_t *v, int *line, int *col)
{
	size_t i;

	/* singletons (true, false, null) have no single place: unknown */
	if (doc->nslots && !json_is_boolean(v) && !json_is_null(v) &&
	    doc->slots[i = slot_of(doc, v)]) {
		*line = doc->pos[doc->slots[i] - 1].line;
		*col = doc->pos[doc->slots[i] - 1].col;
		return 0;
	}
	*line = *col = 0;
	return -1;
}

int pdb_yaml_key_where(const struct pdb_yaml_doc *doc, const json_t *map, const char *key, int *line,
		       int *col)
{
	for (size_t i = doc->nkeys; i-- > 0;) {
		const struct pdb_yaml_keypos *k = &doc->keys[i];
		if (k->map != map || (k->key && strcmp(k->key, key) != 0))
			continue;
		if (k->from)
			return pdb_yaml_key_where(doc, k->from, key, line, col);
		*line = k->line;
		*col = k->col;
		return 0;
	}
	*line = *col = 0;
	return -1;
}

int pdb_yaml_bad_key(const struct pdb_yaml_doc *doc, const json_t *map, const char *key, int code,
		     struct pdb_err *err, const char *fmt, ...)
{
	char msg[512];
	int line, col;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (pdb_yaml_key_where(doc, map, key, &line, &col) < 0)
		return pdb_yaml_bad(doc, json_object_get(map, key), code, err, "%s", msg);
	return pdb_err_at(err, code, doc->file, line, col, "%s", msg);
}

int pdb_yaml_bad(const struct pdb_yaml_doc *doc, const json_t *v, int code,
		 struct pdb_err *err, const char *fmt, ...)
{
	char msg[512];
	int line, col;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	pdb_yaml_where(doc, v, &line, &col);
	return pdb_err_at(err, code, doc->file, line, col, "%s", msg);
}

char *pdb_yaml_scalar_text(const json_t *v)
{
	char buf[32];

	if (json_is_string(v))
		return pdb_xstrdup(json_string_value(v));
	if (json_is_integer(v))
		return pdb_xasprintf("%lld", (long long)json_integer_value(v));
	if (json_is_real(v)) {
		pdb_fmt_double(json_real_value(v), buf);
		return pdb_xstrdup(buf);
	}
	if (json_is_boolean(v))
		return pdb_xstrdup(json_is_true(v) ? "true" : "false");
	return NULL;
}
