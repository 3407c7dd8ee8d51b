// SPDX-License-Identifier: MIT
/*
 * The devimg CUDA plugin: the entry point, its operation table, and the
 * operations that map one to one onto driver calls (contexts, queues,
 * buffers). Programs are in program.c, kernels and launches in kernel.c,
 * the platform and its devices in devices.c, the driver in driver.c.
 *
 * Contexts: every device is used through its primary context, the one the
 * CUDA runtime uses too, so that memory and modules are shared with
 * runtime code in the same process. Each operation that needs a context
 * makes it current on the calling thread first (threads start with none)
 * and leaves it current, as the runtime does.
 *
 * Queues are streams created with CU_STREAM_NON_BLOCKING: a devimg queue
 * is an independent in-order queue, like an OpenCL command queue, and
 * must not wait for (or hold up) work that other code in the process puts
 * on the legacy default stream.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/cuda/cuda-plugin.h"
#include "plugins/common/listing.h"

static void context_free(struct devimg_plugin_context *ctx)
{
	unsigned i;

	for (i = 0; i < ctx->n; i++)
		if (ctx->primary[i])
			cu.cuDevicePrimaryCtxRelease(ctx->devices[i]->id);
	/* A released primary context may be reset; find it again. */
	cu_known_current = NULL;
	free(ctx->devices);
	free(ctx->primary);
	free(ctx);
}

/*
 * Buffers of a context are usable on all its devices (devimg_plugin.h):
 * over one device they are plain device memory; over several, managed
 * memory, which every device of the context reaches and which migrates to
 * the device that uses it. That needs concurrent managed access.
 */
static int context_check(unsigned n, struct devimg_plugin_device *const *devices)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (!devices[i] ||
		    devices[i]->info.platform != devices[0]->info.platform)
			return plugin_error(-EINVAL,
					    "context_create: device %u is not a CUDA device of this plugin",
					    i);
		if (n > 1 && !devices[i]->managed)
			return plugin_error(-EINVAL,
					    "context_create: a context over %u CUDA devices shares its buffers through managed memory, which \"%s\" (device %d) cannot access concurrently; select one device, e.g. DEVIMG_DEVICE_SELECTOR=cuda:%d",
					    n, devices[i]->name,
					    devices[i]->ordinal,
					    devices[0]->ordinal);
	}
	return 0;
}

static int context_create(unsigned n,
			  struct devimg_plugin_device *const *devices,
			  struct devimg_plugin_context **out)
{
	struct devimg_plugin_context *ctx;
	CUresult err;
	unsigned i;
	int rc;

	if (!n || !devices || !devices[0] || !out)
		return plugin_error(-EINVAL, "context_create: no devices");
	rc = context_check(n, devices);
	if (rc < 0)
		return rc;
	ctx = calloc(1, sizeof(*ctx));
	if (ctx) {
		ctx->devices = calloc(n, sizeof(*ctx->devices));
		ctx->primary = calloc(n, sizeof(*ctx->primary));
	}
	if (!ctx || !ctx->devices || !ctx->primary) {
		if (ctx) {
			free(ctx->devices);
			free(ctx->primary);
			free(ctx);
		}
		return plugin_error(-ENOMEM, "out of memory for a context");
	}
	ctx->n = n;
	for (i = 0; i < n; i++) {
		ctx->devices[i] = devices[i];
		err = cu.cuDevicePrimaryCtxRetain(&ctx->primary[i],
						  devices[i]->id);
		if (err != CUDA_SUCCESS) {
			ctx->primary[i] = NULL;
			rc = cu_fail(err, "cuDevicePrimaryCtxRetain(\"%s\", device %d)",
				     devices[i]->name, devices[i]->ordinal);
			context_free(ctx);
			return rc;
		}
	}
	*out = ctx;
	return 0;
}

static void context_release(struct devimg_plugin_context *ctx)
{
	if (ctx)
		context_free(ctx);
}

/* The primary context of device in ctx, or NULL when it is not in ctx. */
CUcontext cu_primary_of(struct devimg_plugin_context *ctx,
			struct devimg_plugin_device *device)
{
	unsigned i;

	for (i = 0; i < ctx->n; i++)
		if (ctx->devices[i] == device)
			return ctx->primary[i];
	return NULL;
}

