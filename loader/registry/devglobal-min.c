// SPDX-License-Identifier: MIT
/*
 * A minimal decoder for props/devglobal.h, kept until props/devglobal.c
 * joins the tree (then this file goes): the property value and the
 * HostAccessINTEL decorations, nothing more.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "devglobal.h"

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int devglobal_decode(const unsigned char *value, uint64_t len,
		     struct devglobal_info *out, char *msg, size_t msgsize)
{
	uint64_t bits;
	int i;

	if (!value || len < 16) {
		snprintf(msg, msgsize, "value of %llu bytes, at least 16 expected",
			 (unsigned long long)len);
		return -EINVAL;
	}
	for (bits = 0, i = 7; i >= 0; i--)
		bits = bits << 8 | value[i];
	if (bits != (len - 8) * 8 || bits < 64) {
		snprintf(msg, msgsize, "bit count %llu, %llu expected",
			 (unsigned long long)bits,
			 (unsigned long long)(len - 8) * 8);
		return -EINVAL;
	}
	out->size = le32(value + 8);
	out->image_scope = le32(value + 12);
	if (out->image_scope > 1) {
		snprintf(msg, msgsize, "device_image_scope %u, 0 or 1 expected",
			 out->image_scope);
		return -EINVAL;
	}
	return 0;
}

/* OpDecorate <target> HostAccessINTEL <access> "<name>" */
#define OP_DECORATE 71
#define DEC_HOST_ACCESS 6188

int devglobal_spirv_access(const void *spv, size_t size, const char *id,
			   enum devglobal_access *out, char *msg,
			   size_t msgsize)
{
	const unsigned char *p = spv;
	size_t nwords = size / 4, w = 5, idlen = strlen(id);

	if (size < 20 || size % 4 || le32(p) != 0x07230203) {
		snprintf(msg, msgsize, "not a little-endian SPIR-V module of whole words");
		return -EINVAL;
	}
	while (w < nwords) {
		uint32_t first = le32(p + 4 * w), count = first >> 16;

		if (count == 0 || count > nwords - w) {
			snprintf(msg, msgsize, "instruction at word %zu: word count %u",
				 w, count);
			return -EINVAL;
		}
		if ((first & 0xffff) == OP_DECORATE && count >= 5 &&
		    le32(p + 4 * (w + 2)) == DEC_HOST_ACCESS &&
		    (size_t)(count - 4) * 4 > idlen &&
		    !memcmp(p + 4 * (w + 4), id, idlen + 1)) {
			*out = (enum devglobal_access)(le32(p + 4 * (w + 3)) & 3);
			return 0;
		}
		w += count;
	}
	return -ENOENT;
}
