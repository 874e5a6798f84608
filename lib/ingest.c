/* Ingest: read result files with the right adapter into one run. */
#include "ingest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decompress.h"
#include "fingerprint.h"
#include "formats/format.h"
#include "parse/json_pos.h"
#include "parse/json_util.h"
#include "util.h"

#define HEAD_SIZE 65536

struct ingest {
	const struct pdb_ingest_opts *opts;
	struct pdb_run *run;
	struct pdb_buf sources;
	int own_env;      /* every file so far carried its own environment */
	int nfiles;
	size_t nparsed;   /* files parsed into run (not folders walked) */
	const char *first_format;
	int hashed;       /* the first path was hashed (sha256) */
	char sha256[65];  /* of the first file as given (compressed), of a folder its
			   * files' names and contents (dir_sha256), or "" */
};

static size_t read_head(const char *path, unsigned char *head)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0;

	if (f) {
		n = fread(head, 1, HEAD_SIZE, f);
		fclose(f);
	}
	head[n] = '\0';
	return n;
}

/* One input opened for the adapters: its first bytes read, a FIFO copied
 * and a compressed file decompressed to temporary files first (errors name
 * the file as given, at positions in the decompressed text). */
struct input {
	struct pdb_source src;
	unsigned char *head;
	struct pdb_temp spool;       /* a FIFO's bytes */
	struct pdb_temp unpacked[2]; /* decompressed, then its byte order mark dropped */
	struct pdb_buf warnings;     /* the reader's, "LINE:COL: what" a line */
};

static const char *kind_of_file(mode_t mode)
{
	return S_ISCHR(mode) ? "a character device" : S_ISBLK(mode) ? "a block device"
	     : S_ISSOCK(mode) ? "a socket" : S_ISFIFO(mode) ? "a FIFO" : "not a file";
}

static int input_open(struct input *x, const struct ingest *in, const char *path,
		      const char *name, struct pdb_err *err)
{
	struct pdb_input_limits lim = pdb_input_limits_or_default(&in->opts->limits);
	struct stat sb;

	memset(x, 0, sizeof *x);
	pdb_buf_init(&x->warnings);
	pdb_temp_init(&x->spool);
	for (int i = 0; i < 2; i++)
		pdb_temp_init(&x->unpacked[i]);
	x->src = (struct pdb_source){ .path = path, .name = name, .map_path = in->opts->map_path,
				      .warnings = &x->warnings };
	if (stat(path, &sb) < 0)
		return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "%s", strerror(errno));
	x->src.is_dir = S_ISDIR(sb.st_mode);
	if (x->src.is_dir)
		return 0;
	if (S_ISFIFO(sb.st_mode)) { /* read once, as standard input is */
		int fd = open(path, O_RDONLY), rc;

		if (fd < 0)
			return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "%s", strerror(errno));
		rc = pdb_spool_to_temp(fd, name, &lim, &x->spool, err);
		close(fd);
		if (rc < 0)
			return -1;
		if (fstat(x->spool.fd, &sb) < 0)
			return pdb_err_set(err, PDB_EXIT_RUNTIME, "temporary file: %s", strerror(errno));
		x->src.path = x->spool.path;
	} else if (!S_ISREG(sb.st_mode)) {
		return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "not a regular file (%s): perfdb "
				  "reads files, folders, FIFOs and standard input", kind_of_file(sb.st_mode));
	} else if ((uint64_t)sb.st_size > lim.max_bytes) {
		char limit[32];

		pdb_format_bytes(lim.max_bytes, limit, sizeof limit);
		return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "more than %s (%lld bytes; the "
				  "limit: --max-input SIZE or PERFDB_MAX_INPUT raises it)", limit,
				  (long long)sb.st_size);
	}
	x->head = pdb_xmalloc(HEAD_SIZE + 1);
	x->src.head = x->head;
	x->src.head_len = read_head(x->src.path, x->head);
	for (int i = 0; i < 2; i++) {
		/* the second level's ratio is of the file as given */
		int rc = pdb_decompress_to_temp(x->src.path, name, x->head, x->src.head_len,
						i ? (uint64_t)sb.st_size : 0, &lim,
						&x->unpacked[i], err);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		x->src.path = x->unpacked[i].path;
		x->src.head_len = read_head(x->src.path, x->head);
	}
	return 0;
}

