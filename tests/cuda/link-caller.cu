// SPDX-License-Identifier: MIT
/*
 * The caller of the link test: a kernel that calls devimg_link_helper,
 * which only link-helper.cu defines. Its PTX declares the helper
 * .extern .func; loaded alone, the JIT fails on the unresolved symbol.
 */
#include "lowered.h"

extern "C" __device__ int devimg_link_helper(int x);

static __device__ void link_caller_body(int *out, unsigned i)
{
	out[i] = devimg_link_helper((int)i);
}

KERNEL link_caller(int *out)
{
	link_caller_body(out, global_x());
}

KERNEL link_caller_with_offset(int *out, struct devimg_offset o)
{
	link_caller_body(out, global_x() + o.x);
}
