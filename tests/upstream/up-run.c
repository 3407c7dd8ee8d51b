// SPDX-License-Identifier: MIT
/*
 * The host side of tests/upstream, built by the tests with regshow.c and
 * whatever upstream's tools made:
 *
 *   up-run vadd             run the kernel "vadd" (vadd.cl) of the
 *                           registered images on device 0, check the sums
 *   up-run dlopen LIB FUNC  dlopen() LIB, print the registry, run FUNC:
 *                           "vadd" as above, "none" nothing (no device
 *                           is opened), else the int FUNC(void) that LIB
 *                           exports (0 is success); dlclose() it and
 *                           print the registry again
 *
 * Exit status 0 when everything asked for worked, 1 otherwise.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

#include "tests/upstream/regshow.h"

#define N 1024

static int fail(const char *what, int err)
{
	const char *detail = devimg_last_error();

	fprintf(stderr, "up-run: %s: %s%s%s\n", what, devimg_strerror(err),
		detail && *detail ? ": " : "", detail ? detail : "");
	return 1;
}

static int run_vadd(void)
{
	static float a[N], b[N], c[N];
	struct devimg_ctx *ctx = NULL;
	struct devimg_device *dev;
	struct devimg_kernel *k = NULL;
	struct devimg_queue *q = NULL;
	struct devimg_buf *ba = NULL, *bb = NULL, *bc = NULL;
	size_t global = N, bytes = sizeof(a);
	int err, bad = 0, i;

	for (i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = 2.0f * (float)i + 1.0f;
	}
	err = devimg_ctx_new(&ctx);
	if (err)
		return fail("context", err);
	dev = devimg_device_get(ctx, 0);
	if (!dev) {
		devimg_ctx_unref(ctx);
		fprintf(stderr, "up-run: no device 0\n");
		return 1;
	}
	if ((err = devimg_kernel_new(dev, "vadd", &k)) ||
	    (err = devimg_queue_new(dev, &q)) ||
	    (err = devimg_buf_new(dev, bytes, &ba)) ||
	    (err = devimg_buf_new(dev, bytes, &bb)) ||
	    (err = devimg_buf_new(dev, bytes, &bc)) ||
	    (err = devimg_buf_write(q, ba, 0, bytes, a)) ||
	    (err = devimg_buf_write(q, bb, 0, bytes, b)) ||
	    (err = devimg_kernel_set_arg_buf(k, 0, ba)) ||
	    (err = devimg_kernel_set_arg_buf(k, 1, bb)) ||
	    (err = devimg_kernel_set_arg_buf(k, 2, bc)) ||
	    (err = devimg_launch(q, k, 1, NULL, &global, NULL)) ||
	    (err = devimg_buf_read(q, bc, 0, bytes, c)))
		fail("vadd", err);
	devimg_buf_unref(bc);
	devimg_buf_unref(bb);
	devimg_buf_unref(ba);
	devimg_queue_unref(q);
	devimg_kernel_unref(k);
	devimg_ctx_unref(ctx);
	if (err)
		return 1;
	for (i = 0; i < N; i++)
		bad += c[i] != 3.0f * (float)i + 1.0f;
	printf("vadd: c[1]=%g c[%d]=%g, %s\n", c[1], N - 1, c[N - 1],
	       bad ? "WRONG" : "all correct");
	return bad != 0;
}

static int run_lib(const char *path, const char *func)
{
	int (*fn)(void);
	void *h;
	int ret;

	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "up-run: %s\n", dlerror());
		return 1;
	}
	regshow_print("after dlopen");
	if (!strcmp(func, "vadd")) {
		ret = run_vadd();
	} else if (!strcmp(func, "none")) {
		ret = 0;
	} else {
		*(void **)&fn = dlsym(h, func);
		if (!fn) {
			fprintf(stderr, "up-run: %s: no %s\n", path, func);
			dlclose(h);
			return 1;
		}
		ret = fn() != 0;
	}
	if (dlclose(h)) {
		fprintf(stderr, "up-run: dlclose: %s\n", dlerror());
		return 1;
	}
	regshow_print("after dlclose");
	return ret;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "vadd"))
		return run_vadd();
	if (argc == 4 && !strcmp(argv[1], "dlopen"))
		return run_lib(argv[2], argv[3]);
	fprintf(stderr, "usage: up-run vadd | up-run dlopen LIB FUNC\n");
	return 2;
}
