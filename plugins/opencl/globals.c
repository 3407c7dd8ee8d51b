// SPDX-License-Identifier: MIT
/*
 * Program variables (device globals): read and written through
 * cl_intel_global_variable_access, sized through
 * cl_intel_global_variable_pointers, Intel extensions that the Khronos
 * headers (Debian 12's and 13's) do not declare: their entry points are
 * declared here and looked up for the platform, at each call, when the
 * device lists the extension.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opencl.h"
#include "checked.h"

#define ACCESS_EXT "cl_intel_global_variable_access"
#define POINTERS_EXT "cl_intel_global_variable_pointers"
#define NO_ACCESS "its OpenCL driver cannot reach program variables"

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

/* Whether ext is one of the space-separated words of list. */
static bool extension_listed(const char *list, const char *ext)
{
	size_t n = strlen(ext), len;

	for (list += strspn(list, " "); *list; list += strspn(list, " ")) {
		len = strcspn(list, " ");
		if (len == n && memcmp(list, ext, n) == 0)
			return true;
		list += len;
	}
	return false;
}

/*
 * The entry point fn of extension ext on prog's device, or -ENOTSUP with
 * a message naming the device, the extension, what op needed it and
 * what lacking it means (why).
 */
static int extension_function(struct devimg_plugin_program *prog,
			      const char *ext, const char *fn, const char *op,
			      const char *name, const char *why, void **out)
{
	struct devimg_plugin_device *dev = prog->device;
	char *list = NULL;
	size_t size = 0;
	bool listed;
	cl_int err;

	err = clGetDeviceInfo(dev->id, CL_DEVICE_EXTENSIONS, 0, NULL, &size);
	if (err == CL_SUCCESS) {
		list = calloc(1, size + 1);
		if (!list)
			return plugin_error(-ENOMEM, "out of memory for extensions");
		err = clGetDeviceInfo(dev->id, CL_DEVICE_EXTENSIONS, size, list,
				      NULL);
	}
	if (err != CL_SUCCESS) {
		free(list);
		return ocl_fail(err, "clGetDeviceInfo(EXTENSIONS) of \"%s\"",
				dev->name);
	}
	listed = extension_listed(list, ext);
	free(list);
	*out = listed ? clGetExtensionFunctionAddressForPlatform(
				dev->info.platform->id, fn) : NULL;
	if (!listed)
		return plugin_error(-ENOTSUP,
				    "%s(\"%s\"): device \"%s\" does not offer %s: %s",
				    op, name, dev->name, ext, why);
	if (!*out)
		return plugin_error(-ENOTSUP,
				    "%s(\"%s\"): device \"%s\" lists %s but its driver has no %s",
				    op, name, dev->name, ext, fn);
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
	const char *call = write ? "clEnqueueWriteGlobalVariableINTEL" :
				   "clEnqueueReadGlobalVariableINTEL";
	cl_bool wait = blocking ? CL_TRUE : CL_FALSE;
	size_t end;
	void *addr;
	cl_int err;
	int rc;

	if (!q || !prog || !name || (n && !buf))
		return plugin_error(-EINVAL, "%s: NULL argument", op);
	if (size_add(off, n, &end))
		return plugin_error(-EINVAL,
				    "%s(\"%s\"): offset %zu + %zu bytes overflows",
				    op, name, off, n);
	rc = extension_function(prog, ACCESS_EXT, call, op, name, NO_ACCESS,
				&addr);
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
	void *addr, *ptr = NULL;
	size_t n = 0;
	cl_int err;
	int rc;

	if (!prog || !name || !size)
		return plugin_error(-EINVAL, "global_info: NULL argument");
	rc = extension_function(prog, POINTERS_EXT,
				"clGetDeviceGlobalVariablePointerINTEL",
				"global_info", name,
				"OpenCL cannot tell the size of a program variable there",
				&addr);
	if (rc < 0)
		return rc;
	fn = (ocl_global_pointer_fn)(uintptr_t)addr;
	err = fn(prog->device->id, prog->id, name, &n, &ptr);
	if (err != CL_SUCCESS) {
		rc = ocl_fail(err,
			      "clGetDeviceGlobalVariablePointerINTEL(\"%s\") on \"%s\"",
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
