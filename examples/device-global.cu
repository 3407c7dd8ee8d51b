// SPDX-License-Identifier: MIT
/*
 * The device code of examples/device-global.c, in the form a SYCL
 * compiler gives it for CUDA:
 *
 *   sycl::ext::oneapi::experimental::device_global<unsigned,
 *       decltype(properties(device_image_scope))> counter;
 *   q.single_task<class count_up>([] { counter += 1; });
 *
 * The device global is a module-scope variable named by its unique id;
 * with device_image_scope the variable is the value itself.
 */
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))

extern "C" {
__device__ unsigned devimg_example_counter;

__global__ void count_up(void)
{
	devimg_example_counter += 1;
}
}
