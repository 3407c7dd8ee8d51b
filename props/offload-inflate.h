/* SPDX-License-Identifier: MIT */
/*
 * Inflating the body of a compressed OffloadBinary (version 3) with the
 * system's libzstd or zlib, loaded when first needed: devimg does not
 * link them, so a build or a system without them still reads every
 * uncompressed blob and refuses compressed ones with a message.
 */
#ifndef DEVIMG_PROPS_OFFLOAD_INFLATE_H
#define DEVIMG_PROPS_OFFLOAD_INFLATE_H

#include <stddef.h>

/*
 * Inflate n bytes at src, zstd when they start with its frame magic
 * (28 b5 2f fd), else zlib, into exactly cap bytes at dst. 0; -EINVAL
 * when the data is corrupt or inflates to another size; -EOPNOTSUPP when
 * the library cannot be loaded. what receives the reason (a short phrase).
 */
int offload_inflate(const void *src, size_t n, void *dst, size_t cap,
		    const char **what);

#endif
