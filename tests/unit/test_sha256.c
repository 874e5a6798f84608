/* Unit tests: the SHA-256 of files against FIPS 180-2 test vectors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util.h"

/* The digest of a temporary file holding `repeat` copies of text. */
static void digest_of(const char *text, size_t repeat, char out[65])
{
	char path[] = "/tmp/perfdb-sha256-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	assert_non_null(f = fdopen(fd, "wb"));
	for (size_t i = 0; i < repeat; i++)
		assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	assert_int_equal(fclose(f), 0);
	assert_int_equal(pdb_sha256_file(path, out), 0);
	unlink(path);
}

static void test_vectors(void **state)
{
	char hex[65];

	(void)state;
	digest_of("", 1, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	digest_of("abc", 1, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	digest_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* one million 'a': longer than the read buffer */
	digest_of("aaaaaaaaaa", 100000, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void test_missing_file(void **state)
{
	char hex[65];

	(void)state;
	assert_int_equal(pdb_sha256_file("/nonexistent/perfdb-sha256", hex), -1);
	assert_int_equal(pdb_sha256_file("/tmp", hex), -1); /* a directory reads as an error */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_missing_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
