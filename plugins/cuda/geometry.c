// SPDX-License-Identifier: MIT
/*
 * Launch geometry: local-memory offsets and the block the backend picks.
 */
#include "plugins/cuda/geometry.h"

bool cu_local_place(size_t *total, size_t size, size_t limit,
		    size_t *offset)
{
	size_t align = size < CU_LOCAL_MAX_ALIGN ? size : CU_LOCAL_MAX_ALIGN;
	size_t at = *total, pad;

	if (align == 0)
		align = 1;
	pad = at % align ? align - at % align : 0;
	if (at > limit || pad > limit - at || size > limit - at - pad)
		return false;
	*offset = at + pad;
	*total = at + pad + size;
	return true;
}

size_t cu_largest_divisor(size_t n, size_t limit)
{
	size_t d;

	if (n <= limit)
		return n;
	if (n % limit == 0)
		return limit;
	/* Divisors pair up around sqrt(n): look at the small side only. */
	for (d = n / limit + (n % limit != 0); d <= n / d; d++)
		if (n % d == 0 && n / d <= limit)
			return n / d;
	for (d = limit; d > 1; d--)
		if (n % d == 0)
			return d;
	return 1;
}

void cu_pick_block(unsigned dims, const size_t *global, size_t limit,
		   const size_t *max_block, size_t *block)
{
	size_t left = limit ? limit : 1;
	unsigned i;

	for (i = 0; i < 3; i++) {
		size_t cap = left < max_block[i] ? left : max_block[i];

		block[i] = 1;
		if (i < dims && cap > 1)
			block[i] = cu_largest_divisor(global[i], cap);
		left /= block[i];
	}
}
