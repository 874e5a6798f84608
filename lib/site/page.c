/* Site: the frame of every page (head, style, navigation), small pieces of text, and writing a page. */
#include "site/site_internal.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"
#include "escape.h"
#include "units.h"

static const char style[] =
	":root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--alt:#f6f8fa;--red:#d55e00;"
	"--red-bg:#fdecea;--green:#007a5a;--green-bg:#e6f4ea;--orange:#b45f06;--orange-bg:#fff4e5;"
	"--grey:#6e7781;--grey-bg:#eef1f4;--sky:#1f6fa8;--sky-bg:#e7f2fa;--diff-bg:#fff8c5}\n"
	"body{font:15px/1.5 -apple-system,\"Segoe UI\",\"DejaVu Sans\",Helvetica,Arial,sans-serif;"
	"color:var(--fg);margin:0 auto;padding:16px 24px 48px;max-width:1180px}\n"
	"h1{font-size:24px;margin:0 0 4px;overflow-wrap:anywhere}"
	"h2{font-size:19px;margin:32px 0 10px;padding-bottom:6px;border-bottom:1px solid var(--line);"
	"overflow-wrap:anywhere}h3{font-size:16px;margin:24px 0 8px;overflow-wrap:anywhere}\n"
	"nav{font-size:14px;margin-bottom:8px}.sub,.note,footer{color:var(--muted)}\n"
	"a{color:var(--sky)}table{border-collapse:collapse;margin:8px 0 16px;font-size:13.5px;"
	"display:block;max-width:100%;overflow-x:auto}\n"
	"th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:middle}"
	"th{background:var(--alt);font-weight:600;white-space:nowrap}\n"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
	"td.name{overflow-wrap:anywhere;min-width:8em}.dims{color:var(--muted);font-size:12px}\n"
	"tr.a0 td,tr.a1 td{background:var(--red-bg)}tr.a2 td{background:var(--orange-bg)}"
	".worse{color:var(--red)}.better{color:var(--green)}tr.differs td{background:var(--diff-bg)}\n"
	"tr.v-regression td,tr.v-failed td{background:var(--red-bg)}"
	"tr.v-regression td.em{color:var(--red);font-weight:600}\n"
	".badge{display:inline-block;padding:0 8px;border-radius:10px;font-size:12px;font-weight:600;"
	"white-space:nowrap;background:var(--grey-bg);color:var(--grey)}"
	".badge.regression,.badge.failed{background:var(--red);color:#fff}"
	".badge.improvement{background:var(--green);color:#fff}"
	".badge.change,.badge.inconclusive,.badge.tentative{background:var(--orange-bg);color:var(--orange)}"
	".badge.insufficient,.badge.new,.badge.missing,.badge.regression.reported"
	"{background:var(--sky-bg);color:var(--sky)}"
	"table.compare .badge{white-space:normal}\n"
	"svg.spark{display:block}svg.spark polyline{fill:none;stroke:#0072b2;stroke-width:1.5}"
	"svg.spark line{stroke-width:1;stroke-dasharray:2 2}svg.spark .r{stroke:#d55e00}"
	"svg.spark .i{stroke:#009e73}svg.spark .c{stroke:#6e7781}svg.spark circle{fill:#0072b2}\n"
	"figure.chart{margin:12px 0 20px}figure.chart svg{display:block;width:100%;max-width:1000px;"
	"height:auto;border:1px solid var(--line);border-radius:6px}"
	"figcaption{color:var(--muted);font-size:13px}\n"
	".summary{padding:10px 14px;border-radius:8px;border-left:6px solid var(--grey);"
	"background:var(--grey-bg);margin:12px 0}.summary.a0,.summary.a1{border-color:var(--red);"
	"background:var(--red-bg)}.summary.a2{border-color:var(--orange);background:var(--orange-bg)}\n"
	"input[type=search]{font:inherit;padding:4px 8px;width:20em;max-width:100%;box-sizing:border-box}\n"
	"ul.benches{columns:16em;padding-left:1.2em;overflow-wrap:anywhere}\n"
	"footer{margin-top:40px;font-size:12px}\n"
	"@media (max-width:600px){body{padding:10px 10px 32px;font-size:14px}th,td{padding:3px 5px}"
	"table.series thead{display:none}table.series tr{display:block;border-bottom:1px solid var(--line);"
	"padding:4px 0}table.series td{display:inline-block;border:none;vertical-align:middle}"
	"table.series td.name{display:block}table.series td.cp{display:block}"
	/* the header row is hidden: the cells that are only a value say what they are */
	"table.series td:nth-child(5)::before{content:\"vs the value before \";color:var(--muted)}"
	"table.series td.cp::before{content:\"last change point: \";color:var(--muted)}"
	"table.series tr.a0,table.series tr.a1{background:var(--red-bg)}"
	"table.series tr.a2{background:var(--orange-bg)}}\n";