static int queue_create(struct devimg_plugin_context *ctx,
			struct devimg_plugin_device *device,
			struct devimg_plugin_queue **out)
{
	struct devimg_plugin_queue *q;
	CUcontext primary;
	CUresult err;
	int rc;

	if (!ctx || !device || !out)
		return plugin_error(-EINVAL, "queue_create: NULL argument");
	primary = cu_primary_of(ctx, device);
	if (!primary)
		return plugin_error(-EINVAL, "queue_create: \"%s\" is not a device of the context",
				    device->name);
	rc = cu_make_current(primary, "a stream");
	if (rc < 0)
		return rc;
	q = calloc(1, sizeof(*q));
	if (!q)
		return plugin_error(-ENOMEM, "out of memory for a queue");
	err = cu.cuStreamCreate(&q->stream, CU_STREAM_NON_BLOCKING);
	if (err != CUDA_SUCCESS) {
		free(q);
		return cu_fail(err, "cuStreamCreate(NON_BLOCKING) on \"%s\"",
			       device->name);
	}
	q->ctx = primary;
	q->device = device;
	*out = q;
	return 0;
}

static int queue_finish(struct devimg_plugin_queue *q)
{
	CUresult err;

	if (!q)
		return plugin_error(-EINVAL, "queue_finish: NULL queue");
	/* A stream names its context: nothing needs to be current. */
	err = cu.cuStreamSynchronize(q->stream);
	if (err != CUDA_SUCCESS)
		return cu_fail(err, "cuStreamSynchronize on \"%s\"",
			       q->device->name);
	return 0;
}

static void queue_release(struct devimg_plugin_queue *q)
{
	if (!q)
		return;
	if (cu_make_current(q->ctx, "a stream's release") == 0)
		cu.cuStreamDestroy(q->stream);
	free(q);
}

static int mem_create(struct devimg_plugin_context *ctx, unsigned flags,
		      size_t size, struct devimg_plugin_mem **out)
{
	struct devimg_plugin_mem *mem;
	CUresult err;
	int rc;

	/* CUDA has no access flags: they are checked, then not needed. */
	if (!ctx || !size || !out ||
	    flags & ~(DEVIMG_PLUGIN_MEM_READ_ONLY | DEVIMG_PLUGIN_MEM_WRITE_ONLY) ||
	    flags == (DEVIMG_PLUGIN_MEM_READ_ONLY | DEVIMG_PLUGIN_MEM_WRITE_ONLY))
		return plugin_error(-EINVAL,
				    "mem_create: bad arguments (size %zu, flags %#x)",
				    size, flags);
	rc = cu_make_current(ctx->primary[0], "a buffer");
	if (rc < 0)
		return rc;
	mem = calloc(1, sizeof(*mem));
	if (!mem)
		return plugin_error(-ENOMEM, "out of memory for a buffer");
	if (ctx->n == 1)
		err = cu.cuMemAlloc(&mem->ptr, size);
	else
		err = cu.cuMemAllocManaged(&mem->ptr, size,
					   CU_MEM_ATTACH_GLOBAL);
	if (err != CUDA_SUCCESS) {
		free(mem);
		return cu_fail(err, "%s(%zu bytes) for \"%s\"%s",
			       ctx->n == 1 ? "cuMemAlloc" : "cuMemAllocManaged",
			       size, ctx->devices[0]->name,
			       ctx->n == 1 ? "" : " and the other devices of its context");
	}
	mem->size = size;
	mem->ctx = ctx->primary[0];
	*out = mem;
	return 0;
}

static int copy_check(const char *op, struct devimg_plugin_queue *q,
		      struct devimg_plugin_mem *mem, size_t offset, size_t n,
		      const void *host)
{
	if (!q || !mem || (n && !host))
		return plugin_error(-EINVAL, "%s: NULL argument", op);
	if (offset > mem->size || n > mem->size - offset)
		return plugin_error(-EINVAL, "%s: bytes %zu..%zu outside the %zu-byte buffer",
				    op, offset, offset + n, mem->size);
	return cu_make_current(q->ctx, op);
}

/*
 * Copy n bytes on q's stream between device memory at dev and the host:
 * from src when dst is NULL, else into dst; wait for it when blocking.
 * The messages say what at offset (what: "" for a buffer).
 */
