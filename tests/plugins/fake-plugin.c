// SPDX-License-Identifier: MIT
/*
 * A plugin of no vendor API, in the way DEVIMG_TEST_FAKE says:
 *   fail (or unset)  init fails with -ENODEV and a message
 *   abi              init claims ABI version 99
 *   partial          init succeeds with operations missing
 *   device           a whole table: one platform, one CPU device
 *                    "devimg fake device"; programs are made of SPIR-V
 *                    but never built
 *   short            the same, its size the minimum
 *                    (DEVIMG_PLUGIN_OPS_MIN_SIZE): no optional operation,
 *                    though the bytes past that size hold them
 *   tiny             the same, its table stopping before launch
 * Built in the tree against plugins/devimg_plugin.h, and by
 * tests/pkg/plugin-sdk.sh out of the tree against the installed header
 * (DEVIMG_FAKE_INSTALLED).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef DEVIMG_FAKE_INSTALLED
#include <devimg/devimg_plugin.h>
#else
#include "devimg_plugin.h"
#endif

/* Handles are the addresses of these; nothing is ever allocated. */
static char platform, device, context, queue, program;

static const struct devimg_plugin_platform_info platform_info = {
	.size = sizeof(platform_info),
	.name = "devimg fake platform",
	.vendor = "devimg",
	.version = "1",
};

static const struct devimg_plugin_device_info device_info = {
	.size = sizeof(device_info),
	.name = "devimg fake device",
	.vendor = "devimg",
	.version = "1",
	.driver_version = "1",
	.backend = "fake",
	.platform = (struct devimg_plugin_platform *)&platform,
	.type = DEVIMG_PLUGIN_DEVICE_CPU,
	.formats = DEVIMG_PLUGIN_FORMAT_SPIRV,
	.max_compute_units = 1,
	.max_work_group_size = 1,
	.max_work_item_sizes = { 1, 1, 1 },
	.address_bits = 64,
};

static const char *message = "";

static const char *fake_last_error(void)
{
	return message;
}

static int fake_error(const char *op)
{
	message = op;
	return -ENOTSUP;
}

static void fake_fini(void)
{
}

static int fake_platform_list(unsigned capacity,
			      struct devimg_plugin_platform **platforms,
			      unsigned *count)
{
	if (capacity)
		platforms[0] = (struct devimg_plugin_platform *)&platform;
	*count = 1;
	return 0;
}

static const struct devimg_plugin_platform_info *fake_platform_info(
	struct devimg_plugin_platform *pl)
{
	(void)pl;
	return &platform_info;
}

static int fake_device_list(struct devimg_plugin_platform *pl,
			    unsigned capacity,
			    struct devimg_plugin_device **devices,
			    unsigned *count)
{
	(void)pl;
	*count = 1;
	if (capacity)
		devices[0] = (struct devimg_plugin_device *)&device;
	return 0;
}

static const struct devimg_plugin_device_info *fake_device_info(
	struct devimg_plugin_device *dev)
{
	(void)dev;
	return &device_info;
}

static int fake_context_create(unsigned n,
			       struct devimg_plugin_device *const *devices,
			       struct devimg_plugin_context **out)
{
	(void)n;
	(void)devices;
	*out = (struct devimg_plugin_context *)&context;
	return 0;
}

static int fake_queue_create(struct devimg_plugin_context *ctx,
			     struct devimg_plugin_device *dev,
			     struct devimg_plugin_queue **out)
{
	(void)ctx;
	(void)dev;
	*out = (struct devimg_plugin_queue *)&queue;
	return 0;
}

static int fake_queue_finish(struct devimg_plugin_queue *q)
{
	(void)q;
	return 0;
}

/* A program of any SPIR-V, so that what comes after can be reached. */
static int fake_program_create_il(struct devimg_plugin_context *ctx,
				  struct devimg_plugin_device *dev,
				  const void *il, size_t size,
				  struct devimg_plugin_program **out)
{
	(void)ctx;
	(void)dev;
	(void)il;
	(void)size;
	*out = (struct devimg_plugin_program *)&program;
	return 0;
}

/* Releases of handles that are never allocated. */
#define FAKE_RELEASE(name, type)            \
	static void fake_##name(type *h)    \
	{                                   \
		(void)h;                    \
	}
FAKE_RELEASE(context_release, struct devimg_plugin_context)
FAKE_RELEASE(queue_release, struct devimg_plugin_queue)
FAKE_RELEASE(mem_release, struct devimg_plugin_mem)
FAKE_RELEASE(program_release, struct devimg_plugin_program)
FAKE_RELEASE(kernel_release, struct devimg_plugin_kernel)
#undef FAKE_RELEASE

/*
 * Everything else fails as a backend that cannot do it: -ENOTSUP and a
 * message naming the operation, its arguments unused.
 */
