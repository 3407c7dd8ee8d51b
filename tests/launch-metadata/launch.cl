// SPDX-License-Identifier: MIT
/*
 * Kernels of the launch-metadata tests
 * (tests/launch-metadata/launch-metadata.sh), compiled to SPIR 1.2 bitcode at build time. Each is the device side of what a SYCL
 * kernel's closure lowers to; launch-run.c sets their arguments from
 * parameter tables and captured objects, the way DPC++'s integration
 * header describes them.
 */

/* An array of 100 ints captured by value, DPC++'s way: one wrapped struct. */
struct ints100 {
	int v[100];
};

kernel void array_wrapped(struct ints100 a, global int *out)
{
	size_t i = get_global_id(0);

	out[i] = a.v[i] * 3 + 1;
}

/* The same array flattened into one argument per element (older DPC++). */
#define P10(n) int a##n##0, int a##n##1, int a##n##2, int a##n##3, \
	int a##n##4, int a##n##5, int a##n##6, int a##n##7, int a##n##8, \
	int a##n##9
#define V10(n) a##n##0, a##n##1, a##n##2, a##n##3, a##n##4, a##n##5, \
	a##n##6, a##n##7, a##n##8, a##n##9

kernel void array_flat(global int *out, P10(0), P10(1), P10(2), P10(3),
		       P10(4), P10(5), P10(6), P10(7), P10(8), P10(9))
{
	int v[100] = { V10(0), V10(1), V10(2), V10(3), V10(4), V10(5), V10(6),
		       V10(7), V10(8), V10(9) };
	size_t i = get_global_id(0);

	out[i] = v[i] * 3 + 1;
}

/* An array of two buffers (accessors): one argument per element. */
kernel void two_buffers(global const int *in, global int *out)
{
	size_t i = get_global_id(0);

	out[i] = in[i] * in[i];
}

/* A struct holding an int and two buffers, decomposed into its fields. */
kernel void struct_fields(int scale, global const int *in, global int *out)
{
	size_t i = get_global_id(0);

	out[i] = in[i] * scale;
}

/*
 * A pointer, a local accessor and work-group memory: per work-group sums
 * of the input, written by the group's first work-item.
 */
kernel void group_sums(global const int *in, local int *scratch,
		       local int *total, global int *out)
{
	size_t l = get_local_id(0), n = get_local_size(0), j;

	scratch[l] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	if (l == 0) {
		*total = 0;
		for (j = 0; j < n; j++)
			*total += scratch[j];
		out[get_group_id(0)] = *total;
	}
}

/*
 * Its second argument was eliminated by the optimizer: the original
 * kernel was elim(global int *out, int unused, int a, int b).
 */
kernel void elim(global int *out, int a, int b)
{
	out[get_global_id(0)] = a * 100 + b;
}

/* Its mask in launch.props claims 3 arguments of which 2 were kept. */
kernel void bad_mask(global int *out)
{
	*out = 1;
}

/* Writes its work-group size; the image's metadata requires 5x2. */
kernel void wg(global int *out)
{
	size_t x = get_global_id(0), y = get_global_id(1);

	out[y * get_global_size(0) + x] =
		(int)(get_local_size(0) * 100 + get_local_size(1));
}
