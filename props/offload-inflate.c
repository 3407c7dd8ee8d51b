// SPDX-License-Identifier: MIT
/* Compressed OffloadBinary bodies: libzstd or zlib, loaded on use. */
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "offload-inflate.h"

typedef size_t (*zstd_decompress_fn)(void *, size_t, const void *, size_t);
typedef unsigned (*zstd_is_error_fn)(size_t);
typedef unsigned long long (*zstd_content_size_fn)(const void *, size_t);

/* What ZSTD_getFrameContentSize() says for no size and for an error. */
#define ZSTD_SIZE_UNKNOWN (0ULL - 1)
#define ZSTD_SIZE_ERROR (0ULL - 2)
/* Deflate's largest ratio: 258 bytes from about 2 bits. */
#define ZLIB_MAX_RATIO 1032u

static unsigned char *alloc_out(size_t head, size_t cap)
{
	return cap > SIZE_MAX - 1 - head ? NULL : malloc(head + cap + 1);
}
typedef int (*z_uncompress_fn)(unsigned char *, unsigned long *,
			       const unsigned char *, unsigned long);

static int inflate_zstd(const void *src, size_t n, size_t head, size_t cap,
			unsigned char **out, const char **what)
{
	void *h = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
	zstd_content_size_fn content_size;
	zstd_decompress_fn dec;
	zstd_is_error_fn is_error;
	unsigned long long declared;
	size_t r;
	int ret = 0;

	if (!h) {
		*what = "zstd data, and libzstd.so.1 cannot be loaded";
		return -EOPNOTSUPP;
	}
	*(void **)&dec = dlsym(h, "ZSTD_decompress");
	*(void **)&is_error = dlsym(h, "ZSTD_isError");
	*(void **)&content_size = dlsym(h, "ZSTD_getFrameContentSize");
	if (!dec || !is_error || !content_size) {
		*what = "zstd data, and libzstd.so.1 lacks ZSTD_decompress";
		ret = -EOPNOTSUPP;
	} else if ((declared = content_size(src, n)) == ZSTD_SIZE_ERROR ||
		   declared == ZSTD_SIZE_UNKNOWN) {
		*what = "zstd frame header corrupt or without its content size (LLVM writes it)";
		ret = -EINVAL;
	} else if (declared != cap) {
		*what = "zstd frame declaring another size than InflatedSize";
		ret = -EINVAL;
	} else if (!(*out = alloc_out(head, cap))) {
		*what = "out of memory";
		ret = -ENOMEM;
	} else {
		r = dec(*out + head, cap, src, n);
		if (is_error(r)) {
			*what = "corrupt zstd data";
			ret = -EINVAL;
		} else if (r != cap) {
			*what = "zstd data inflates to another size than InflatedSize says";
			ret = -EINVAL;
		}
	}
	dlclose(h);
	return ret;
}

static int inflate_zlib(const void *src, size_t n, size_t head, size_t cap,
			unsigned char **out, const char **what)
{
	void *h;
	z_uncompress_fn unc;
	unsigned long len = cap;
	int ret = 0;

	if (cap / ZLIB_MAX_RATIO > n) {
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