static void input_close(struct input *x)
{
	for (int i = 0; i < 2; i++)
		pdb_temp_close(&x->unpacked[i]);
	pdb_temp_close(&x->spool);
	pdb_buf_release(&x->warnings);
	free(x->head);
}

/* What the reader of x said about it, kept as the run attribute
 * ingest.warning[NAME] (ingest prints it). */
static void keep_warnings(struct pdb_run *run, const struct input *x)
{
	struct pdb_buf value;
	char *key;

	if (!x->warnings.len)
		return;
	pdb_buf_init(&value);
	for (const char *p = x->warnings.data, *nl; *p; p = nl + 1) { /* lines joined by "; " */
		nl = strchr(p, '\n');
		pdb_buf_printf(&value, "%s%.*s", value.len ? "; " : "", (int)(nl - p), p);
	}
	key = pdb_xasprintf("ingest.warning[%s]", x->src.name);
	pdb_run_set_attr(run, key, value.data);
	free(key);
	pdb_buf_release(&value);
}

/* Where a reader's entry is, as "LINE:COL" (a JSON path found in text). */
static void entry_pos(const char *where, const char *text, size_t len, char out[48])
{
	struct pdb_json_pos at;

	if (where[0] == '$' && text && pdb_json_path_pos(text, len, where, &at) == 0)
		snprintf(out, 48, "%d:%d", at.line, at.col);
	else
		snprintf(out, 48, "%s", where[0] ? where : "0:0");
}

/* The first negative value of a duration among run's results from `from` on
 * (what x's reader added): said as a warning at its entry's position. A time
 * cannot be below 0; the value is kept as the tool wrote it (a correction
 * for the shell's own time can undershoot), but never in silence. */
static void note_negative_times(const struct pdb_run *run, size_t from, struct input *x,
				char **text, size_t *len)
{
	struct pdb_err ignored;

	for (size_t i = from; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		const char *where = pdb_run_result_where(run, i);
		char *what = NULL, *dims, at[48], num[32];
		double v = 0;

		if (!pdb_unit_is_duration(r->unit))
			continue;
		for (size_t k = 0; !what && k < r->nsamples; k++)
			if ((v = r->samples[k].value) < 0)
				what = pdb_xasprintf("sample %zu", k + 1);
		for (size_t k = 0; !what && k < r->nstats; k++)
			if ((v = r->stats[k].value) < 0 && pdb_stat_has_unit(r->stats[k].name))
				what = pdb_xasprintf("its %s", r->stats[k].name);
		if (!what)
			continue;
		if (where && where[0] == '$' && !*text && !x->src.is_dir)
			*text = pdb_json_read(&x->src, len, &ignored);
		dims = pdb_dims_display(r->dims, r->ndims);
		pdb_fmt_double(v, num);
		entry_pos(where ? where : "", *text, *len, at);
		/* without a position: " the series ..." reads "FILE: the series ..." */
		pdb_buf_printf(&x->warnings, "%s%s the series '%s'%s%s%s %s: %s is %s s, but a time "
			       "cannot be negative (kept as written)\n", where ? at : "",
			       where ? ":" : "", r->benchmark, dims[0] ? " (" : "", dims,
			       dims[0] ? ")" : "", r->metric, what, num);
		free(dims);
		free(what);
	}
}

/* The entries of x that gave a benchmark again, said as warnings (the file
 * read again only then, for their positions); entries end with the file. */
