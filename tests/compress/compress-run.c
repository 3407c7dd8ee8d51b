// SPDX-License-Identifier: MIT
/*
 * compress-run LIBRARY KERNEL PATTERN: after opening LIBRARY, making
 * KERNEL on the first device must fail with -ENOEXEC and a message that
 * contains PATTERN (an image whose compressed bytes cannot be expanded).
 * Exit 0 when so, 77 without a device, 1 otherwise.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <devimg/devimg.h>

int main(int argc, char **argv)
{
	struct devimg_kernel *k = NULL;
	struct devimg_ctx *ctx;
	int err, rc = 1;

	if (argc != 4) {
		fprintf(stderr, "usage: %s LIBRARY KERNEL PATTERN\n", argv[0]);
		return 2;
	}
	if (!dlopen(argv[1], RTLD_NOW | RTLD_LOCAL)) {
		fprintf(stderr, "FAIL: %s\n", dlerror());
		return 1;
	}
	err = devimg_ctx_new(&ctx);
	if (err) {
		fprintf(stderr, "FAIL: ctx_new: %s\n", devimg_last_error());
		return 1;
	}
	if (devimg_device_count(ctx) == 0) {
		printf("SKIP: no device in the context\n");
		devimg_ctx_unref(ctx);
		return 77;
	}
	err = devimg_kernel_new(devimg_device_get(ctx, 0), argv[2], &k);
	printf("kernel_new(%s): %s: %s\n", argv[2], devimg_strerror(err),
	       devimg_last_error());
	if (err != -ENOEXEC || k)
		fprintf(stderr, "FAIL: expected -ENOEXEC, got %d\n", err);
	else if (!strstr(devimg_last_error(), argv[3]))
		fprintf(stderr, "FAIL: the message lacks '%s'\n", argv[3]);
	else
		rc = 0;
	devimg_kernel_unref(k);
	devimg_ctx_unref(ctx);
	return rc;
}
