// SPDX-License-Identifier: MIT
/*
 * Compressed images (format 4): registration leaves their bytes alone;
 * whatever first needs them (selection by format, devimg_image_bin(), a
 * program build) expands the zstd frame once, and the record keeps the
 * result, or the error, until the image is unregistered. The real format
 * is then guessed from the expanded bytes, as for format none.
 *
 * Expansion runs under the registry's read lock (the descriptor memory
 * stays mapped, and unregistration, which frees the result under the write
 * lock, waits) and under one of a few mutexes picked by the record's
 * address, so that each image is expanded by one thread while others wait,
 * and different images expand in parallel. libzstd is loaded before
 * either is taken (props_unzstd_load()), never under them: dlopen() waits
 * for the dynamic linker's lock, and the thread holding that lock may be
 * running a constructor or destructor that waits for the registry's write
 * lock (docs/design.md, "Locks and the dynamic loader").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/devimg_limits.h"
#include "loader/registry/registry.h"
#include "props/unzstd.h"

#define M PTHREAD_MUTEX_INITIALIZER
static pthread_mutex_t stripes[16] = { M, M, M, M, M, M, M, M,
				       M, M, M, M, M, M, M, M };
#undef M

atomic_ulong image_unz_count;

static pthread_mutex_t *stripe_of(const struct devimg_image *img)
{
	uintptr_t p = (uintptr_t)img / sizeof(*img);

	return &stripes[(p ^ p >> 4) % (sizeof(stripes) / sizeof(stripes[0]))];
}

static struct image_unz *unz_fail(struct image_unz *u, int err,
				  const char *why, const char *format, ...)
	DEVIMG_PRINTF(4, 5);

/* why: static text for selection's reasons; format: the log's detail. */
static struct image_unz *unz_fail(struct image_unz *u, int err,
				  const char *why, const char *format, ...)
{
	va_list ap;

	free(u->bytes);
	u->bytes = NULL;
	u->size = 0;
	u->err = err;
	u->why = why;
	va_start(ap, format);
	vsnprintf(u->msg, sizeof(u->msg), format, ap);
	va_end(ap);
	return u;
}

/*
 * Expand img's frame; the read lock is held, img is registered and
 * props_unzstd_load() was called, so nothing here reaches the linker.
 */
static struct image_unz *expand(struct devimg_image *img)
{
	struct props_unzstd z = { .head = 0, .want = PROPS_UNZSTD_ANY };
	struct image_unz *u = calloc(1, sizeof(*u));
	enum image_content c;
	unsigned sm;

	if (!u)
		return NULL;
	atomic_fetch_add_explicit(&image_unz_count, 1, memory_order_relaxed);
	switch (props_unzstd(img->bin, img->bin_size, &z)) {
	case PROPS_UNZSTD_OK:
		break;
	case PROPS_UNZSTD_NO_LIBRARY:
	case PROPS_UNZSTD_NO_SYMBOL:
		return unz_fail(u, -EOPNOTSUPP, "libzstd cannot be loaded",
				"libzstd.so.1 cannot be loaded, or lacks ZSTD_decompress");
	case PROPS_UNZSTD_NOT_FRAME:
		return unz_fail(u, -EBADMSG, "not a zstd frame",
				"%zu bytes are not a zstd frame", img->bin_size);
	case PROPS_UNZSTD_NO_SIZE:
		return unz_fail(u, -EBADMSG, "content size not recorded",
				"the zstd frame does not record its content size");
	case PROPS_UNZSTD_TOO_BIG:
		return unz_fail(u, -EFBIG, "content size above the limit",
				"the zstd frame's content size %llu is above the limit of %llu bytes (4 GiB, and 1032 times the frame's %zu)",
				z.declared,
				(unsigned long long)props_unzstd_limit(img->bin_size),
				img->bin_size);
	case PROPS_UNZSTD_NO_MEMORY:
		return unz_fail(u, -ENOMEM, "out of memory",
				"no memory for %llu expanded bytes", z.declared);
	case PROPS_UNZSTD_CORRUPT:
		return unz_fail(u, -EBADMSG, "corrupt zstd frame",
				"corrupt zstd frame: %s", z.detail);
	default:
		return unz_fail(u, -EBADMSG, "corrupt zstd frame",
				"the zstd frame expands to %zu bytes, %llu recorded",
				z.size, z.declared);
	}
	u->bytes = z.buf;
	u->size = z.size;
	c = image_content_of(u->bytes, u->size, &sm);
	u->content = ((unsigned)c + 1) | sm << 8;
	return u;
}

int image_unz_get(struct devimg_image *img, struct image_unz_view *out)
{
	struct image_unz *u;
	pthread_mutex_t *m;
	bool fresh = false;
	char msg[sizeof(u->msg)];
	int r = 0;

	/*
	 * First libzstd, with no lock held; expand() then finds it loaded
	 * (or its failure recorded) and does not reach the dynamic linker.
	 */
	if (!atomic_load(&img->unz))
		(void)props_unzstd_load();
	/*
	 * Under the read lock throughout: unregistration frees the result
	 * under the write lock, so nothing of it is read once it may be gone.
	 */
	registry_read_lock();
	if (!image_is_registered(img)) {
		registry_read_unlock();
		return image_stale(img->id, img->index);
	}
	u = atomic_load(&img->unz);
	if (!u) {
		m = stripe_of(img);
		pthread_mutex_lock(m);
		u = atomic_load(&img->unz);
		if (!u) {
			u = expand(img);
			if (u) {
				atomic_store(&img->unz, u);
				fresh = true;
			}
		}
		pthread_mutex_unlock(m);
	}
	if (u) {
		*out = (struct image_unz_view){ u->bytes, u->size, u->content,
						u->why };
		r = u->err;
		if (r < 0)
			memcpy(msg, u->msg, sizeof(msg));
	} else {
		r = -ENOMEM;
	}
	registry_read_unlock();
	if (!u)
		return fail_dbg(r, "image %" PRIu64 " (index %u, target '%s'): compressed bytes: out of memory",
				img->id, img->index, img->target);
	/* Logged once, when expanded; the message set at every call. */
	if (r < 0)
		return devimg_fail(r, fresh ? DEVIMG_LOG_ERR : DEVIMG_LOG_QUIET,
				   "image %" PRIu64 " (index %u, target '%s'): compressed bytes: %s",
				   img->id, img->index, img->target, msg);
	if (fresh)
		log_dbg("image %" PRIu64 ": expanded %zu compressed bytes to %zu",
			img->id, img->bin_size, out->size);
	return r;
}

int image_bytes(struct devimg_image *img, const unsigned char **bytes,
		size_t *size)
{
	struct image_unz_view v;
	int r;

	if (img->format != DEVIMG_FORMAT_COMPRESSED) {
		*bytes = img->bin;
		*size = img->bin_size;
		return 0;
	}
	r = image_unz_get(img, &v);
	if (r < 0)
		return r;
	*bytes = v.bytes;
	*size = v.size;
	return 0;
}

void image_unz_free(struct image_unz *u)
{
	if (!u)
		return;
	free(u->bytes);
	free(u);
}

void image_unz_release(struct devimg_image *img)
{
	image_unz_free(atomic_exchange(&img->unz, NULL));
}
