// SPDX-License-Identifier: MIT
/*
 * bench-first-result, raw OpenCL side: from process start to one kernel's
 * result through the OpenCL ICD loader alone.
 *
 * Usage: first-result-opencl spirv|llvmbc IMAGE. IMAGE is the image of
 * `first(global int *p)`, which stores 42 at p[0], that the devimg side
 * carries: SPIR-V (clCreateProgramWithIL, or clCreateProgramWithILKHR
 * below OpenCL 2.1) or SPIR 1.2 bitcode (clCreateProgramWithBinary, built
 * with "-x spir -spir-std=1.2"), as the OpenCL plugin creates them. Takes
 * PoCL's CPU device (the first CPU device of the platform whose name holds
 * "Portable Computing Language", else the first device of any platform),
 * builds, creates the kernel, launches one work-item, reads the int back
 * and checks it. Prints "first-result: raw opencl: 42". Exits 77 without a
 * device, 2 when the value read back is not 42, 1 on other errors.
 */
#define CL_TARGET_OPENCL_VERSION 210
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/first-result.h"

#define MAX_IDS 16

typedef cl_program (*il_fn)(cl_context, const void *, size_t, cl_int *);

/* PoCL's first CPU device, else the first device; NULL when none. */
static cl_device_id pick_device(void)
{
	cl_platform_id plats[MAX_IDS];
	cl_device_id dev, any = NULL;
	cl_uint np = 0, nd, p;
	char name[256];

	if (clGetPlatformIDs(MAX_IDS, plats, &np) != CL_SUCCESS)
		return NULL;
	for (p = 0; p < np && p < MAX_IDS; p++) {
		if (!any && clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 1,
					   &any, &nd) != CL_SUCCESS)
			any = NULL;
		if (clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof(name),
				      name, NULL) != CL_SUCCESS ||
		    !strstr(name, "Portable Computing Language"))
			continue;
		if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_CPU, 1, &dev,
				   &nd) == CL_SUCCESS)
			return dev;
	}
	return any;
}

/* The program of the SPIR-V il: core from OpenCL 2.1, else the KHR call. */
static cl_program program_from_il(cl_context cx, cl_device_id dev,
				  const void *il, size_t size, cl_int *err)
{
	cl_platform_id plat;
	char version[64];
	unsigned major = 0, minor = 0;
	il_fn khr;

	*err = clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof(version),
			       version, NULL);
	if (*err != CL_SUCCESS)
		return NULL;
	if (sscanf(version, "OpenCL %u.%u", &major, &minor) == 2 &&
	    (major > 2 || (major == 2 && minor >= 1)))
		return clCreateProgramWithIL(cx, il, size, err);
	*err = clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof(plat), &plat,
			       NULL);
	if (*err != CL_SUCCESS)
		return NULL;
	khr = (il_fn)(uintptr_t)clGetExtensionFunctionAddressForPlatform(
		plat, "clCreateProgramWithILKHR");
	if (!khr) {
		*err = CL_INVALID_OPERATION;
		return NULL;
	}
	return khr(cx, il, size, err);
}

int main(int argc, char **argv)
{
	static const size_t g = 1;
	cl_context cx = NULL;
	cl_command_queue cq = NULL;
	cl_program prog = NULL;
	cl_kernel k = NULL;
	cl_mem mem = NULL;
	cl_device_id dev;
	cl_int err = CL_SUCCESS, st;
	const unsigned char *bin;
	unsigned char *image;
	const char *step = NULL;
	size_t size;
	int spirv, value = -1, ret;

	if (argc != 3 || (strcmp(argv[1], "spirv") &&
			  strcmp(argv[1], "llvmbc"))) {
		fprintf(stderr, "usage: %s spirv|llvmbc IMAGE\n", argv[0]);
		return 1;
	}
	spirv = !strcmp(argv[1], "spirv");
	dev = pick_device();
	if (!dev) {
		printf("first-result: no OpenCL device, skipped\n");
		return 77;
	}
	image = first_slurp(argv[2], &size);
	if (!image) {
		fprintf(stderr, "first-result: cannot read %s\n", argv[2]);
		return 1;
	}
	bin = image;
	cx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (err != CL_SUCCESS) {
		step = "clCreateContext";
		goto out;
	}
	cq = clCreateCommandQueue(cx, dev, 0, &err);
	if (err != CL_SUCCESS) {
		step = "clCreateCommandQueue";
		goto out;
	}
	prog = spirv ? program_from_il(cx, dev, image, size, &err) :
		       clCreateProgramWithBinary(cx, 1, &dev, &size, &bin, &st,
						 &err);
	if (err != CL_SUCCESS) {
		step = "creating the program";
		goto out;
	}
	err = clBuildProgram(prog, 1, &dev,
			     spirv ? "" : "-x spir -spir-std=1.2", NULL, NULL);
	if (err != CL_SUCCESS) {
		step = "clBuildProgram";
		goto out;
	}
	k = clCreateKernel(prog, "first", &err);
	if (err != CL_SUCCESS) {
		step = "clCreateKernel";
		goto out;
	}
	mem = clCreateBuffer(cx, CL_MEM_READ_WRITE, sizeof(value), NULL, &err);
	if (err != CL_SUCCESS) {
		step = "clCreateBuffer";
		goto out;
	}
	if ((err = clSetKernelArg(k, 0, sizeof(mem), &mem)) != CL_SUCCESS)
		step = "clSetKernelArg";
	else if ((err = clEnqueueNDRangeKernel(cq, k, 1, NULL, &g, NULL, 0,
					       NULL, NULL)) != CL_SUCCESS)
		step = "clEnqueueNDRangeKernel";
	else if ((err = clEnqueueReadBuffer(cq, mem, CL_TRUE, 0, sizeof(value),
					    &value, 0, NULL, NULL)) !=
		 CL_SUCCESS)
		step = "clEnqueueReadBuffer";
out:
	ret = first_report("raw opencl", step, "OpenCL error", (int)err, value);
	if (mem)
		clReleaseMemObject(mem);
	if (k)
		clReleaseKernel(k);
	if (prog)
		clReleaseProgram(prog);
	if (cq)
		clReleaseCommandQueue(cq);
	if (cx)
		clReleaseContext(cx);
	free(image);
	return ret;
}
