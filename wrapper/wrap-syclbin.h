/* SPDX-License-Identifier: MIT */
/*
 * devimg-wrap --syclbin: the images of a wrap set written as a SYCLBIN
 * file (props/syclbin.h) instead of an ELF object, one abstract module per
 * image, in the envelope DPC++'s runtime reads.
 */
#ifndef DEVIMG_WRAPPER_WRAP_SYCLBIN_H
#define DEVIMG_WRAPPER_WRAP_SYCLBIN_H

#include <stdint.h>

#include "wrapper/object-writer.h"

/* "input", "object", "executable" to 0, 1, 2; -1 for anything else. */
int wrap_syclbin_state(const char *name);

/*
 * Write set as a SYCLBIN in state to fd (an empty regular file), out_name
 * naming it in messages. Every image must be -format=spirv (an IR module;
 * no -target is spir64) or -format=native with a -target (a native device
 * code image; its arch is the "compile_target" of its "SYCL/device
 * requirements", "" when none), with no manifest and no compile or link
 * options: a SYCLBIN has no place for them. Each module's metadata is the image's property sets unchanged,
 * then "SYCL/kernel names" with NAME=1|1 for each entry. Returns 0 or -1
 * with err "<file>: <reason>".
 */
int wrap_write_syclbin(struct wrap_set *set, uint32_t state, int fd,
		       const char *out_name, struct errmsg *err);

#endif
