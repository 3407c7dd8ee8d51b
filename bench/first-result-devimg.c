// SPDX-License-Identifier: MIT
/*
 * bench-first-result, devimg side: from process start to one kernel's
 * result through libdevimg.
 *
 * Usage: first-result-devimg [BACKEND]. The image of `first(int *p)`,
 * which stores 42 at p[0], is wrapped by devimg-wrap and linked into this
 * program; its constructor registers it. On devimg's first device
 * (whichever DEVIMG_DEVICE_SELECTOR, or no selector, puts first; when
 * BACKEND, "opencl" or "cuda", is given, it must be of that backend),
 * makes a context, a queue, a buffer of one int and the kernel, launches
 * one work-item, reads the int back and checks it. Prints
 * "first-result: devimg BACKEND: 42" (bench/first-result.h). Exits 77
 * without such a device, 2 when the value read back is not 42, 1 on
 * other errors.
 */
#include <stdio.h>
#include <string.h>

#include <devimg/devimg.h>

#include "bench/first-result.h"

/* devimg's first device, checked against backend (any when NULL). */
static int first_device(struct devimg_ctx *ctx, const char *backend,
			struct devimg_device **dev)
{
	*dev = devimg_device_get(ctx, 0);
	if (!*dev) {
		printf("first-result: devimg shows no device, skipped\n");
		return 77;
	}
	if (backend && strcmp(devimg_device_backend(*dev), backend)) {
		printf("first-result: devimg's first device is %s, not %s, skipped\n",
		       devimg_device_backend(*dev), backend);
		return 77;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const size_t g = 1;
	struct devimg_ctx *ctx = NULL;
	struct devimg_device *dev = NULL;
	struct devimg_queue *q = NULL;
	struct devimg_buf *buf = NULL;
	struct devimg_kernel *k = NULL;
	const char *step = NULL;
	char side[64];
	int err, value = -1, ret;

	if ((err = devimg_ctx_new(&ctx))) {
		step = "devimg_ctx_new";
	} else if ((ret = first_device(ctx, argc > 1 ? argv[1] : NULL,
				       &dev))) {
		devimg_ctx_unref(ctx);
		return ret;
	} else if ((err = devimg_queue_new(dev, &q))) {
		step = "devimg_queue_new";
	} else if ((err = devimg_buf_new(dev, sizeof(value), &buf))) {
		step = "devimg_buf_new";
	} else if ((err = devimg_kernel_new(dev, "first", &k))) {
		step = "devimg_kernel_new";
	} else if ((err = devimg_kernel_set_arg_buf(k, 0, buf))) {
		step = "devimg_kernel_set_arg_buf";
	} else if ((err = devimg_launch(q, k, 1, NULL, &g, NULL))) {
		step = "devimg_launch";
	} else if ((err = devimg_buf_read(q, buf, 0, sizeof(value), &value))) {
		step = "devimg_buf_read";
	}
	snprintf(side, sizeof(side), "devimg %s",
		 dev ? devimg_device_backend(dev) : "");
	if (step) {
		fprintf(stderr, "first-result: %s: %s: %s: %s\n", side, step,
			devimg_strerror(err), devimg_last_error());
		ret = 1;
	} else {
		ret = first_report(side, NULL, NULL, 0, value);
	}
	devimg_kernel_unref(k);
	devimg_buf_unref(buf);
	devimg_queue_unref(q);
	devimg_ctx_unref(ctx);
	return ret;
}
