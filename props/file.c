// SPDX-License-Identifier: MIT
/* Whole-file reading for the *_read_file entry points. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define SLURP_CHUNK 65536u

static int slurp_grow(char **buf, size_t *cap, size_t need)
{
	size_t ncap = *cap ? *cap : SLURP_CHUNK;
	char *nbuf;

	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (ncap == *cap)
		return 0;
	nbuf = realloc(*buf, ncap);
	if (!nbuf)
		return -ENOMEM;
	*buf = nbuf;
	*cap = ncap;
	return 0;
}

static int slurp_fd(int fd, char **buf, size_t *len)
{
	size_t cap = 0, used = 0;
	char *data = NULL;
	ssize_t n;
	int r;

	for (;;) {
		if (used > SIZE_MAX - SLURP_CHUNK) {
			r = -EFBIG;
			goto err_free;
		}
		r = slurp_grow(&data, &cap, used + SLURP_CHUNK);
		if (r < 0)
			goto err_free;
		n = read(fd, data + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			goto err_free;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	*buf = data;
	*len = used;
	return 0;

err_free:
	free(data);
	return r;
}

int props_slurp(const char *path, char **buf, size_t *len,
		struct props_error *err)
{
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		props_errf(err, "%s: cannot open: %s", path, strerror(-r));
		return r;
	}
	r = slurp_fd(fd, buf, len);
	close(fd);
	if (r < 0)
		props_errf(err, "%s: cannot read: %s", path, strerror(-r));
	return r;
}
