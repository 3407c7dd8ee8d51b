// SPDX-License-Identifier: MIT
/*
 * bench-bundle: time to first launch of a kernel built at dispatch against
 * one taken from an executable bundle built ahead, and warm creation.
 *
 * Usage: bundle NKERNELS [REPS]. Linked with the wrapped images of
 * NKERNELS kernels kN(global int *p) { p[get_global_id(0)] = N; }, one
 * image each. On the first devimg device (an OpenCL one), three cases:
 *  "bundle built ahead": in a fresh context, devimg_bundle_new(ctx,
 *    DEVIMG_BUNDLE_EXECUTABLE, NULL) timed (the up-front build of every
 *    image for every device of the context), then for each kernel
 *    devimg_bundle_kernel_new() + set arg + devimg_launch() +
 *    devimg_queue_finish() timed; devimg_ctx_stat_builds() must not grow
 *    during that loop.
 *  "warm creation", in the same context: REPS repetitions of
 *    devimg_kernel_new() (a cache hit: registry lookup, selection, cached
 *    program) and devimg_bundle_kernel_new() (bundle lookup, its program),
 *    interleaved with the order alternating, the kernels taken in turn;
 *    each call timed alone, its devimg_kernel_unref() outside the timing.
 *  "build at dispatch": in another fresh context, for each kernel
 *    devimg_kernel_new() (which builds its program) + set arg + launch +
 *    finish timed.
 * The bundle case runs first, so whatever PoCL's on-disk cache holds by
 * then helps the dispatch case only: conservative for bundles. (PoCL also
 * generates a kernel's code for its work-group size at its first launch,
 * which no program build does ahead, and caches that on disk too: with a
 * warm cache the dispatch case skips both.) Every first launch writes
 * a buffer of its own, read back afterwards (p[0] == N), so a broken run
 * cannot look fast. Prints medians and totals, and a summary.
 * Exits 77 without a device, 1 on errors or when dispatch from the
 * bundle built a program, 0 otherwise.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

/* Only now_us() and paired_median() are used here, not paired_measure(). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "bench/paired.h"
#pragma GCC diagnostic pop

#define NKERNELS_MAX 1024

/* One case of first launches: microseconds per kernel, builds it made. */
struct firsts {
	double *us;
	double median;
	double total;
	unsigned builds;
};

static void *xcalloc(size_t n, size_t size, int *ret)
{
	void *p = calloc(n, size);

	if (!p) {
		fprintf(stderr, "bundle: out of memory\n");
		*ret = 1;
	}
	return p;
}

/* A fresh context and its first device: 0, 77 without an OpenCL one, 1. */
static int open_ctx(struct devimg_ctx **ctx, struct devimg_device **dev)
{
	int err = devimg_ctx_new(ctx);

	if (err) {
		fprintf(stderr, "bundle: devimg_ctx_new: %s\n",
			devimg_strerror(err));
		return 1;
	}
	*dev = devimg_device_get(*ctx, 0);
	if (!*dev || strcmp(devimg_device_backend(*dev), "opencl")) {
		*ctx = devimg_ctx_unref(*ctx);
		return 77;
	}
	return 0;
}

/*
 * The first launch of each of the nk kernels on dev, each timed from the
 * kernel's creation (from bundle b, or devimg_kernel_new() when b is NULL)
 * to the end of its finish; then each kernel's buffer is checked. 0 or 1.
 */
