// SPDX-License-Identifier: MIT
/*
 * Device globals lowered for CUDA: module-scope __device__ variables.
 * devimg_test_counter's unique id differs from its PTX name (the image's
 * "@global_id_mapping" property maps it, as sycl-post-link writes it);
 * devimg_test_ptr's id is its name (no mapping). devimg_test_counter has
 * device_image_scope (the variable is the value); devimg_test_ptr has not
 * (the variable holds the address of the value, which the runtime
 * allocates and stores). Each kernel adds to the value through one.
 */
#include "lowered.h"

/* Definitions with C names: in a block, not "extern" declarations. */
extern "C" {
__device__ unsigned devimg_test_counter[4] = { 5, 6, 7, 8 };
__device__ unsigned *devimg_test_ptr;
}

KERNEL bump_counter(void)
{
	devimg_test_counter[0] += 1;
}

KERNEL bump_ptr(void)
{
	*devimg_test_ptr += 1;
}
