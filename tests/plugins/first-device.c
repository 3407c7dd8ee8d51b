// SPDX-License-Identifier: MIT
/*
 * How far a context goes through the plugins. Usage: first-device OP...,
 * where OP is "get:N" (devimg_device_get(ctx, N)) or "count"
 * (devimg_device_count()), run in order on one context. Prints, per OP,
 * "get:N BACKEND" (or "get:N none"), "count N"; then runs the script named
 * by FIRST_DEVICE_AFTER_EACH, when set, with the OP as its argument (the
 * test looks at which plugins started so far). Exits 1 when the context
 * cannot be made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

static void after(const char *op)
{
	const char *script = getenv("FIRST_DEVICE_AFTER_EACH");
	char cmd[4096];

	if (!script || !*script)
		return;
	fflush(stdout);
	snprintf(cmd, sizeof(cmd), "%s %s", script, op);
	if (system(cmd) != 0)
		fprintf(stderr, "first-device: '%s' failed\n", cmd);
}

int main(int argc, char **argv)
{
	struct devimg_ctx *ctx;
	struct devimg_device *dev;
	int i;

	if (devimg_ctx_new(&ctx) < 0) {
		fprintf(stderr, "first-device: %s\n", devimg_last_error());
		return 1;
	}
	after("new");
	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "get:", 4)) {
			dev = devimg_device_get(ctx, atoi(argv[i] + 4));
			printf("%s %s\n", argv[i],
			       dev ? devimg_device_backend(dev) : "none");
		} else {
			printf("count %u\n", devimg_device_count(ctx));
		}
		after(argv[i]);
	}
	devimg_ctx_unref(ctx);
	return 0;
}
