// SPDX-License-Identifier: MIT
/*
 * The one zstd expander (props/unzstd.h) and the one way devimg reaches
 * libzstd's decoder: dlopen("libzstd.so.1") on the first frame met, kept
 * for the life of the process. libdevimg does not link libzstd on
 * purpose: a program that never meets a compressed image does not pay
 * for loading it at start-up, and a system without it still runs every
 * uncompressed image (a compressed one is refused with a message).
 *
 * Loading waits for the dynamic linker's load lock (dlopen, dlsym), which
 * a thread in dlopen() or dlclose() holds while it runs the constructors
 * and destructors that register and unregister images, so it happens
 * under no lock that such a constructor may wait for (docs/design.md,
 * "Locks and the dynamic loader"): not the registry's, whose users call
 * props_unzstd_load() before they take it, and not a pthread_once() of
 * its own either, which a constructor registering a zstd-compressed
 * OffloadBinary would wait in. Threads that race to load the library
 * each open it (dlopen counts, it maps once); the first to finish
 * publishes its table, the others close their handle.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "util/devimg_limits.h"
#include "props/unzstd.h"

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

struct zstd_api {
#define X(name, ret, args) ret(*name) args;
	ZSTD_FUNCTIONS(X)
#undef X
};

/* Written once under publish_lock, then read only once zstd_state says. */
static struct zstd_api zstd;
/* 0: not tried yet; else the status of the load, plus 1. */
static atomic_int zstd_state;
/* Held for the copy of a table only, never over a call to the linker. */
static pthread_mutex_t publish_lock = PTHREAD_MUTEX_INITIALIZER;

/* Open the library and find the functions: a status, *h to keep or close. */
static int zstd_open(struct zstd_api *api, void **h)
{
	int status = PROPS_UNZSTD_OK;

	*h = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!*h)
		return PROPS_UNZSTD_NO_LIBRARY;
#define X(name, ret, args) \
	*(void **)&api->name = dlsym(*h, #name); \
	if (!api->name) \
		status = PROPS_UNZSTD_NO_SYMBOL;
	ZSTD_FUNCTIONS(X)
#undef X
	return status;
}

int props_unzstd_load(void)
{
	int s = atomic_load_explicit(&zstd_state, memory_order_acquire);
	struct zstd_api api = { 0 };
	void *h;
	int status;

	if (s)
		return s - 1;
	status = zstd_open(&api, &h);
	pthread_mutex_lock(&publish_lock);
	s = atomic_load_explicit(&zstd_state, memory_order_relaxed);
	if (!s) {
		zstd = api;
		s = status + 1;
		atomic_store_explicit(&zstd_state, s, memory_order_release);
		if (status == PROPS_UNZSTD_OK)
			h = NULL;	/* kept for the life of the process */
	}
	pthread_mutex_unlock(&publish_lock);
	if (h)
		dlclose(h);
	return s - 1;
}

static int frame_size(const void *src, size_t n, unsigned long long *size)
{
	int r = props_unzstd_load();

	if (r)
		return r;
	*size = zstd.ZSTD_getFrameContentSize(src, n);
	if (*size == ZSTD_SIZE_ERROR)
		return PROPS_UNZSTD_NOT_FRAME;
	if (*size == ZSTD_SIZE_UNKNOWN)
		return PROPS_UNZSTD_NO_SIZE;
	return PROPS_UNZSTD_OK;
}

uint64_t props_unzstd_limit(size_t n)
{
	if ((uint64_t)n >= DEVIMG_LIMIT_DECOMPRESSED /
			   DEVIMG_LIMIT_DECOMPRESS_RATIO)
		return DEVIMG_LIMIT_DECOMPRESSED;
	return (uint64_t)n * DEVIMG_LIMIT_DECOMPRESS_RATIO;
}

static int within_limit(unsigned long long size, size_t n)
{
	return size <= props_unzstd_limit(n) && size <= SIZE_MAX;
}

int props_unzstd_size(const void *src, size_t n, uint64_t *size)
{
	unsigned long long s;
	int r = frame_size(src, n, &s);

	if (r)
		return r;
	if (!within_limit(s, n))
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
	if (!within_limit(z->declared, n))
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
