// SPDX-License-Identifier: MIT
/*
 * A second image that shares devimg_test_ptr (no device_image_scope) with
 * globals.cu: its variable must hold the address of the same value.
 */
#include "lowered.h"

extern "C" {
__device__ unsigned *devimg_test_ptr;
}

KERNEL bump_ptr_b(void)
{
	*devimg_test_ptr += 10;
}
