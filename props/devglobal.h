/* SPDX-License-Identifier: MIT */
/*
 * Device globals in device images: the values of the "SYCL/device globals"
 * property set and the host access that a SPIR-V module gives a variable
 * (SPV_INTEL_global_variable_host_access). docs/formats.md describes both.
 */
#ifndef DEVIMG_PROPS_DEVGLOBAL_H
#define DEVIMG_PROPS_DEVGLOBAL_H

#include <stddef.h>
#include <stdint.h>

/* What one property of the set says of the global its name is the id of. */
struct devglobal_info {
	uint32_t size;		/* bytes of the variable */
	uint32_t image_scope;	/* 1: device_image_scope */
};

/*
 * Decode one property's value: value and len are the BYTE_ARRAY bytes as
 * stored (the 8-byte little-endian bit count, then the payload). 0, or
 * -EINVAL with a one-line reason in msg (msgsize bytes, NUL-terminated)
 * that names the field that is wrong.
 */
int devglobal_decode(const unsigned char *value, uint64_t len,
		     struct devglobal_info *out, char *msg, size_t msgsize);

/* HostAccessQualifier values, as SPIR-V numbers them. */
enum devglobal_access {
	DEVGLOBAL_ACCESS_NONE = 0,
	DEVGLOBAL_ACCESS_READ = 1,
	DEVGLOBAL_ACCESS_WRITE = 2,
	DEVGLOBAL_ACCESS_READ_WRITE = 3,
};

/*
 * The host access that the SPIR-V module spv (size bytes) declares for the
 * variable named id by a HostAccessINTEL decoration. -ENOENT when no such
 * decoration names id (the caller then assumes read_write); -EINVAL with a
 * reason in msg when the module is malformed where it was read.
 */
int devglobal_spirv_access(const void *spv, size_t size, const char *id,
			   enum devglobal_access *out, char *msg,
			   size_t msgsize);

#endif
