// SPDX-License-Identifier: MIT
/*
 * Compressed OffloadBinary bodies: zstd through the one expander
 * (unzstd.c), zlib loaded on use.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/devimg_limits.h"
#include "props/offload-inflate.h"
#include "props/unzstd.h"

static unsigned char *alloc_out(size_t head, size_t cap)
{
	return cap > SIZE_MAX - 1 - head ? NULL : malloc(head + cap + 1);
}
typedef int (*z_uncompress_fn)(unsigned char *, unsigned long *,
			       const unsigned char *, unsigned long);

/* The zstd expander's statuses in this reader's words. */
static int inflate_zstd(const void *src, size_t n, size_t head, size_t cap,
			unsigned char **out, const char **what)
{
	struct props_unzstd z = { .head = head, .want = cap };

	switch (props_unzstd(src, n, &z)) {
	case PROPS_UNZSTD_OK:
		*out = z.buf;
		return 0;
	case PROPS_UNZSTD_NO_LIBRARY:
		*what = "zstd data, and libzstd.so.1 cannot be loaded";
		return -EOPNOTSUPP;
	case PROPS_UNZSTD_NO_SYMBOL:
		*what = "zstd data, and libzstd.so.1 lacks ZSTD_decompress";
		return -EOPNOTSUPP;
	case PROPS_UNZSTD_NOT_FRAME:
	case PROPS_UNZSTD_NO_SIZE:
		*what = "zstd frame header corrupt or without its content size (LLVM writes it)";
		return -EINVAL;
	case PROPS_UNZSTD_OTHER_SIZE:
		*what = "zstd frame declaring another size than InflatedSize";
		return -EINVAL;
	case PROPS_UNZSTD_TOO_BIG:
		*what = "zstd frame declaring a content size above the limit (4 GiB, and 1032 times the frame)";
		return -EINVAL;
	case PROPS_UNZSTD_NO_MEMORY:
		*what = "out of memory";
		return -ENOMEM;
	case PROPS_UNZSTD_CORRUPT:
		*what = "corrupt zstd data";
		return -EINVAL;
	default:
		*what = "zstd data inflates to another size than InflatedSize says";
		return -EINVAL;
	}
}

static int inflate_zlib(const void *src, size_t n, size_t head, size_t cap,
			unsigned char **out, const char **what)
{
	void *h;
	z_uncompress_fn unc;
	unsigned long len = cap;
	int ret = 0;

	/* Deflate's largest ratio, the one both expanders keep to. */
	if (cap > props_unzstd_limit(n)) {
		*what = "zlib data too short to inflate to InflatedSize";
		return -EINVAL;
	}
	h = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		*what = "zlib data, and libz.so.1 cannot be loaded";
		return -EOPNOTSUPP;
	}
	*(void **)&unc = dlsym(h, "uncompress");
	if (!unc) {
		*what = "zlib data, and libz.so.1 lacks uncompress";
		ret = -EOPNOTSUPP;
	} else if (!(*out = alloc_out(head, cap))) {
		*what = "out of memory";
		ret = -ENOMEM;
	} else if (n > (unsigned long)-1 || (size_t)len != cap ||
		   unc(*out + head, &len, src, (unsigned long)n) != 0) {
		*what = "zlib data corrupt or larger than InflatedSize says";
		ret = -EINVAL;
	} else if (len != cap) {
		*what = "zlib data inflates to another size than InflatedSize says";
		ret = -EINVAL;
	}
	dlclose(h);
	return ret;
}

int offload_inflate(const void *src, size_t n, size_t head, size_t cap,
		    unsigned char **out, const char **what)
{
	static const unsigned char zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	int ret;

	*out = NULL;
	if (n >= 4 && !memcmp(src, zstd_magic, 4))
		ret = inflate_zstd(src, n, head, cap, out, what);
	else
		ret = inflate_zlib(src, n, head, cap, out, what);
	if (ret) {
		free(*out);
		*out = NULL;
	}
	return ret;
}
