// SPDX-License-Identifier: MIT
/*
 * The kernels of tests/dispatch/dispatch.cl as the device compiler lowers
 * them for CUDA: the same names and arguments, offsets through twins,
 * local memory as an offset. dispatch-run runs them through the CUDA
 * plugin.
 */
#include "lowered.h"

KERNEL vadd(const float *a, const float *b, float *c)
{
	unsigned i = global_x();

	c[i] = a[i] + b[i];
}

/* Each work-item writes its global id (plus one) where it lands. */
static __device__ void off1_body(int *out, unsigned x)
{
	out[x] = (int)x + 1;
}

KERNEL off1(int *out)
{
	off1_body(out, global_x());
}

KERNEL off1_with_offset(int *out, struct devimg_offset o)
{
	off1_body(out, global_x() + o.x);
}

static __device__ void off2_body(int *out, unsigned w, unsigned x, unsigned y)
{
	out[y * w + x] = (int)(y * 1000 + x) + 1;
}

KERNEL off2(int *out, unsigned w)
{
	off2_body(out, w, global_x(), global_y());
}

KERNEL off2_with_offset(int *out, unsigned w, struct devimg_offset o)
{
	off2_body(out, w, global_x() + o.x, global_y() + o.y);
}

static __device__ void off3_body(int *out, unsigned w, unsigned h, unsigned x,
				 unsigned y, unsigned z)
{
	out[(z * h + y) * w + x] = (int)(z * 1000000 + y * 1000 + x) + 1;
}

KERNEL off3(int *out, unsigned w, unsigned h)
{
	off3_body(out, w, h, global_x(), global_y(), global_z());
}

KERNEL off3_with_offset(int *out, unsigned w, unsigned h,
			struct devimg_offset o)
{
	off3_body(out, w, h, global_x() + o.x, global_y() + o.y,
		  global_z() + o.z);
}

/* One scaled sum per work-group, local memory between ordinary args. */
KERNEL reduce(const int *in, int scale, unsigned scratch_at, int *out)
{
	int *scratch = LOCAL(int, scratch_at);
	unsigned l = tid_x(), s;

	scratch[l] = in[global_x()];
	__syncthreads();
	for (s = ntid_x() / 2; s > 0; s /= 2) {
		if (l < s)
			scratch[l] += scratch[l + s];
		__syncthreads();
	}
	if (l == 0)
		out[ctaid_x()] = scratch[0] * scale;
}