static void note_repeats(struct pdb_run *run, size_t from, const struct pdb_format *f,
			 struct input *x)
{
	struct pdb_entry_repeat *r;
	struct pdb_err ignored;
	char *text = NULL, first[48], again[48];
	size_t n, len = 0;

	if (!f->own_env) /* perfdb's own file: said when it was first ingested */
		note_negative_times(run, from, x, &text, &len);
	pdb_run_end_entries(run);
	r = pdb_run_take_repeats(run, &n);
	if (n && !text && !x->src.is_dir)
		text = pdb_json_read(&x->src, &len, &ignored);
	for (size_t i = 0; i < n; i++) {
		entry_pos(r[i].first, text, len, first);
		entry_pos(r[i].again, text, len, again);
		pdb_buf_printf(&x->warnings, "%s: the benchmark '%s'%s%s%s is given again (first at "
			       "%s): kept as its own series, with the dim occurrence=%u\n", again,
			       r[i].benchmark, r[i].dims[0] ? " (" : "", r[i].dims,
			       r[i].dims[0] ? ")" : "", first, r[i].occurrence);
	}
	free(text);
	pdb_entry_repeats_free(r, n);
}

static const struct pdb_format *choose_format(const struct ingest *in,
					      const struct pdb_source *src,
					      struct pdb_err *err)
{
	const char *want = in->opts->format;
	const struct pdb_format *f;

	if (!want && in->opts->map_path)
		want = "map";
	if (want) {
		if (!(f = pdb_format_find(want)))
			pdb_err_set(err, PDB_EXIT_INPUT,
				    "unknown format '%s' (perfdb ingest --list-formats lists them)", want);
		return f;
	}
	f = pdb_format_detect(src);
	if (!f && !src->is_dir && src->head_len == 0)
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, 1, 1, "empty file");
	else if (!f && !src->is_dir)
		pdb_err_at(err, PDB_EXIT_INPUT, src->name, 0, 0,
			   "cannot tell which tool wrote this file; name it with --format (see --list-formats)");
	return f;
}

/* Whether name is one of the '+'-separated names of list. */
static int has_format(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list; p; p = strchr(p, '+') ? strchr(p, '+') + 1 : NULL)
		if (strncmp(p, name, len) == 0 && (p[len] == '+' || p[len] == '\0'))
			return 1;
	return 0;
}

/* Record that f read a file into the run: the run's format names every adapter. */
static void note_format(struct ingest *in, const struct pdb_format *f)
{
	if (!in->first_format)
		in->first_format = f->name;
	if (!in->run->format)
		pdb_set_str(&in->run->format, f->name);
	else if (!f->own_env && !has_format(in->run->format, f->name)) {
		char *both = pdb_xasprintf("%s+%s", in->run->format, f->name);
		free(in->run->format);
		in->run->format = both;
	}
	in->own_env = in->own_env && f->own_env;
	in->nfiles++;
}

/* A directory no adapter claims: every file in it (and its subdirectories) that
 * an adapter recognises, each adapter's files parsed together in name order into
 * a group of their own. A file no adapter recognises is skipped and said so. */
struct group {
	const struct pdb_format *format;
	struct pdb_run *run;
	char **files;           /* the files parsed into run, in order */
	size_t nfiles, capfiles;
	size_t *file_of;        /* per result: the file that first gave it */
	size_t capfile_of;
	/* per result, when another group holds its series richer: that group
	 * and 1 + the position of its result there (0: kept) */
	size_t *lost_to, *lost_at;
};

struct dir_walk {
	struct ingest *in;
	const struct pdb_format *forced; /* --format (or --map): every file, or NULL */
	struct group *groups;
	size_t ngroups, cap;
	size_t skipped;
	struct pdb_attr *seen; /* sha256 -> name of every file read */
	size_t nseen, capseen;
	char *root;            /* the folder's real path: no link is followed out of it */
	struct dir_id { dev_t dev; ino_t ino; } *dirs; /* every folder read: each once */
	size_t ndirs, capdirs;
};

