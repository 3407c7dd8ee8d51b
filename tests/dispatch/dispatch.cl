// SPDX-License-Identifier: MIT
/* Kernels of the dispatch tests, compiled to SPIR 1.2 bitcode at test time. */

kernel void vadd(global const float *a, global const float *b,
		 global float *c)
{
	size_t i = get_global_id(0);

	c[i] = a[i] + b[i];
}

/* Each work-item writes its global id (plus one) where it lands. */
kernel void off1(global int *out)
{
	size_t x = get_global_id(0);

	out[x] = (int)x + 1;
}

kernel void off2(global int *out, uint w)
{
	size_t x = get_global_id(0), y = get_global_id(1);

	out[y * w + x] = (int)(y * 1000 + x) + 1;
}

kernel void off3(global int *out, uint w, uint h)
{
	size_t x = get_global_id(0), y = get_global_id(1);
	size_t z = get_global_id(2);

	out[(z * h + y) * w + x] = (int)(z * 1000000 + y * 1000 + x) + 1;
}

/* One scaled sum per work-group, local memory between ordinary args. */
kernel void reduce(global const int *in, int scale, local int *scratch,
		   global int *out)
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
		out[get_group_id(0)] = scratch[0] * scale;
}
