// SPDX-License-Identifier: MIT
/*
 * Launch metadata that the device compiler leaves in property sets (see
 * docs/launch-metadata.md): masks of eliminated kernel arguments, lists of
 * little-endian integers (aspects, work-group and sub-group sizes) and the
 * names of DPC++'s aspects. Pure decoding: every size and count is checked
 * against the byte array that carries it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "props/internal.h"

int props_param_opt_decode(const void *buf, uint64_t size, const char *where,
			   const unsigned char **mask, uint64_t *nargs,
			   struct errmsg *err)
{
	return props_bytes_payload(buf, size, where, mask, nargs, err);
}

int props_uint_list(const void *buf, uint64_t size, unsigned elem_bytes,
		    const char *where, uint64_t *vals, size_t max, size_t *n,
		    struct errmsg *err)
{
	const unsigned char *p;
	uint64_t nbits, count, i;
	int r;

	if (elem_bytes != 4 && elem_bytes != 8) {
		errmsg_set(err, "%s: element size %u, expected 4 or 8",
			   where ? where : "byte array", elem_bytes);
		return -EINVAL;
	}
	r = props_bytes_payload(buf, size, where, &p, &nbits, err);
	if (r < 0)
		return r;
	if (nbits % (elem_bytes * 8)) {
		errmsg_set(err,
			   "%s: %" PRIu64 " bits are not whole %u-bit integers",
			   where ? where : "byte array", nbits, elem_bytes * 8);
		return -EINVAL;
	}
	count = nbits / (elem_bytes * 8);
	for (i = 0; i < count && i < max; i++)
		vals[i] = elem_bytes == 4 ? get_le32(p + i * 4) :
					    get_le64(p + i * 8);
	*n = (size_t)count;
	return 0;
}

int props_work_group_size(const void *buf, uint64_t size, unsigned elem_bytes,
			  const char *where, uint64_t out[3], unsigned *dims,
			  struct errmsg *err)
{
	uint64_t v[3];
	size_t n, i;
	int r;

	r = props_uint_list(buf, size, elem_bytes, where, v, 3, &n, err);
	if (r < 0)
		return r;
	/* DPC++'s runtime reads an empty list as no requirement at all. */
	if (n > 3) {
		errmsg_set(err, "%s: %zu sizes, expected 0 to 3 (one per dimension)",
			   where ? where : "byte array", n);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (v[i] == 0) {
			errmsg_set(err, "%s: size 0 in dimension %zu, expected at least 1",
				   where ? where : "byte array", i);
			return -EINVAL;
		}
	}
	for (i = 0; i < 3; i++)
		out[i] = i < n ? v[i] : 1;
	*dims = (unsigned)n;
	return 0;
}

/* DPC++'s sycl::aspect values (sycl/include/sycl/info/aspects.def). */
static const char *const aspect_names[] = {
	[1] = "cpu",
	[2] = "gpu",
	[3] = "accelerator",
	[4] = "custom",
	[5] = "fp16",
	[6] = "fp64",
	[7] = "int64_base_atomics",
	[8] = "int64_extended_atomics",
	[9] = "image",
	[10] = "online_compiler",
	[11] = "online_linker",
	[12] = "queue_profiling",
	[13] = "usm_device_allocations",
	[14] = "usm_host_allocations",
	[15] = "usm_shared_allocations",
	[17] = "usm_system_allocations",
	[18] = "ext_intel_pci_address",
	[19] = "ext_intel_gpu_eu_count",
	[20] = "ext_intel_gpu_eu_simd_width",
	[21] = "ext_intel_gpu_slices",
	[22] = "ext_intel_gpu_subslices_per_slice",
	[23] = "ext_intel_gpu_eu_count_per_subslice",
	[24] = "ext_intel_max_mem_bandwidth",
	[25] = "ext_intel_mem_channel",
	[26] = "usm_atomic_host_allocations",
	[27] = "usm_atomic_shared_allocations",
	[28] = "atomic64",
	[29] = "ext_intel_device_info_uuid",
	[30] = "ext_oneapi_srgb",
	[31] = "ext_oneapi_native_assert",
	[32] = "host_debuggable",
	[33] = "ext_intel_gpu_hw_threads_per_eu",
	[34] = "ext_oneapi_cuda_async_barrier",
	[35] = "ext_oneapi_bfloat16_math_functions",
	[36] = "ext_intel_free_memory",
	[37] = "ext_intel_device_id",
	[38] = "ext_intel_memory_clock_rate",
	[39] = "ext_intel_memory_bus_width",
	[40] = "emulated",
	[41] = "ext_intel_legacy_image",
	[42] = "ext_oneapi_bindless_images",
	[43] = "ext_oneapi_bindless_images_shared_usm",
	[44] = "ext_oneapi_bindless_images_1d_usm",
	[45] = "ext_oneapi_bindless_images_2d_usm",
	[46] = "ext_oneapi_interop_memory_import",
	[47] = "ext_oneapi_interop_memory_export",
	[48] = "ext_oneapi_interop_semaphore_import",
	[49] = "ext_oneapi_interop_semaphore_export",
	[50] = "ext_oneapi_mipmap",
	[51] = "ext_oneapi_mipmap_anisotropy",
	[52] = "ext_oneapi_mipmap_level_reference",
	[53] = "ext_intel_esimd",
	[54] = "ext_oneapi_ballot_group",
	[55] = "ext_oneapi_fixed_size_group",
	[56] = "ext_oneapi_opportunistic_group",
	[57] = "ext_oneapi_tangle_group",
	[58] = "ext_intel_matrix",
	[59] = "ext_oneapi_is_composite",
	[60] = "ext_oneapi_is_component",
	[61] = "ext_intel_fpga_task_sequence",
};

const char *props_aspect_name(uint32_t id)
{
	if (id >= sizeof(aspect_names) / sizeof(aspect_names[0]))
		return NULL;
	return aspect_names[id];
}
