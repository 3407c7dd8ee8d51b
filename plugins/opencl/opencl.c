// SPDX-License-Identifier: MIT
/*
 * The devimg OpenCL plugin: the entry point, its operation table, and the
 * operations that map one to one onto OpenCL calls (contexts, queues,
 * buffers, kernels, launches). Programs are in program.c, platforms and
 * devices in devices.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/opencl/opencl.h"
#include "plugins/common/listing.h"

static int context_create(unsigned n,
			  struct devimg_plugin_device *const *devices,
			  struct devimg_plugin_context **out)
{
	cl_context_properties props[3] = { CL_CONTEXT_PLATFORM, 0, 0 };
	struct devimg_plugin_platform *pl;
	cl_device_id *ids;
	cl_context ctx;
	cl_int err;
	unsigned i;

	if (!n || !devices || !devices[0] || !out)
		return plugin_error(-EINVAL, "context_create: no devices");
	pl = devices[0]->info.platform;
	ids = calloc(n, sizeof(*ids));
	if (!ids)
		return plugin_error(-ENOMEM, "out of memory for a context");
	for (i = 0; i < n; i++) {
		if (!devices[i] || devices[i]->info.platform != pl) {
			free(ids);
			return plugin_error(-EINVAL,
					    "context_create: device %u is not of platform \"%s\"",
					    i, pl->name);
		}
		ids[i] = devices[i]->id;
	}
	props[1] = (cl_context_properties)pl->id;
	ctx = clCreateContext(props, n, ids, NULL, NULL, &err);
	free(ids);
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clCreateContext(%u devices of \"%s\")", n,
				pl->name);
	*out = (struct devimg_plugin_context *)ctx;
	return 0;
}

static void context_release(struct devimg_plugin_context *ctx)
{
	if (ctx)
		clReleaseContext((cl_context)ctx);
}

static int queue_create(struct devimg_plugin_context *ctx,
			struct devimg_plugin_device *device,
			struct devimg_plugin_queue **out)
{
	cl_command_queue q;
	cl_int err;

	if (!ctx || !device || !out)
		return plugin_error(-EINVAL, "queue_create: NULL argument");
	q = clCreateCommandQueue((cl_context)ctx, device->id, 0, &err);
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clCreateCommandQueue(\"%s\")",
				device->name);
	*out = (struct devimg_plugin_queue *)q;
	return 0;
}

static int queue_finish(struct devimg_plugin_queue *q)
{
	cl_int err = clFinish((cl_command_queue)q);

	if (err != CL_SUCCESS)
		return ocl_fail(err, "clFinish");
	return 0;
}

static void queue_release(struct devimg_plugin_queue *q)
{
	if (q)
		clReleaseCommandQueue((cl_command_queue)q);
}

static int mem_create(struct devimg_plugin_context *ctx, unsigned flags,
		      size_t size, struct devimg_plugin_mem **out)
{
	cl_mem_flags cl_flags = CL_MEM_READ_WRITE;
	cl_int err;
	cl_mem mem;

	if (!ctx || !size || !out ||
	    flags & ~(DEVIMG_PLUGIN_MEM_READ_ONLY | DEVIMG_PLUGIN_MEM_WRITE_ONLY) ||
	    flags == (DEVIMG_PLUGIN_MEM_READ_ONLY | DEVIMG_PLUGIN_MEM_WRITE_ONLY))
		return plugin_error(-EINVAL,
				    "mem_create: bad arguments (size %zu, flags %#x)",
				    size, flags);
	if (flags & DEVIMG_PLUGIN_MEM_READ_ONLY)
		cl_flags = CL_MEM_READ_ONLY;
	else if (flags & DEVIMG_PLUGIN_MEM_WRITE_ONLY)
		cl_flags = CL_MEM_WRITE_ONLY;
	mem = clCreateBuffer((cl_context)ctx, cl_flags, size, NULL, &err);
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clCreateBuffer(%zu bytes)", size);
	*out = (struct devimg_plugin_mem *)mem;
	return 0;
}

static int mem_write(struct devimg_plugin_queue *q,
		     struct devimg_plugin_mem *mem, int blocking,
		     size_t offset, size_t n, const void *src)
{
	cl_int err;

	if (!q || !mem || (n && !src))
		return plugin_error(-EINVAL, "mem_write: NULL argument");
	err = clEnqueueWriteBuffer((cl_command_queue)q, (cl_mem)mem,
				   blocking ? CL_TRUE : CL_FALSE, offset, n,
				   src, 0, NULL, NULL);
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clEnqueueWriteBuffer(offset %zu, %zu bytes)",
				offset, n);
	return 0;
}

static int mem_read(struct devimg_plugin_queue *q,
		    struct devimg_plugin_mem *mem, int blocking,
		    size_t offset, size_t n, void *dst)
{
	cl_int err;

	if (!q || !mem || (n && !dst))
		return plugin_error(-EINVAL, "mem_read: NULL argument");
	err = clEnqueueReadBuffer((cl_command_queue)q, (cl_mem)mem,
				  blocking ? CL_TRUE : CL_FALSE, offset, n, dst,
				  0, NULL, NULL);
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clEnqueueReadBuffer(offset %zu, %zu bytes)",
				offset, n);
	return 0;
}

static void mem_release(struct devimg_plugin_mem *mem)
{
	if (mem)
		clReleaseMemObject((cl_mem)mem);
}

static int kernel_create(struct devimg_plugin_program *prog,
			 const char *name, struct devimg_plugin_kernel **out)
{
	cl_kernel k;
	cl_int err;

	if (!prog || !name || !out)
		return plugin_error(-EINVAL, "kernel_create: NULL argument");
	k = clCreateKernel(prog->id, name, &err);
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clCreateKernel(\"%s\") on \"%s\"", name,
				prog->device->name);
	*out = (struct devimg_plugin_kernel *)k;
	return 0;
}

static int kernel_arg_count(struct devimg_plugin_kernel *k, unsigned *count)
{
	cl_uint n;
	cl_int err;

	if (!k || !count)
		return plugin_error(-EINVAL, "kernel_arg_count: NULL argument");
	err = clGetKernelInfo((cl_kernel)k, CL_KERNEL_NUM_ARGS, sizeof(n), &n,
			      NULL);
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clGetKernelInfo(NUM_ARGS)");
	*count = n;
	return 0;
}

/* The kernel's name for messages; "?" when OpenCL cannot say. */
static const char *kernel_name(cl_kernel k, char *buf, size_t size)
{
	if (clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, size, buf, NULL) !=
	    CL_SUCCESS)
		snprintf(buf, size, "?");
	return buf;
}

