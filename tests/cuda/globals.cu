// SPDX-License-Identifier: MIT
/*
 * Device globals lowered for CUDA: a module-scope __device__ variable
 * whose PTX name is the global's unique id. devimg_test_counter has
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
