// SPDX-License-Identifier: MIT
/*
 * A counter kept in a device global across launches: the host sets it to
 * 0 with devimg_global_write, launches count_up three times (each adds 1
 * on the device; the value stays in the device's copy of the image
 * between launches) and reads 3 back with devimg_global_read. The device
 * code (examples/device-global.cu) is PTX: it runs on the first CUDA
 * device; without one the program says so and exits 77.
 */
#include <errno.h>
#include <stdio.h>

#include <devimg/devimg.h>

/* The first device that has an image with count_up, and the kernel. */
static struct devimg_device *first_device(struct devimg_ctx *ctx,
					  struct devimg_kernel **k)
{
	struct devimg_device *dev;
	unsigned i;

	for (i = 0; (dev = devimg_device_get(ctx, i)); i++)
		if (devimg_kernel_new(dev, "count_up", k) == 0)
			return dev;
	return NULL;
}

int main(void)
{
	const struct devimg_global *counter;
	const size_t one = 1;
	struct devimg_device *dev;
	struct devimg_kernel *k;
	struct devimg_queue *q;
	struct devimg_ctx *ctx;
	unsigned value = 0, i;
	int err;

	err = devimg_ctx_new(&ctx);
	if (err) {
		fprintf(stderr, "devimg_ctx_new: %s\n", devimg_last_error());
		return 1;
	}
	dev = first_device(ctx, &k);
	if (!dev) {
		printf("skipped: no device takes the example's image (PTX, for a CUDA GPU)\n");
		devimg_ctx_unref(ctx);
		return 77;
	}
	err = devimg_global_find("devimg_example_counter", &counter);
	if (!err)
		err = devimg_queue_new(dev, &q);
	if (err) {
		fprintf(stderr, "%s\n", devimg_last_error());
		devimg_kernel_unref(k);
		devimg_ctx_unref(ctx);
		return 1;
	}
	err = devimg_global_write(q, counter, 0, sizeof(value), &value);
	for (i = 0; !err && i < 3; i++)
		err = devimg_launch(q, k, 1, NULL, &one, &one);
	if (!err)
		err = devimg_global_read(q, counter, 0, sizeof(value), &value);
	if (err)
		fprintf(stderr, "%s: %s\n", devimg_device_name(dev),
			devimg_last_error());
	else
		printf("%s: counter after 3 launches: %u\n",
		       devimg_device_name(dev), value);
	devimg_queue_unref(q);
	devimg_kernel_unref(k);
	devimg_ctx_unref(ctx);
	if (err == -ENOTSUP)
		return 77;
	return err || value != 3;
}
