/* SPDX-License-Identifier: MIT */
/*
 * Device globals in device images: the values of the "SYCL/device globals"
 * property set and the host access that a SPIR-V module gives a variable
 * (SPV_INTEL_global_variable_host_access). docs/formats.md describes both.
 */
#ifndef DEVIMG_PROPS_DEVICE_GLOBAL_H
#define DEVIMG_PROPS_DEVICE_GLOBAL_H

#include <stddef.h>
#include <stdint.h>

/* What one property of the set says of the global its name is the id of. */
struct devglobal_info {
	uint32_t size;		/* bytes of the variable */
	uint32_t image_scope;	/* 1: device_image_scope */
};

/*
 * Decode one property's value: value and len are the BYTE_ARRAY bytes as
 * stored (the 8-byte little-endian bit count, then the payload). The
 * property's name is the global's unique id. sycl-post-link writes a
 * struct of a little-endian uint32 size and a uint8 device_image_scope
 * flag (0 or 1) padded to 8 bytes; the padding is left unset, so it is
 * not read. DPC++'s runtime reads exactly those 8 bytes, so anything but
 * len 16 with a bit count of 64 is refused, as is a flag other than 0 or
 * 1 (no writer makes one). 0, or -EINVAL with a one-line reason in msg
 * (msgsize bytes, NUL-terminated) that names the field that is wrong;
 * *out is written only on success.
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
 * The host access that the SPIR-V module spv (size bytes, either byte
 * order) declares for the variable named id by a HostAccessINTEL
 * decoration: OpDecorate <variable> HostAccessINTEL <access> "<name>",
 * decoration 6188, or 6147, the number translators wrote before it was
 * registered (its access values count 0 read, 1 write, 2 read_write,
 * 3 none; *out is given in the registered numbering). DPC++ names the
 * variable by the global's unique id. Only OpDecorate instructions are
 * looked into; the first whose name is id gives the answer. -ENOENT when no such decoration names id (the caller
 * then assumes read_write); -EINVAL with a reason in msg naming the word
 * offset when the module is malformed where it was read (a size that is
 * not whole words, a bad magic number, an instruction of 0 words or
 * running past the end, a HostAccessINTEL with too few words, an access
 * above 3 or a name without its NUL).
 */
int devglobal_spirv_access(const void *spv, size_t size, const char *id,
			   enum devglobal_access *out, char *msg,
			   size_t msgsize);

#endif
