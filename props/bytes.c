// SPDX-License-Identifier: MIT
/* Byte arrays: an 8-byte little-endian bit count, then ceil(bits/8) bytes. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "internal.h"

uint64_t props_le64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

uint32_t props_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint16_t props_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

void props_put_le64(unsigned char *p, uint64_t v)
{
	put_le(p, v, 8);
}

void props_put_le32(unsigned char *p, uint32_t v)
{
	put_le(p, v, 4);
}

void props_put_le16(unsigned char *p, uint16_t v)
{
	put_le(p, v, 2);
}

int props_bytes_check(const unsigned char *buf, uint64_t size, uint64_t *nbits,
		      char *detail, size_t detailsz)
{
	uint64_t bits, need, have;

	if (size < PROPS_BYTES_HEADER || !buf) {
		snprintf(detail, detailsz,
			 "byte array shorter than its bit-count header: saw %" PRIu64
			 " bytes, expected at least %u",
			 size, PROPS_BYTES_HEADER);
		return -EINVAL;
	}
	bits = props_le64(buf);
	need = bits / 8 + (bits % 8 != 0);
	have = size - PROPS_BYTES_HEADER;
	if (need > have) {
		snprintf(detail, detailsz,
			 "header bit count larger than the payload: saw %" PRIu64
			 " bits for %" PRIu64 " payload bytes, expected at most %" PRIu64
			 " bits",
			 bits, have, have * 8);
		return -EINVAL;
	}
	if (need < have) {
		snprintf(detail, detailsz,
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
			struct props_error *err)
{
	char detail[256];
	uint64_t bits;
	int r;

	r = props_bytes_check(buf, size, &bits, detail, sizeof(detail));
	if (r < 0) {
		props_errf(err, "%s: %s", where ? where : "byte array", detail);
		return r;
	}
	if (payload)
		*payload = (const unsigned char *)buf + PROPS_BYTES_HEADER;
	if (nbits)
		*nbits = bits;
	return 0;
}
