/*
 * The demo's host program: its device code (vadd.cl, compiled to SPIR-V
 * and to SPIR bitcode, both wrapped by devimg-wrap into one object) was
 * registered before main() ran; this makes the kernel on the first device
 * that has an image for it, which picks the image that device ingests
 * (SPIR-V or SPIR), runs it there and checks the sums.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <devimg/devimg.h>

#define N 1024

static int fail(const char *what, int err)
{
	const char *detail = devimg_last_error();

	fprintf(stderr, "vadd: %s: %s%s%s\n", what, devimg_strerror(err),
		detail && *detail ? ": " : "", detail ? detail : "");
	return EXIT_FAILURE;
}

static const char *format_name(enum devimg_image_format fmt)
{
	switch (fmt) {
	case DEVIMG_FORMAT_SPIRV:
		return "SPIR-V";
	case DEVIMG_FORMAT_LLVMBC:
		return "SPIR bitcode";
	case DEVIMG_FORMAT_NATIVE:
		return "native";
	default:
		return "unknown";
	}
}

/*
 * The first device that has an image of the kernel (the context lists
 * CUDA and Level Zero devices before OpenCL ones; the demo's images are
 * for SPIR-family devices): the kernel made there, or NULL.
 */
static struct devimg_kernel *kernel_on_first_fit(struct devimg_ctx *ctx,
						 const char *name,
						 struct devimg_device **dev)
{
	unsigned i, n = devimg_device_count(ctx);
	struct devimg_kernel *k;
	int err = 0;

	for (i = 0; i < n; i++) {
		*dev = devimg_device_get(ctx, i);
		err = devimg_kernel_new(*dev, name, &k);
		if (!err)
			return k;
		if (err != -ENOEXEC)
			break;
	}
	if (!n)
		fprintf(stderr, "vadd: no device (is pocl-opencl-icd installed?)\n");
	else
		fail("finding a device for vadd", err);
	return NULL;
}

/* The device, and which of the wrapped images the kernel was built from. */
static void show(struct devimg_device *dev, struct devimg_kernel *k)
{
	struct devimg_image *img = devimg_kernel_image(k);
	enum devimg_image_format fmt = DEVIMG_FORMAT_NONE;

	devimg_image_guess_format(img, &fmt);
	printf("device: %s (%s)\n", devimg_device_name(dev),
	       devimg_device_backend(dev));
	printf("image: %u, %s, target %s\n", devimg_image_index(img),
	       format_name(fmt), devimg_image_target(img));
}

static int run(struct devimg_device *dev, struct devimg_kernel *k,
	       float *a, float *b, float *c)
{
	struct devimg_queue *q = NULL;
	struct devimg_buf *ba = NULL, *bb = NULL, *bc = NULL;
	size_t global = N, bytes = sizeof(float) * N;
	int err;

	if ((err = devimg_queue_new(dev, &q)) ||
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
		fail("running vadd", err);
	devimg_buf_unref(bc);
	devimg_buf_unref(bb);
	devimg_buf_unref(ba);
	devimg_queue_unref(q);
	return err;
}

int main(void)
{
	static float a[N], b[N], c[N];
	struct devimg_ctx *ctx;
	struct devimg_device *dev = NULL;
	struct devimg_kernel *k;
	int err, bad = 0;

	for (int i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = 0.5f * (float)(N - i);
	}
	err = devimg_ctx_new(&ctx);
	if (err)
		return fail("creating the context", err);
	k = kernel_on_first_fit(ctx, "vadd", &dev);
	if (!k) {
		devimg_ctx_unref(ctx);
		return EXIT_FAILURE;
	}
	show(dev, k);
	err = run(dev, k, a, b, c);
	devimg_kernel_unref(k);
	devimg_ctx_unref(ctx);
	if (err)
		return EXIT_FAILURE;
	for (int i = 0; i < N; i++)
		bad += c[i] != a[i] + b[i];
	printf("vadd of %d floats: c[0]=%g c[%d]=%g, %s\n", N, c[0], N - 1,
	       c[N - 1], bad ? "WRONG" : "all correct");
	return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