/* The name of an earlier file of the walk with the same contents, or NULL
 * (then this one is remembered). */
static const char *seen_before(struct dir_walk *w, const char *path, const char *name)
{
	char hex[65];

	if (pdb_sha256_file(path, hex) < 0)
		return NULL;
	for (size_t i = 0; i < w->nseen; i++)
		if (strcmp(w->seen[i].key, hex) == 0)
			return w->seen[i].value;
	pdb_grow((void **)&w->seen, &w->capseen, w->nseen + 1, sizeof *w->seen);
	w->seen[w->nseen].key = pdb_xstrdup(hex);
	w->seen[w->nseen++].value = pdb_xstrdup(name);
	return NULL;
}

/* An entry of the walk not read, and why: kept as an attribute; an error
 * with --strict. */
static int skip_file(struct dir_walk *w, const char *name, const char *why,
		     struct pdb_err *err)
{
	char *key;

	if (w->in->opts->strict)
		return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "%s (--strict)", why);
	key = pdb_xasprintf("ingest.skipped[%s]", name);
	pdb_run_set_attr(w->in->run, key, why);
	free(key);
	w->skipped++;
	return 0;
}

/* 1 when the folder sb was read before (a loop, a bind mount), else 0 and
 * remembered. */
static int dir_seen(struct dir_walk *w, const struct stat *sb)
{
	for (size_t i = 0; i < w->ndirs; i++)
		if (w->dirs[i].dev == sb->st_dev && w->dirs[i].ino == sb->st_ino)
			return 1;
	pdb_grow((void **)&w->dirs, &w->capdirs, w->ndirs + 1, sizeof *w->dirs);
	w->dirs[w->ndirs++] = (struct dir_id){ sb->st_dev, sb->st_ino };
	return 0;
}

/* Whether the link path leads into the walk's folder. */
static int inside_root(const struct dir_walk *w, const char *path)
{
	char *real = realpath(path, NULL);
	size_t len = strlen(w->root);
	int in = real && (strcmp(w->root, "/") == 0 || (strncmp(real, w->root, len) == 0 &&
							  (real[len] == '/' || real[len] == '\0')));

	free(real);
	return in;
}

/* A symbolic link of the walk: 1 to read what it leads to (a file inside the
 * folder), 0 when not (said why), -1 with err (--strict: every link not
 * followed). A link to a folder is never followed: inside, its files are
 * read where they are; outside, or a loop, they are not the folder's. */
static int follow_link(struct dir_walk *w, const char *path, const char *name,
		       struct pdb_err *err)
{
	char target[4096], *why;
	ssize_t n = readlink(path, target, sizeof target - 1);
	struct stat sb;
	int inside = inside_root(w, path);

	target[n < 0 ? 0 : n] = '\0';
	if (stat(path, &sb) < 0) {
		why = pdb_xasprintf("a link to nothing (-> %s)", target);
		n = skip_file(w, name, why, err);
		free(why);
		return n < 0 ? -1 : 0;
	}
	if (inside && !S_ISDIR(sb.st_mode))
		return 1;
	why = pdb_xasprintf(!inside ? "a link out of the folder (-> %s): not followed"
			    : "a link to a folder (-> %s): its files are read where they are", target);
	n = skip_file(w, name, why, err);
	free(why);
	return n < 0 ? -1 : 0;
}

/* One file parsed into run, whose created_at is when it was measured: the
 * newest time its files say (an adapter sets it when the tool wrote one),
 * or the time of ingest when one of them says none. files: how many were
 * parsed into run before. */
static int parse_file(const struct pdb_format *f, const struct pdb_source *src,
		      struct pdb_run *run, size_t files, struct pdb_err *err)
{
	char now[32], *so_far = pdb_xstrdup(run->created_at);
	int ret;