int cu_copy(struct devimg_plugin_queue *q, CUdeviceptr dev, void *dst,
	    const void *src, size_t n, int blocking, const char *what,
	    size_t offset)
{
	CUresult err;

	if (dst)
		err = cu.cuMemcpyDtoHAsync(dst, dev, n, q->stream);
	else
		err = cu.cuMemcpyHtoDAsync(dev, src, n, q->stream);
	if (err != CUDA_SUCCESS)
		return cu_fail(err, "%s(%soffset %zu, %zu bytes) on \"%s\"",
			       dst ? "cuMemcpyDtoHAsync" : "cuMemcpyHtoDAsync",
			       what, offset, n, q->device->name);
	if (blocking) {
		err = cu.cuStreamSynchronize(q->stream);
		if (err != CUDA_SUCCESS)
			return cu_fail(err, "cuStreamSynchronize after a %s of %zu bytes on \"%s\"",
				       dst ? "read" : "write", n,
				       q->device->name);
	}
	return 0;
}

static int mem_write(struct devimg_plugin_queue *q,
		     struct devimg_plugin_mem *mem, int blocking,
		     size_t offset, size_t n, const void *src)
{
	int rc = copy_check("mem_write", q, mem, offset, n, src);

	if (rc < 0 || n == 0)
		return rc;
	return cu_copy(q, mem->ptr + offset, NULL, src, n, blocking, "",
		       offset);
}

static int mem_read(struct devimg_plugin_queue *q,
		    struct devimg_plugin_mem *mem, int blocking,
		    size_t offset, size_t n, void *dst)
{
	int rc = copy_check("mem_read", q, mem, offset, n, dst);

	if (rc < 0 || n == 0)
		return rc;
	return cu_copy(q, mem->ptr + offset, dst, NULL, n, blocking, "",
		       offset);
}

static void mem_release(struct devimg_plugin_mem *mem)
{
	if (!mem)
		return;
	if (cu_make_current(mem->ctx, "a buffer's release") == 0)
		cu.cuMemFree(mem->ptr);
	free(mem);
}

static void fini(void)
{
	plugin_fini(cu_platforms_fini);
}

static const struct devimg_plugin_ops cuda_ops = {
	.abi_version = DEVIMG_PLUGIN_ABI_VERSION,
	.size = sizeof(struct devimg_plugin_ops),
	.backend = "cuda",
	.last_error = plugin_last_error,
	.fini = fini,
	.platform_list = cu_platform_list,
	.platform_info = plugin_platform_info,
	.device_list = plugin_device_list,
	.device_info = plugin_device_info,
	.context_create = context_create,
	.context_release = context_release,
	.queue_create = queue_create,
	.queue_finish = queue_finish,
	.queue_release = queue_release,
	.mem_create = mem_create,
	.mem_write = mem_write,
	.mem_read = mem_read,
	.mem_release = mem_release,
	.program_create_il = cu_program_create_il,
	.program_create_binary = cu_program_create_binary,
	.program_set_spec_const = cu_program_set_spec_const,
	.program_build = cu_program_build,
	.program_build_log = cu_program_build_log,
	.program_binary = cu_program_binary,
	.program_release = cu_program_release,
	.kernel_create = cu_kernel_create,
	.kernel_arg_count = cu_kernel_arg_count,
	.kernel_set_arg_value = cu_kernel_set_arg_value,
	.kernel_set_arg_mem = cu_kernel_set_arg_mem,
	.kernel_set_arg_local = cu_kernel_set_arg_local,
	.kernel_release = cu_kernel_release,
	.launch = cu_launch,
	.program_compile = cu_program_compile,
	.program_link = cu_program_link,
	.global_info = cu_global_info,
	.global_write = cu_global_write,
	.global_read = cu_global_read,
	.mem_address = cu_mem_address,
};

/*
 * A missing driver, a failing cuInit or no GPU leaves the plugin bound
 * with no platform (devices.c); only a driver that fails after showing
 * devices, or no memory, makes init fail.
 */
DEVIMG_PLUGIN_EXPORT int devimg_plugin_init(unsigned abi_version,
					    struct devimg_plugin_ops *ops)
{
	return plugin_init(abi_version, ops, &cuda_ops, cu_platforms_init);
}
