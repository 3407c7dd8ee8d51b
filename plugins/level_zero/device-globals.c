// SPDX-License-Identifier: MIT
/*
 * Device globals (sycl_ext_oneapi_device_global): a variable of a built
 * program is a global of one of its modules, which
 * zeModuleGetGlobalPointer gives by the name the SPIR-V's HostAccessINTEL
 * decoration (or its export) gives it, as a device pointer and a size;
 * reads and writes are copies appended to the queue's command list, in
 * order with its launches. A global without image scope holds the
 * address of a buffer, which mem_address gives: an allocation's device
 * pointer is the one a kernel sees.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "plugins/level_zero/level_zero.h"
#include "plugins/common/plugin-globals.h"

/*
 * Drivers say "no such global" with ZE_RESULT_ERROR_INVALID_GLOBAL_NAME,
 * as the specification has it, or, before that, with
 * ZE_RESULT_ERROR_INVALID_ARGUMENT.
 */
static bool unknown_global(ze_result_t res)
{
	return res == ZE_RESULT_ERROR_INVALID_GLOBAL_NAME ||
	       res == ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

/*
 * The device pointer and size of the variable name in the first of prog's
 * modules that has it: -ENOENT when none has, the message naming it.
 */
static int lookup(struct devimg_plugin_program *prog, const char *name,
		  const char *op, void **ptr, size_t *size)
{
	ze_result_t res = ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
	unsigned i;
	int rc;

	if (!prog || !name)
		return plugin_error(-EINVAL, "%s: NULL argument", op);
	if (prog->state != LZ_PROGRAM_BUILT && prog->state != LZ_PROGRAM_LINKED)
		return plugin_error(-EINVAL, "%s(\"%s\"): the program is not built",
				    op, name);
	for (i = 0; i < prog->nmodules; i++) {
		*size = 0;
		*ptr = NULL;
		res = zeModuleGetGlobalPointer(prog->modules[i]->id, name,
					       size, ptr);
		if (!unknown_global(res))
			break;
	}
	if (res == ZE_RESULT_SUCCESS)
		return 0;
	rc = lz_fail(res, "%s: zeModuleGetGlobalPointer(\"%s\") on \"%s\"%s",
		     op, name, prog->device->name,
		     prog->nmodules > 1 ? ", in each linked module" : "");
	return unknown_global(res) ? -ENOENT : rc;
}

int lz_global_info(struct devimg_plugin_program *prog, const char *name,
		   size_t *size)
{
	void *ptr;

	if (!size)
		return plugin_error(-EINVAL, "global_info: NULL argument");
	return lookup(prog, name, "global_info", &ptr, size);
}

/*
 * Copy between the host and bytes off..off+n of the variable: from src,
 * or into dst; checked against its size and q's device.
 */
static int transfer(struct devimg_plugin_queue *q,
		    struct devimg_plugin_program *prog, const char *name,
		    size_t off, size_t n, void *dst, const void *src,
		    int blocking, const char *op)
{
	char what[160];
	size_t size;
	void *ptr;
	int rc;

	if (!q || (n && !dst && !src))
		return plugin_error(-EINVAL, "%s: NULL argument", op);
	rc = lookup(prog, name, op, &ptr, &size);
	if (rc < 0)
		return rc;
	if (q->ctx != prog->ctx || q->device != prog->device)
		return plugin_error(-EINVAL, "%s(\"%s\"): the queue is on \"%s\", the program on \"%s\"",
				    op, name, q->device->name,
				    prog->device->name);
	rc = plugin_global_range(op, name, off, n, size);
	if (rc < 0 || n == 0)
		return rc;
	snprintf(what, sizeof(what), "%s variable \"%s\"",
		 dst ? "from" : "to", name);
	if (dst)
		return lz_queue_copy(q, dst, (const char *)ptr + off, n,
				     blocking, what, off);
	return lz_queue_copy(q, (char *)ptr + off, src, n, blocking, what,
			     off);
}

PLUGIN_GLOBAL_COPIES(lz, transfer)

int lz_mem_address(struct devimg_plugin_mem *mem, uint64_t *addr)
{
	return plugin_mem_address(mem, mem ? (uintptr_t)mem->ptr : 0, addr);
}
