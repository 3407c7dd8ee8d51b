// SPDX-License-Identifier: MIT
/*
 * Kernels of the OpenCL plugin test (opencl-pocl.sh), compiled at build
 * time to SPIR 1.2 bitcode by clang and to SPIR-V by llvm-spirv.
 */

/* c = a + b over the launch's range; honours the global offset. */
kernel void vadd(global const float *a, global const float *b,
		 global float *c)
{
	size_t i = get_global_id(0);

	c[i] = a[i] + b[i];
}

/* One sum per work-group, through a local-memory argument. */
kernel void reduce(global const int *in, global int *out, local int *scratch)
{
	size_t l = get_local_id(0);
	size_t s;

	scratch[l] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (s = get_local_size(0) / 2; s > 0; s /= 2) {
		if (l < s)
			scratch[l] += scratch[l + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (l == 0)
		out[get_group_id(0)] = scratch[0];
}
