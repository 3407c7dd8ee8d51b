// SPDX-License-Identifier: MIT
/*
 * Compressed images: each qualifying image is read whole and replaced by a
 * single zstd frame made in one call, so the frame header carries the
 * content size the loader needs to size its buffer before expanding it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "wrapper/compress.h"
#include "devimg/descriptor.h"
#include "util/devimg_limits.h"
#include "props/props.h"
#include "props/unzstd.h"
#include "util/errmsg.h"
#include "util/input.h"

static int set_err(struct errmsg *err, const char *path, const char *what)
{
	errmsg_set(err, "%s: %s", path, what);
	return -1;
}

static int qualifies(const struct wrap_image *img,
		     const struct wrap_compress *c)
{
	/* Only the SYCL runtime reads compressed images. */
	if (img->format != DEVIMG_FORMAT_NONE || img->data ||
	    img->kind != DEVIMG_KIND_SYCL)
		return 0;
	return c->threshold <= 0 || img->size >= (uint64_t)c->threshold;
}

static int compress_one(struct wrap_image *img, const struct wrap_compress *c,
			FILE *verbose, struct errmsg *err)
{
	struct errmsg perr = { 0 };
	unsigned char *dst;
	size_t len, bound, n;
	char *src;
	int r;

	if (img->size > DEVIMG_LIMIT_DECOMPRESSED) {
		errmsg_set(err, "%s: %llu bytes, more than the %llu of a compressed image that libdevimg expands",
			   img->path, (unsigned long long)img->size,
			   (unsigned long long)DEVIMG_LIMIT_DECOMPRESSED);
		return -1;
	}
	r = input_read(img->path, DEVIMG_LIMIT_DECOMPRESSED, &src, &len,
		       &perr);
	if (r < 0) {
		*err = perr;
		return -1;
	}
	if (len != img->size) {
		free(src);
		return set_err(err, img->path,
			       "changed while being wrapped");
	}
	bound = ZSTD_compressBound(len);
	dst = ZSTD_isError(bound) ? NULL : malloc(bound ? bound : 1);
	if (!dst) {
		free(src);
		return set_err(err, img->path, strerror(ENOMEM));
	}
	n = ZSTD_compress(dst, bound, src, len, c->level);
	free(src);
	if (ZSTD_isError(n)) {
		free(dst);
		return set_err(err, img->path, ZSTD_getErrorName(n));
	}
	/*
	 * Readers refuse a frame that expands more than
	 * DEVIMG_LIMIT_DECOMPRESS_RATIO times: such an image (zeros, say)
	 * is stored as it is, so that what devimg-wrap writes registers.
	 */
	if ((uint64_t)len > props_unzstd_limit(n)) {
		free(dst);
		if (verbose)
			fprintf(verbose, "devimg-wrap: %s: %zu bytes compress to %zu, more than the %u:1 readers expand: stored uncompressed\n",
				img->path, len, n,
				DEVIMG_LIMIT_DECOMPRESS_RATIO);
		return 0;
	}
	if (verbose)
		fprintf(verbose, "devimg-wrap: %s: compressed %zu bytes to %zu (zstd level %d)\n",
			img->path, len, n, c->level);
	img->data = dst;
	img->size = n;
	img->format = DEVIMG_FORMAT_COMPRESSED;
	return 0;
}

int wrap_compress_images(struct wrap_set *set, const struct wrap_compress *c,
			 FILE *verbose, struct errmsg *err)
{
	size_t i;

	if (!c->enabled)
		return 0;
	for (i = 0; i < set->nimages; i++) {
		struct wrap_image *img = &set->images[i];

		if (qualifies(img, c) && compress_one(img, c, verbose, err))
			return -1;
	}
	return 0;
}
