// SPDX-License-Identifier: MIT
/*
 * The kernels of tests/launch-metadata/launch.cl in CUDA C, lowered as the
 * device compiler lowers SYCL kernels for CUDA (tests/cuda/lowered.h),
 * compiled to PTX at build time for
 * tests/launch-metadata/launch-metadata-cuda.sh. Same names, same
 * arguments in the same order, same results: launch-run checks both with one table each.
 */
#include "../cuda/lowered.h"

/* An array of 100 ints captured by value, DPC++'s way: one wrapped struct. */
struct ints100 {
	int v[100];
};

KERNEL array_wrapped(struct ints100 a, int *out)
{
	unsigned i = global_x();

	out[i] = a.v[i] * 3 + 1;
}

/* The same array flattened into one argument per element (older DPC++). */
#define P10(n) int a##n##0, int a##n##1, int a##n##2, int a##n##3, \
	int a##n##4, int a##n##5, int a##n##6, int a##n##7, int a##n##8, \
	int a##n##9
#define V10(n) a##n##0, a##n##1, a##n##2, a##n##3, a##n##4, a##n##5, \
	a##n##6, a##n##7, a##n##8, a##n##9

KERNEL array_flat(int *out, P10(0), P10(1), P10(2), P10(3), P10(4), P10(5),
		  P10(6), P10(7), P10(8), P10(9))
{
	int v[100] = { V10(0), V10(1), V10(2), V10(3), V10(4), V10(5), V10(6),
		       V10(7), V10(8), V10(9) };
	unsigned i = global_x();

	out[i] = v[i] * 3 + 1;
}

/* An array of two buffers (accessors): one argument per element. */
KERNEL two_buffers(const int *in, int *out)
{
	unsigned i = global_x();

	out[i] = in[i] * in[i];
}

/* A struct holding an int and two buffers, decomposed into its fields. */
KERNEL struct_fields(int scale, const int *in, int *out)
{
	unsigned i = global_x();

	out[i] = in[i] * scale;
}

/*
 * A pointer, a local accessor and work-group memory (byte offsets into
 * the dynamic shared memory): per work-group sums of the input, written
 * by the group's first work-item.
 */
KERNEL group_sums(const int *in, unsigned scratch_at, unsigned total_at,
		  int *out)
{
	int *scratch = LOCAL(int, scratch_at);
	int *total = LOCAL(int, total_at);
	unsigned l = tid_x(), n = ntid_x(), j;

	scratch[l] = in[global_x()];
	__syncthreads();
	if (l == 0) {
		*total = 0;
		for (j = 0; j < n; j++)
			*total += scratch[j];
		out[ctaid_x()] = *total;
	}
}

/*
 * Its second argument was eliminated by the optimizer: the original
 * kernel was elim(int *out, int unused, int a, int b), and the PTX
 * kernel lacks the unused one.
 */
KERNEL elim(int *out, int a, int b)
{
	out[global_x()] = a * 100 + b;
}

/* Its mask in launch.props claims 3 arguments of which 2 were kept. */
KERNEL bad_mask(int *out)
{
	*out = 1;
}

/* Writes its work-group (block) size; the image's metadata requires 5x2. */
KERNEL wg(int *out)
{
	unsigned x = global_x(), y = global_y();

	out[y * global_size_x() + x] = (int)(ntid_x() * 100 + ntid_y());
}
