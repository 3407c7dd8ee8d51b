/* SPDX-License-Identifier: MIT */
/*
 * devimg-dump's view of compressed images (format 4): the content size
 * their zstd frame records, and the expanded bytes for --extract.
 */
#ifndef DEVIMG_WRAPPER_UNZSTD_H
#define DEVIMG_WRAPPER_UNZSTD_H

#include <stddef.h>
#include <stdint.h>

/*
 * The content size recorded in the frame header of p (n bytes): 0 and
 * *real, or -1 and *why (static text: not a zstd frame, no content size
 * recorded, above DEVIMG_LIMIT_DECOMPRESSED).
 */
int unzstd_real_size(const unsigned char *p, uint64_t n, uint64_t *real,
		     const char **why);

/*
 * Expand the frame into a malloc'ed buffer (*out, *len; free() it): 0, or
 * -1 and a one-line reason in err.
 */
int unzstd_expand(const unsigned char *p, uint64_t n, unsigned char **out,
		  size_t *len, char *err, size_t errlen);

#endif