	pdb_now_iso(now);
	pdb_set_str(&run->created_at, now);
	ret = f->parse(src, run, err);
	if (ret == 0 && files > 0) {
		if (strcmp(so_far, now) == 0) /* an earlier file said none */
			pdb_set_str(&run->created_at, now);
		else if (strcmp(run->created_at, now) != 0 && strcmp(so_far, run->created_at) > 0)
			pdb_set_str(&run->created_at, so_far);
	}
	free(so_far);
	return ret;
}

static struct group *group_of(struct dir_walk *w, const struct pdb_format *f)
{
	struct group *g;

	for (size_t i = 0; i < w->ngroups; i++)
		if (w->groups[i].format == f)
			return &w->groups[i];
	pdb_grow((void **)&w->groups, &w->cap, w->ngroups + 1, sizeof *w->groups);
	g = &w->groups[w->ngroups++];
	memset(g, 0, sizeof *g);
	g->format = f;
	g->run = pdb_run_new();
	return g;
}

static int walk_entry(struct dir_walk *w, const char *path, const char *name, struct pdb_err *err);

static int walk_dir(struct dir_walk *w, const char *path, const char *name, struct pdb_err *err)
{
	struct dirent **list = NULL;
	struct stat sb;
	int n, ret = 0;
	size_t len = strlen(name);

	if (stat(path, &sb) == 0 && dir_seen(w, &sb))
		return skip_file(w, name, "a folder read already (a loop)", err);
	if ((n = scandir(path, &list, NULL, alphasort)) < 0)
		return pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "%s", strerror(errno));
	while (len > 1 && name[len - 1] == '/') /* "results/" names its files results/FILE */
		len--;
	for (int i = 0; i < n; i++) {
		if (ret == 0 && list[i]->d_name[0] != '.') {
			char *child = pdb_xasprintf("%s/%s", path, list[i]->d_name);
			char *child_name = pdb_xasprintf("%.*s/%s", (int)len, name, list[i]->d_name);
			ret = walk_entry(w, child, child_name, err);
			free(child);
			free(child_name);
		}
		free(list[i]);
	}
	free(list);
	return ret;
}

static int walk_entry(struct dir_walk *w, const char *path, const char *name, struct pdb_err *err)
{
	struct input x;
	const struct pdb_format *f;
	const char *same;
	struct group *g;
	struct stat sb;
	size_t before;
	int ret = -1;

	if (lstat(path, &sb) < 0)
		return 0; /* gone since the folder was listed */
	if (S_ISLNK(sb.st_mode)) {
		if ((ret = follow_link(w, path, name, err)) <= 0)
			return ret;
		if (stat(path, &sb) < 0)
			return 0;
	}
	if (!S_ISDIR(sb.st_mode) && !S_ISREG(sb.st_mode)) { /* a FIFO here would block */
		char *why = pdb_xasprintf("not a regular file (%s)", kind_of_file(sb.st_mode));
		ret = skip_file(w, name, why, err);
		free(why);
		return ret;
	}
	ret = -1;
	if (input_open(&x, w->in, path, name, err) < 0)
		goto out;
	f = w->forced ? w->forced : pdb_format_detect(&x.src);
	if (w->forced && x.src.is_dir && f->detect(&x.src) == 0)
		f = NULL; /* a folder the named adapter does not read as a whole: its files */
	if (!f) {
		if (x.src.is_dir)
			ret = walk_dir(w, path, name, err);
		else
			ret = skip_file(w, name, x.src.head_len == 0 ? "empty file"
					: "no adapter recognises it (name it with --format to read it)", err);
		goto out;
	}
	if (!x.src.is_dir && (same = seen_before(w, x.src.path, name))) { /* decompressed too */
		char *why = pdb_xasprintf("the same file as %s", same);
		ret = skip_file(w, name, why, err);
		free(why);
		goto out;
	}
	g = group_of(w, f);
	before = g->run->nresults;
	ret = parse_file(f, &x.src, g->run, g->nfiles, err);
	note_repeats(g->run, before, f, &x);
	if (ret < 0)
		goto out;
	keep_warnings(w->in->run, &x);
	pdb_grow((void **)&g->files, &g->capfiles, g->nfiles + 1, sizeof *g->files);
	g->files[g->nfiles++] = pdb_xstrdup(name);
	pdb_grow((void **)&g->file_of, &g->capfile_of, g->run->nresults + 1, sizeof *g->file_of);
	for (size_t i = before; i < g->run->nresults; i++)
		g->file_of[i] = g->nfiles - 1;
	ret = 0;
out:
	input_close(&x);
	return ret;
}

