// SPDX-License-Identifier: MIT
/*
 * Device globals (sycl_ext_oneapi_device_global): a variable of a built
 * program is the module's global of that name, which cuModuleGetGlobal
 * gives as a device address and a size; reads and writes are copies on
 * the queue's stream, in order with its launches. A global without image
 * scope holds the address of a buffer, which mem_address gives: a
 * CUdeviceptr is the pointer a kernel sees.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "plugins/cuda/cuda-plugin.h"
#include "plugins/common/plugin-globals.h"

/*
 * The device address and size of the variable name of prog: -ENOENT when
 * the module has none (CUDA_ERROR_NOT_FOUND), the message naming it.
 */
static int lookup(struct devimg_plugin_program *prog, const char *name,
		  const char *op, CUdeviceptr *ptr, size_t *size)
{
	CUresult err;
	int rc;

	if (!prog || !name)
		return plugin_error(-EINVAL, "%s: NULL argument", op);
	if (!prog->module)
		return plugin_error(-EINVAL, "%s(\"%s\"): the program is not built",
				    op, name);
	rc = cu_make_current(prog->ctx, op);
	if (rc < 0)
		return rc;
	err = cu.cuModuleGetGlobal(ptr, size, prog->module, name);
	if (err != CUDA_SUCCESS)
		return cu_fail(err, "%s: cuModuleGetGlobal(\"%s\") on \"%s\"",
			       op, name, prog->device->name);
	return 0;
}

int cu_global_info(struct devimg_plugin_program *prog, const char *name,
		   size_t *size)
{
	CUdeviceptr ptr;

	if (!size)
		return plugin_error(-EINVAL, "global_info: NULL argument");
	return lookup(prog, name, "global_info", &ptr, size);
}

/* The address of bytes off..off+n of the variable, checked; q's device. */
static int place(struct devimg_plugin_queue *q,
		 struct devimg_plugin_program *prog, const char *name,
		 size_t off, size_t n, const void *host, const char *op,
		 CUdeviceptr *at)
{
	CUdeviceptr ptr;
	size_t size;
	int rc;

	if (!q || (n && !host))
		return plugin_error(-EINVAL, "%s: NULL argument", op);
	rc = lookup(prog, name, op, &ptr, &size);
	if (rc < 0)
		return rc;
	if (q->ctx != prog->ctx)
		return plugin_error(-EINVAL, "%s(\"%s\"): the queue is on \"%s\", the program on \"%s\"",
				    op, name, q->device->name,
				    prog->device->name);
	rc = plugin_global_range(op, name, off, n, size);
	*at = ptr + off;
	return rc;
}

/* Copy between the host and the variable: from src, or into dst. */
static int transfer(struct devimg_plugin_queue *q,
		    struct devimg_plugin_program *prog, const char *name,
		    size_t off, size_t n, void *dst, const void *src,
		    int blocking, const char *op)
{
	CUdeviceptr at = 0;
	char what[160];
	int rc = place(q, prog, name, off, n, dst ? dst : src, op, &at);

	if (rc < 0 || n == 0)
		return rc;
	snprintf(what, sizeof(what), "variable \"%s\", ", name);
	return cu_copy(q, at, dst, src, n, blocking, what, off);
}

PLUGIN_GLOBAL_COPIES(cu, transfer)

int cu_mem_address(struct devimg_plugin_mem *mem, uint64_t *addr)
{
	return plugin_mem_address(mem, mem ? mem->ptr : 0, addr);
}
