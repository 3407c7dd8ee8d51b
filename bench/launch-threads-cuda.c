// SPDX-License-Identifier: MIT
/*
 * bench-threads (CUDA): launch throughput of T threads at once, through
 * devimg_launch() and through raw cuLaunchKernel() (bench/scaling.h says
 * how it is measured).
 *
 * Usage: launch-threads-cuda PTX THREADS GPUS [LAUNCHES [REPS]].
 * THREADS: the thread counts, comma-separated ("1,4,16"); GPUS: how many
 * devices the threads are spread over (thread t on device t % GPUS):
 * devimg's devices 0..GPUS-1 (run with DEVIMG_DEVICE_SELECTOR=cuda:*)
 * and the driver's ordinals 0..GPUS-1, the same GPUs. PTX holds `.entry
 * empty(.param .u64)`, which is also wrapped and linked into this
 * program. Raw side, per thread: its device's primary context made
 * current, its own CU_STREAM_NON_BLOCKING stream (as the plugin makes
 * them), its CUfunction of a module of the PTX loaded once per device
 * (BENCH_RAW_MODULE=own: a module per thread), its own buffer.
 * Target: devimg/raw >= 0.98 (BENCH_TARGET) in every configuration.
 * Exits 77, after one line that says why, without enough CUDA devices;
 * 1 on errors; 0 otherwise (also on MISS).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

#include "bench/cuda-raw.h"
#include "bench/scaling.h"

struct bench {
	struct cu_driver cu;
	const char *ptx;
	/* BENCH_RAW_MODULE=shared: one module per device, loaded first. */
	CUmodule shared[SCALING_MAX_DEVICES];
	CUcontext ctx[SCALING_MAX_DEVICES];
	unsigned ndevs;
};

struct raw {
	struct cu_driver *cu;
	CUdevice dev;
	CUcontext ctx;
	CUstream stream;
	CUmodule mod;
	CUfunction fn;
	CUdeviceptr ptr;
	void *params[1];
	int own_module;
};

static void raw_teardown(void *state)
{
	struct raw *r = state;

	if (r->ctx) {
		r->cu->cuCtxSetCurrent(r->ctx);
		if (r->ptr)
			r->cu->cuMemFree(r->ptr);
		if (r->mod && r->own_module)
			r->cu->cuModuleUnload(r->mod);
		if (r->stream)
			r->cu->cuStreamDestroy(r->stream);
		r->cu->cuDevicePrimaryCtxRelease(r->dev);
	}
	free(r);
}

static int raw_setup(void *bench, unsigned dev, void **state)
{
	struct bench *b = bench;
	struct cu_driver *cu = &b->cu;
	struct raw *r = calloc(1, sizeof(*r));
	CUresult err = CUDA_SUCCESS;

	*state = r;
	if (!r)
		return -1;
	r->cu = cu;
	r->own_module = !b->shared[dev];
	r->mod = b->shared[dev];
	if ((err = cu->cuDeviceGet(&r->dev, (int)dev)) ||
	    (err = cu->cuDevicePrimaryCtxRetain(&r->ctx, r->dev)) ||
	    (err = cu->cuCtxSetCurrent(r->ctx)) ||
	    (err = cu->cuStreamCreate(&r->stream, CU_STREAM_NON_BLOCKING)) ||
	    (r->own_module && (err = cu->cuModuleLoadDataEx(&r->mod, b->ptx,
							    0, NULL, NULL))) ||
	    (err = cu->cuModuleGetFunction(&r->fn, r->mod, "empty")) ||
	    (err = cu->cuMemAlloc(&r->ptr, sizeof(int)))) {
		fprintf(stderr,
			"launch-threads: raw CUDA setup on device %u failed: CUresult %d\n",
			dev, (int)err);
		return -1;
	}
	r->params[0] = &r->ptr;
	return 0;
}

/* devimg's calls may have made another context current here. */
static int raw_enter(void *state)
{
	struct raw *r = state;

	return r->cu->cuCtxSetCurrent(r->ctx) != CUDA_SUCCESS ? -1 : 0;
}

/* The block is 1 either way: CUDA has no launch without one. */
static int raw_launch(void *state, const size_t *local)
{
	struct raw *r = state;

	(void)local;
	return r->cu->cuLaunchKernel(r->fn, 1, 1, 1, 1, 1, 1, 0, r->stream,
				     r->params, NULL) != CUDA_SUCCESS ? -1 : 0;
}

static int raw_wait(void *state)
{
	struct raw *r = state;

	return r->cu->cuStreamSynchronize(r->stream) != CUDA_SUCCESS ? -1 : 0;
}

/*
 * One module per device for all threads (BENCH_RAW_MODULE=shared, the
 * default: what a program that loads its kernels once does, and what
 * devimg's program cache does), or none here and a module per thread
 * (=own). 0, or 1 on a failure.
 */
