/* SPDX-License-Identifier: MIT */
/*
 * What the end-to-end runners (tests/dispatch, tests/cuda, tests/meta,
 * tests/level_zero) share: CHECK(), which reports a failed condition with
 * its place, a message and devimg_last_error(), marks the run failed and
 * returns -1 from the test function; and the context, device and queue a
 * test runs on. Include once, from the runner's main file.
 */
#ifndef DEVIMG_TESTS_RUNNER_H
#define DEVIMG_TESTS_RUNNER_H

#include <stdio.h>

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

#endif