static int first_launches(struct devimg_device *dev, struct devimg_bundle *b,
			  unsigned nk, struct firsts *f)
{
	static const size_t g = 1;
	struct devimg_queue *q = NULL;
	struct devimg_buf **bufs;
	struct devimg_kernel *k;
	const char *step = "devimg_queue_new";
	char name[16];
	int err, val, ret = 1;
	double t0;
	unsigned i;

	bufs = xcalloc(nk, sizeof(*bufs), &ret);
	if (!bufs)
		return 1;
	err = devimg_queue_new(dev, &q);
	for (i = 0; !err && i < nk; i++) {
		val = -1;
		step = "devimg_buf_new";
		err = devimg_buf_new(dev, sizeof(int), &bufs[i]);
		if (!err) {
			step = "devimg_buf_write";
			err = devimg_buf_write(q, bufs[i], 0, sizeof(val), &val);
		}
	}
	if (err) {
		fprintf(stderr, "bundle: %s: %s\n", step, devimg_strerror(err));
		goto out;
	}
	f->total = 0;
	for (i = 0; i < nk; i++) {
		snprintf(name, sizeof(name), "k%u", i);
		k = NULL;
		t0 = now_us();
		step = b ? "devimg_bundle_kernel_new" : "devimg_kernel_new";
		err = b ? devimg_bundle_kernel_new(b, dev, name, NULL, NULL, &k) :
			  devimg_kernel_new(dev, name, &k);
		if (!err) {
			step = "devimg_kernel_set_arg_buf";
			err = devimg_kernel_set_arg_buf(k, 0, bufs[i]);
		}
		if (!err) {
			step = "devimg_launch";
			err = devimg_launch(q, k, 1, NULL, &g, NULL);
		}
		if (!err) {
			step = "devimg_queue_finish";
			err = devimg_queue_finish(q);
		}
		f->us[i] = now_us() - t0;
		devimg_kernel_unref(k);
		if (err)
			goto fail;
		f->total += f->us[i];
	}
	for (i = 0; i < nk; i++) {
		step = "devimg_buf_read";
		err = devimg_buf_read(q, bufs[i], 0, sizeof(val), &val);
		if (err)
			goto fail;
		if (val != (int)i) {
			fprintf(stderr, "bundle: k%u wrote %d, expected %u\n",
				i, val, i);
			goto out;
		}
	}
	f->median = paired_median(f->us, nk);
	ret = 0;
	goto out;
fail:
	fprintf(stderr, "bundle: %s (kernel %u): %s\n", step, i,
		devimg_strerror(err));
out:
	for (i = 0; i < nk; i++)
		devimg_buf_unref(bufs[i]);
	free(bufs);
	devimg_queue_unref(q);
	return ret;
}

/* One line of a case: median, min, max (us is sorted) and total. */
static void print_firsts(const char *what, const struct firsts *f,
			 unsigned nk)
{
	printf("%-38s median %8.3f ms (min %.3f, max %.3f)  total %9.3f ms"
	       "  programs built %u\n", what, f->median / 1e3, f->us[0] / 1e3,
	       f->us[nk - 1] / 1e3, f->total / 1e3, f->builds);
}

/* One timed creation, in ns; negative on error. */
static double create_ns(struct devimg_device *dev, struct devimg_bundle *b,
			const char *name)
{
	struct devimg_kernel *k = NULL;
	double t0, t1;
	int err;

	t0 = now_us();
	err = b ? devimg_bundle_kernel_new(b, dev, name, NULL, NULL, &k) :
		  devimg_kernel_new(dev, name, &k);
	t1 = now_us();
	devimg_kernel_unref(k);
	if (err) {
		fprintf(stderr, "bundle: warm %s(%s): %s\n",
			b ? "devimg_bundle_kernel_new" : "devimg_kernel_new",
			name, devimg_strerror(err));
		return -1;
	}
	return (t1 - t0) * 1e3;
}

/*
 * Warm creation, reps of each kind interleaved: medians in ns of
 * devimg_kernel_new() (kn) and devimg_bundle_kernel_new() (bk), and the
 * median of the paired ratios kn/bk. 0 or 1.
 */
static int warm_creation(struct devimg_device *dev, struct devimg_bundle *b,
			 unsigned nk, unsigned reps, double *kn, double *bk,
			 double *ratio)
{
	double *t[2], *r;
	char name[16];
	unsigned i, m;
	int ret = 0;

	t[0] = xcalloc(reps, sizeof(double), &ret);
	t[1] = xcalloc(reps, sizeof(double), &ret);
	r = xcalloc(reps, sizeof(double), &ret);
	if (ret)
		goto out;
	ret = 1;
	/* Warm up: every kernel both ways. */
	for (i = 0; i < nk; i++) {
		snprintf(name, sizeof(name), "k%u", i);
		if (create_ns(dev, NULL, name) < 0 || create_ns(dev, b, name) < 0)
			goto out;
	}
	for (i = 0; i < reps; i++) {
		snprintf(name, sizeof(name), "k%u", i % nk);
		for (m = 0; m < 2; m++) {
			/* Alternate kernel_new-first and bundle-first. */
			unsigned mm = m ^ (i & 1);

			t[mm][i] = create_ns(dev, mm ? b : NULL, name);
			if (t[mm][i] < 0)
				goto out;
		}
		r[i] = t[0][i] / (t[1][i] > 0 ? t[1][i] : 1e-3);
	}
	*kn = paired_median(t[0], reps);
	*bk = paired_median(t[1], reps);
	*ratio = paired_median(r, reps);
	ret = 0;
out:
	free(t[0]);
	free(t[1]);
	free(r);
	return ret;
}

