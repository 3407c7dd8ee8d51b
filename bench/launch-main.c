// SPDX-License-Identifier: MIT
/*
 * bench-launch: per-launch cost of devimg_launch() against raw OpenCL.
 *
 * Usage: launch FORMAT IMAGE [LAUNCHES [REPS]]. IMAGE is the image of
 * `kernel void empty(global int *p)` in FORMAT, spirv (SPIR-V, which raw
 * OpenCL takes with clCreateProgramWithIL) or llvmbc (SPIR 1.2 bitcode:
 * clCreateProgramWithBinary, built with "-x spir -spir-std=1.2"), the
 * one image wrapped and linked into this program, so that both sides
 * build the same code the same way. On the first devimg device (an
 * OpenCL one) and the same cl_device_id, times LAUNCHES launches of global size
 * 1 in two modes, "sync" (a finish after each launch) and "batch" (one
 * finish after all; its enqueue loop alone is also timed, "submit"),
 * REPS times, raw and devimg back to back (order alternating), and
 * prints the median microseconds per launch and the ratio devimg/raw.
 * The ratio is the median of the REPS paired ratios (each devimg run over
 * the raw run next to it), which cancels the slow drifts of a shared CPU
 * that PoCL's worker threads also run on. "target <= 1.03x PASS/MISS",
 * then the nanoseconds devimg adds per launch (its median minus raw's).
 * Exits 77 without a device, 1 on errors, 0 otherwise (also on MISS).
 */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 210
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <devimg/devimg.h>

#include "bench/opencl-raw.h"
#include "bench/paired.h"
#include "tests/slurp.h"


struct bench {
	cl_command_queue cq;
	cl_kernel ck;
	struct devimg_queue *q;
	struct devimg_kernel *k;
	unsigned n;
};

/*
 * One timed run of a mode: microseconds per launch, negative on error;
 * for the batch modes, *submit: the enqueue loop alone.
 */
static double run_mode(void *bench, int mode, double *submit)
{
	struct bench *b = bench;
	static const size_t g = 1;
	int sync = mode == RAW_SYNC || mode == DEV_SYNC;
	double t0, t1;
	unsigned i;

	t0 = now_us();
	for (i = 0; i < b->n; i++) {
		if (mode == RAW_SYNC || mode == RAW_BATCH) {
			if (clEnqueueNDRangeKernel(b->cq, b->ck, 1, NULL, &g,
						   NULL, 0, NULL, NULL))
				return -1;
			if (sync && clFinish(b->cq))
				return -1;
		} else {
			if (devimg_launch(b->q, b->k, 1, NULL, &g, NULL))
				return -1;
			if (sync && devimg_queue_finish(b->q))
				return -1;
		}
	}
	if (!sync) {
		*submit = (now_us() - t0) / b->n;
		if (mode == RAW_BATCH ? clFinish(b->cq) != CL_SUCCESS :
					devimg_queue_finish(b->q) != 0)
			return -1;
	}
	t1 = now_us();
	return (t1 - t0) / b->n;
}

static int setup_raw(struct bench *b, int spirv, const char *path,
		     const char *name, cl_context *clctx, cl_program *prog,
		     cl_mem *mem)
{
	const unsigned char *bin;
	cl_int err, st;
	cl_device_id dev;
	size_t size = 0;
	void *bc;

	dev = find_cl_device(name);
	if (!dev)
		return 77;
	bc = slurp_or_null(path, &size);
	if (!bc) {
		fprintf(stderr, "launch: cannot read %s\n", path);
		return 1;
	}
	*clctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (err)
		goto fail;
	b->cq = clCreateCommandQueue(*clctx, dev, 0, &err);
	if (err)
		goto fail;
	if (spirv) {
		*prog = create_with_il(*clctx, dev, bc, size, &err);
	} else {
		bin = bc;
		*prog = clCreateProgramWithBinary(*clctx, 1, &dev, &size, &bin,
						  &st, &err);
	}
	if (err)
		goto fail;
	err = clBuildProgram(*prog, 1, &dev,
			     spirv ? "" : "-x spir -spir-std=1.2", NULL, NULL);
	if (err)
		goto fail;
	b->ck = clCreateKernel(*prog, "empty", &err);
	if (err)
		goto fail;
	*mem = clCreateBuffer(*clctx, CL_MEM_READ_WRITE, sizeof(cl_int), NULL,
			      &err);
	if (err)
		goto fail;
	err = clSetKernelArg(b->ck, 0, sizeof(*mem), mem);
	if (err)
		goto fail;
	free(bc);
	return 0;
fail:
	fprintf(stderr, "launch: raw OpenCL setup failed: %d\n", (int)err);
	free(bc);
	return 1;
}

int main(int argc, char **argv)
{
	struct bench b = { 0 };
	struct devimg_ctx *ctx = NULL;
	struct devimg_device *dev;
	struct devimg_buf *buf = NULL;
	cl_context clctx = NULL;
	cl_program prog = NULL;
	cl_mem mem = NULL;
	char what[96];
	unsigned reps;
	int err, spirv, ret = 1;

	if (argc < 3 || (strcmp(argv[1], "spirv") &&
			 strcmp(argv[1], "llvmbc"))) {
		fprintf(stderr,
			"usage: %s spirv|llvmbc IMAGE [LAUNCHES [REPS]]\n",
			argv[0]);
		return 1;
	}
	spirv = !strcmp(argv[1], "spirv");
	b.n = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 300;
	reps = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 10) : 41;
	if (!b.n)
		b.n = 300;
	if (!reps)
		reps = 41;

	err = devimg_ctx_new(&ctx);
	if (err) {
		fprintf(stderr, "launch: devimg_ctx_new: %s\n",
			devimg_strerror(err));
		return 1;
	}
	dev = devimg_device_get(ctx, 0);
	if (!dev || strcmp(devimg_device_backend(dev), "opencl")) {
		devimg_ctx_unref(ctx);
		return 77;
	}
	printf("device: %s\n", devimg_device_name(dev));
	printf("raw OpenCL: %s\n", spirv ?
	       "clCreateProgramWithIL (SPIR-V), the image devimg launches" :
	       "clCreateProgramWithBinary (SPIR 1.2 bitcode, -x spir), the "
	       "image devimg launches");
	err = setup_raw(&b, spirv, argv[2], devimg_device_name(dev), &clctx,
			&prog, &mem);
	if (err) {
		ret = err;
		goto out;
	}
	if ((err = devimg_queue_new(dev, &b.q)) ||
	    (err = devimg_kernel_new(dev, "empty", &b.k)) ||
	    (err = devimg_buf_new(dev, sizeof(int), &buf)) ||
	    (err = devimg_kernel_set_arg_buf(b.k, 0, buf))) {
		fprintf(stderr, "launch: devimg setup: %s\n",
			devimg_strerror(err));
		goto out;
	}

	snprintf(what, sizeof(what), "%u launches of global size 1", b.n);
	if (paired_measure(&b, run_mode, reps, what, "launch",
			   (struct paired_target){ 1.03, 0 }))
		goto out;
	ret = 0;
out:
	devimg_kernel_unref(b.k);
	devimg_buf_unref(buf);
	devimg_queue_unref(b.q);
	if (b.ck)
		clReleaseKernel(b.ck);
	if (mem)
		clReleaseMemObject(mem);
	if (prog)
		clReleaseProgram(prog);
	if (b.cq)
		clReleaseCommandQueue(b.cq);
	if (clctx)
		clReleaseContext(clctx);
	devimg_ctx_unref(ctx);
	return ret;
}