static size_t weight_of(const struct pdb_result *r)
{
	return r->nsamples + r->nstats;
}

/* The same series in two groups (hyperfine's --export-json and --export-csv
 * of one run): each is kept from the group that has more of it (samples and
 * stats; the earlier group on a tie), and marked lost in the other. */
static void choose_richer(struct group *groups, size_t ngroups)
{
	for (size_t i = 0; i < ngroups; i++) {
		groups[i].lost_to = pdb_xcalloc(groups[i].run->nresults + 1, sizeof *groups[i].lost_to);
		groups[i].lost_at = pdb_xcalloc(groups[i].run->nresults + 1, sizeof *groups[i].lost_at);
	}
	for (size_t i = 0; i < ngroups; i++)
		for (size_t j = i + 1; j < ngroups; j++)
			for (size_t k = 0; k < groups[i].run->nresults; k++) {
				const struct pdb_result *ra = &groups[i].run->results[k];
				size_t at = pdb_run_find_result(groups[j].run, ra);

				if (!at || groups[i].lost_at[k] || groups[j].lost_at[at - 1])
					continue;
				if (weight_of(&groups[j].run->results[at - 1]) > weight_of(ra)) {
					groups[i].lost_to[k] = j;
					groups[i].lost_at[k] = at;
				} else {
					groups[j].lost_to[at - 1] = i;
					groups[j].lost_at[at - 1] = k + 1;
				}
			}
}

static int named_before(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return 1;
	return 0;
}

/* Say, for each file of g whose series were lost to richer files, which and why. */
static int say_lost(struct dir_walk *w, const struct group *g, struct pdb_err *err)
{
	int ret = 0;

	for (size_t f = 0; ret == 0 && f < g->nfiles; f++) {
		size_t total = 0, lost = 0, had = 0, has = 0, nnamed = 0;
		const char **named = pdb_xcalloc(g->run->nresults + 1, sizeof *named);
		struct pdb_buf winners;
		char *why;

		pdb_buf_init(&winners);
		pdb_buf_puts(&winners, "");
		for (size_t k = 0; k < g->run->nresults; k++) {
			const struct group *o = &w->groups[g->lost_to[k]];
			const char *name;

			if (g->file_of[k] != f)
				continue;
			total++;
			if (!g->lost_at[k])
				continue;
			lost++;
			had += weight_of(&g->run->results[k]);
			has += weight_of(&o->run->results[g->lost_at[k] - 1]);
			name = o->files[o->file_of[g->lost_at[k] - 1]];
			if (!named_before(named, nnamed, name)) {
				named[nnamed++] = name;
				pdb_buf_printf(&winners, "%s%s (%s)", winners.len ? ", " : "", name,
					       o->format->name);
			}
		}
		if (lost > 0) {
			char part[64] = "";

			if (lost < total)
				snprintf(part, sizeof part, "%zu of its %zu series: ", lost, total);
			why = pdb_xasprintf("%sthe same results as %s, which has more (%zu samples "
					    "and stats against %zu)", part, winners.data, has, had);
			ret = skip_file(w, g->files[f], why, err);
			free(why);
		}
		pdb_buf_release(&winners);
		free(named);
	}
	return ret;
}

