/* Fuzz target: Kafka message payloads. A message `ingest --from-kafka`
 * consumes is a run in perfdb's canonical JSON read from the payload's
 * bytes as delivered (lib/kafka/stream.c: pdb_canonical_read, then the
 * uuid of the bytes when it has none); an output message of a kafka:
 * load is tied to its input by a JSON path or a regex over its payload
 * (lib/kafka/match.c), each tried here on the same bytes. */
#include "fuzz_common.h"
#include "kafka/match.h"
#include "runner/spec.h"
#include "util.h"

static struct pdb_spec spec; /* two kafka: benchmarks: a path match, a regex one */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char tmpl[] = "{\"seq\": $SEQ, \"meta\": {\"flow_id\": \"$GUID\"}}\n";
	static const char fmt[] =
		"benchmarks:\n"
		"  - name: by-path\n"
		"    kafka: {brokers: 'mock:1', topic: in, output_topic: out, rate: 10, duration: 1,\n"
		"            template: '%s', match: \"$.meta.flow_id\"}\n"
		"  - name: by-regex\n"
		"    kafka: {brokers: 'mock:1', topic: in, output_topic: out, rate: 10, duration: 1,\n"
		"            template: '%s', match: {regex: '\"seq\": *([0-9]+)'}}\n";
	char path[4096], tmpl_path[4096], yaml[3 * 4096];
	struct pdb_err err;

	(void)argc;
	(void)argv;
	fuzz_tmpfile(tmpl_path, ".json");
	fuzz_write(tmpl_path, (const uint8_t *)tmpl, sizeof tmpl - 1);
	snprintf(yaml, sizeof yaml, fmt, tmpl_path, tmpl_path);
	fuzz_tmpfile(path, ".yaml");
	fuzz_write(path, (const uint8_t *)yaml, strlen(yaml));
	if (pdb_spec_load(path, &spec, &err) < 0 || spec.nbenches != 2 || !spec.benches[0].kafka ||
	    !spec.benches[1].kafka) {
		fprintf(stderr, "fuzz_kafka: the spec is refused: %s\n", err.msg);
		abort();
	}
	unlink(path);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *payload = malloc(size ? size : 1); /* unterminated, as librdkafka hands it over */
	char *text = pdb_xstrndup((const char *)data, size);
	struct pdb_run *run = pdb_run_new();
	struct pdb_err err;
	uint64_t seq;

	memcpy(payload, data, size);
	run->uuid[0] = '\0';
	if (pdb_canonical_read(text, size, run, "in[0]@0", &err) == 0 && !run->uuid[0])
		pdb_uuid_of_bytes(payload, size, run->uuid);
	pdb_run_free(run);
	free(text);
	/* the path match on the bytes as delivered; the regex match on a copy
	 * ended by a NUL, since ASan's regexec interceptor reads the string up
	 * to its NUL whatever REG_STARTEND says (glibc reads [0, len) only) */
	pdb_kafka_match_seq(spec.benches[0].kafka, 0x5eed, payload, size, &seq);
	text = pdb_xstrndup((const char *)data, size);
	pdb_kafka_match_seq(spec.benches[1].kafka, 0x5eed, text, size, &seq);
	free(text);
	free(payload);
	return 0;
}
