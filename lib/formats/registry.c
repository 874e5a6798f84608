/* Formats: the table of adapters, lookup by name and detection by content. */
#include <string.h>

#include "formats/format.h"

extern const struct pdb_format pdb_format_canonical;
extern const struct pdb_format pdb_format_k6;
extern const struct pdb_format pdb_format_dropwizard;
extern const struct pdb_format pdb_format_knox;
extern const struct pdb_format pdb_format_iperf3;
extern const struct pdb_format pdb_format_fio;
extern const struct pdb_format pdb_format_hyperfine;
extern const struct pdb_format pdb_format_hyperfine_csv;
extern const struct pdb_format pdb_format_gbench;
extern const struct pdb_format pdb_format_gbench_csv;
extern const struct pdb_format pdb_format_pytest_benchmark;
extern const struct pdb_format pdb_format_go_bench;
extern const struct pdb_format pdb_format_go_bench_json;
extern const struct pdb_format pdb_format_redis_benchmark;
extern const struct pdb_format pdb_format_locust;
extern const struct pdb_format pdb_format_jmeter;
extern const struct pdb_format pdb_format_stress_ng;
extern const struct pdb_format pdb_format_omb;
extern const struct pdb_format pdb_format_map;
extern const struct pdb_format pdb_format_criterion;
extern const struct pdb_format pdb_format_jmh;
extern const struct pdb_format pdb_format_benchmarkdotnet;
extern const struct pdb_format pdb_format_bmf;
extern const struct pdb_format pdb_format_gab;
extern const struct pdb_format pdb_format_gab_bigger;
extern const struct pdb_format pdb_format_gab_smaller;
extern const struct pdb_format pdb_format_wrk;
extern const struct pdb_format pdb_format_sysbench;
extern const struct pdb_format pdb_format_cargo_bench;
extern const struct pdb_format pdb_format_criterion_stdout;
extern const struct pdb_format pdb_format_catch2;
extern const struct pdb_format pdb_format_catch2_xml;
extern const struct pdb_format pdb_format_julia_benchmarktools;
extern const struct pdb_format pdb_format_perf_stat;
extern const struct pdb_format pdb_format_perf_stat_json;
extern const struct pdb_format pdb_format_perf_stat_text;
extern const struct pdb_format pdb_format_cachegrind;
extern const struct pdb_format pdb_format_callgrind;
extern const struct pdb_format pdb_format_hey;
extern const struct pdb_format pdb_format_hey_csv;
extern const struct pdb_format pdb_format_ab;
extern const struct pdb_format pdb_format_ab_csv;
extern const struct pdb_format pdb_format_ab_tsv;
extern const struct pdb_format pdb_format_siege;
extern const struct pdb_format pdb_format_siege_log;

const struct pdb_format *const pdb_formats[] = {
	&pdb_format_canonical,
	&pdb_format_k6,
	&pdb_format_dropwizard,
	&pdb_format_knox,
	&pdb_format_iperf3,
	&pdb_format_fio,
	&pdb_format_hyperfine,
	&pdb_format_hyperfine_csv,
	&pdb_format_gbench,
	&pdb_format_gbench_csv,
	&pdb_format_pytest_benchmark,
	&pdb_format_go_bench,
	&pdb_format_go_bench_json,
	&pdb_format_redis_benchmark,
	&pdb_format_locust,
	&pdb_format_jmeter,
	&pdb_format_stress_ng,
	&pdb_format_omb,
	&pdb_format_map,
	&pdb_format_criterion,
	&pdb_format_jmh,
	&pdb_format_benchmarkdotnet,
	&pdb_format_bmf,
	&pdb_format_gab,
	&pdb_format_gab_bigger,
	&pdb_format_gab_smaller,
	&pdb_format_wrk,
	&pdb_format_sysbench,
	&pdb_format_cargo_bench,
	&pdb_format_criterion_stdout,
	&pdb_format_catch2,
	&pdb_format_catch2_xml,
	&pdb_format_julia_benchmarktools,
	&pdb_format_perf_stat,
	&pdb_format_perf_stat_json,
	&pdb_format_perf_stat_text,
	&pdb_format_cachegrind,
	&pdb_format_callgrind,
	&pdb_format_hey,
	&pdb_format_hey_csv,
	&pdb_format_ab,
	&pdb_format_ab_csv,
	&pdb_format_ab_tsv,
	&pdb_format_siege,
	&pdb_format_siege_log,
	NULL,
};

const struct pdb_format *pdb_format_find(const char *name)
{
	for (size_t i = 0; pdb_formats[i]; i++)
		if (strcmp(pdb_formats[i]->name, name) == 0)
			return pdb_formats[i];
	return NULL;
}

const struct pdb_format *pdb_format_detect(const struct pdb_source *src)
{
	const struct pdb_format *best = NULL;
	int best_score = 0;

	for (size_t i = 0; pdb_formats[i]; i++) {
		int score = pdb_formats[i]->detect(src);
		if (score > best_score) {
			best = pdb_formats[i];
			best_score = score;
		}
	}
	return best;
}
