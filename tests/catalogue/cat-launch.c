// SPDX-License-Identifier: MIT
/*
 * cat-launch LIBRARY KERNEL: opens a library of wrapped images, makes the
 * kernel on the first device and launches it once over one item with a
 * buffer as its only argument. On failure one line "cat-launch: KERNEL:
 * <error>: <devimg_last_error()>" on stderr (line breaks of a build log
 * shown as "\n") and exit status 1; 77 without a device.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <devimg/devimg.h>

static int report(const char *kernel, int err)
{
	const char *s;

	fprintf(stderr, "cat-launch: %s: %s: ", kernel, devimg_strerror(err));
	for (s = devimg_last_error(); *s; s++) {
		if (*s == '\n' && s[1])
			fputs("\\n", stderr);
		else if (*s != '\n')
			fputc(*s, stderr);
	}
	fputc('\n', stderr);
	return 1;
}

int main(int argc, char **argv)
{
	struct devimg_ctx *ctx = NULL;
	struct devimg_queue *q = NULL;
	struct devimg_kernel *k = NULL;
	struct devimg_buf *b = NULL;
	struct devimg_device *dev;
	size_t g = 1;
	void *lib;
	int err, ret = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: cat-launch LIBRARY KERNEL\n");
		return 2;
	}
	lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "cat-launch: %s\n", dlerror());
		return 1;
	}
	err = devimg_ctx_new(&ctx);
	if (err)
		return report("context", err);
	if (devimg_device_count(ctx) == 0) {
		devimg_ctx_unref(ctx);
		dlclose(lib);
		return 77;
	}
	dev = devimg_device_get(ctx, 0);
	err = devimg_queue_new(dev, &q);
	if (!err)
		err = devimg_buf_new(dev, 64, &b);
	if (!err)
		err = devimg_kernel_new(dev, argv[2], &k);
	if (!err)
		err = devimg_kernel_set_arg_buf(k, 0, b);
	if (!err)
		err = devimg_launch(q, k, 1, NULL, &g, NULL);
	if (!err)
		err = devimg_queue_finish(q);
	if (err)
		ret = report(argv[2], err);
	devimg_kernel_unref(k);
	devimg_buf_unref(b);
	devimg_queue_unref(q);
	devimg_ctx_unref(ctx);
	dlclose(lib);
	return ret;
}