static int set_arg(struct devimg_plugin_kernel *k, unsigned index,
		   size_t size, const void *value, const char *what)
{
	char name[128];
	cl_int err;

	if (!k)
		return plugin_error(-EINVAL, "kernel_set_arg: NULL kernel");
	err = clSetKernelArg((cl_kernel)k, index, size, value);
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clSetKernelArg(%s, argument %u, %s of %zu bytes)",
				kernel_name((cl_kernel)k, name, sizeof(name)),
				index, what, size);
	return 0;
}

static int kernel_set_arg_value(struct devimg_plugin_kernel *k,
				unsigned index, size_t size, const void *value)
{
	return set_arg(k, index, size, value, "value");
}

static int kernel_set_arg_mem(struct devimg_plugin_kernel *k, unsigned index,
			      struct devimg_plugin_mem *mem)
{
	cl_mem m = (cl_mem)mem;

	return set_arg(k, index, sizeof(m), &m, "buffer");
}

static int kernel_set_arg_local(struct devimg_plugin_kernel *k,
				unsigned index, size_t size)
{
	return set_arg(k, index, size, NULL, "local memory");
}

static void kernel_release(struct devimg_plugin_kernel *k)
{
	if (k)
		clReleaseKernel((cl_kernel)k);
}

static void format_range(char *buf, size_t size, unsigned dims,
			 const size_t *v)
{
	size_t used = 0;
	unsigned i;

	buf[0] = '\0';
	if (!v) {
		snprintf(buf, size, "NULL");
		return;
	}
	for (i = 0; i < dims && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%zu",
					 i ? "x" : "", v[i]);
}

