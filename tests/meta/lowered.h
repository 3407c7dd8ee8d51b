/* SPDX-License-Identifier: MIT */
/*
 * The meta kernels in CUDA C, in the form the device compiler gives SYCL
 * kernels for CUDA (FORMATS.md, section 4; the same conventions as
 * tests/cuda/lowered.h, of which this is the part the meta kernels use),
 * for clang -x cuda -nocudainc: no CUDA headers, only clang's builtins.
 *  - Kernels are extern "C" __global__ functions.
 *  - A local-memory argument is an unsigned byte offset into the one
 *    dynamic shared-memory array, devimg_local; LOCAL() turns it into a
 *    pointer.
 *  - Emulated spec constants arrive in a const char * buffer, the kernel's
 *    last parameter.
 *  - No meta kernel reads the global offset, so none has a
 *    <name>_with_offset twin.
 */
#ifndef DEVIMG_TEST_META_LOWERED_H
#define DEVIMG_TEST_META_LOWERED_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))

#define KERNEL extern "C" __global__ void

extern __shared__ __attribute__((aligned(16))) char devimg_local[];

#define LOCAL(type, offset) ((type *)(devimg_local + (offset)))

/* get_local_id(0), get_local_size(d), get_group_id(0). */
static __device__ inline unsigned tid_x(void)
{
	return __nvvm_read_ptx_sreg_tid_x();
}

static __device__ inline unsigned ntid_x(void)
{
	return __nvvm_read_ptx_sreg_ntid_x();
}

static __device__ inline unsigned ntid_y(void)
{
	return __nvvm_read_ptx_sreg_ntid_y();
}

static __device__ inline unsigned ctaid_x(void)
{
	return __nvvm_read_ptx_sreg_ctaid_x();
}

/* get_global_id(d) without the offset, get_global_size(0). */
static __device__ inline unsigned global_x(void)
{
	return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() +
	       __nvvm_read_ptx_sreg_tid_x();
}

static __device__ inline unsigned global_y(void)
{
	return __nvvm_read_ptx_sreg_ctaid_y() * __nvvm_read_ptx_sreg_ntid_y() +
	       __nvvm_read_ptx_sreg_tid_y();
}

static __device__ inline unsigned global_size_x(void)
{
	return __nvvm_read_ptx_sreg_nctaid_x() * __nvvm_read_ptx_sreg_ntid_x();
}

/* A little-endian int from the spec-constant buffer. */
static __device__ inline int rd32(const char *p)
{
	return (int)((unsigned)(unsigned char)p[0] |
		     (unsigned)(unsigned char)p[1] << 8 |
		     (unsigned)(unsigned char)p[2] << 16 |
		     (unsigned)(unsigned char)p[3] << 24);
}

#endif
