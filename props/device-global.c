// SPDX-License-Identifier: MIT
/*
 * Device globals: the "SYCL/device globals" property values and the
 * HostAccessINTEL decorations of a SPIR-V module (docs/formats.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/checked.h"
#include "props/device-global.h"
#include "props/internal.h"

/* uint32 size, uint8 flag, 3 bytes of padding the writer leaves unset. */
#define DEVGLOBAL_PAYLOAD 8u
#define DEVGLOBAL_FLAG_AT 4u

#define SPV_MAGIC 0x07230203u
#define SPV_HEADER_WORDS 5u
#define SPV_OP_DECORATE 71u
/*
 * The registered number, and the one of SPV_INTEL_global_variable_decorations
 * that translators wrote before it, whose access values count 0 read,
 * 1 write, 2 read_write, 3 none.
 */
#define SPV_DEC_HOST_ACCESS 6188u
#define SPV_DEC_HOST_ACCESS_OLD 6147u
/* Opcode word, target, decoration, access, one word of name at least. */
#define SPV_HOST_ACCESS_MIN_WORDS 5u

static int fail(char *msg, size_t msgsize, const char *fmt, ...)
	DEVIMG_PRINTF(3, 4);

static int fail(char *msg, size_t msgsize, const char *fmt, ...)
{
	va_list ap;

	if (msg && msgsize) {
		va_start(ap, fmt);
		vsnprintf(msg, msgsize, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int devglobal_decode(const unsigned char *value, uint64_t len,
		     struct devglobal_info *out, char *msg, size_t msgsize)
{
	uint64_t nbits;
	uint8_t flag;

	if (!value || !out)
		return fail(msg, msgsize, "device global value: no bytes given");
	if (len != PROPS_BYTES_HEADER + DEVGLOBAL_PAYLOAD)
		return fail(msg, msgsize,
			    "device global value: length: saw %" PRIu64
			    " bytes, expected %u (8-byte bit count, uint32 size, uint8 device_image_scope, 3 padding bytes)",
			    len, PROPS_BYTES_HEADER + DEVGLOBAL_PAYLOAD);
	nbits = get_le64(value);
	if (nbits != DEVGLOBAL_PAYLOAD * 8)
		return fail(msg, msgsize,
			    "device global value: bit count: saw %" PRIu64
			    ", expected %u for the %u-byte payload",
			    nbits, DEVGLOBAL_PAYLOAD * 8, DEVGLOBAL_PAYLOAD);
	flag = value[PROPS_BYTES_HEADER + DEVGLOBAL_FLAG_AT];
	if (flag > 1)
		return fail(msg, msgsize,
			    "device global value: device_image_scope flag: saw %u, expected 0 or 1",
			    flag);
	out->size = get_le32(value + PROPS_BYTES_HEADER);
	out->image_scope = flag;
	return 0;
}

struct spv_words {
	const unsigned char *p;
	size_t n;
	bool swapped;
};

static uint32_t spv_word(const struct spv_words *m, size_t i)
{
	const unsigned char *q = m->p + i * 4;

	if (m->swapped)
		return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 |
		       (uint32_t)q[2] << 8 | (uint32_t)q[3];
	return get_le32(q);
}

/*
 * Does the literal string in words [at, end) equal id? Its octets are
 * packed four a word, the first in the lowest-order bits, whatever the
 * module's byte order. 1 or 0; -EINVAL when no NUL ends it in the span.
 */
static int spv_string_is(const struct spv_words *m, size_t at, size_t end,
			 const char *id)
{
	size_t i, k, pos = 0;
	bool same = true;
	uint32_t w;
	char c;

	for (i = at; i < end; i++) {
		w = spv_word(m, i);
		for (k = 0; k < 4; k++) {
			c = (char)(w >> (8 * k) & 0xff);
			if (same && c != id[pos])
				same = false;
			if (c == '\0')
				return same;
			if (same)
				pos++;
		}
	}
	return -EINVAL;
}

static int spv_open(const void *spv, size_t size, struct spv_words *m,
		    char *msg, size_t msgsize)
{
	const unsigned char *p = spv;
	uint32_t magic;

	if (!spv || size % 4)
		return fail(msg, msgsize,
			    "SPIR-V module: size: saw %zu bytes, expected a whole number of 4-byte words",
			    size);
	if (size / 4 < SPV_HEADER_WORDS)
		return fail(msg, msgsize,
			    "SPIR-V module: header: saw %zu words, expected at least %u",
			    size / 4, SPV_HEADER_WORDS);
	m->p = p;
	m->n = size / 4;
	m->swapped = false;
	magic = get_le32(p);
	if (magic == SPV_MAGIC)
		return 0;
	m->swapped = true;
	if (spv_word(m, 0) == SPV_MAGIC)
		return 0;
	return fail(msg, msgsize,
		    "SPIR-V module: word 0: magic number: saw 0x%08" PRIx32
		    ", expected 0x%08x in either byte order",
		    magic, SPV_MAGIC);
}

static const enum devglobal_access old_access[] = {
	DEVGLOBAL_ACCESS_READ, DEVGLOBAL_ACCESS_WRITE,
	DEVGLOBAL_ACCESS_READ_WRITE, DEVGLOBAL_ACCESS_NONE,
};

/* A HostAccessINTEL decoration at word i of wc words: 1 when it names id. */
static int spv_host_access(const struct spv_words *m, size_t i, size_t wc,
			   uint32_t dec, const char *id,
			   enum devglobal_access *out, char *msg, size_t msgsize)
{
	uint32_t access;
	int r;

	if (wc < SPV_HOST_ACCESS_MIN_WORDS)
		return fail(msg, msgsize,
			    "SPIR-V module: word %zu: HostAccessINTEL decoration %" PRIu32 ": saw %zu words, expected at least %u (target, decoration, access, name)",
			    i, dec, wc, SPV_HOST_ACCESS_MIN_WORDS);
	access = spv_word(m, i + 3);
	if (access > DEVGLOBAL_ACCESS_READ_WRITE)
		return fail(msg, msgsize,
			    "SPIR-V module: word %zu: HostAccessINTEL access qualifier: saw %" PRIu32
			    ", expected 0 to 3",
			    i + 3, access);
	r = spv_string_is(m, i + 4, i + wc, id);
	if (r < 0)
		return fail(msg, msgsize,
			    "SPIR-V module: word %zu: HostAccessINTEL name: no NUL before the instruction ends at word %zu",
			    i + 4, i + wc);
	if (r && dec == SPV_DEC_HOST_ACCESS_OLD)
		*out = old_access[access];
	else if (r)
		*out = (enum devglobal_access)access;
	return r;
}

int devglobal_spirv_access(const void *spv, size_t size, const char *id,
			   enum devglobal_access *out, char *msg,
			   size_t msgsize)
{
	struct spv_words m = { 0 };
	size_t i, wc, end;
	uint32_t w, dec;
	int r;

	if (!id || !out)
		return fail(msg, msgsize, "SPIR-V module: no variable name given");
	r = spv_open(spv, size, &m, msg, msgsize);
	if (r < 0)
		return r;
	for (i = SPV_HEADER_WORDS; i < m.n; i = end) {
		w = spv_word(&m, i);
		wc = w >> 16;
		if (wc == 0)
			return fail(msg, msgsize,
				    "SPIR-V module: word %zu: instruction (opcode %" PRIu32
				    ") has word count 0, expected at least 1",
				    i, w & 0xffff);
		if (size_add(i, wc, &end) || end > m.n)
			return fail(msg, msgsize,
				    "SPIR-V module: word %zu: instruction (opcode %" PRIu32
				    ") of %zu words runs past the module's end at word %zu",
				    i, w & 0xffff, wc, m.n);
		if ((w & 0xffff) != SPV_OP_DECORATE)
			continue;
		if (wc < 3)
			return fail(msg, msgsize,
				    "SPIR-V module: word %zu: OpDecorate: saw %zu words, expected at least 3 (target, decoration)",
				    i, wc);
		dec = spv_word(&m, i + 2);
		if (dec != SPV_DEC_HOST_ACCESS && dec != SPV_DEC_HOST_ACCESS_OLD)
			continue;
		r = spv_host_access(&m, i, wc, dec, id, out, msg, msgsize);
		if (r)
			return r < 0 ? r : 0;
	}
	return -ENOENT;
}
