// SPDX-License-Identifier: MIT
/*
 * The CUDA driver, opened at run time: libcuda.so.1 (or the file
 * DEVIMG_CUDA_DRIVER names) and its entry points, and the one helper every
 * operation that touches a context uses.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/cuda/cuda-plugin.h"

struct cu_driver cu;

bool cu_driver_loaded(void)
{
	return cu.handle != NULL;
}

static const char *driver_file(void)
{
	const char *file = secure_getenv("DEVIMG_CUDA_DRIVER");

	return file && file[0] ? file : CU_DRIVER_SONAME;
}

/*
 * Look up one entry point into *sym. A required one that is missing makes
 * the whole driver unusable; an optional one stays NULL.
 */
static int resolve(void *handle, const char *file, const char *symbol,
		   void **sym, bool required)
{
	const char *why;

	dlerror();
	*sym = dlsym(handle, symbol);
	if (*sym || !required)
		return 0;
	why = dlerror();
	return plugin_error(-ENODEV, "%s has no %s (%s): a CUDA driver of 11.0 or newer is needed",
			    file, symbol, why ? why : "NULL");
}

int cu_driver_open(void)
{
	const char *file = driver_file();
	struct cu_driver d = { 0 };
	const char *why;
	void *sym;
	int rc = 0;

	if (cu.handle)
		return 0;
	d.handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (!d.handle) {
		why = dlerror();
		return plugin_error(-ENODEV, "cannot load the CUDA driver %s: %s",
				    file, why ? why : "unknown reason");
	}
#define CU_RESOLVE(field, symbol, required)				\
	if (rc == 0 &&							\
	    (rc = resolve(d.handle, file, #symbol, &sym, required)) == 0) \
		d.field = (__typeof__(d.field))(uintptr_t)sym;
#define CU_REQUIRED(field, symbol, params) CU_RESOLVE(field, symbol, true)
#define CU_OPTIONAL(field, symbol, params) CU_RESOLVE(field, symbol, false)
	CU_REQUIRED_FUNCTIONS(CU_REQUIRED)
	CU_OPTIONAL_FUNCTIONS(CU_OPTIONAL)
#undef CU_REQUIRED
#undef CU_OPTIONAL
#undef CU_RESOLVE
	if (rc < 0) {
		dlclose(d.handle);
		return rc;
	}
	/*
	 * Kept open for the life of the process, like the plugin itself: the
	 * driver starts threads and registers exit handlers.
	 */
	cu = d;
	return 0;
}

_Thread_local CUcontext cu_known_current;

/*
 * cuCtxGetCurrent reads a thread-local; checking first keeps a call from
 * paying for a context switch it does not need.
 */
int cu_make_current(CUcontext ctx, const char *what)
{
	CUcontext cur = NULL;
	CUresult err;

	if (cu.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == ctx) {
		cu_known_current = ctx;
		return 0;
	}
	err = cu.cuCtxSetCurrent(ctx);
	if (err != CUDA_SUCCESS) {
		cu_known_current = NULL;
		return cu_fail(err, "cuCtxSetCurrent (for %s)", what);
	}
	cu_known_current = ctx;
	return 0;
}
