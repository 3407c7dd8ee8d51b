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
 * (28 b5 2f fd), else zlib, into exactly cap bytes at *out + head, *out a
 * new buffer of head + cap + 1 bytes (the first head left for the
 * caller). Nothing is allocated for a size the data cannot hold: a zstd
 * frame must declare cap as its content size (as LLVM's writer makes
 * them), and zlib data cannot inflate to more than 1032 times its size. 0; -EINVAL
 * when the data is corrupt or inflates to another size; -EOPNOTSUPP when
 * the library cannot be loaded; -ENOMEM. what receives the reason.
 * It reaches the dynamic linker's load lock (dlopen of libz.so.1 at each
 * zlib body, of libzstd.so.1 at the process's first zstd frame): call it
 * under no lock that registering or unregistering images may wait for,
 * the registry's above all (docs/design.md, "Locks and the dynamic
 * loader"). Registration parses blobs before it takes that lock.
 */
int offload_inflate(const void *src, size_t n, size_t head, size_t cap,
		    unsigned char **out, const char **what);

#endif
