/* SPDX-License-Identifier: MIT */
/*
 * Image compression in devimg-wrap (-offload-compress): an image whose
 * format was not given (none) and whose size reaches the threshold is
 * replaced by one zstd frame that records its content size, and its
 * format becomes DEVIMG_FORMAT_COMPRESSED. Other images are untouched.
 */
#ifndef DEVIMG_WRAPPER_COMPRESS_H
#define DEVIMG_WRAPPER_COMPRESS_H

#include <stdint.h>
#include <stdio.h>

#include "wrapper/object-writer.h"

#define WRAP_COMPRESS_LEVEL 10		/* -offload-compression-level */
#define WRAP_COMPRESS_THRESHOLD 512	/* -offload-compression-threshold */

struct wrap_compress {
	int enabled;
	int level;		/* zstd's level; zstd clamps it to its range */
	int64_t threshold;	/* bytes; an image this large or larger */
};

/*
 * Compress the images of set that qualify. verbose (may be NULL) gets a
 * line per image compressed. 0, or -1 with err filled ("<file>: reason").
 */
int wrap_compress_images(struct wrap_set *set, const struct wrap_compress *c,
			 FILE *verbose, struct errmsg *err);

#endif
