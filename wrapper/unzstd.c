// SPDX-License-Identifier: MIT
/*
 * Compressed images in devimg-dump: a frame is trusted for nothing; its
 * recorded content size bounds the buffer (and is itself bounded), and
 * the expansion must fill that buffer exactly.
 */
#include <stdio.h>
#include <stdlib.h>

#include <zstd.h>

#include "devimg_limits.h"
#include "unzstd.h"

int unzstd_real_size(const unsigned char *p, uint64_t n, uint64_t *real,
		     const char **why)
{
	unsigned long long s = ZSTD_getFrameContentSize(p, (size_t)n);

	if (s == ZSTD_CONTENTSIZE_ERROR) {
		*why = "not a zstd frame";
		return -1;
	}
	if (s == ZSTD_CONTENTSIZE_UNKNOWN) {
		*why = "the zstd frame does not record its content size";
		return -1;
	}
	if (s > DEVIMG_LIMIT_DECOMPRESSED || s > SIZE_MAX) {
		*why = "the zstd frame's content size is above the limit";
		return -1;
	}
	*real = s;
	return 0;
}

int unzstd_expand(const unsigned char *p, uint64_t n, unsigned char **out,
		  size_t *len, char *err, size_t errlen)
{
	const char *why;
	unsigned char *buf;
	uint64_t real;
	size_t got;

	if (unzstd_real_size(p, n, &real, &why) < 0) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	buf = malloc(real ? (size_t)real : 1);
	if (!buf) {
		snprintf(err, errlen, "no memory for %llu expanded bytes",
			 (unsigned long long)real);
		return -1;
	}
	got = ZSTD_decompress(buf, (size_t)real, p, (size_t)n);
	if (ZSTD_isError(got) || got != real) {
		if (ZSTD_isError(got))
			snprintf(err, errlen, "corrupt zstd frame: %s",
				 ZSTD_getErrorName(got));
		else
			snprintf(err, errlen,
				 "corrupt zstd frame: %zu bytes, %llu recorded",
				 got, (unsigned long long)real);
		free(buf);
		return -1;
	}
	*out = buf;
	*len = got;
	return 0;
}
