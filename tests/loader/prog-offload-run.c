// SPDX-License-Identifier: MIT
/*
 * Kernels of tests/dispatch/dispatch.cl run on the first device, each
 * found through an image of another layout linked into this program:
 * vadd in a version 2 image, off1 in a version 3 image of LLVM's wrapper
 * (56-byte entries), off2 in an OffloadBinary blob; or, given arguments
 * NAME:VERSION (vadd, off1 or off2), those kernels from images of those
 * versions. Results are checked on the host. Exit 77 when there is no
 * device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>
#include "tests/runner.h"

#define N 64
#define W 8

/* The kernel name from an image of the given version. */
static int kernel(struct devimg_device *dev, const char *name,
		  unsigned version, struct devimg_kernel **k)
{
	struct devimg_image *img;
	int err = devimg_kernel_new(dev, name, k);

	CHECK(err == 0, "kernel_new(%s): %d", name, err);
	img = devimg_kernel_image(*k);
	CHECK(devimg_image_version(img) == version,
	      "%s from an image of version %u, want %u", name,
	      devimg_image_version(img), version);
	printf("%s: image version %u, target %s, format %d\n", name,
	       devimg_image_version(img), devimg_image_target(img),
	       devimg_image_format(img));
	return 0;
}

static int run_vadd(struct devimg_device *dev, struct devimg_queue *q,
		    unsigned version)
{
	float a[N], b[N], c[N];
	struct devimg_buf *ba, *bb, *bc;
	struct devimg_kernel *k;
	size_t g = N;
	int i;

	if (kernel(dev, "vadd", version, &k))
		return 1;
	for (i = 0; i < N; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(N - i);
	}
	CHECK(!devimg_buf_new(dev, sizeof(a), &ba) &&
	      !devimg_buf_new(dev, sizeof(b), &bb) &&
	      !devimg_buf_new(dev, sizeof(c), &bc), "buf_new");
	CHECK(!devimg_buf_write(q, ba, 0, sizeof(a), a) &&
	      !devimg_buf_write(q, bb, 0, sizeof(b), b), "buf_write");
	CHECK(!devimg_kernel_set_arg_buf(k, 0, ba) &&
	      !devimg_kernel_set_arg_buf(k, 1, bb) &&
	      !devimg_kernel_set_arg_buf(k, 2, bc), "set_arg_buf");
	CHECK(!devimg_launch(q, k, 1, NULL, &g, NULL), "launch vadd");
	CHECK(!devimg_buf_read(q, bc, 0, sizeof(c), c), "read");
	for (i = 0; i < N; i++)
		CHECK(c[i] == a[i] + b[i], "vadd c[%d] = %g", i, c[i]);
	devimg_kernel_unref(k);
	devimg_buf_unref(ba);
	devimg_buf_unref(bb);
	devimg_buf_unref(bc);
	printf("ok vadd\n");
	return 0;
}

static int run_off(struct devimg_device *dev, struct devimg_queue *q,
		   const char *name, unsigned version, unsigned dims)
{
	const size_t g[2] = { W, N / W };
	unsigned w = W;
	struct devimg_kernel *k;
	struct devimg_buf *bo;
	int out[N], i;

	if (kernel(dev, name, version, &k))
		return 1;
	CHECK(!devimg_buf_new(dev, sizeof(out), &bo), "buf_new");
	CHECK(!devimg_kernel_set_arg_buf(k, 0, bo), "set_arg_buf");
	if (dims == 2)
		CHECK(!devimg_kernel_set_arg(k, 1, sizeof(w), &w), "set_arg");
	if (dims == 1)
		CHECK(!devimg_launch(q, k, 1, NULL, (const size_t[]){ N },
				     NULL), "launch %s", name);
	else
		CHECK(!devimg_launch(q, k, 2, NULL, g, NULL), "launch %s",
		      name);
	CHECK(!devimg_buf_read(q, bo, 0, sizeof(out), out), "read");
	for (i = 0; i < N; i++) {
		int want = dims == 1 ? i + 1 : (i / W) * 1000 + i % W + 1;

		CHECK(out[i] == want, "%s out[%d] = %d, want %d", name, i,
		      out[i], want);
	}
	devimg_kernel_unref(k);
	devimg_buf_unref(bo);
	printf("ok %s\n", name);
	return 0;
}

/* NAME:VERSION, as the command line gives it. */
static int run_arg(struct devimg_device *dev, struct devimg_queue *q,
		   const char *arg)
{
	const char *colon = strchr(arg, ':');
	unsigned version;
	size_t len;

	if (!colon) {
		fprintf(stderr, "FAIL: %s: expected NAME:VERSION\n", arg);
		return failed = 1;
	}
	len = (size_t)(colon - arg);
	version = (unsigned)strtoul(colon + 1, NULL, 10);
	if (len == 4 && !strncmp(arg, "vadd", len))
		return run_vadd(dev, q, version);
	if (len == 4 && !strncmp(arg, "off1", len))
		return run_off(dev, q, "off1", version, 1);
	if (len == 4 && !strncmp(arg, "off2", len))
		return run_off(dev, q, "off2", version, 2);
	fprintf(stderr, "FAIL: %s: no such kernel here\n", arg);
	return failed = 1;
}

int main(int argc, char **argv)
{
	struct env e = { 0 };
	int err = runner_open(&e, NULL);

	if (err)
		return err;
	if (argc > 1) {
		int i;

		for (i = 1; i < argc && !run_arg(e.dev, e.q, argv[i]); i++)
			;
	} else if (!run_vadd(e.dev, e.q, 2) &&
		   !run_off(e.dev, e.q, "off1", 3, 1)) {
		run_off(e.dev, e.q, "off2", 3, 2);
	}
	runner_close(&e);
	return failed;
}
