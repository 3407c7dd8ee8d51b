// SPDX-License-Identifier: MIT
/* The OpenCL C kernel of tests/upstream, for LLVM's SPIR-V backend. */
kernel void vadd(global const float *a, global const float *b,
		 global float *c)
{
	size_t i = get_global_id(0);

	c[i] = a[i] + b[i];
}
