/* SPDX-License-Identifier: MIT */
/*
 * Checked size arithmetic for every size computed from descriptor fields,
 * property sets, command lines or files: each returns true when the
 * result does not fit (and then leaves *r unspecified), so a caller
 * refuses instead of allocating or copying a wrapped size.
 *
 *	if (size_add(hdr, len, &total) || size_mul(n, sizeof(*v), &bytes))
 *		return -EOVERFLOW;
 */
#ifndef DEVIMG_CHECKED_H
#define DEVIMG_CHECKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool size_add(size_t a, size_t b, size_t *r)
{
	return __builtin_add_overflow(a, b, r);
}

static inline bool size_add3(size_t a, size_t b, size_t c, size_t *r)
{
	return __builtin_add_overflow(a, b, r) ||
	       __builtin_add_overflow(*r, c, r);
}

static inline bool size_mul(size_t a, size_t b, size_t *r)
{
	return __builtin_mul_overflow(a, b, r);
}

/* A 64-bit field (a descriptor's size, a file offset) as a size_t. */
static inline bool size_from_u64(uint64_t v, size_t *r)
{
	if (v > SIZE_MAX)
		return true;
	*r = (size_t)v;
	return false;
}

/* *acc += b, true when it would wrap (*acc unchanged then). */
static inline bool size_accumulate(size_t *acc, size_t b)
{
	size_t r;

	if (__builtin_add_overflow(*acc, b, &r))
		return true;
	*acc = r;
	return false;
}

#endif /* DEVIMG_CHECKED_H */
