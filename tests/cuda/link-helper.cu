// SPDX-License-Identifier: MIT
/*
 * The helper of the link test: a visible device function that another
 * object calls (link-caller.cu). Built as relocatable device code, so
 * that it stays a .visible .func and is not inlined away.
 */
#include "lowered.h"

extern "C" __device__ __attribute__((noinline)) int devimg_link_helper(int x)
{
	return x * 3 + 1;
}
