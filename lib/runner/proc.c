/* /proc texts as numbers: one parser per file, on its text. */
#include "runner/proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pdb_proc_pid_stat(const char *text, struct pdb_proc_task *out)
{
	/* "PID (COMM) S ppid ...": comm may hold spaces and ')', so the fields
	 * count from the last ')'; utime, stime are fields 14, 15, starttime 22 */
	const char *p = strrchr(text, ')');
	unsigned long long v[20];
	char *end;

	const char *p0 = p;

	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -1;
	p += 4; /* the state and its space: field 4 (ppid) is next */
	for (int i = 0; i < 19; i++) {
		v[i] = strtoull(p, &end, 10);
		if (end == p || (*end != ' ' && *end != '\n' && *end))
			return -1;
		p = end + (*end == ' ');
	}
	out->state = p0[2];      /* field 3 */
	out->pgrp = (long)v[1]; /* field 5 */
	out->utime = v[10];     /* field 14 */
	out->stime = v[11];     /* field 15 */
	out->starttime = v[18]; /* field 22 */
	return 0;
}

/* The value of "KEY:   1234 kB" in a /proc text, in bytes; -1 when absent. */
static int kb_field(const char *text, const char *key, double *bytes)
{
	size_t len = strlen(key);

	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char *end;
		unsigned long long kb;
		if (strncmp(line, key, len) != 0 || line[len] != ':')
			continue;
		kb = strtoull(line + len + 1, &end, 10);
		if (end == line + len + 1 || strncmp(end, " kB", 3) != 0)
			return -1;
		*bytes = (double)kb * 1024;
		return 0;
	}
	return -1;
}

int pdb_proc_rss(const char *text, double *bytes)
{
	if (!strstr(text, "Name:"))
		return -1;
	if (kb_field(text, "VmRSS", bytes) < 0)
		*bytes = 0;
	return 0;
}

int pdb_proc_loadavg(const char *text, double *load1)
{
	char *end;

	*load1 = strtod(text, &end);
	return end != text && *end == ' ' ? 0 : -1;
}

int pdb_proc_stat(const char *text, struct pdb_proc_cpu *out)
{
	unsigned long long v[8] = { 0 };
	const char *p = text;
	char *end;
	int n = 0;

	if (strncmp(text, "cpu ", 4) != 0)
		return -1;
	p += 4;
	/* user nice system idle iowait irq softirq steal (guest is in user) */
	for (; n < 8; n++) {
		v[n] = strtoull(p, &end, 10);
		if (end == p)
			break;
		p = end;
	}
	if (n < 4)
		return -1;
	out->total = 0;
	for (int i = 0; i < n; i++)
		out->total += v[i];
	out->busy = out->total - v[3] - v[4];
	return 0;
}

int pdb_proc_meminfo(const char *text, double *used)
{
	double total, avail;

	if (kb_field(text, "MemTotal", &total) < 0 || kb_field(text, "MemAvailable", &avail) < 0)
		return -1;
	*used = total > avail ? total - avail : 0;
	return 0;
}

int pdb_proc_diskstats(const char *text, int (*is_disk)(const char *name, void *ctx), void *ctx,
		       double *read, double *written)
{
	*read = *written = 0;
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		unsigned major, minor;
		unsigned long long rd, rmerged, rsect, rms, wr, wmerged, wsect;
		char name[64];
		if (*line == '\n')
			continue;
		/* major minor name reads merged sectors ms writes merged sectors ... */
		if (sscanf(line, "%u %u %63s %llu %llu %llu %llu %llu %llu %llu", &major, &minor, name, &rd,
			   &rmerged, &rsect, &rms, &wr, &wmerged, &wsect) != 10)
			return -1;
		if (is_disk(name, ctx)) {
			*read += (double)rsect * 512;
			*written += (double)wsect * 512;
		}
	}
	return 0;
}

int pdb_proc_netdev(const char *text, double *rx, double *tx)
{
	const char *line = strchr(text, '\n');
	int n = 0;

	*rx = *tx = 0;
	if (!line || !(line = strchr(line + 1, '\n'))) /* two header lines */
		return -1;
	for (line++; *line; ) {
		const char *colon = strchr(line, ':'), *nl = strchr(line, '\n');
		unsigned long long v[9];
		if (!colon || (nl && colon > nl))
			return -1;
		/* rx: bytes packets errs drop fifo frame compressed multicast, then tx bytes */
		if (sscanf(colon + 1, "%llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]) != 9)
			return -1;
		*rx += (double)v[0];
		*tx += (double)v[8];
		n++;
		if (!nl)
			break;
		line = nl + 1;
	}
	return n > 0 ? 0 : -1;
}

void pdb_proc_cmdline(char *buf, size_t n)
{
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
}
