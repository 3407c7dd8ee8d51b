/* SPDX-License-Identifier: MIT */
/*
 * devimg-wrap's warnings: images that wrap fine but will not work as
 * their command line means. A SYCL image without a kernel list (its
 * kernels can never be found), a manifest file that looks like a kernel
 * list (a .sym file given as the second file), a -format that the
 * file's magic number contradicts, kernels of a SPIR-V image's list that
 * are not among the module's OpEntryPoint names. Warnings change nothing
 * that is written; devimg-wrap prints them, one line each, once the
 * output is written (-Werror: instead of writing it).
 */
#ifndef DEVIMG_WRAPPER_LINT_H
#define DEVIMG_WRAPPER_LINT_H

#include <stddef.h>

#include "wrapper/object-writer.h"

struct wrap_warnings {
	char **lines;
	size_t n;
};

/* Add a warning (one line, no program name). -1 out of memory. */
int wrap_warn(struct wrap_warnings *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Warn about every image of set. Reads the start of each image file (all
 * of a SPIR-V module's preamble, up to its last OpEntryPoint). 0, or -1
 * with a message on stderr when a file cannot be read or out of memory.
 */
int wrap_lint(const struct wrap_set *set, struct wrap_warnings *w);
/* "devimg-wrap: warning: ..." on stderr, or "error:" and " [-Werror]". */
void wrap_warnings_print(const struct wrap_warnings *w, int as_errors);
void wrap_warnings_fini(struct wrap_warnings *w);

#endif
