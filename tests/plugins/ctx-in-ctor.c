// SPDX-License-Identifier: MIT
/*
 * A library whose constructor makes a context, as a runtime built on
 * libdevimg may in a static initializer: the plugins then start while the
 * program's dlopen() of this library holds the dynamic linker's lock.
 * Prints "ctor: RC DEVICES" on standard output.
 */
#include <stdio.h>

#include <devimg/devimg.h>

__attribute__((constructor)) static void make_context(void)
{
	struct devimg_ctx *ctx;
	int rc = devimg_ctx_new(&ctx);

	printf("ctor: %d %u\n", rc, rc == 0 ? devimg_device_count(ctx) : 0);
	fflush(stdout);
	if (rc == 0)
		devimg_ctx_unref(ctx);
}
