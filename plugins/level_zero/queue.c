// SPDX-License-Identifier: MIT
/*
 * Queues: a command queue and one command list per devimg queue. Commands
 * are appended to the list, each followed by a barrier so that they run in
 * order; a blocking copy, queue_finish() or the release of an object that
 * a pending command may use closes the list, executes it, waits and resets
 * it. The queue's lock makes its list safe to share between threads; the
 * context's lock guards its list of queues. Order: context, then queue.
 */
#include <errno.h>
#include <stdlib.h>

#include "plugins/level_zero/level_zero.h"

/* Order what follows after the commands before (q->lock held). */
static int append_barrier(struct devimg_plugin_queue *q)
{
	ze_result_t res = zeCommandListAppendBarrier(q->list, NULL, 0, NULL);

	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeCommandListAppendBarrier");
	return 0;
}

/* Submit the pending commands and wait for them (q->lock held). */
static int flush(struct devimg_plugin_queue *q)
{
	const char *call = "zeCommandListClose";
	unsigned n = q->pending;
	ze_result_t res, reset;

	if (n == 0)
		return 0;
	res = zeCommandListClose(q->list);
	if (res == ZE_RESULT_SUCCESS) {
		call = "zeCommandQueueExecuteCommandLists";
		res = zeCommandQueueExecuteCommandLists(q->id, 1, &q->list,
							NULL);
	}
	if (res == ZE_RESULT_SUCCESS) {
		call = "zeCommandQueueSynchronize";
		res = zeCommandQueueSynchronize(q->id, UINT64_MAX);
	}
	/* The list is reusable whatever happened to its commands. */
	reset = zeCommandListReset(q->list);
	q->pending = 0;
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "%s(%u commands on \"%s\")", call, n,
			       q->device->name);
	if (reset != ZE_RESULT_SUCCESS)
		return lz_fail(reset, "zeCommandListReset(\"%s\")",
			       q->device->name);
	return 0;
}

static void queue_link(struct devimg_plugin_queue *q)
{
	struct devimg_plugin_context *ctx = q->ctx;

	pthread_mutex_lock(&ctx->lock);
	q->next = ctx->queues;
	if (ctx->queues)
		ctx->queues->prev = q;
	ctx->queues = q;
	pthread_mutex_unlock(&ctx->lock);
}

static void queue_unlink(struct devimg_plugin_queue *q)
{
	struct devimg_plugin_context *ctx = q->ctx;

	pthread_mutex_lock(&ctx->lock);
	if (q->prev)
		q->prev->next = q->next;
	else
		ctx->queues = q->next;
	if (q->next)
		q->next->prev = q->prev;
	pthread_mutex_unlock(&ctx->lock);
}

static int queue_objects(struct devimg_plugin_queue *q)
{
	ze_command_queue_desc_t qdesc = {
		.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
		.ordinal = q->device->compute_ordinal,
		.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
		.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL,
	};
	ze_command_list_desc_t ldesc = {
		.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
		.commandQueueGroupOrdinal = q->device->compute_ordinal,
	};
	ze_result_t res;

	res = zeCommandQueueCreate(q->ctx->id, q->device->id, &qdesc, &q->id);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeCommandQueueCreate(\"%s\", group %u)",
			       q->device->name, qdesc.ordinal);
	res = zeCommandListCreate(q->ctx->id, q->device->id, &ldesc, &q->list);
	if (res != ZE_RESULT_SUCCESS) {
		zeCommandQueueDestroy(q->id);
		return lz_fail(res, "zeCommandListCreate(\"%s\", group %u)",
			       q->device->name, ldesc.commandQueueGroupOrdinal);
	}
	return 0;
}

int lz_queue_create(struct devimg_plugin_context *ctx,
		    struct devimg_plugin_device *device,
		    struct devimg_plugin_queue **out)
{
	struct devimg_plugin_queue *q;
	int rc;

	if (!ctx || !device || !out)
		return plugin_error(-EINVAL, "queue_create: NULL argument");
	if (device->info.platform != ctx->platform)
		return plugin_error(-EINVAL, "queue_create: \"%s\" is not of the context's driver",
				    device->name);
	if (device->compute_ordinal == UINT32_MAX)
		return plugin_error(-ENOTSUP, "queue_create: \"%s\" has no command queue group for compute",
				    device->name);
	q = calloc(1, sizeof(*q));
	if (!q)
		return plugin_error(-ENOMEM, "out of memory for a queue");
	q->ctx = ctx;
	q->device = device;
	rc = queue_objects(q);
	if (rc < 0) {
		free(q);
		return rc;
	}
	pthread_mutex_init(&q->lock, NULL);
	queue_link(q);
	*out = q;
	return 0;
}

