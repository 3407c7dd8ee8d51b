// SPDX-License-Identifier: MIT
/*
 * bench-cuda: per-launch cost of devimg_launch() against raw
 * cuLaunchKernel() on one GPU.
 *
 * Usage: launch-cuda PTX [LAUNCHES [REPS]]. PTX holds
 * `.entry empty(.param .u64)`, which is also wrapped and linked into this
 * program. On devimg's first device (a CUDA one: run with
 * DEVIMG_DEVICE_SELECTOR=cuda:0) and CUDA device 0 of the driver, which
 * are the same GPU, both through its primary context and on streams made
 * with CU_STREAM_NON_BLOCKING as the plugin makes them, times LAUNCHES
 * launches of one work-item in two modes, "sync" (a stream synchronize
 * after each launch) and "batch" (one after all; its enqueue loop alone
 * is also timed, "submit"), REPS times, raw and devimg back to back (order
 * alternating), and prints the median microseconds per launch and the
 * ratio devimg/raw: the median of the REPS paired ratios (each devimg run
 * over the raw run next to it), which cancels slow drifts of clocks and
 * of the GPU; then the nanoseconds devimg adds per launch, the
 * median of the paired differences with their quartiles. The thread
 * stays on the CPU it starts on, so that both sides see the same core
 * and caches. "target <= 1.02x and <= +50 ns ...
 * PASS/MISS"; and what one cuCtxGetCurrent() costs here (the plugin calls
 * it once per launch, to make the queue's context current when it is
 * not). Exits 77, after one line that
 * says why, without a CUDA device; 1 on errors; 0 otherwise (also on
 * MISS).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <devimg/devimg.h>

#include "bench/cuda-raw.h"
#include "bench/paired.h"


struct raw {
	struct cu_driver cu;
	CUdevice dev;
	CUcontext ctx;
	CUstream stream;
	CUmodule mod;
	CUfunction fn;
	CUdeviceptr ptr;
	void *params[1];
};

struct bench {
	struct raw raw;
	struct devimg_queue *q;
	struct devimg_kernel *k;
	unsigned n;
};

static int raw_launch(struct raw *r)
{
	return r->cu.cuLaunchKernel(r->fn, 1, 1, 1, 1, 1, 1, 0, r->stream,
				    r->params, NULL) != CUDA_SUCCESS;
}

/* One timed run of a mode: microseconds per launch, negative on error. */
static double run_mode(void *bench, int mode, double *submit)
{
	struct bench *b = bench;
	static const size_t g = 1;
	int sync = mode == RAW_SYNC || mode == DEV_SYNC;
	int raw = mode == RAW_SYNC || mode == RAW_BATCH;
	double t0, t1;
	unsigned i;

	t0 = now_us();
	for (i = 0; i < b->n; i++) {
		if (raw) {
			if (raw_launch(&b->raw))
				return -1;
			if (sync && b->raw.cu.cuStreamSynchronize(b->raw.stream))
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
		if (raw ? b->raw.cu.cuStreamSynchronize(b->raw.stream) != 0 :
			  devimg_queue_finish(b->q) != 0)
			return -1;
	}
	t1 = now_us();
	return (t1 - t0) / b->n;
}

/* Keep the calling thread on the CPU it runs on (where it can). */
static void pin_here(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * What the plugin's one driver call besides cuLaunchKernel costs: the
 * median over 41 runs of 100000 calls of cuCtxGetCurrent().
 */
static void current_cost(struct raw *r)
{
	double v[41], t0;
	CUcontext cur;
	unsigned i, j;

	for (i = 0; i < 41; i++) {
		t0 = now_us();
		for (j = 0; j < 100000; j++)
			r->cu.cuCtxGetCurrent(&cur);
		v[i] = (now_us() - t0) * 1e3 / 100000;
	}
	printf("cuCtxGetCurrent: %.1f ns a call (median of 41 x 100000)\n",
	       paired_median(v, 41));
}

static int raw_setup(struct raw *r, const char *ptx)
{
	struct cu_driver *cu = &r->cu;
	CUresult err;
	char *text;

	text = cuda_raw_ptx(ptx);
	if (!text) {
		fprintf(stderr, "bench-cuda: cannot read %s\n", ptx);
		return 1;
	}
	if ((err = cu->cuDeviceGet(&r->dev, 0)) ||
	    (err = cu->cuDevicePrimaryCtxRetain(&r->ctx, r->dev)) ||
	    (err = cu->cuCtxSetCurrent(r->ctx)) ||
	    (err = cu->cuStreamCreate(&r->stream, CU_STREAM_NON_BLOCKING)) ||
	    (err = cu->cuModuleLoadDataEx(&r->mod, text, 0, NULL, NULL)) ||
	    (err = cu->cuModuleGetFunction(&r->fn, r->mod, "empty")) ||
	    (err = cu->cuMemAlloc(&r->ptr, sizeof(int)))) {
		fprintf(stderr, "bench-cuda: raw CUDA setup failed: CUresult %d\n",
			(int)err);
		free(text);
		return 1;
	}
	free(text);
	r->params[0] = &r->ptr;
	return 0;
}

static void raw_teardown(struct raw *r)
{
	if (!r->ctx)
		return;
	r->cu.cuCtxSetCurrent(r->ctx);
	if (r->ptr)
		r->cu.cuMemFree(r->ptr);
	if (r->mod)
		r->cu.cuModuleUnload(r->mod);
	if (r->stream)
		r->cu.cuStreamDestroy(r->stream);
	r->cu.cuDevicePrimaryCtxRelease(r->dev);
}

int main(int argc, char **argv)
{
	char what[96];
	struct bench b = { 0 };
	struct devimg_ctx *ctx = NULL;
	struct devimg_device *dev;
	struct devimg_buf *buf = NULL;
	unsigned reps;
	char why[512];
	int err, ret = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PTX [LAUNCHES [REPS]]\n", argv[0]);
		return 1;
	}
	b.n = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 1000;
	reps = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 41;
	if (!b.n)
		b.n = 1000;
	if (!reps)
		reps = 41;

	if (cuda_raw_open(&b.raw.cu, why, sizeof(why)) < 0) {
		printf("bench-cuda: no CUDA device (%s), skipped\n", why);
		return 77;
	}
	err = devimg_ctx_new(&ctx);
	if (err) {
		fprintf(stderr, "bench-cuda: devimg_ctx_new: %s\n",
			devimg_strerror(err));
		return 1;
	}
	dev = devimg_device_get(ctx, 0);
	if (!dev || strcmp(devimg_device_backend(dev), "cuda")) {
		printf("bench-cuda: devimg shows no CUDA device first (DEVIMG_DEVICE_SELECTOR=cuda:0?), skipped\n");
		devimg_ctx_unref(ctx);
		return 77;
	}
	printf("device: %s\n", devimg_device_name(dev));
	if (raw_setup(&b.raw, argv[1]))
		goto out;
	if ((err = devimg_queue_new(dev, &b.q)) ||
	    (err = devimg_kernel_new(dev, "empty", &b.k)) ||
	    (err = devimg_buf_new(dev, sizeof(int), &buf)) ||
	    (err = devimg_kernel_set_arg_buf(b.k, 0, buf))) {
		fprintf(stderr, "bench-cuda: devimg setup: %s: %s\n",
			devimg_strerror(err), devimg_last_error());
		goto out;
	}

	pin_here();
	snprintf(what, sizeof(what), "%u launches of one work-item", b.n);
	if (paired_measure(&b, run_mode, reps, what, "bench-cuda",
			   (struct paired_target){ 1.02, 50 }))
		goto out;
	current_cost(&b.raw);
	ret = 0;
out:
	devimg_kernel_unref(b.k);
	devimg_buf_unref(buf);
	devimg_queue_unref(b.q);
	raw_teardown(&b.raw);
	devimg_ctx_unref(ctx);
	return ret;
}
