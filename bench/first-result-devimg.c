// SPDX-License-Identifier: MIT
/*
 * bench-first-result, devimg side: from process start to one kernel's
 * result through libdevimg.
 *
 * Usage: first-result-devimg [BACKEND]. The image of `first(int *p)`, which stores
 * 42 at p[0], is wrapped by devimg-wrap and linked into this program; its
 * constructor registers it. On devimg's first device (whichever the
 * backend: DEVIMG_DEVICE_SELECTOR picks, or nothing does; when BACKEND,
 * "opencl" or "cuda", is given, that device must be of it), makes a
 * context, a queue, a buffer of one int and the kernel, launches one
 * work-item, reads the int back and checks it. Prints
 * "first-result: devimg BACKEND: 42". Exits 77 without a device, 2 when
 * the value read back is not 42, 1 on other errors.
 */
#include <stdio.h>
#include <string.h>

#include <devimg/devimg.h>

#define FIRST_VALUE 42

int main(int argc, char **argv)
{
	static const size_t g = 1;
	struct devimg_ctx *ctx = NULL;
	struct devimg_device *dev;
	struct devimg_queue *q = NULL;
	struct devimg_buf *buf = NULL;
	struct devimg_kernel *k = NULL;
	const char *step;
	int err, value = -1, ret = 1;

	err = devimg_ctx_new(&ctx);
	if (err) {
		fprintf(stderr, "first-result: devimg_ctx_new: %s\n",
			devimg_strerror(err));
		return 1;
	}
	dev = devimg_device_get(ctx, 0);
	if (!dev) {
		printf("first-result: devimg shows no device, skipped\n");
		devimg_ctx_unref(ctx);
		return 77;
	}
	if (argc > 1 && strcmp(devimg_device_backend(dev), argv[1])) {
		printf("first-result: devimg's first device is %s, not %s, skipped\n",
		       devimg_device_backend(dev), argv[1]);
		devimg_ctx_unref(ctx);
		return 77;
	}
	if ((err = devimg_queue_new(dev, &q))) {
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
	} else {
		step = NULL;
	}
	if (step) {
		fprintf(stderr, "first-result: %s: %s: %s\n", step,
			devimg_strerror(err), devimg_last_error());
	} else if (value != FIRST_VALUE) {
		fprintf(stderr, "first-result: devimg %s: read %d, want %d\n",
			devimg_device_backend(dev), value, FIRST_VALUE);
		ret = 2;
	} else {
		printf("first-result: devimg %s: %d\n",
		       devimg_device_backend(dev), value);
		ret = 0;
	}
	devimg_kernel_unref(k);
	devimg_buf_unref(buf);
	devimg_queue_unref(q);
	devimg_ctx_unref(ctx);
	return ret;
}
