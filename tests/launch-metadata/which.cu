// SPDX-License-Identifier: MIT
/*
 * tests/launch-metadata/which.cl in CUDA C: one kernel in several images,
 * built with -DVAL=n; the value it writes says which ran.
 */
#include "../cuda/lowered.h"

KERNEL which(int *out)
{
	*out = VAL;
}
