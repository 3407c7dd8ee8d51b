/* SPDX-License-Identifier: MIT */
/*
 * What the end-to-end runners (tests/dispatch, tests/cuda,
 * tests/launch-metadata, tests/level_zero) share: CHECK(), which reports a failed condition with
 * its place, a message and devimg_last_error(), marks the run failed and
 * returns -1 from the test function; and the context, device and queue a
 * test runs on. Include once, from the runner's main file.
 */
#ifndef DEVIMG_TESTS_RUNNER_H
#define DEVIMG_TESTS_RUNNER_H

#include <stdio.h>
#include <string.h>

#include <devimg/devimg.h>

/* Set by a failed CHECK(); main() returns it. */
static int failed;

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);			\
			fprintf(stderr, " [last error: %s]\n",		\
				devimg_last_error());			\
			failed = 1;					\
			return -1;					\
		}							\
	} while (0)

struct env {
	struct devimg_ctx *ctx;
	struct devimg_device *dev;
	struct devimg_queue *q;
};

/*
 * A context, its device 0 (of backend, unless NULL) and a queue on it,
 * the device named on stdout. 0; 77 when there is no device at all; 1,
 * with a message, on an error or a device of another backend.
 */
static inline int runner_open(struct env *e, const char *backend)
{
	int err = devimg_ctx_new(&e->ctx);

	if (err < 0) {
		fprintf(stderr, "FAIL: devimg_ctx_new: %d %s\n", err,
			devimg_last_error());
		return 1;
	}
	e->dev = devimg_device_get(e->ctx, 0);
	if (!e->dev) {
		printf("no device\n");
		devimg_ctx_unref(e->ctx);
		return 77;
	}
	printf("device: %s (%s)\n", devimg_device_name(e->dev),
	       devimg_device_backend(e->dev));
	if (backend && strcmp(devimg_device_backend(e->dev), backend)) {
		fprintf(stderr, "FAIL: device 0 is not a %s device\n", backend);
		devimg_ctx_unref(e->ctx);
		return 1;
	}
	err = devimg_queue_new(e->dev, &e->q);
	if (err < 0) {
		fprintf(stderr, "FAIL: devimg_queue_new: %d %s\n", err,
			devimg_last_error());
		devimg_ctx_unref(e->ctx);
		return 1;
	}
	return 0;
}

#endif
