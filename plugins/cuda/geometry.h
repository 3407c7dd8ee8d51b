/* SPDX-License-Identifier: MIT */
/*
 * Launch geometry of the CUDA plugin, free of driver calls so that unit
 * tests check it on machines without a GPU: where local-memory arguments
 * land in the dynamic shared memory (docs/formats.md, section 11) and
 * which block a launch gets when the caller leaves the choice to the
 * backend.
 */
#ifndef DEVIMG_CUDA_GEOMETRY_H
#define DEVIMG_CUDA_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>

/* The largest alignment a local-memory argument is given. */
#define CU_LOCAL_MAX_ALIGN 128u

/* The block size cap of the backend's own choice (see cu_pick_block). */
#define CU_AUTO_BLOCK_LIMIT 256u

/*
 * Place a local-memory argument of size bytes after *total bytes of
 * earlier ones: its offset is *total padded up to a multiple of
 * min(size, CU_LOCAL_MAX_ALIGN); *total grows by padding and size.
 * Returns false, changing nothing, when the sum overflows limit.
 */
bool cu_local_place(size_t *total, size_t size, size_t limit,
		    size_t *offset);

/* The largest divisor of n that is at most limit (n, limit >= 1). */
size_t cu_largest_divisor(size_t n, size_t limit);

/*
 * A block for global (dims 1 to 3, every size >= 1) whose sizes divide
 * the global sizes: dimension by dimension, the largest divisor within
 * max_block[i] and what limit leaves after the earlier dimensions.
 * Dimensions past dims get 1.
 */
void cu_pick_block(unsigned dims, const size_t *global, size_t limit,
		   const size_t *max_block, size_t *block);

#endif
