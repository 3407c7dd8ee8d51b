// SPDX-License-Identifier: MIT
/*
 * The devimg Level Zero plugin: the entry point, its operation table,
 * contexts and buffers. Drivers and devices are in devices.c, queues and
 * copies in queue.c, modules in program.c, kernels and launches in
 * kernel.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/level_zero/level_zero.h"
#include "plugins/common/listing.h"

static int check_devices(unsigned n,
			 struct devimg_plugin_device *const *devices)
{
	struct devimg_plugin_platform *pl;
	unsigned i;

	if (!n || !devices || !devices[0])
		return plugin_error(-EINVAL, "context_create: no devices");
	pl = devices[0]->info.platform;
	for (i = 1; i < n; i++)
		if (!devices[i] || devices[i]->info.platform != pl)
			return plugin_error(-EINVAL,
					    "context_create: device %u is not of %s",
					    i, pl->name);
	return 0;
}

/*
 * A context of the whole driver: Level Zero contexts span a driver's
 * devices. Buffers live on the first device given.
 */
static int context_create(unsigned n,
			  struct devimg_plugin_device *const *devices,
			  struct devimg_plugin_context **out)
{
	ze_context_desc_t desc = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	struct devimg_plugin_context *ctx;
	ze_result_t res;
	int rc;

	rc = check_devices(n, devices);
	if (rc < 0)
		return rc;
	if (!out)
		return plugin_error(-EINVAL, "context_create: NULL out");
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return plugin_error(-ENOMEM, "out of memory for a context");
	ctx->platform = devices[0]->info.platform;
	ctx->device = devices[0];
	res = zeContextCreate(ctx->platform->id, &desc, &ctx->id);
	if (res != ZE_RESULT_SUCCESS) {
		free(ctx);
		return lz_fail(res, "zeContextCreate(%s, %u devices)",
			       devices[0]->info.platform->name, n);
	}
	pthread_mutex_init(&ctx->lock, NULL);
	pthread_mutex_init(&ctx->link_lock, NULL);
	*out = ctx;
	return 0;
}

static void context_release(struct devimg_plugin_context *ctx)
{
	if (!ctx)
		return;
	zeContextDestroy(ctx->id);
	pthread_mutex_destroy(&ctx->lock);
	pthread_mutex_destroy(&ctx->link_lock);
	free(ctx);
}

/* Level Zero device memory has no access flags; they are only checked. */
static int mem_create(struct devimg_plugin_context *ctx, unsigned flags,
		      size_t size, struct devimg_plugin_mem **out)
{
	const unsigned both = DEVIMG_PLUGIN_MEM_READ_ONLY |
			      DEVIMG_PLUGIN_MEM_WRITE_ONLY;
	ze_device_mem_alloc_desc_t desc = {
		.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
	};
	struct devimg_plugin_mem *mem;
	ze_result_t res;

	if (!ctx || !size || !out || flags & ~both || flags == both)
		return plugin_error(-EINVAL,
				    "mem_create: bad arguments (size %zu, flags %#x)",
				    size, flags);
	mem = calloc(1, sizeof(*mem));
	if (!mem)
		return plugin_error(-ENOMEM, "out of memory for a buffer");
	res = zeMemAllocDevice(ctx->id, &desc, size, 64, ctx->device->id,
			       &mem->ptr);
	if (res != ZE_RESULT_SUCCESS) {
		free(mem);
		return lz_fail(res, "zeMemAllocDevice(%zu bytes on \"%s\")",
			       size, ctx->device->name);
	}
	mem->size = size;
	mem->ctx = ctx;
	*out = mem;
	return 0;
}

static void mem_release(struct devimg_plugin_mem *mem)
{
	if (!mem)
		return;
	lz_context_drain(mem->ctx);
	zeMemFree(mem->ctx->id, mem->ptr);
	free(mem);
}

static void fini(void)
{
	plugin_fini(lz_platforms_fini);
}

static const struct devimg_plugin_ops level_zero_ops = {
	.abi_version = DEVIMG_PLUGIN_ABI_VERSION,
	.size = sizeof(struct devimg_plugin_ops),
	.backend = "level_zero",
	.last_error = plugin_last_error,
	.fini = fini,
	.platform_list = lz_platform_list,
	.platform_info = plugin_platform_info,
	.device_list = plugin_device_list,
	.device_info = plugin_device_info,
	.context_create = context_create,
	.context_release = context_release,
	.queue_create = lz_queue_create,
	.queue_finish = lz_queue_finish,
	.queue_release = lz_queue_release,
	.mem_create = mem_create,
	.mem_write = lz_mem_write,
	.mem_read = lz_mem_read,
	.mem_release = mem_release,
	.program_create_il = lz_program_create_il,
	.program_create_binary = lz_program_create_binary,
	.program_set_spec_const = lz_program_set_spec_const,
	.program_build = lz_program_build,
	.program_build_log = lz_program_build_log,
	.program_binary = lz_program_binary,
	.program_release = lz_program_release,
	.kernel_create = lz_kernel_create,
	.kernel_arg_count = lz_kernel_arg_count,
	.kernel_set_arg_value = lz_kernel_set_arg_value,
	.kernel_set_arg_mem = lz_kernel_set_arg_mem,
	.kernel_set_arg_local = lz_kernel_set_arg_local,
	.kernel_release = lz_kernel_release,
	.launch = lz_launch,
	.program_compile = lz_program_compile,
	.program_link = lz_program_link,
	.global_info = lz_global_info,
	.global_write = lz_global_write,
	.global_read = lz_global_read,
	.mem_address = lz_mem_address,
};

DEVIMG_PLUGIN_EXPORT int devimg_plugin_init(unsigned abi_version,
					    struct devimg_plugin_ops *ops)
{
	int rc = plugin_init(abi_version, ops, &level_zero_ops,
			     lz_platforms_init);

	if (rc == 0 && lz_platforms_none()[0])
		plugin_error(0, "%s", lz_platforms_none());
	return rc;
}
