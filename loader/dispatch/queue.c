// SPDX-License-Identifier: MIT
/* Queues: in-order command queues of one device. */
#include <errno.h>
#include <stdlib.h>

#include "loader/dispatch/dispatch.h"

DEVIMG_EXPORT int devimg_queue_new(struct devimg_device *dev,
				   struct devimg_queue **out)
{
	const struct devimg_plugin_ops *ops;
	struct devimg_queue *q;
	int err;

	if (!dev || !out)
		return backend_fail(-EINVAL, "devimg_queue_new: NULL argument");
	q = calloc(1, sizeof(*q));
	if (!q)
		return backend_fail(-ENOMEM, "devimg_queue_new: out of memory");
	err = devimg_plugin_queue_create(dev->plugin, dev->pctx, dev->pdev,
					 &q->pq);
	if (err < 0) {
		free(q);
		return backend_fail(err, "cannot create a queue on %s: %s",
				    devimg_device_name(dev),
				    devimg_plugin_last_error(dev->plugin));
	}
	atomic_init(&q->refcount, 1);
	q->ctx = devimg_ctx_ref(dev->ctx);
	q->dev = dev;
	ops = devimg_plugin_untraced_ops(dev->plugin);
	q->finish = ops ? ops->queue_finish : NULL;
	*out = q;
	return 0;
}

DEVIMG_EXPORT int devimg_queue_finish(struct devimg_queue *q)
{
	int err;

	if (!q)
		return backend_fail(-EINVAL, "devimg_queue_finish: NULL queue");
	err = q->finish ? q->finish(q->pq) :
			  devimg_plugin_queue_finish(q->dev->plugin, q->pq);
	if (err < 0)
		return backend_fail(err, "queue_finish on %s: %s",
				    devimg_device_name(q->dev),
				    devimg_plugin_last_error(q->dev->plugin));
	return 0;
}

DEVIMG_EXPORT struct devimg_queue *devimg_queue_ref(struct devimg_queue *q)
{
	if (q)
		atomic_fetch_add(&q->refcount, 1);
	return q;
}

DEVIMG_EXPORT struct devimg_queue *devimg_queue_unref(struct devimg_queue *q)
{
	if (!q)
		return NULL;
	if (atomic_fetch_sub(&q->refcount, 1) > 1)
		return q;
	devimg_plugin_queue_release(q->dev->plugin, q->pq);
	devimg_ctx_unref(q->ctx);
	free(q);
	return NULL;
}
