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
#include "tests/runner.h"

int main(int argc, char **argv)
{
	struct devimg_kernel *k = NULL;
	struct env e = { 0 };
	int err, rc = 1;
	void *lib;

	if (argc != 4) {
		fprintf(stderr, "usage: %s LIBRARY KERNEL PATTERN\n", argv[0]);
		return 2;
	}
	if (runner_ctx(&e, argv[1], &lib))
		return 1;
	err = runner_device(&e, NULL);
	if (err)
		return err;
	err = devimg_kernel_new(e.dev, argv[2], &k);
	printf("kernel_new(%s): %s: %s\n", argv[2], devimg_strerror(err),
	       devimg_last_error());
	if (err != -ENOEXEC || k)
		fprintf(stderr, "FAIL: expected -ENOEXEC, got %d\n", err);
	else if (!strstr(devimg_last_error(), argv[3]))
		fprintf(stderr, "FAIL: the message lacks '%s'\n", argv[3]);
	else
		rc = 0;
	devimg_kernel_unref(k);
	if (runner_close(&e))
		rc = 1;
	return rc;
}
