// SPDX-License-Identifier: MIT
/* Buffers: device memory of the plugin context of one device's platform. */
#include <errno.h>
#include <stdlib.h>

#include "loader/dispatch/dispatch.h"

DEVIMG_EXPORT int devimg_buf_new(struct devimg_device *dev, size_t size,
				 struct devimg_buf **out)
{
	struct devimg_buf *b;
	int err;

	if (!dev || !out || size == 0)
		return backend_fail(-EINVAL, "devimg_buf_new: %s",
				    size ? "NULL argument" : "size 0");
	b = calloc(1, sizeof(*b));
	if (!b)
		return backend_fail(-ENOMEM, "devimg_buf_new: out of memory");
	err = devimg_plugin_mem_create(dev->plugin, dev->pctx, 0, size,
				       &b->mem);
	if (err < 0) {
		free(b);
		return backend_fail(err, "cannot create a %zu-byte buffer on %s: %s",
				    size, devimg_device_name(dev),
				    devimg_plugin_last_error(dev->plugin));
	}
	atomic_init(&b->refcount, 1);
	b->ctx = devimg_ctx_ref(dev->ctx);
	b->dev = dev;
	b->size = size;
	*out = b;
	return 0;
}

static int buf_check(const char *fn, struct devimg_queue *q,
		     struct devimg_buf *b, size_t off, size_t n,
		     const void *host)
{
	if (!q || !b || (!host && n))
		return backend_fail(-EINVAL, "%s: NULL argument", fn);
	if (off > b->size || n > b->size - off)
		return backend_fail(-EINVAL, "%s: bytes %zu..%zu outside the %zu-byte buffer",
				    fn, off, off + n, b->size);
	if (q->dev->pctx != b->dev->pctx)
		return backend_fail(-EINVAL, "%s: the buffer belongs to another platform than the queue's device",
				    fn);
	return 0;
}

DEVIMG_EXPORT int devimg_buf_write(struct devimg_queue *q, struct devimg_buf *b,
				   size_t off, size_t n, const void *src)
{
	int err = buf_check(__func__, q, b, off, n, src);

	if (err < 0 || n == 0)
		return err;
	err = devimg_plugin_mem_write(q->dev->plugin, q->pq, b->mem, 1, off, n,
				      src);
	if (err < 0)
		return backend_fail(err, "buffer write: %s",
				    devimg_plugin_last_error(q->dev->plugin));
	return 0;
}

DEVIMG_EXPORT int devimg_buf_read(struct devimg_queue *q, struct devimg_buf *b,
				  size_t off, size_t n, void *dst)
{
	int err = buf_check(__func__, q, b, off, n, dst);

	if (err < 0 || n == 0)
		return err;
	err = devimg_plugin_mem_read(q->dev->plugin, q->pq, b->mem, 1, off, n,
				     dst);
	if (err < 0)
		return backend_fail(err, "buffer read: %s",
				    devimg_plugin_last_error(q->dev->plugin));
	return 0;
}

DEVIMG_EXPORT size_t devimg_buf_size(const struct devimg_buf *b)
{
	return b ? b->size : 0;
}

DEVIMG_EXPORT struct devimg_buf *devimg_buf_ref(struct devimg_buf *b)
{
	if (b)
		atomic_fetch_add(&b->refcount, 1);
	return b;
}

DEVIMG_EXPORT struct devimg_buf *devimg_buf_unref(struct devimg_buf *b)
{
	if (!b)
		return NULL;
	if (atomic_fetch_sub(&b->refcount, 1) > 1)
		return b;
	devimg_plugin_mem_release(b->dev->plugin, b->mem);
	devimg_ctx_unref(b->ctx);
	free(b);
	return NULL;
}
