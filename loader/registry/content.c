// SPDX-License-Identifier: MIT
/*
 * What the bytes of an image are, told by their first bytes: SPIR-V (either
 * byte order), LLVM bitcode (raw or wrapped), ELF, or PTX text (with the
 * sm number of its ".target" line). Pure: no image record, no lock.
 */
#include <stdbool.h>
#include <string.h>

#include "loader/registry/registry.h"

#define PTX_SCAN 4096

static bool has_prefix(const unsigned char *p, size_t size, const char *s,
		       size_t n)
{
	return size >= n && memcmp(p, s, n) == 0;
}

/* The NN of the first ".target sm_NN" in the first PTX_SCAN bytes. */
static unsigned ptx_target_sm(const unsigned char *p, size_t size)
{
	static const char key[] = ".target";
	size_t end = size < PTX_SCAN ? size : PTX_SCAN;
	size_t i, j;
	unsigned sm = 0;

	for (i = 0; i + sizeof(key) - 1 < end; i++) {
		if (memcmp(p + i, key, sizeof(key) - 1) != 0)
			continue;
		j = i + sizeof(key) - 1;
		while (j < end && (p[j] == ' ' || p[j] == '\t'))
			j++;
		if (j + 3 >= end || memcmp(p + j, "sm_", 3) != 0)
			return 0;
		for (j += 3; j < end && p[j] >= '0' && p[j] <= '9' &&
			     sm < 10000; j++)
			sm = sm * 10 + (unsigned)(p[j] - '0');
		return sm;
	}
	return 0;
}

static bool is_ptx(const unsigned char *p, size_t size)
{
	size_t i = 0;

	while (i < size && i < PTX_SCAN &&
	       (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
		i++;
	return has_prefix(p + i, size - i, "//", 2) ||
	       has_prefix(p + i, size - i, ".version", 8);
}

enum image_content image_content_of(const void *bytes, size_t size,
				    unsigned *ptx_sm)
{
	const unsigned char *p = bytes;

	*ptx_sm = 0;
	if (has_prefix(p, size, "\x03\x02\x23\x07", 4) ||
	    has_prefix(p, size, "\x07\x23\x02\x03", 4))
		return CONTENT_SPIRV;
	if (has_prefix(p, size, "BC\xc0\xde", 4) ||
	    has_prefix(p, size, "\xde\xc0\x17\x0b", 4))
		return CONTENT_LLVMBC;
	if (has_prefix(p, size, "\x7f" "ELF", 4))
		return CONTENT_ELF;
	if (is_ptx(p, size)) {
		*ptx_sm = ptx_target_sm(p, size);
		return CONTENT_PTX;
	}
	return CONTENT_UNKNOWN;
}