/* 1 when g gives something: a result not lost to another group, or a failure. */
static int group_used(const struct group *g)
{
	for (size_t k = 0; k < g->run->nresults; k++)
		if (!g->lost_at[k])
			return 1;
	return g->run->nfailures > 0;
}

/* A folder's sha256: of the names (below the folder) and sha256s of the
 * files the walk read, in its order, so that the same folder ingested
 * again is refused as the same file is. */
static void dir_sha256(const struct dir_walk *w, const char *name, char out[65])
{
	size_t len = strlen(name);
	struct pdb_buf b;

	while (len > 1 && name[len - 1] == '/')
		len--;
	pdb_buf_init(&b);
	pdb_buf_puts(&b, "perfdb folder\n");
	for (size_t i = 0; i < w->nseen; i++)
		pdb_buf_printf(&b, "%s %s\n", w->seen[i].key, w->seen[i].value + len);
	if (pdb_sha256_bytes(b.data, b.len, out) < 0)
		out[0] = '\0';
	pdb_buf_release(&b);
}

/* The files of the folder path as one run; sha256: where its digest goes
 * (the ingest's first path), or NULL. */
static int ingest_dir_files(struct ingest *in, const struct pdb_format *forced,
			    const char *path, const char *name, char *sha256, struct pdb_err *err)
{
	struct dir_walk w = { .in = in, .forced = forced, .root = realpath(path, NULL) };
	size_t used = 0;
	int ret = w.root ? walk_dir(&w, path, name, err)
		: pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0, "%s", strerror(errno));

	if (ret == 0)
		choose_richer(w.groups, w.ngroups);
	for (size_t i = 0; ret == 0 && i < w.ngroups; i++)
		ret = say_lost(&w, &w.groups[i], err);
	for (size_t i = 0; ret == 0 && i < w.ngroups; i++) {
		struct group *g = &w.groups[i];
		char *skip;

		if (!group_used(g))
			continue;
		skip = pdb_xcalloc(g->run->nresults + 1, 1);
		for (size_t k = 0; k < g->run->nresults; k++)
			skip[k] = g->lost_at[k] != 0;
		pdb_run_merge_some(in->run, g->run, skip);
		free(skip);
		note_format(in, g->format);
		used++;
	}
	if (ret == 0 && used == 0)
		ret = pdb_err_at(err, PDB_EXIT_INPUT, name, 0, 0,
				 "no result file that perfdb recognises in this directory (%zu skipped)", w.skipped);
	if (ret == 0 && sha256)
		dir_sha256(&w, name, sha256);
	for (size_t i = 0; i < w.ngroups; i++) {
		struct group *g = &w.groups[i];

		pdb_run_free(g->run);
		for (size_t f = 0; f < g->nfiles; f++)
			free(g->files[f]);
		free(g->files);
		free(g->file_of);
		free(g->lost_to);
		free(g->lost_at);
	}
	free(w.groups);
	for (size_t i = 0; i < w.nseen; i++) {
		free(w.seen[i].key);
		free(w.seen[i].value);
	}
	free(w.seen);
	free(w.dirs);
	free(w.root);
	return ret;
}

static int ingest_path(struct ingest *in, const char *path, const char *name,
		       struct pdb_err *err)
{
	const struct pdb_format *f;
	struct input x;
	size_t before;
	int ret = -1, first;

