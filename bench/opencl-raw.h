/* SPDX-License-Identifier: MIT */
/*
 * The OpenCL launch benchmarks' raw side: the device devimg also uses
 * (found by name), and programs from SPIR-V made as the OpenCL plugin
 * makes them. The includer defines CL_TARGET_OPENCL_VERSION (210) and
 * includes <CL/cl.h>.
 */
#ifndef DEVIMG_BENCH_OPENCL_RAW_H
#define DEVIMG_BENCH_OPENCL_RAW_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The cl_device_id whose name is name (the first device when none is). */
static inline cl_device_id find_cl_device(const char *name)
{
	cl_platform_id plats[16];
	cl_device_id devs[16], first = NULL;
	cl_uint np = 0, nd, p, d;
	char buf[256];

	if (clGetPlatformIDs(16, plats, &np) || np == 0)
		return NULL;
	for (p = 0; p < np && p < 16; p++) {
		if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd))
			continue;
		for (d = 0; d < nd && d < 16; d++) {
			if (!first)
				first = devs[d];
			if (!clGetDeviceInfo(devs[d], CL_DEVICE_NAME,
					     sizeof(buf), buf, NULL) &&
			    name && !strcmp(buf, name))
				return devs[d];
		}
	}
	return first;
}

typedef cl_program (*create_with_il_fn)(cl_context, const void *, size_t,
					cl_int *);

/*
 * The program of the size bytes of SPIR-V at il for dev in clctx, as the
 * OpenCL plugin makes it: clCreateProgramWithIL from OpenCL 2.1, else
 * clCreateProgramWithILKHR (cl_khr_il_program).
 */
static inline cl_program create_with_il(cl_context clctx,
					cl_device_id dev, const void *il,
					size_t size, cl_int *err)
{
	create_with_il_fn fn = NULL;
	cl_platform_id plat;
	char ver[64];
	int major = 0, minor = 0;

	*err = clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof(ver), ver, NULL);
	if (*err)
		return NULL;
	if (sscanf(ver, "OpenCL %d.%d", &major, &minor) == 2 &&
	    major * 10 + minor >= 21)
		return clCreateProgramWithIL(clctx, il, size, err);
	*err = clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof(plat), &plat,
			       NULL);
	if (*err)
		return NULL;
	fn = (create_with_il_fn)(uintptr_t)
		clGetExtensionFunctionAddressForPlatform(
			plat, "clCreateProgramWithILKHR");
	if (!fn) {
		fprintf(stderr, "launch: %s device takes no SPIR-V\n", ver);
		*err = CL_INVALID_OPERATION;
		return NULL;
	}
	return fn(clctx, il, size, err);
}

#endif
