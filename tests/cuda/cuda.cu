// SPDX-License-Identifier: MIT
/* Kernels of cuda-run: what only the CUDA lowering has. */
#include "lowered.h"

struct d4 {
	double x, y, z, w;
} __attribute__((aligned(32)));

/*
 * An int, a double4 and 200 bytes of local memory: thread 0 reports the
 * offsets it got and fills them, thread 1 reads them back after the
 * barrier. A double4 off its 32-byte boundary faults on the vector loads.
 */
KERNEL local_layout(unsigned *offs, int *iout, double *dout, unsigned l_int,
		    unsigned l_d4, unsigned l_bytes)
{
	int *pi = LOCAL(int, l_int);
	struct d4 *pd = LOCAL(struct d4, l_d4);
	unsigned char *pb = LOCAL(unsigned char, l_bytes);
	unsigned i;

	if (tid_x() == 0) {
		offs[0] = l_int;
		offs[1] = l_d4;
		offs[2] = l_bytes;
		*pi = 12345;
		pd->x = 1.5;
		pd->y = -2.25;
		pd->z = 1e100;
		pd->w = 0.125;
		for (i = 0; i < 200; i++)
			pb[i] = (unsigned char)(i * 7);
	}
	__syncthreads();
	if (tid_x() == 1) {
		struct d4 v = *pd;
		int sum = 0;

		for (i = 0; i < 200; i++)
			sum += pb[i];
		iout[0] = *pi;
		iout[1] = sum;
		dout[0] = v.x;
		dout[1] = v.y;
		dout[2] = v.z;
		dout[3] = v.w;
	}
}

/*
 * words ints of local memory (more than the default 48 KiB): filled by
 * the block, then each thread sums a stripe from the other end.
 */
KERNEL big_shared(int *out, unsigned words, unsigned scratch_at)
{
	int *s = LOCAL(int, scratch_at);
	unsigned t = tid_x(), n = ntid_x(), i;
	int sum = 0;

	for (i = t; i < words; i += n)
		s[i] = (int)(i * 3 + ctaid_x());
	__syncthreads();
	for (i = t; i < words; i += n)
		sum += s[words - 1 - i];
	out[global_x()] = sum;
}

/* Which of the pair ran, and the offset the twin got. */
KERNEL which(unsigned *out)
{
	if (global_x() == 0) {
		out[0] = 1;
		out[1] = out[2] = out[3] = 0xffffffffu;
	}
}

KERNEL which_with_offset(unsigned *out, struct devimg_offset o)
{
	if (global_x() == 0) {
		out[0] = 2;
		out[1] = o.x;
		out[2] = o.y;
		out[3] = o.z;
	}
}

/* No twin: the kernel does not read the offset, whatever it is. */
KERNEL notwin(unsigned *out)
{
	out[global_x()] = global_x() + 7;
}

/* x[i] = x[i] * f + i, for the runs on two GPUs. */
KERNEL scale(float *x, float f)
{
	unsigned i = global_x();

	x[i] = x[i] * f + (float)i;
}
