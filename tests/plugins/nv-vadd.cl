// SPDX-License-Identifier: MIT
/*
 * vadd for NVIDIA's OpenCL, compiled by clang to PTX of the OpenCL flavour
 * (triple nvptx64-nvidia-nvcl: parameters marked .ptr .global, which that
 * runtime needs to pass buffers). No libclc here, so the global id is
 * read from the PTX special registers.
 */
kernel void vadd(global const float *a, global const float *b, global float *c)
{
	unsigned i = __nvvm_read_ptx_sreg_ctaid_x() *
		     __nvvm_read_ptx_sreg_ntid_x() +
		     __nvvm_read_ptx_sreg_tid_x();

	c[i] = a[i] + b[i];
}
