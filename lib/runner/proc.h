/* /proc texts as numbers: one parser per file, on its text (the sampler
 * reads the files; tests give text captured from a real /proc). Each
 * returns 0, or -1 when the text is not what the kernel writes. */
#ifndef PDB_PROC_H
#define PDB_PROC_H

#include <stddef.h>

/* /proc/PID/stat: CPU time in clock ticks, when it started (ticks since
 * boot), its state ('R', 'S', 'Z' ...) and process group. */
struct pdb_proc_task {
	unsigned long long utime, stime, starttime;
	char state;
	long pgrp;
};
int pdb_proc_pid_stat(const char *text, struct pdb_proc_task *out);

/* /proc/PID/status: VmRSS in bytes (0 when absent: a zombie, a kernel thread). */
int pdb_proc_rss(const char *text, double *bytes);

/* /proc/loadavg: the 1-minute load average. */
int pdb_proc_loadavg(const char *text, double *load1);

/* /proc/stat: the first ("cpu") line's jiffies; busy is all but idle and iowait. */
struct pdb_proc_cpu {
	unsigned long long busy, total;
};
int pdb_proc_stat(const char *text, struct pdb_proc_cpu *out);

/* /proc/meminfo: MemTotal - MemAvailable, in bytes. */
int pdb_proc_meminfo(const char *text, double *used);

/* /proc/diskstats: bytes read and written (512-byte sectors) summed over
 * the devices is_disk says yes to (whole disks: partitions count again). */
int pdb_proc_diskstats(const char *text, int (*is_disk)(const char *name, void *ctx), void *ctx,
		       double *read, double *written);

/* /proc/net/dev: bytes received and sent, summed over every interface
 * (loopback too: a pipeline under test on one machine talks over it). */
int pdb_proc_netdev(const char *text, double *rx, double *tx);

/* /proc/PID/cmdline (n bytes, NUL-separated, in a buffer of n + 1) made one line in place: the
 * NULs between arguments become spaces, a trailing one is dropped. */
void pdb_proc_cmdline(char *buf, size_t n);

#endif
