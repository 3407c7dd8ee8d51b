// SPDX-License-Identifier: MIT
/*
 * bench-first-result, raw CUDA side: from process start to one kernel's
 * result through the CUDA driver API alone.
 *
 * Usage: first-result-cuda PTX. PTX holds `.entry first(.param .u64)`,
 * which stores 42 at the pointer it is given: the module the devimg side
 * carries. Opens the driver (libcuda.so.1, or the file DEVIMG_CUDA_DRIVER
 * names, as the CUDA plugin does, so that the recording driver of the
 * tests stands in for it), looks up the entry points it calls by their
 * exported names (plugins/cuda/driver.h declares them: no CUDA toolkit
 * needed), then cuInit, device 0, its primary context, a stream
 * (CU_STREAM_NON_BLOCKING, as the plugin makes its queues),
 * cuModuleLoadDataEx of the PTX, cuModuleGetFunction, cuMemAlloc, one
 * launch of one thread, a copy back and a synchronize, and checks the
 * value. Prints "first-result: raw cuda: 42". Exits 77, after one line
 * that says why, without a CUDA driver or device; 2 when the value read
 * back is not 42; 1 on other errors.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/cuda/driver.h"
#include "bench/first-result.h"

/* The entry points this program calls, and nothing else. */
struct cu {
	CUresult (*init)(unsigned int);
	CUresult (*device_get)(CUdevice *, int);
	CUresult (*ctx_retain)(CUcontext *, CUdevice);
	CUresult (*ctx_release)(CUdevice);
	CUresult (*ctx_set)(CUcontext);
	CUresult (*module_load)(CUmodule *, const void *, unsigned int, int *,
				void **);
	CUresult (*module_unload)(CUmodule);
	CUresult (*get_function)(CUfunction *, CUmodule, const char *);
	CUresult (*mem_alloc)(CUdeviceptr *, size_t);
	CUresult (*mem_free)(CUdeviceptr);
	CUresult (*launch)(CUfunction, unsigned int, unsigned int,
			   unsigned int, unsigned int, unsigned int,
			   unsigned int, unsigned int, CUstream, void **,
			   void **);
	CUresult (*copy_back)(void *, CUdeviceptr, size_t, CUstream);
	CUresult (*stream_create)(CUstream *, unsigned int);
	CUresult (*stream_destroy)(CUstream);
	CUresult (*sync)(CUstream);
};

/* Fill cu from the driver at handle; the name of a missing symbol or NULL. */
static const char *resolve(void *handle, struct cu *cu)
{
	const struct {
		const char *name;
		size_t off;
	} sym[] = {
		{ "cuInit", offsetof(struct cu, init) },
		{ "cuDeviceGet", offsetof(struct cu, device_get) },
		{ "cuDevicePrimaryCtxRetain", offsetof(struct cu, ctx_retain) },
		{ "cuDevicePrimaryCtxRelease_v2",
		  offsetof(struct cu, ctx_release) },
		{ "cuCtxSetCurrent", offsetof(struct cu, ctx_set) },
		{ "cuModuleLoadDataEx", offsetof(struct cu, module_load) },
		{ "cuModuleUnload", offsetof(struct cu, module_unload) },
		{ "cuModuleGetFunction", offsetof(struct cu, get_function) },
		{ "cuMemAlloc_v2", offsetof(struct cu, mem_alloc) },
		{ "cuMemFree_v2", offsetof(struct cu, mem_free) },
		{ "cuLaunchKernel", offsetof(struct cu, launch) },
		{ "cuMemcpyDtoHAsync_v2", offsetof(struct cu, copy_back) },
		{ "cuStreamCreate", offsetof(struct cu, stream_create) },
		{ "cuStreamDestroy_v2", offsetof(struct cu, stream_destroy) },
		{ "cuStreamSynchronize", offsetof(struct cu, sync) },
	};
	size_t i;

	for (i = 0; i < sizeof(sym) / sizeof(sym[0]); i++) {
		void *p = dlsym(handle, sym[i].name);

		if (!p)
			return sym[i].name;
		memcpy((char *)cu + sym[i].off, &p, sizeof(p));
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *file = getenv("DEVIMG_CUDA_DRIVER"), *missing, *step;
	struct cu cu;
	CUdevice dev;
	CUcontext cx = NULL;
	CUmodule mod = NULL;
	CUstream stream = NULL;
	CUfunction fn;
	CUdeviceptr ptr = 0;
	CUresult err;
	void *handle, *params[1];
	unsigned char *ptx;
	size_t size;
	int value = -1, ret;

	if (argc != 2) {
		fprintf(stderr, "usage: %s PTX\n", argv[0]);
		return 1;
	}
	if (!file || !file[0])
		file = CU_DRIVER_SONAME;
	handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		printf("first-result: no CUDA driver (%s), skipped\n",
		       dlerror());
		return 77;
	}
	missing = resolve(handle, &cu);
	if (missing) {
		printf("first-result: %s lacks %s, skipped\n", file, missing);
		return 77;
	}
	err = cu.init(0);
	if (err == CUDA_SUCCESS)
		err = cu.device_get(&dev, 0);
	if (err != CUDA_SUCCESS) {
		printf("first-result: no CUDA device (CUresult %d), skipped\n",
		       (int)err);
		return 77;
	}
	ptx = first_slurp(argv[1], &size);
	if (!ptx) {
		fprintf(stderr, "first-result: cannot read %s\n", argv[1]);
		return 1;
	}
	params[0] = &ptr;
	if ((err = cu.ctx_retain(&cx, dev)))
		step = "cuDevicePrimaryCtxRetain";
	else if ((err = cu.ctx_set(cx)))
		step = "cuCtxSetCurrent";
	else if ((err = cu.stream_create(&stream, CU_STREAM_NON_BLOCKING)))
		step = "cuStreamCreate";
	else if ((err = cu.module_load(&mod, ptx, 0, NULL, NULL)))
		step = "cuModuleLoadDataEx";
	else if ((err = cu.get_function(&fn, mod, "first")))
		step = "cuModuleGetFunction";
	else if ((err = cu.mem_alloc(&ptr, sizeof(value))))
		step = "cuMemAlloc";
	else if ((err = cu.launch(fn, 1, 1, 1, 1, 1, 1, 0, stream, params,
				  NULL)))
		step = "cuLaunchKernel";
	else if ((err = cu.copy_back(&value, ptr, sizeof(value), stream)))
		step = "cuMemcpyDtoHAsync";
	else if ((err = cu.sync(stream)))
		step = "cuStreamSynchronize";
	else
		step = NULL;
	ret = first_report("raw cuda", step, "CUresult", (int)err, value);
	if (ptr)
		cu.mem_free(ptr);
	if (mod)
		cu.module_unload(mod);
	if (stream)
		cu.stream_destroy(stream);
	if (cx)
		cu.ctx_release(dev);
	free(ptx);
	return ret;
}
