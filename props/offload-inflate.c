// SPDX-License-Identifier: MIT
/* Compressed OffloadBinary bodies: libzstd or zlib, loaded on use. */
#include <dlfcn.h>
#include <errno.h>
#include <string.h>

#include "offload-inflate.h"

typedef size_t (*zstd_decompress_fn)(void *, size_t, const void *, size_t);
typedef unsigned (*zstd_is_error_fn)(size_t);
typedef int (*z_uncompress_fn)(unsigned char *, unsigned long *,
			       const unsigned char *, unsigned long);

static int inflate_zstd(const void *src, size_t n, void *dst, size_t cap,
			const char **what)
{
	void *h = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
	zstd_decompress_fn dec;
	zstd_is_error_fn is_error;
	size_t r;
	int ret = 0;

	if (!h) {
		*what = "zstd data, and libzstd.so.1 cannot be loaded";
		return -EOPNOTSUPP;
	}
	*(void **)&dec = dlsym(h, "ZSTD_decompress");
	*(void **)&is_error = dlsym(h, "ZSTD_isError");
	if (!dec || !is_error) {
		*what = "zstd data, and libzstd.so.1 lacks ZSTD_decompress";
		ret = -EOPNOTSUPP;
	} else {
		r = dec(dst, cap, src, n);
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

static int inflate_zlib(const void *src, size_t n, void *dst, size_t cap,
			const char **what)
{
	void *h = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
	z_uncompress_fn unc;
	unsigned long len = cap;
	int ret = 0;

	if (!h) {
		*what = "zlib data, and libz.so.1 cannot be loaded";
		return -EOPNOTSUPP;
	}
	*(void **)&unc = dlsym(h, "uncompress");
	if (!unc) {
		*what = "zlib data, and libz.so.1 lacks uncompress";
		ret = -EOPNOTSUPP;
	} else if (n > (unsigned long)-1 || (size_t)len != cap ||
		   unc(dst, &len, src, (unsigned long)n) != 0) {
		*what = "zlib data corrupt or larger than InflatedSize says";
		ret = -EINVAL;
	} else if (len != cap) {
		*what = "zlib data inflates to another size than InflatedSize says";
		ret = -EINVAL;
	}
	dlclose(h);
	return ret;
}

int offload_inflate(const void *src, size_t n, void *dst, size_t cap,
		    const char **what)
{
	static const unsigned char zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

	if (n >= 4 && !memcmp(src, zstd_magic, 4))
		return inflate_zstd(src, n, dst, cap, what);
	return inflate_zlib(src, n, dst, cap, what);
}