int main(int argc, char **argv)
{
	struct firsts disp = { 0 }, fromb = { 0 };
	struct devimg_ctx *ctx = NULL;
	struct devimg_device *dev;
	struct devimg_bundle *b = NULL;
	double build_us, kn = 0, bk = 0, ratio = 0;
	unsigned nk, reps, ndev, built, warm_builds;
	int err, ret = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: %s NKERNELS [REPS]\n", argv[0]);
		return 1;
	}
	nk = (unsigned)strtoul(argv[1], NULL, 10);
	reps = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 2000;
	if (!nk || nk > NKERNELS_MAX) {
		fprintf(stderr, "bundle: NKERNELS from 1 to %u\n",
			NKERNELS_MAX);
		return 1;
	}
	if (!reps)
		reps = 2000;
	disp.us = xcalloc(nk, sizeof(double), &ret);
	fromb.us = xcalloc(nk, sizeof(double), &ret);
	if (!disp.us || !fromb.us)
		goto out;

	/* Bundle built ahead, first: PoCL's disk cache is still empty. */
	ret = open_ctx(&ctx, &dev);
	if (ret)
		goto out;
	ret = 1;
	ndev = devimg_device_count(ctx);
	printf("device: %s (%u device%s in the context)\n",
	       devimg_device_name(dev), ndev, ndev == 1 ? "" : "s");
	built = devimg_ctx_stat_builds(ctx);
	build_us = now_us();
	err = devimg_bundle_new(ctx, DEVIMG_BUNDLE_EXECUTABLE, NULL, &b);
	build_us = now_us() - build_us;
	if (err) {
		fprintf(stderr, "bundle: devimg_bundle_new: %s\n",
			devimg_strerror(err));
		goto out;
	}
	built = devimg_ctx_stat_builds(ctx) - built;
	fromb.builds = devimg_ctx_stat_builds(ctx);
	if (first_launches(dev, b, nk, &fromb))
		goto out;
	fromb.builds = devimg_ctx_stat_builds(ctx) - fromb.builds;

	/* Warm creation, same context: every program is in its cache. */
	warm_builds = devimg_ctx_stat_builds(ctx);
	if (warm_creation(dev, b, nk, reps, &kn, &bk, &ratio))
		goto out;
	warm_builds = devimg_ctx_stat_builds(ctx) - warm_builds;
	b = devimg_bundle_unref(b);
	ctx = devimg_ctx_unref(ctx);

	/* Build at dispatch, in a fresh context. */
	ret = open_ctx(&ctx, &dev);
	if (ret)
		goto out;
	ret = 1;
	disp.builds = devimg_ctx_stat_builds(ctx);
	if (first_launches(dev, NULL, nk, &disp))
		goto out;
	disp.builds = devimg_ctx_stat_builds(ctx) - disp.builds;

	printf("%u kernels, one image each; first launch = kernel creation + "
	       "set arg + launch + finish\n", nk);
	print_firsts("at dispatch (devimg_kernel_new)", &disp, nk);
	print_firsts("from bundle (devimg_bundle_kernel_new)", &fromb, nk);
	printf("bundle built ahead (devimg_bundle_new): %.3f ms, %u programs "
	       "built\n", build_us / 1e3, built);
	printf("warm creation, %u of each interleaved: devimg_kernel_new "
	       "%.0f ns, devimg_bundle_kernel_new %.0f ns, ratio "
	       "kernel_new/bundle %.2fx (median of pairs), programs built %u\n",
	       reps, kn, bk, ratio, warm_builds);
	printf("first launch per kernel: at dispatch %.3f ms, from a built "
	       "bundle %.3f ms (bundle built ahead in %.1f ms for %u kernels)\n",
	       disp.median / 1e3, fromb.median / 1e3, build_us / 1e3, nk);
	if (fromb.builds) {
		fprintf(stderr, "bundle: dispatch from the bundle built %u "
			"programs\n", fromb.builds);
		goto out;
	}
	ret = 0;
out:
	devimg_bundle_unref(b);
	devimg_ctx_unref(ctx);
	free(disp.us);
	free(fromb.us);
	return ret;
}