int lz_queue_finish(struct devimg_plugin_queue *q)
{
	int rc;

	if (!q)
		return plugin_error(-EINVAL, "queue_finish: NULL queue");
	pthread_mutex_lock(&q->lock);
	rc = flush(q);
	pthread_mutex_unlock(&q->lock);
	return rc;
}

void lz_queue_release(struct devimg_plugin_queue *q)
{
	if (!q)
		return;
	queue_unlink(q);
	pthread_mutex_lock(&q->lock);
	flush(q);
	pthread_mutex_unlock(&q->lock);
	zeCommandListDestroy(q->list);
	zeCommandQueueDestroy(q->id);
	pthread_mutex_destroy(&q->lock);
	free(q);
}

void lz_context_drain(struct devimg_plugin_context *ctx)
{
	struct devimg_plugin_queue *q;

	pthread_mutex_lock(&ctx->lock);
	for (q = ctx->queues; q; q = q->next) {
		pthread_mutex_lock(&q->lock);
		flush(q);
		pthread_mutex_unlock(&q->lock);
	}
	pthread_mutex_unlock(&ctx->lock);
}

/* Append a copy and its barrier; submit and wait when blocking. */
int lz_queue_copy(struct devimg_plugin_queue *q, void *dst, const void *src,
		  size_t n, int blocking, const char *what, size_t offset)
{
	ze_result_t res;
	int rc = 0;

	pthread_mutex_lock(&q->lock);
	res = zeCommandListAppendMemoryCopy(q->list, dst, src, n, NULL, 0,
					    NULL);
	if (res != ZE_RESULT_SUCCESS)
		rc = lz_fail(res, "zeCommandListAppendMemoryCopy(%s, offset %zu, %zu bytes)",
			     what, offset, n);
	else
		q->pending++;
	if (rc == 0)
		rc = append_barrier(q);
	if (rc == 0 && blocking)
		rc = flush(q);
	pthread_mutex_unlock(&q->lock);
	return rc;
}

static int check_range(struct devimg_plugin_queue *q,
		       struct devimg_plugin_mem *mem, size_t offset, size_t n,
		       const void *host, const char *op)
{
	if (!q || !mem || (n && !host))
		return plugin_error(-EINVAL, "%s: NULL argument", op);
	if (mem->ctx != q->ctx)
		return plugin_error(-EINVAL, "%s: the buffer is of another context than the queue",
				    op);
	if (offset > mem->size || n > mem->size - offset)
		return plugin_error(-EINVAL, "%s: bytes %zu..%zu outside the %zu-byte buffer",
				    op, offset, offset + n, mem->size);
	return 0;
}

int lz_mem_write(struct devimg_plugin_queue *q, struct devimg_plugin_mem *mem,
		 int blocking, size_t offset, size_t n, const void *src)
{
	int rc = check_range(q, mem, offset, n, src, "mem_write");

	if (rc < 0 || n == 0)
		return rc;
	return lz_queue_copy(q, (char *)mem->ptr + offset, src, n, blocking,
			     "host to device", offset);
}

int lz_mem_read(struct devimg_plugin_queue *q, struct devimg_plugin_mem *mem,
		int blocking, size_t offset, size_t n, void *dst)
{
	int rc = check_range(q, mem, offset, n, dst, "mem_read");

	if (rc < 0 || n == 0)
		return rc;
	return lz_queue_copy(q, dst, (const char *)mem->ptr + offset, n,
			     blocking, "device to host", offset);
}

int lz_queue_launch(struct devimg_plugin_queue *q,
		    struct devimg_plugin_kernel *k,
		    const ze_group_count_t *groups)
{
	ze_result_t res;
	int rc = 0;

	pthread_mutex_lock(&q->lock);
	res = zeCommandListAppendLaunchKernel(q->list, k->id, groups, NULL, 0,
					      NULL);
	if (res != ZE_RESULT_SUCCESS)
		rc = lz_fail(res, "zeCommandListAppendLaunchKernel(%s, %ux%ux%u groups)",
			     k->name, groups->groupCountX, groups->groupCountY,
			     groups->groupCountZ);
	else
		q->pending++;
	if (rc == 0)
		rc = append_barrier(q);
	pthread_mutex_unlock(&q->lock);
	return rc;
}
