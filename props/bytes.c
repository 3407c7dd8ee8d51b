// SPDX-License-Identifier: MIT
/* Byte arrays: an 8-byte little-endian bit count, then ceil(bits/8) bytes. */
#include <errno.h>
#include <inttypes.h>

#include "props/internal.h"

int props_bytes_check(const unsigned char *buf, uint64_t size, uint64_t *nbits,
		      struct errmsg *detail)
{
	uint64_t bits, need, have;

	if (size < PROPS_BYTES_HEADER || !buf) {
		errmsg_set(detail,
			   "byte array shorter than its bit-count header: saw %" PRIu64
			   " bytes, expected at least %u",
			   size, PROPS_BYTES_HEADER);
		return -EINVAL;
	}
	bits = get_le64(buf);
	need = bits / 8 + (bits % 8 != 0);
	have = size - PROPS_BYTES_HEADER;
	if (need > have) {
		errmsg_set(detail,
			   "header bit count larger than the payload: saw %" PRIu64
			   " bits for %" PRIu64 " payload bytes, expected at most %" PRIu64
			   " bits",
			   bits, have, have * 8);
		return -EINVAL;
	}
	if (need < have) {
		errmsg_set(detail,
			   "header bit count smaller than the payload: saw %" PRIu64
			   " bits for %" PRIu64 " payload bytes, expected %" PRIu64
			   " payload bytes",
			   bits, have, need);
		return -EINVAL;
	}
	*nbits = bits;
	return 0;
}

int props_bytes_payload(const void *buf, uint64_t size, const char *where,
			const unsigned char **payload, uint64_t *nbits,
			struct errmsg *err)
{
	uint64_t bits;
	int r;

	r = props_bytes_check(buf, size, &bits, err);
	if (r < 0) {
		errmsg_prefix(err, "%s", where ? where : "byte array");
		return r;
	}
	if (payload)
		*payload = (const unsigned char *)buf + PROPS_BYTES_HEADER;
	if (nbits)
		*nbits = bits;
	return 0;
}