#define FAKE_NOTSUP(name, params)               \
	static int fake_##name params           \
	{                                       \
		return fake_error("fake: no " #name); \
	}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
FAKE_NOTSUP(mem_create, (struct devimg_plugin_context *ctx, unsigned flags,
			 size_t size, struct devimg_plugin_mem **out))
FAKE_NOTSUP(mem_write, (struct devimg_plugin_queue *q,
			struct devimg_plugin_mem *mem, int blocking,
			size_t offset, size_t n, const void *src))
FAKE_NOTSUP(mem_read, (struct devimg_plugin_queue *q,
		       struct devimg_plugin_mem *mem, int blocking,
		       size_t offset, size_t n, void *dst))
FAKE_NOTSUP(program_create_binary, (struct devimg_plugin_context *ctx,
				    struct devimg_plugin_device *dev,
				    enum devimg_plugin_binary_kind kind,
				    const void *binary, size_t size,
				    struct devimg_plugin_program **out))
FAKE_NOTSUP(program_set_spec_const, (struct devimg_plugin_program *prog,
				     uint32_t id, size_t size,
				     const void *value))
FAKE_NOTSUP(program_build, (struct devimg_plugin_program *prog,
			    const char *options))
FAKE_NOTSUP(program_build_log, (struct devimg_plugin_program *prog,
				char *buf, size_t capacity, size_t *len))
FAKE_NOTSUP(program_binary, (struct devimg_plugin_program *prog, void *buf,
			     size_t capacity, size_t *len))
FAKE_NOTSUP(program_compile, (struct devimg_plugin_program *prog,
			      const char *options))
FAKE_NOTSUP(program_link, (struct devimg_plugin_context *ctx,
			   struct devimg_plugin_device *dev, unsigned n,
			   struct devimg_plugin_program *const *progs,
			   const char *options,
			   struct devimg_plugin_program **out))
FAKE_NOTSUP(kernel_create, (struct devimg_plugin_program *prog,
			    const char *name,
			    struct devimg_plugin_kernel **out))
FAKE_NOTSUP(kernel_arg_count, (struct devimg_plugin_kernel *k,
			       unsigned *count))
FAKE_NOTSUP(kernel_set_arg_value, (struct devimg_plugin_kernel *k,
				   unsigned index, size_t size,
				   const void *value))
FAKE_NOTSUP(kernel_set_arg_mem, (struct devimg_plugin_kernel *k,
				 unsigned index,
				 struct devimg_plugin_mem *mem))
FAKE_NOTSUP(kernel_set_arg_local, (struct devimg_plugin_kernel *k,
				   unsigned index, size_t size))
FAKE_NOTSUP(launch, (struct devimg_plugin_queue *q,
		     struct devimg_plugin_kernel *k, unsigned dims,
		     const size_t *global_offset, const size_t *global_size,
		     const size_t *local_size))
#pragma GCC diagnostic pop
#undef FAKE_NOTSUP

static const struct devimg_plugin_ops fake_ops = {
	.abi_version = DEVIMG_PLUGIN_ABI_VERSION,
	.size = sizeof(struct devimg_plugin_ops),
	.backend = "fake",
	.last_error = fake_last_error,
	.fini = fake_fini,
	.platform_list = fake_platform_list,
	.platform_info = fake_platform_info,
	.device_list = fake_device_list,
	.device_info = fake_device_info,
	.context_create = fake_context_create,
	.context_release = fake_context_release,
	.queue_create = fake_queue_create,
	.queue_finish = fake_queue_finish,
	.queue_release = fake_queue_release,
	.mem_create = fake_mem_create,
	.mem_write = fake_mem_write,
	.mem_read = fake_mem_read,
	.mem_release = fake_mem_release,
	.program_create_il = fake_program_create_il,
	.program_create_binary = fake_program_create_binary,
	.program_set_spec_const = fake_program_set_spec_const,
	.program_build = fake_program_build,
	.program_build_log = fake_program_build_log,
	.program_binary = fake_program_binary,
	.program_release = fake_program_release,
	.kernel_create = fake_kernel_create,
	.kernel_arg_count = fake_kernel_arg_count,
	.kernel_set_arg_value = fake_kernel_set_arg_value,
	.kernel_set_arg_mem = fake_kernel_set_arg_mem,
	.kernel_set_arg_local = fake_kernel_set_arg_local,
	.kernel_release = fake_kernel_release,
	.launch = fake_launch,
	.program_compile = fake_program_compile,
	.program_link = fake_program_link,
};

/* The handshake, the table cut to size bytes; copy bytes copied. */
static int install(unsigned abi_version, struct devimg_plugin_ops *ops,
		   size_t copy, size_t size)
{
	if (abi_version != DEVIMG_PLUGIN_ABI_VERSION || ops->size < copy)
		return -EPROTO;
	memcpy(ops, &fake_ops, copy);
	ops->size = size;
	return 0;
}

DEVIMG_PLUGIN_EXPORT int devimg_plugin_init(unsigned abi_version,
					    struct devimg_plugin_ops *ops)
{
	const char *mode = getenv("DEVIMG_TEST_FAKE");

	if (abi_version != DEVIMG_PLUGIN_ABI_VERSION)
		return -EPROTO;
	if (mode && !strcmp(mode, "device"))
		return install(abi_version, ops, sizeof(*ops), sizeof(*ops));
	if (mode && !strcmp(mode, "short"))
		return install(abi_version, ops, sizeof(*ops),
			       DEVIMG_PLUGIN_OPS_MIN_SIZE);
	if (mode && !strcmp(mode, "tiny"))
		return install(abi_version, ops,
			       offsetof(struct devimg_plugin_ops, launch),
			       offsetof(struct devimg_plugin_ops, launch));
	ops->backend = "fake";
	ops->last_error = fake_last_error;
	ops->fini = fake_fini;
	if (mode && !strcmp(mode, "abi")) {
		ops->abi_version = 99;
		return 0;
	}
	if (mode && !strcmp(mode, "partial"))
		return 0;
	message = "fake vendor library reports no devices";
	return -ENODEV;
}
