/* A test that needs ../shared/corpus (beside the project: a plain clone has
 * none) skips with this line on stdout, which tests/run-all.sh counts for
 * its last line. Include after cmocka.h. */
#ifndef PDB_TEST_SKIP_CORPUS_H
#define PDB_TEST_SKIP_CORPUS_H

#define skip_without_corpus()                                        \
	do {                                                         \
		print_message("skip: no ../shared/corpus\n");       \
		skip();                                              \
	} while (0)

#endif
