// SPDX-License-Identifier: MIT
/*
 * The one zstd expander (props/unzstd.h) and the one way devimg reaches
 * libzstd's decoder: dlopen("libzstd.so.1") on the first frame met, kept
 * for the life of the process. libdevimg does not link libzstd on
 * purpose: a program that never meets a compressed image does not pay
 * for loading it at start-up, and a system without it still runs every
 * uncompressed image (a compressed one is refused with a message).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

#include "devimg_limits.h"
#include "unzstd.h"

/* What ZSTD_getFrameContentSize() says for no size and for an error. */
#define ZSTD_SIZE_UNKNOWN (0ULL - 1)
#define ZSTD_SIZE_ERROR (0ULL - 2)

/* The functions we call: X(name, return type, parameters). */
#define ZSTD_FUNCTIONS(X) \
	X(ZSTD_getFrameContentSize, unsigned long long, \
	  (const void *, size_t)) \
	X(ZSTD_decompress, size_t, (void *, size_t, const void *, size_t)) \
	X(ZSTD_isError, unsigned, (size_t)) \
	X(ZSTD_getErrorName, const char *, (size_t))

static struct {
#define X(name, ret, args) ret(*name) args;
	ZSTD_FUNCTIONS(X)
#undef X
} zstd;
static int zstd_status;
static pthread_once_t zstd_once = PTHREAD_ONCE_INIT;

static void zstd_load(void)
{
	void *h = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		zstd_status = PROPS_UNZSTD_NO_LIBRARY;
		return;
	}
#define X(name, ret, args) \
	*(void **)&zstd.name = dlsym(h, #name); \
	if (!zstd.name) \
		zstd_status = PROPS_UNZSTD_NO_SYMBOL;
	ZSTD_FUNCTIONS(X)
#undef X
	if (zstd_status)
		dlclose(h);
}

static int frame_size(const void *src, size_t n, unsigned long long *size)
{
	pthread_once(&zstd_once, zstd_load);
	if (zstd_status)
		return zstd_status;
	*size = zstd.ZSTD_getFrameContentSize(src, n);
	if (*size == ZSTD_SIZE_ERROR)
		return PROPS_UNZSTD_NOT_FRAME;
	if (*size == ZSTD_SIZE_UNKNOWN)
		return PROPS_UNZSTD_NO_SIZE;
	return PROPS_UNZSTD_OK;
}

static int within_limit(unsigned long long size)
{
	return size <= DEVIMG_LIMIT_DECOMPRESSED && size <= SIZE_MAX;
}

int props_unzstd_size(const void *src, size_t n, uint64_t *size)
{
	unsigned long long s;
	int r = frame_size(src, n, &s);

	if (r)
		return r;
	if (!within_limit(s))
		return PROPS_UNZSTD_TOO_BIG;
	*size = s;
	return PROPS_UNZSTD_OK;
}

int props_unzstd(const void *src, size_t n, struct props_unzstd *z)
{
	size_t got;
	int r;

	z->buf = NULL;
	z->size = 0;
	z->detail = NULL;
	r = frame_size(src, n, &z->declared);
	if (r)
		return r;
	if (z->want != PROPS_UNZSTD_ANY && z->declared != z->want)
		return PROPS_UNZSTD_OTHER_SIZE;
	if (!within_limit(z->declared))
		return PROPS_UNZSTD_TOO_BIG;
	if (z->declared > SIZE_MAX - 1 - z->head)
		return PROPS_UNZSTD_NO_MEMORY;
	z->buf = malloc(z->head + (size_t)z->declared + 1);
	if (!z->buf)
		return PROPS_UNZSTD_NO_MEMORY;
	got = zstd.ZSTD_decompress(z->buf + z->head, (size_t)z->declared,
				   src, n);
	if (zstd.ZSTD_isError(got)) {
		z->detail = zstd.ZSTD_getErrorName(got);
		r = PROPS_UNZSTD_CORRUPT;
	} else if (got != z->declared) {
		z->size = got;
		r = PROPS_UNZSTD_SHORT;
	}
	if (r) {
		free(z->buf);
		z->buf = NULL;
		return r;
	}
	z->size = got;
	z->buf[z->head + got] = 0;
	return PROPS_UNZSTD_OK;
}
