/* SHA-256 of a file or of bytes, through OpenSSL's libcrypto (SHA extensions where the CPU has them). */
#include "util.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <unistd.h>

/* ctx's digest as 64 hex digits into out. 0, or -1. */
static int finish(EVP_MD_CTX *ctx, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (!EVP_DigestFinal_ex(ctx, md, &mdlen) || mdlen != 32)
		return -1;
	for (unsigned int i = 0; i < mdlen; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	return 0;
}

int pdb_sha256_file(const char *path, char out[65])
{
	unsigned char buf[1 << 16];
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;

	if (fd < 0 || !ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		goto out;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		if (!EVP_DigestUpdate(ctx, buf, (size_t)n))
			goto out;
	if (n == 0)
		ret = finish(ctx, out);
out:
	if (fd >= 0)
		close(fd);
	EVP_MD_CTX_free(ctx);
	return ret;
}

int pdb_sha256_bytes(const void *data, size_t len, char out[65])
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ret = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) &&
		  EVP_DigestUpdate(ctx, data, len) ? finish(ctx, out) : -1;

	EVP_MD_CTX_free(ctx);
	return ret;
}