void site_text(struct pdb_buf *b, const char *text)
{
	pdb_escape_html(b, text);
}

void site_page_begin(struct pdb_buf *b, const struct site *s, const char *path,
		     const char *title, int depth)
{
	pdb_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	site_text(b, title);
	pdb_buf_puts(b, "</title>\n");
	if (s->opts->base_url) {
		pdb_buf_puts(b, "<link rel=\"canonical\" href=\"");
		site_text(b, s->opts->base_url);
		site_text(b, path);
		pdb_buf_puts(b, "\">\n");
	}
	pdb_buf_printf(b, "<style>\n%s</style>\n</head>\n<body>\n", style);
	if (depth > 0) {
		pdb_buf_puts(b, "<nav><a href=\"../index.html\">");
		site_text(b, s->title);
		pdb_buf_puts(b, "</a></nav>\n");
	}
}

void site_page_end(struct pdb_buf *b)
{
	pdb_buf_puts(b, "<footer>Generated by perfdb site.</footer>\n</body>\n</html>\n");
}

void site_run_link(struct pdb_buf *b, const struct site *s, int64_t id, int depth)
{
	const struct site_run *r = site_find_run(s, id);

	if (!r) {
		pdb_buf_printf(b, "run%lld", (long long)id);
		return;
	}
	pdb_buf_printf(b, "<a href=\"%s%s\">run%lld</a>", depth ? "../" : "", r->file, (long long)id);
	if (r->row->name) {
		pdb_buf_puts(b, " (");
		site_text(b, r->row->name);
		pdb_buf_puts(b, ")");
	}
}

void site_value(struct pdb_buf *b, double v, const char *unit)
{
	char text[64];

	if (!isfinite(v)) {
		pdb_buf_puts(b, "-");
		return;
	}
	pdb_unit_format_fixed(v, unit, text, sizeof text);
	site_text(b, text);
}

void site_note(struct site *s, const char *fmt, ...)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* pages draw in threads */
	struct pdb_site_stats *st = s->stats;
	va_list ap;
	char *note;

	va_start(ap, fmt);
	note = pdb_xvasprintf(fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&lock);
	st->notes = pdb_xrealloc(st->notes, (st->nnotes + 1) * sizeof *st->notes);
	st->notes[st->nnotes++] = note;
	pthread_mutex_unlock(&lock);
}

int site_write_page(const struct site *s, const char *path, const struct pdb_buf *b,
		    struct pdb_err *err)
{
	const char *slash = strchr(path, '/');
	char *full = pdb_xasprintf("%s/%s", s->opts->outdir, path);
	struct pdb_atomic a;
	FILE *f;
	int ok, rc = -1;

	if (slash) {
		char *dir = pdb_xasprintf("%s/%.*s", s->opts->outdir, (int)(slash - path), path);
		rc = pdb_make_dir(dir, PDB_OUT_OWN, NULL, err);
		free(dir);
		if (rc < 0)
			goto out;
		rc = -1;
	}
	if (pdb_atomic_begin(full, PDB_OUT_OWN, &a, err) < 0)
		goto out;
	if (!(f = fopen(a.name, "wb"))) {
		pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", full, strerror(errno));
		pdb_atomic_end(&a, 0, err);
		goto out;
	}
	ok = fwrite(b->data, 1, b->len, f) == b->len;
	ok = fclose(f) == 0 && ok;
	if (!ok)
		pdb_err_set(err, PDB_EXIT_RUNTIME, "%s: %s", full, strerror(errno ? errno : EIO));
	rc = pdb_atomic_end(&a, ok, err);
out:
	free(full);
	return rc;
}