static int raw_modules(struct bench *b, unsigned ngpus)
{
	const char *how = getenv("BENCH_RAW_MODULE");
	struct cu_driver *cu = &b->cu;
	CUresult err = CUDA_SUCCESS;
	CUdevice d;
	unsigned i;

	if (how && !strcmp(how, "own")) {
		printf("raw: a module of the PTX per thread, its CUfunction\n");
		return 0;
	}
	printf("raw: one module of the PTX per device, a CUfunction per thread from it\n");
	for (i = 0; i < ngpus; i++) {
		if ((err = cu->cuDeviceGet(&d, (int)i)) ||
		    (err = cu->cuDevicePrimaryCtxRetain(&b->ctx[i], d)) ||
		    (err = cu->cuCtxSetCurrent(b->ctx[i])) ||
		    (err = cu->cuModuleLoadDataEx(&b->shared[i], b->ptx, 0,
						  NULL, NULL))) {
			fprintf(stderr,
				"launch-threads: raw CUDA module on device %u: CUresult %d\n",
				i, (int)err);
			return 1;
		}
		b->ndevs = i + 1;
	}
	return 0;
}

static void raw_modules_unload(struct bench *b)
{
	unsigned i;
	CUdevice d;

	for (i = 0; i < b->ndevs; i++) {
		b->cu.cuCtxSetCurrent(b->ctx[i]);
		if (b->shared[i])
			b->cu.cuModuleUnload(b->shared[i]);
		if (!b->cu.cuDeviceGet(&d, (int)i))
			b->cu.cuDevicePrimaryCtxRelease(d);
	}
}

static const struct scaling_ops cuda_ops = {
	.setup = raw_setup,
	.enter = raw_enter,
	.launch = raw_launch,
	.wait = raw_wait,
	.teardown = raw_teardown,
};

int main(int argc, char **argv)
{
	static struct scaling_pool pool;
	struct devimg_device *devs[SCALING_MAX_DEVICES];
	struct devimg_ctx *ctx = NULL;
	struct bench b = { 0 };
	unsigned ngpus, launches, reps, i;
	const char *env = getenv("BENCH_TARGET");
	double target = env && *env ? strtod(env, NULL) : 0.98;
	char why[512];
	int count = 0, err, ret = 1;

	if (argc < 4) {
		fprintf(stderr, "usage: %s PTX THREADS GPUS [LAUNCHES [REPS]]\n",
			argv[0]);
		return 1;
	}
	ngpus = (unsigned)strtoul(argv[3], NULL, 10);
	launches = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 10) : 5000;
	reps = argc > 5 ? (unsigned)strtoul(argv[5], NULL, 10) : 21;
	if (!ngpus || ngpus > SCALING_MAX_DEVICES || !launches || !reps) {
		fprintf(stderr, "launch-threads: GPUS 1 to %u, LAUNCHES and REPS above 0\n",
			SCALING_MAX_DEVICES);
		return 1;
	}
	if (cuda_raw_open(&b.cu, why, sizeof(why)) < 0) {
		printf("bench-threads: no CUDA device (%s), skipped\n", why);
		return 77;
	}
	if (b.cu.cuDeviceGetCount(&count) || (unsigned)count < ngpus) {
		printf("bench-threads: %d CUDA devices, %u wanted, skipped\n",
		       count, ngpus);
		return 77;
	}
	b.ptx = cuda_raw_ptx(argv[1]);
	if (!b.ptx) {
		fprintf(stderr, "launch-threads: cannot read %s\n", argv[1]);
		return 1;
	}
	err = devimg_ctx_new(&ctx);
	if (err) {
		fprintf(stderr, "launch-threads: devimg_ctx_new: %s\n",
			devimg_strerror(err));
		goto out;
	}
	for (i = 0; i < ngpus; i++) {
		char name[256] = "";
		CUdevice d;

		devs[i] = devimg_device_get(ctx, i);
		if (!devs[i] || strcmp(devimg_device_backend(devs[i]), "cuda")) {
			printf("bench-threads: devimg device %u is no CUDA one (DEVIMG_DEVICE_SELECTOR=cuda:*?), skipped\n",
			       i);
			ret = 77;
			goto out;
		}
		if (!b.cu.cuDeviceGet(&d, (int)i))
			b.cu.cuDeviceGetName(name, sizeof(name), d);
		printf("device %u: devimg %s, driver ordinal %u %s\n", i,
		       devimg_device_name(devs[i]), i, name);
	}
	if (raw_modules(&b, ngpus))
		goto out;
	pool.ops = &cuda_ops;
	pool.bench = &b;
	pool.devs = devs;
	if (scaling_table(&pool, argv[2], ngpus, launches, reps, target))
		goto out;
	ret = 0;
out:
	raw_modules_unload(&b);
	devimg_ctx_unref(ctx);
	free((void *)b.ptx);
	return ret;
}
