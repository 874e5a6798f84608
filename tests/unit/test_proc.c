/* /proc parsers (lib/runner/proc.c) on text captured from a real /proc
 * (fixtures/proc, fixtures/README.md says how), and on what is not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/proc.h"
#include "util.h"

/* fixtures/proc/NAME (from ROOT, else the current directory); *n its length. */
static char *fixture(const char *name, size_t *n)
{
	const char *root = getenv("ROOT");
	char *path = pdb_xasprintf("%s/fixtures/proc/%s", root ? root : ".", name);
	FILE *f = fopen(path, "rb");
	char *text = pdb_xcalloc(1 << 16, 1);
	size_t len;

	if (!f)
		fail_msg("%s: not readable (run from the project root or set ROOT)", path);
	len = fread(text, 1, (1 << 16) - 1, f);
	fclose(f);
	free(path);
	if (n)
		*n = len;
	return text;
}

static void pid_stat(void **state)
{
	struct pdb_proc_task t;
	char *burn = fixture("pid-stat-burn", NULL), *odd = fixture("pid-stat-odd-comm", NULL);
	char *zombie = fixture("pid-stat-zombie", NULL);

	(void)state;
	/* sh -c 'while :; do :; done' after 3 s: 224 ticks user, 1 system */
	assert_int_equal(pdb_proc_pid_stat(burn, &t), 0);
	assert_int_equal(t.utime, 224);
	assert_int_equal(t.stime, 1);
	assert_int_equal(t.starttime, 130268);
	assert_int_equal(t.state, 'R');
	assert_int_equal(t.pgrp, 31895);
	/* a command named "a) (b": the fields count from the last ')' */
	assert_int_equal(pdb_proc_pid_stat(odd, &t), 0);
	assert_int_equal(t.utime, 0);
	assert_int_equal(t.stime, 0);
	assert_int_equal(t.starttime, 129501);
	assert_int_equal(t.state, 'S');
	assert_int_equal(t.pgrp, 31486);
	/* an orphan no one reaped (init here does not): the group's id stays */
	assert_int_equal(pdb_proc_pid_stat(zombie, &t), 0);
	assert_int_equal(t.state, 'Z');
	assert_int_equal(t.pgrp, 3055);
	/* cut short, or no comm at all */
	burn[60] = '\0';
	assert_int_equal(pdb_proc_pid_stat(burn, &t), -1);
	assert_int_equal(pdb_proc_pid_stat("31902 sh R 1 2 3", &t), -1);
	assert_int_equal(pdb_proc_pid_stat("", &t), -1);
	free(burn);
	free(odd);
	free(zombie);
}

static void rss(void **state)
{
	char *status = fixture("pid-status", NULL), *kthread = fixture("kthread-status", NULL);
	double b = -1;

	(void)state;
	assert_int_equal(pdb_proc_rss(status, &b), 0);
	assert_true(b == 1752.0 * 1024);
	/* a kernel thread has no VmRSS: 0 bytes */
	assert_int_equal(pdb_proc_rss(kthread, &b), 0);
	assert_true(b == 0);
	assert_int_equal(pdb_proc_rss("garbage", &b), -1);
	free(status);
	free(kthread);
}

static void machine(void **state)
{
	char *load = fixture("loadavg", NULL), *stat = fixture("stat", NULL), *mem = fixture("meminfo", NULL);
	struct pdb_proc_cpu cpu;
	double v;

	(void)state;
	assert_int_equal(pdb_proc_loadavg(load, &v), 0);
	assert_true(v == 7.14);
	/* cpu  109924 0 85187 62306 1028 0 681 0 0 0: guest (in user) not again */
	assert_int_equal(pdb_proc_stat(stat, &cpu), 0);
	assert_int_equal(cpu.total, 109924 + 85187 + 62306 + 1028 + 681);
	assert_int_equal(cpu.busy, 109924 + 85187 + 681);
	/* MemTotal 24683548 kB - MemAvailable 24227508 kB */
	assert_int_equal(pdb_proc_meminfo(mem, &v), 0);
	assert_true(v == (24683548.0 - 24227508.0) * 1024);
	assert_int_equal(pdb_proc_loadavg("", &v), -1);
	assert_int_equal(pdb_proc_stat("intr 1 2 3", &cpu), -1);
	assert_int_equal(pdb_proc_meminfo("MemTotal: 5 kB\n", &v), -1);
	free(load);
	free(stat);
	free(mem);
}

static int only_vda(const char *name, void *ctx)
{
	(*(int *)ctx)++;
	return strcmp(name, "vda") == 0;
}

static void disks_and_network(void **state)
{
	char *disk = fixture("diskstats", NULL), *net = fixture("net-dev", NULL);
	double a, b;
	int seen = 0;

	(void)state;
	/* loop0..7, vda, zram0: vda alone counts */
	assert_int_equal(pdb_proc_diskstats(disk, only_vda, &seen, &a, &b), 0);
	assert_int_equal(seen, 10);
	assert_true(a == 3146818.0 * 512);
	assert_true(b == 6517376.0 * 512);
	/* lo, ifb0, ifb1, eth0 */
	assert_int_equal(pdb_proc_netdev(net, &a, &b), 0);
	assert_true(a == 17029740.0 + 161057506.0);
	assert_true(b == 17029740.0 + 181276.0);
	assert_int_equal(pdb_proc_diskstats("   7 0 loop0 x\n", only_vda, &seen, &a, &b), -1);
	assert_int_equal(pdb_proc_netdev("one header\n", &a, &b), -1);
	free(disk);
	free(net);
}

static void cmdline(void **state)
{
	size_t n;
	char *text = fixture("pid-cmdline", &n);

	(void)state;
	/* "/tmp/sample-cap/a) (b\0" "300\0" */
	pdb_proc_cmdline(text, n);
	assert_string_equal(text, "/tmp/sample-cap/a) (b 300");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pid_stat),
		cmocka_unit_test(rss),
		cmocka_unit_test(machine),
		cmocka_unit_test(disks_and_network),
		cmocka_unit_test(cmdline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
