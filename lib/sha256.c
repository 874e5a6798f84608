/* SHA-256 of a file, through OpenSSL's libcrypto (SHA extensions where the CPU has them). */
#include "util.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <unistd.h>

int pdb_sha256_file(const char *path, char out[65])
{
	unsigned char buf[1 << 16], md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;

	if (fd < 0 || !ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		goto out;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		if (!EVP_DigestUpdate(ctx, buf, (size_t)n))
			goto out;
	if (n < 0 || !EVP_DigestFinal_ex(ctx, md, &mdlen) || mdlen != 32)
		goto out;
	for (unsigned int i = 0; i < mdlen; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	EVP_MD_CTX_free(ctx);
	return ret;
}
