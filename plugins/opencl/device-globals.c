// SPDX-License-Identifier: MIT
/*
 * Program variables (device globals): read and written through
 * cl_intel_global_variable_access, sized through
 * cl_intel_global_variable_pointers, Intel extensions that the Khronos
 * headers (Debian 12's and 13's) do not declare: their entry points are
 * declared here and looked up for the platform once, when the device is
 * found, if it lists the extension.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/opencl/opencl.h"
#include "util/checked.h"

#define ACCESS_EXT "cl_intel_global_variable_access"
#define POINTERS_EXT "cl_intel_global_variable_pointers"
#define NO_ACCESS "its OpenCL driver cannot reach program variables"
#define WRITE_FN "clEnqueueWriteGlobalVariableINTEL"
#define READ_FN "clEnqueueReadGlobalVariableINTEL"
#define POINTER_FN "clGetDeviceGlobalVariablePointerINTEL"

/* cl_intel_global_variable_access */
typedef cl_int (CL_API_CALL *ocl_write_global_fn)(
	cl_command_queue queue, cl_program program, const char *name,
	cl_bool blocking, size_t size, size_t offset, const void *ptr,
	cl_uint nevents, const cl_event *events, cl_event *event);
typedef cl_int (CL_API_CALL *ocl_read_global_fn)(
	cl_command_queue queue, cl_program program, const char *name,
	cl_bool blocking, size_t size, size_t offset, void *ptr,
	cl_uint nevents, const cl_event *events, cl_event *event);
/* cl_intel_global_variable_pointers */
typedef cl_int (CL_API_CALL *ocl_global_pointer_fn)(
	cl_device_id device, cl_program program, const char *name,
	size_t *size, void **ptr);

void ocl_globals_find(struct devimg_plugin_device *dev,
		      cl_platform_id platform, const char *extensions)
{
	dev->access_listed = ocl_has_word(extensions, ACCESS_EXT);
	dev->pointers_listed = ocl_has_word(extensions, POINTERS_EXT);
	if (dev->access_listed) {
		dev->write_global = clGetExtensionFunctionAddressForPlatform(
			platform, WRITE_FN);
		dev->read_global = clGetExtensionFunctionAddressForPlatform(
			platform, READ_FN);
	}
	if (dev->pointers_listed)
		dev->global_pointer = clGetExtensionFunctionAddressForPlatform(
			platform, POINTER_FN);
}

/*
 * The entry point fn (found: *out, from ocl_globals_find()) of extension
 * ext (listed) on prog's device, or -ENOTSUP with a message naming the
 * device, the extension, what op needed it and what lacking it means
 * (why).
 */
static int extension_function(struct devimg_plugin_program *prog,
			      bool listed, const char *ext, const char *fn,
			      void *found, const char *op, const char *name,
			      const char *why, void **out)
{
	struct devimg_plugin_device *dev = prog->device;

	if (!listed)
		return plugin_error(-ENOTSUP,
				    "%s(\"%s\"): device \"%s\" does not offer %s: %s",
				    op, name, dev->name, ext, why);
	if (!found)
		return plugin_error(-ENOTSUP,
				    "%s(\"%s\"): device \"%s\" lists %s but its driver has no %s",
				    op, name, dev->name, ext, fn);
	*out = found;
	return 0;
}

/*
 * The message and errno value of a failed variable access: what the
 * extension's errors mean for a variable, else ocl_fail()'s.
 */
static int access_failed(cl_int err, const char *call, const char *name,
			 size_t off, size_t n,
			 const struct devimg_plugin_program *prog)
{
	int rc = ocl_fail(err, "%s(\"%s\", offset %zu, %zu bytes) on \"%s\"",
			  call, name, off, n, prog->device->name);

	switch (err) {
	case CL_INVALID_ARG_VALUE:	/* no variable of that name */
		return -ENOENT;
	case CL_INVALID_VALUE:		/* the range passes its end */
		return -EINVAL;
	case CL_INVALID_OPERATION:	/* HostAccessINTEL forbids it */
		return -EACCES;
	default:
		return rc;
	}
}

