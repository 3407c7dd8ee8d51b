/* SPDX-License-Identifier: MIT */
/*
 * The CUDA launch benchmarks' raw side: the driver's entry points, found
 * as the plugin finds them (DEVIMG_CUDA_DRIVER, else the driver's soname),
 * and cuInit; the PTX text they load.
 */
#ifndef DEVIMG_BENCH_CUDA_RAW_H
#define DEVIMG_BENCH_CUDA_RAW_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "plugins/cuda/driver.h"
#include "tests/slurp.h"

/* The PTX text at path, NUL-terminated; NULL when it cannot be read. */
static inline char *cuda_raw_ptx(const char *path)
{
	size_t n = 0;
	char *text = slurp_or_null(path, &n);

	if (text)
		text[n] = '\0';
	return text;
}

/* 0, or -1 with the reason in why. */
static inline int cuda_raw_open(struct cu_driver *cu, char *why, size_t size)
{
	const char *file = getenv("DEVIMG_CUDA_DRIVER");
	void *sym;
	int count = 0;
	CUresult err;

	if (!file || !file[0])
		file = CU_DRIVER_SONAME;
	cu->handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (!cu->handle) {
		snprintf(why, size, "%s", dlerror());
		return -1;
	}
#define RESOLVE(field, symbol, params)					\
	sym = dlsym(cu->handle, #symbol);				\
	cu->field = (__typeof__(cu->field))(uintptr_t)sym;
	CU_REQUIRED_FUNCTIONS(RESOLVE)
#undef RESOLVE
	if (!cu->cuLaunchKernel || !cu->cuInit) {
		snprintf(why, size, "%s is no CUDA driver", file);
		return -1;
	}
	err = cu->cuInit(0);
	if (err == CUDA_SUCCESS)
		err = cu->cuDeviceGetCount(&count);
	if (err != CUDA_SUCCESS || count == 0) {
		snprintf(why, size,
			 "cuInit/cuDeviceGetCount: CUresult %d, %d devices",
			 (int)err, count);
		return -1;
	}
	return 0;
}

#endif
