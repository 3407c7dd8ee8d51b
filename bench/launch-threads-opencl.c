// SPDX-License-Identifier: MIT
/*
 * bench-threads (OpenCL): launch throughput of T threads at once, through
 * devimg_launch() and through raw clEnqueueNDRangeKernel() (bench/
 * scaling.h says how it is measured).
 *
 * Usage: launch-threads-opencl FORMAT IMAGE THREADS [LAUNCHES [REPS]].
 * IMAGE is `kernel void empty(global int *p)` in FORMAT (spirv or
 * llvmbc), the image also wrapped and linked into this program; THREADS
 * the thread counts, comma-separated. On devimg's first device (an
 * OpenCL one) and the same cl_device_id: one raw cl_context and program
 * (built once, as devimg builds its program once), and per thread its
 * own in-order command queue, cl_kernel and buffer. Target: devimg/raw >=
 * 0.95 (BENCH_TARGET) in every configuration. Exits 77 without a device;
 * 1 on errors; 0 otherwise (also on MISS).
 */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 210
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

#include "bench/opencl-raw.h"
#include "bench/scaling.h"
#include "tests/slurp.h"

struct bench {
	cl_device_id dev;
	cl_context ctx;
	cl_program prog;
};

struct raw {
	cl_command_queue cq;
	cl_kernel k;
	cl_mem mem;
};

static void raw_teardown(void *state)
{
	struct raw *r = state;

	if (r->k)
		clReleaseKernel(r->k);
	if (r->mem)
		clReleaseMemObject(r->mem);
	if (r->cq)
		clReleaseCommandQueue(r->cq);
	free(r);
}

static int raw_setup(void *bench, unsigned dev, void **state)
{
	struct bench *b = bench;
	struct raw *r = calloc(1, sizeof(*r));
	cl_int err = CL_OUT_OF_HOST_MEMORY;

	(void)dev;
	*state = r;
	if (!r)
		return -1;
	r->cq = clCreateCommandQueue(b->ctx, b->dev, 0, &err);
	if (!err)
		r->k = clCreateKernel(b->prog, "empty", &err);
	if (!err)
		r->mem = clCreateBuffer(b->ctx, CL_MEM_READ_WRITE,
					sizeof(cl_int), NULL, &err);
	if (!err)
		err = clSetKernelArg(r->k, 0, sizeof(r->mem), &r->mem);
	if (err) {
		fprintf(stderr, "launch-threads: raw OpenCL setup failed: %d\n",
			(int)err);
		return -1;
	}
	return 0;
}

static int raw_launch(void *state, const size_t *local)
{
	struct raw *r = state;
	static const size_t g = 1;

	return clEnqueueNDRangeKernel(r->cq, r->k, 1, NULL, &g, local, 0,
				      NULL, NULL) ? -1 : 0;
}

static int raw_wait(void *state)
{
	struct raw *r = state;

	return clFinish(r->cq) ? -1 : 0;
}

static const struct scaling_ops opencl_ops = {
	.setup = raw_setup,
	.launch = raw_launch,
	.wait = raw_wait,
	.teardown = raw_teardown,
};

/* The raw context and program of the image at path: 0, 77 or 1. */
static int raw_program(struct bench *b, int spirv, const char *path,
		       const char *name)
{
	const unsigned char *bin;
	size_t size = 0;
	cl_int err, st;
	void *bytes;

	b->dev = find_cl_device(name);
	if (!b->dev)
		return 77;
	bytes = slurp_or_null(path, &size);
	if (!bytes) {
		fprintf(stderr, "launch-threads: cannot read %s\n", path);
		return 1;
	}
	b->ctx = clCreateContext(NULL, 1, &b->dev, NULL, NULL, &err);
	if (!err && spirv) {
		b->prog = create_with_il(b->ctx, b->dev, bytes, size, &err);
	} else if (!err) {
		bin = bytes;
		b->prog = clCreateProgramWithBinary(b->ctx, 1, &b->dev, &size,
						    &bin, &st, &err);
	}
	if (!err)
		err = clBuildProgram(b->prog, 1, &b->dev,
				     spirv ? "" : "-x spir -spir-std=1.2",
				     NULL, NULL);
	free(bytes);
	if (err) {
		fprintf(stderr, "launch-threads: raw OpenCL program: %d\n",
			(int)err);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct scaling_pool pool;
	struct devimg_ctx *ctx = NULL;
	struct devimg_device *dev;
	struct bench b = { 0 };
	unsigned launches, reps;
	const char *env = getenv("BENCH_TARGET");
	double target = env && *env ? strtod(env, NULL) : 0.95;
	int err, ret = 1;

	if (argc < 4 || (strcmp(argv[1], "spirv") &&
			 strcmp(argv[1], "llvmbc"))) {
		fprintf(stderr,
			"usage: %s spirv|llvmbc IMAGE THREADS [LAUNCHES [REPS]]\n",
			argv[0]);
		return 1;
	}
	launches = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 10) : 5000;
	reps = argc > 5 ? (unsigned)strtoul(argv[5], NULL, 10) : 21;
	if (!launches || !reps) {
		fprintf(stderr, "launch-threads: LAUNCHES and REPS above 0\n");
		return 1;
	}
	err = devimg_ctx_new(&ctx);
	if (err) {
		fprintf(stderr, "launch-threads: devimg_ctx_new: %s\n",
			devimg_strerror(err));
		return 1;
	}
	dev = devimg_device_get(ctx, 0);
	if (!dev || strcmp(devimg_device_backend(dev), "opencl")) {
		printf("bench-threads: no OpenCL device, skipped\n");
		devimg_ctx_unref(ctx);
		return 77;
	}
	printf("device 0: %s\n", devimg_device_name(dev));
	ret = raw_program(&b, !strcmp(argv[1], "spirv"), argv[2],
			  devimg_device_name(dev));
	if (ret)
		goto out;
	ret = 1;
	pool.ops = &opencl_ops;
	pool.bench = &b;
	pool.devs = &dev;
	if (scaling_table(&pool, argv[3], 1, launches, reps, target))
		goto out;
	ret = 0;
out:
	if (b.prog)
		clReleaseProgram(b.prog);
	if (b.ctx)
		clReleaseContext(b.ctx);
	devimg_ctx_unref(ctx);
	return ret;
}