/* A failed clEnqueueNDRangeKernel, said: out of the launch's way. */
static __attribute__((noinline, cold)) int
launch_failed(cl_int err, struct devimg_plugin_kernel *k, unsigned dims,
	      const size_t *global_offset, const size_t *global_size,
	      const size_t *local_size)
{
	char name[128], off[64], glob[64], loc[64];

	format_range(off, sizeof(off), dims, global_offset);
	format_range(glob, sizeof(glob), dims, global_size);
	format_range(loc, sizeof(loc), dims, local_size);
	return ocl_fail(err,
			"clEnqueueNDRangeKernel(%s, offset %s, global %s, local %s)",
			kernel_name((cl_kernel)k, name, sizeof(name)), off, glob,
			loc);
}

static int launch(struct devimg_plugin_queue *q, struct devimg_plugin_kernel *k,
		  unsigned dims, const size_t *global_offset,
		  const size_t *global_size, const size_t *local_size)
{
	cl_int err;

	if (!q || !k || !global_size || dims < 1 || dims > 3)
		return plugin_error(-EINVAL, "launch: NULL argument or %u dimensions",
				    dims);
	err = clEnqueueNDRangeKernel((cl_command_queue)q, (cl_kernel)k, dims,
				     global_offset, global_size, local_size, 0,
				     NULL, NULL);
	if (err == CL_SUCCESS)
		return 0;
	return launch_failed(err, k, dims, global_offset, global_size,
			     local_size);
}

static void fini(void)
{
	plugin_fini(ocl_platforms_fini);
}

static const struct devimg_plugin_ops opencl_ops = {
	.abi_version = DEVIMG_PLUGIN_ABI_VERSION,
	.size = sizeof(struct devimg_plugin_ops),
	.backend = "opencl",
	.last_error = plugin_last_error,
	.fini = fini,
	.platform_list = ocl_platform_list,
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
	.program_create_il = ocl_program_create_il,
	.program_create_binary = ocl_program_create_binary,
	.program_set_spec_const = ocl_program_set_spec_const,
	.program_build = ocl_program_build,
	.program_build_log = ocl_program_build_log,
	.program_binary = ocl_program_binary,
	.program_release = ocl_program_release,
	.kernel_create = kernel_create,
	.kernel_arg_count = kernel_arg_count,
	.kernel_set_arg_value = kernel_set_arg_value,
	.kernel_set_arg_mem = kernel_set_arg_mem,
	.kernel_set_arg_local = kernel_set_arg_local,
	.kernel_release = kernel_release,
	.launch = launch,
	.program_compile = ocl_program_compile,
	.program_link = ocl_program_link,
	.global_info = ocl_global_info,
	.global_write = ocl_global_write,
	.global_read = ocl_global_read,
	.mem_address = ocl_mem_address,
};

DEVIMG_PLUGIN_EXPORT int devimg_plugin_init(unsigned abi_version,
					    struct devimg_plugin_ops *ops)
{
	const char *vendors = getenv("OCL_ICD_VENDORS");
	unsigned n = 0;
	int rc;

	rc = plugin_init(abi_version, ops, &opencl_ops, ocl_platforms_init);
	/* Say where the ICD loader looked: the loader puts it in its account. */
	if (rc == 0 && ocl_platform_list(0, NULL, &n) == 0 && n == 0)
		plugin_error(0, "the ICD loader found no driver in %s%s",
			     vendors ? vendors : "/etc/OpenCL/vendors",
			     vendors ? " (OCL_ICD_VENDORS)" : "");
	return rc;
}