/*
 * Enqueue a copy of n bytes between buf and the variable name of prog at
 * offset off: into it (write) or out of it.
 */
static int global_copy(struct devimg_plugin_queue *q,
		       struct devimg_plugin_program *prog, const char *name,
		       size_t off, size_t n, void *buf, int blocking,
		       bool write)
{
	const char *op = write ? "global_write" : "global_read";
	struct devimg_plugin_device *dev;
	const char *call = write ? WRITE_FN : READ_FN;
	cl_bool wait = blocking ? CL_TRUE : CL_FALSE;
	size_t end;
	void *addr = NULL;
	cl_int err;
	int rc;

	if (!q || !prog || !name || (n && !buf))
		return plugin_error(-EINVAL, "%s: NULL argument", op);
	if (size_add(off, n, &end))
		return plugin_error(-EINVAL,
				    "%s(\"%s\"): offset %zu + %zu bytes overflows",
				    op, name, off, n);
	dev = prog->device;
	rc = extension_function(prog, dev->access_listed, ACCESS_EXT, call,
				write ? dev->write_global : dev->read_global,
				op, name, NO_ACCESS, &addr);
	/* Nothing to copy: the extension leaves size 0 undefined. */
	if (rc < 0 || n == 0)
		return rc;
	if (write)
		err = ((ocl_write_global_fn)(uintptr_t)addr)(
			(cl_command_queue)q, prog->id, name, wait, n, off, buf,
			0, NULL, NULL);
	else
		err = ((ocl_read_global_fn)(uintptr_t)addr)(
			(cl_command_queue)q, prog->id, name, wait, n, off, buf,
			0, NULL, NULL);
	if (err != CL_SUCCESS)
		return access_failed(err, call, name, off, n, prog);
	return 0;
}

int ocl_global_write(struct devimg_plugin_queue *q,
		     struct devimg_plugin_program *prog, const char *name,
		     size_t off, size_t n, const void *src, int blocking)
{
	return global_copy(q, prog, name, off, n, (void *)(uintptr_t)src,
			   blocking, true);
}

int ocl_global_read(struct devimg_plugin_queue *q,
		    struct devimg_plugin_program *prog, const char *name,
		    size_t off, size_t n, void *dst, int blocking)
{
	return global_copy(q, prog, name, off, n, dst, blocking, false);
}

/*
 * cl_intel_global_variable_access has no size query; the pointers
 * extension (with its USM) gives the size with the variable's address.
 */
int ocl_global_info(struct devimg_plugin_program *prog, const char *name,
		    size_t *size)
{
	ocl_global_pointer_fn fn;
	void *addr = NULL, *ptr = NULL;
	size_t n = 0;
	cl_int err;
	int rc;

	if (!prog || !name || !size)
		return plugin_error(-EINVAL, "global_info: NULL argument");
	rc = extension_function(prog, prog->device->pointers_listed,
				POINTERS_EXT, POINTER_FN,
				prog->device->global_pointer, "global_info",
				name,
				"OpenCL cannot tell the size of a program variable there",
				&addr);
	if (rc < 0)
		return rc;
	fn = (ocl_global_pointer_fn)(uintptr_t)addr;
	err = fn(prog->device->id, prog->id, name, &n, &ptr);
	if (err != CL_SUCCESS) {
		rc = ocl_fail(err,
			      POINTER_FN "(\"%s\") on \"%s\"",
			      name, prog->device->name);
		return err == CL_INVALID_ARG_VALUE ? -ENOENT : rc;
	}
	*size = n;
	return 0;
}

int ocl_mem_address(struct devimg_plugin_mem *mem, uint64_t *addr)
{
	(void)mem;
	(void)addr;
	return plugin_error(-ENOTSUP,
			    "mem_address: an OpenCL buffer (cl_mem) has no device address the host may know");
}
