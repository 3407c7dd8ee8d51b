/* SPDX-License-Identifier: MIT */
/*
 * CUDA C in the form the device compiler gives SYCL kernels for CUDA
 * (docs/formats.md, section 11), for clang -x cuda -nocudainc: no CUDA headers,
 * only clang's builtins.
 *  - Kernels are extern "C" __global__ functions.
 *  - A local-memory argument is an unsigned byte offset into the one
 *    dynamic shared-memory array, devimg_local; LOCAL() turns it into a
 *    pointer.
 *  - A kernel that reads the global offset has a twin, <name>_with_offset,
 *    whose last parameter is a struct devimg_offset by value.
 *  - Emulated spec constants arrive in a const char * buffer, the plain
 *    kernel's last parameter (before the twin's offset).
 */
#ifndef DEVIMG_TEST_LOWERED_H
#define DEVIMG_TEST_LOWERED_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))

#define KERNEL extern "C" __global__ void

struct devimg_offset {
	unsigned x, y, z;
};

extern __shared__ __attribute__((aligned(16))) char devimg_local[];

#define LOCAL(type, offset) ((type *)(devimg_local + (offset)))

static __device__ inline unsigned tid_x(void)
{
	return __nvvm_read_ptx_sreg_tid_x();
}

static __device__ inline unsigned ntid_x(void)
{
	return __nvvm_read_ptx_sreg_ntid_x();
}

static __device__ inline unsigned ctaid_x(void)
{
	return __nvvm_read_ptx_sreg_ctaid_x();
}

static __device__ inline unsigned ntid_y(void)
{
	return __nvvm_read_ptx_sreg_ntid_y();
}

/* get_global_id() without the offset, dimension by dimension. */
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

static __device__ inline unsigned global_z(void)
{
	return __nvvm_read_ptx_sreg_ctaid_z() * __nvvm_read_ptx_sreg_ntid_z() +
	       __nvvm_read_ptx_sreg_tid_z();
}

/* A little-endian int from the spec-constant buffer. */
static __device__ inline int rd32(const char *p)
{
	return (int)((unsigned)(unsigned char)p[0] |
		     (unsigned)(unsigned char)p[1] << 8 |
		     (unsigned)(unsigned char)p[2] << 16 |
		     (unsigned)(unsigned char)p[3] << 24);
}

/* get_global_size(0). */
static __device__ inline unsigned global_size_x(void)
{
	return __nvvm_read_ptx_sreg_nctaid_x() * __nvvm_read_ptx_sreg_ntid_x();
}

#endif
