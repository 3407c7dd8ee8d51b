/* SPDX-License-Identifier: MIT */
/*
 * What the tests that drive the Level Zero plugin's operations directly
 * share: the operation table they load, checks that report the plugin's
 * message, and the reading of their input files.
 */
#ifndef DEVIMG_TEST_PLUGIN_CHECK_H
#define DEVIMG_TEST_PLUGIN_CHECK_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "plugins/devimg_plugin.h"

extern struct devimg_plugin_ops ops;
/* Set by a failed CHECK: the test exits 1 at the end. */
extern int failed;

/* Fail the calling function (return -1) unless cond holds. */
#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);			\
			fprintf(stderr, " [plugin: %s]\n",		\
				ops.last_error());			\
			failed = 1;					\
			return -1;					\
		}							\
	} while (0)

/* The call failed with err and its message holds every needle. */
#define CHECK_ERR(call, err, ...)					\
	do {								\
		const char *needles_[] = { __VA_ARGS__ };		\
		size_t i_;						\
		int rc_ = (call);					\
									\
		CHECK(rc_ == (err), "%s: %d, want %d", #call, rc_, err); \
		for (i_ = 0; i_ < sizeof(needles_) / sizeof(*needles_); i_++) \
			CHECK(strstr(ops.last_error(), needles_[i_]),	\
			      "%s: no \"%s\" in the message", #call,	\
			      needles_[i_]);				\
	} while (0)

/* The bytes of path into *out (malloc'd) and *size; -1 when it fails. */
int read_file(const char *path, unsigned char **out, size_t *size);
/* dlopen the plugin at path and fill ops through its entry point. */
int plugin_open(const char *path);

#endif
