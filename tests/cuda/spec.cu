// SPDX-License-Identifier: MIT
/*
 * tests/dispatch/spec.cl lowered for CUDA: the spec-constant buffer is the
 * last parameter. ScalarSpec (int) at 0, StructSpec { char c; int i; } at
 * 4 (c at 4, i at 8).
 */
#include "lowered.h"

KERNEL spec_k(int *out, int add, const char *spec)
{
	out[0] = rd32(spec) + add;
	out[1] = spec[4];
	out[2] = rd32(spec + 8);
}