	if (input_open(&x, in, path, name, err) < 0)
		goto out;
	first = !in->hashed++;
	if (first && !x.src.is_dir && /* the first path (of a FIFO, its copy) */
	    pdb_sha256_file(x.spool.fd >= 0 ? x.spool.path : path, in->sha256) < 0)
		in->sha256[0] = '\0';
	f = choose_format(in, &x.src, err);
	if (!f) {
		if (x.src.is_dir && !in->opts->format)
			ret = ingest_dir_files(in, NULL, path, name, first ? in->sha256 : NULL, err);
		goto out;
	}
	if (x.src.is_dir && f->detect(&x.src) == 0) { /* knox --format knox DIR: its files */
		ret = ingest_dir_files(in, f, path, name, first ? in->sha256 : NULL, err);
		goto out;
	}
	before = in->run->nresults;
	ret = parse_file(f, &x.src, in->run, in->nparsed, err);
	note_repeats(in->run, before, f, &x);
	if (ret < 0)
		goto out;
	in->nparsed++;
	keep_warnings(in->run, &x);
	note_format(in, f);
	ret = 0;
out:
	input_close(&x);
	return ret;
}

/* A weight counts how often a value was seen: a positive, finite number. */
static int bad_weight(const struct pdb_run *run, struct pdb_err *err)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct pdb_result *r = &run->results[i];
		for (size_t k = 0; k < r->nsamples; k++) {
			double w = r->samples[k].weight;
			if (pdb_sample_has_weight(&r->samples[k]) && !(w > 0 && isfinite(w)))
				return pdb_err_set(err, PDB_EXIT_INPUT, "%s %s: sample %zu has the weight %g: "
						   "a weight counts values, so it must be above 0",
						   r->benchmark, r->metric, k + 1, w);
		}
	}
	return 0;
}

struct pdb_run *pdb_ingest_files(const char *const *paths, size_t npaths,
				 const struct pdb_ingest_opts *opts,
				 const char **detected, struct pdb_err *err)
{
	struct ingest in = { .opts = opts, .own_env = 1 };
	struct pdb_temp spooled;
	int ok = 0;

	pdb_temp_init(&spooled);
	in.run = pdb_run_new();
	pdb_buf_init(&in.sources);
	for (size_t i = 0; i < npaths; i++) {
		const char *path = paths[i], *name = paths[i];
		if (strcmp(path, "-") == 0) {
			if (spooled.fd >= 0)
				goto fail_usage;
			name = "<stdin>";
			if (pdb_spool_to_temp(STDIN_FILENO, name, &opts->limits, &spooled, err) < 0)
				goto out;
			path = spooled.path;
		}
		if (ingest_path(&in, path, name, err) < 0)
			goto out;
		pdb_buf_printf(&in.sources, "%s%s", i ? "," : "", name);
	}
	/* a run read back from its canonical form keeps its own sha256 and source,
	 * null included: the round trip gives back the run exactly */
	if (in.sha256[0] && !in.run->sha256 && !in.run->own_identity)
		pdb_set_str(&in.run->sha256, in.sha256);
	if (in.sources.data && !in.run->source && !in.run->own_identity)
		pdb_set_str(&in.run->source, in.sources.data);
	for (size_t i = 0; i < in.run->nresults; i++)
		for (size_t d = 0; d < opts->ndims; d++)
			pdb_result_set_dim(&in.run->results[i], opts->dims[d].key, opts->dims[d].value);
	for (size_t i = 0; i < opts->nattrs; i++)
		pdb_run_set_attr(in.run, opts->attrs[i].key, opts->attrs[i].value);
	if (opts->name)
		pdb_set_str(&in.run->name, opts->name);
	if (opts->fingerprint && !in.own_env)
		pdb_fingerprint_capture(in.run, NULL);
	if (bad_weight(in.run, err) < 0)
		goto out;
	if (in.run->nresults == 0) {
		pdb_err_set(err, PDB_EXIT_INPUT, "%s: no results found", in.sources.data ? in.sources.data : "input");
		goto out;
	}
	if (detected)
		*detected = in.first_format;
	ok = 1;
	goto out;
fail_usage:
	pdb_err_set(err, PDB_EXIT_USAGE, "standard input ('-') can be read only once");
out:
	pdb_temp_close(&spooled);
	pdb_buf_release(&in.sources);
	if (!ok) {
		pdb_run_free(in.run);
		return NULL;
	}
	return in.run;
}
