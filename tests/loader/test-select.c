// SPDX-License-Identifier: MIT
/*
 * Image selection: DPC++'s rule for each backend and device type, the
 * "last spir64" fallback, format ingestion, device requirements (aspects,
 * sub-group and work-group sizes), and a reason for every image left out.
 * First the pure function over described candidates, then the public one
 * over registered images whose formats are guessed from bytes and whose
 * requirements come from their property sets.
 */
#include <errno.h>

#include "tests/loader/fixture.h"
#include "loader/registry/image-select.h"

#define CAND(t, f) { .target = (t), .kind = DEVIMG_KIND_SYCL, .format = (f), \
		     .size = 16 }

/* Callers set the size of the structs they hand over. */
#define CAPS sizeof(struct devimg_device_caps)

static const struct devimg_device_caps ocl_cpu = {
	CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_CPU, 1, 1, 0
};
static const struct devimg_device_caps ocl_gpu = {
	CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_GPU, 1, 0, 0
};
static const struct devimg_device_caps ocl_acc = {
	CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_ACCELERATOR, 1, 0, 0
};
static const struct devimg_device_caps pocl_cpu = {
	CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_CPU, 0, 1, 0
};
static const struct devimg_device_caps l0_gpu = {
	CAPS, DEVIMG_BACKEND_LEVEL_ZERO, DEVIMG_DEVICE_GPU, 1, 0, 0
};
static const struct devimg_device_caps cuda_80 = {
	CAPS, DEVIMG_BACKEND_CUDA, DEVIMG_DEVICE_GPU, 0, 0, 80
};

/* NVIDIA's OpenCL: no SPIR-V, no SPIR, PTX as its native binary. */
static const struct devimg_device_caps ocl_nvidia = {
	CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_GPU, 0, 0, 90, 1
};

static char why[8][DEVIMG_REASON_MAX];

static size_t pick_ok(const struct devimg_device_caps *dev,
		      const struct select_cand *c, size_t n)
{
	size_t chosen = 99;

	memset(why, '?', sizeof(why));
	ck_assert_int_eq(select_pick(dev, c, n, &chosen, why), 0);
	ck_assert_str_eq(why[chosen], "");
	return chosen;
}

START_TEST(test_opencl_cpu_prefers_x86_64)
{
	struct select_cand c[] = {
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
		CAND("spir64_x86_64", DEVIMG_FORMAT_NATIVE),
		CAND("spir64_x86_64", DEVIMG_FORMAT_NATIVE),
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
	};

	ck_assert_uint_eq(pick_ok(&ocl_cpu, c, 4), 1);
	ck_assert_str_eq(why[0], "image 0 (target spir64): image 1 (target spir64_x86_64) is preferred on opencl cpu");
	ck_assert_str_eq(why[2], "image 2 (target spir64_x86_64): the first spir64_x86_64 image (1) is taken");
}
END_TEST

/* LLVM's new offload model names targets by triple: their arch counts. */
START_TEST(test_triples_by_arch)
{
	struct select_cand c[] = {
		CAND("spirv64-unknown-unknown", DEVIMG_FORMAT_SPIRV),
		CAND("spir64_x86_64-unknown-unknown", DEVIMG_FORMAT_NATIVE),
		CAND("spirv64", DEVIMG_FORMAT_SPIRV),
		CAND("spir64-", DEVIMG_FORMAT_SPIRV),
	};

	ck_assert(select_target_fits(&ocl_gpu, "spirv64-unknown-unknown"));
	ck_assert(select_target_fits(&ocl_gpu, "spir64-unknown-unknown"));
	ck_assert(select_target_fits(&cuda_80, "nvptx64-nvidia-cuda"));
	ck_assert(!select_target_fits(&cuda_80, "spirv64-unknown-unknown"));
	ck_assert(!select_target_fits(&ocl_gpu, "spirv64"));
	ck_assert(!select_target_fits(&ocl_gpu, "spir6-unknown"));
	ck_assert_uint_eq(pick_ok(&ocl_cpu, c, 2), 1);
	/* The last spir64 image is the fallback, triple or not. */
	ck_assert_uint_eq(pick_ok(&ocl_gpu, c, 4), 3);
	ck_assert_str_eq(why[2], "image 2 (target spirv64): not for backend opencl");
}
END_TEST

/* A target from outside stays one line in the reason (fuzz/blob found). */
START_TEST(test_reason_escapes_target)
{
	struct select_cand c[] = {
		CAND("spir64\nFAIL\x1b[2J", DEVIMG_FORMAT_SPIRV),
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
	};

	ck_assert_uint_eq(pick_ok(&ocl_gpu, c, 2), 1);
	ck_assert_str_eq(why[0], "image 0 (target spir64\\x0aFAIL\\x1b[2J): not for backend opencl");
	ck_assert_str_eq(why[1], "");
}
END_TEST

START_TEST(test_opencl_falls_back_to_last_spir64)
{
	struct select_cand c[] = {
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
		CAND("spir64_gen", DEVIMG_FORMAT_NATIVE),
	};

	ck_assert_uint_eq(pick_ok(&ocl_cpu, c, 3), 1);
	ck_assert_str_eq(why[0], "image 0 (target spir64): the last spir64 image (1) is taken");
	ck_assert_str_eq(why[2], "image 2 (target spir64_gen): for gpu devices, device is cpu");
}
END_TEST

START_TEST(test_opencl_gpu_prefers_gen)
{
	struct select_cand c[] = {
		CAND("spir64_x86_64", DEVIMG_FORMAT_NATIVE),
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
		CAND("spir64_gen", DEVIMG_FORMAT_NATIVE),
	};

	ck_assert_uint_eq(pick_ok(&ocl_gpu, c, 3), 2);
	ck_assert_str_eq(why[0], "image 0 (target spir64_x86_64): for cpu devices, device is gpu");
	ck_assert_has(why[1], "image 2 (target spir64_gen) is preferred on opencl gpu");
}
END_TEST

START_TEST(test_opencl_accelerator_prefers_fpga)
{
	struct select_cand c[] = {
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
		CAND("spir64_fpga", DEVIMG_FORMAT_NATIVE),
		CAND("spir64_gen", DEVIMG_FORMAT_NATIVE),
	};

	ck_assert_uint_eq(pick_ok(&ocl_acc, c, 3), 1);
	ck_assert_has(why[2], "for gpu devices, device is accelerator");
}
END_TEST

START_TEST(test_level_zero_gen_then_spir64)
{
	struct select_cand c[] = {
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
		CAND("spir64_gen", DEVIMG_FORMAT_NATIVE),
		CAND("nvptx64", DEVIMG_FORMAT_NATIVE),
		CAND("spir64_x86_64", DEVIMG_FORMAT_NATIVE),
	};

	ck_assert_uint_eq(pick_ok(&l0_gpu, c, 4), 1);
	ck_assert_str_eq(why[2], "image 2 (target nvptx64): not for backend level_zero");
	ck_assert_str_eq(why[3], "image 3 (target spir64_x86_64): not for backend level_zero");
	/* Without a gen image: the last spir64. */
	ck_assert_uint_eq(pick_ok(&l0_gpu, (struct select_cand[]){
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
		CAND("spir64", DEVIMG_FORMAT_SPIRV) }, 3), 2);
}
END_TEST

START_TEST(test_cuda_first_nvptx64)
{
	struct select_cand c[] = {
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
		CAND("nvptx64", DEVIMG_FORMAT_NONE),
		CAND("nvptx64", DEVIMG_FORMAT_NONE),
	};

	c[1].content = CONTENT_PTX;
	c[2].content = CONTENT_ELF;
	ck_assert_uint_eq(pick_ok(&cuda_80, c, 3), 1);
	ck_assert_str_eq(why[0], "image 0 (target spir64): not for backend cuda");
	ck_assert_str_eq(why[2], "image 2 (target nvptx64): the first nvptx64 image (1) is taken");
}
END_TEST

START_TEST(test_cuda_rejects_ptx_for_newer_sm)
{
	struct select_cand c[] = {
		CAND("nvptx64", DEVIMG_FORMAT_NONE),
		CAND("nvptx64", DEVIMG_FORMAT_NONE),
	};

	c[0].content = CONTENT_PTX;
	c[0].ptx_sm = 90;
	c[1].content = CONTENT_PTX;
	c[1].ptx_sm = 80;
	ck_assert_uint_eq(pick_ok(&cuda_80, c, 2), 1);
	ck_assert_str_eq(why[0], "image 0 (target nvptx64): PTX for sm_90, device has compute capability 8.0");
}
END_TEST

START_TEST(test_opencl_ptx_device_takes_nvptx64)
{
	struct select_cand c[] = {
		CAND("spir64", DEVIMG_FORMAT_LLVMBC),
		CAND("nvptx64", DEVIMG_FORMAT_NONE),
		CAND("nvptx64", DEVIMG_FORMAT_NONE),
		CAND("nvptx64", DEVIMG_FORMAT_NONE),
		CAND("spir64_gen", DEVIMG_FORMAT_NATIVE),
	};

	c[1].content = CONTENT_PTX;
	c[1].ptx_sm = 100;
	c[2].content = CONTENT_PTX;
	c[2].ptx_sm = 80;
	c[3].content = CONTENT_PTX;
	c[3].ptx_sm = 80;
	/* Its own target first; then the first usable nvptx64 image. */
	ck_assert_uint_eq(pick_ok(&ocl_nvidia, c, 5), 4);
	ck_assert_uint_eq(pick_ok(&ocl_nvidia, c, 4), 2);
	ck_assert_str_eq(why[0], "image 0 (target spir64): format llvmbc: device has no SPIR bitcode ingestion");
	ck_assert_str_eq(why[1], "image 1 (target nvptx64): PTX for sm_100, device has compute capability 9.0");
	ck_assert_str_eq(why[3], "image 3 (target nvptx64): the first nvptx64 image (2) is taken");
	/* Other OpenCL GPUs still refuse nvptx64. */
	memset(why, 0, sizeof(why));
	ck_assert_int_eq(select_pick(&ocl_gpu, c + 1, 1, &(size_t){ 0 }, why),
			 -ENOEXEC);
	ck_assert_str_eq(why[0], "image 0 (target nvptx64): not for backend opencl");
}
END_TEST

START_TEST(test_format_needs_ingestion)
{
	struct select_cand c[] = {
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
		CAND("spir64", DEVIMG_FORMAT_LLVMBC),
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
	};

	/* PoCL: no SPIR-V, so the bitcode image even though not last. */
	ck_assert_uint_eq(pick_ok(&pocl_cpu, c, 3), 1);
	ck_assert_str_eq(why[0], "image 0 (target spir64): format spirv: device has no SPIR-V ingestion");
	ck_assert_uint_eq(pick_ok(&ocl_gpu, c, 3), 2);
	ck_assert_str_eq(why[1], "image 1 (target spir64): format llvmbc: device has no SPIR bitcode ingestion");
}
END_TEST

/*
 * One object serving old and new drivers, as the demo wraps it: the same
 * kernel as SPIR bitcode, then as SPIR-V. PoCL 6 (IL, no SPIR) takes the
 * SPIR-V, PoCL 3.1 and 5 (SPIR, no IL) the bitcode, in either order; a
 * device that takes both falls back to the last spir64 image, so SPIR-V
 * wrapped last is what it runs.
 */
static const struct devimg_device_caps pocl6_cpu = {
	CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_CPU, 1, 0, 0
};

START_TEST(test_spir_then_spirv_of_one_kernel)
{
	struct select_cand c[] = {
		CAND("spir64", DEVIMG_FORMAT_LLVMBC),
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
	};
	struct select_cand r[] = { c[1], c[0] };

	ck_assert_uint_eq(pick_ok(&pocl6_cpu, c, 2), 1);
	ck_assert_str_eq(why[0], "image 0 (target spir64): format llvmbc: device has no SPIR bitcode ingestion");
	ck_assert_uint_eq(pick_ok(&pocl6_cpu, r, 2), 0);
	ck_assert_uint_eq(pick_ok(&pocl_cpu, c, 2), 0);
	ck_assert_str_eq(why[1], "image 1 (target spir64): format spirv: device has no SPIR-V ingestion");
	ck_assert_uint_eq(pick_ok(&pocl_cpu, r, 2), 1);
	ck_assert_uint_eq(pick_ok(&ocl_cpu, c, 2), 1);
	ck_assert_str_eq(why[0], "image 0 (target spir64): the last spir64 image (1) is taken");
	ck_assert_uint_eq(pick_ok(&l0_gpu, c, 2), 1);
}
END_TEST

START_TEST(test_guessed_format_named_in_reason)
{
	struct select_cand c[] = {
		CAND("spir64", DEVIMG_FORMAT_NONE),
		CAND("spir64", DEVIMG_FORMAT_NONE),
		CAND("spir64", DEVIMG_FORMAT_NONE),
	};
	size_t chosen;

	c[0].content = CONTENT_SPIRV;
	c[1].content = CONTENT_UNKNOWN;
	c[2].content = CONTENT_UNKNOWN;
	c[2].stale = true;
	ck_assert_int_eq(select_pick(&pocl_cpu, c, 3, &chosen, why), -ENOEXEC);
	ck_assert_str_eq(why[0], "image 0 (target spir64): format none (spirv by its magic): device has no SPIR-V ingestion");
	ck_assert_str_eq(why[1], "image 1 (target spir64): format none: bytes are not SPIR-V, LLVM bitcode, ELF or PTX");
	ck_assert_has(why[2], "unregistered before its format was guessed");
}
END_TEST

START_TEST(test_nothing_fits)
{
	struct select_cand c[] = {
		CAND("nvptx64", DEVIMG_FORMAT_NONE),
		CAND("amdgcn", DEVIMG_FORMAT_NATIVE),
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
	};
	size_t chosen = 77;

	c[2].size = 0;
	ck_assert_int_eq(select_pick(&ocl_cpu, c, 3, &chosen, why), -ENOEXEC);
	ck_assert_uint_eq(chosen, 77);
	ck_assert_str_eq(why[0], "image 0 (target nvptx64): not for backend opencl");
	ck_assert_str_eq(why[1], "image 1 (target amdgcn): not for backend opencl");
	ck_assert_str_eq(why[2], "image 2 (target spir64): empty image");
	c[2].kind = DEVIMG_KIND_OPENMP;
	ck_assert_int_eq(select_pick(&ocl_cpu, c, 3, &chosen, NULL), -ENOEXEC);
	ck_assert_int_eq(select_pick(&ocl_cpu, c + 2, 1, &chosen, why), -ENOEXEC);
	ck_assert_str_eq(why[0], "image 0 (target spir64): offload kind 2 is not SYCL (4)");
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct devimg_device_caps bad = ocl_cpu;
	struct select_cand c[] = { CAND("spir64", DEVIMG_FORMAT_SPIRV) };
	size_t chosen;

	ck_assert_int_eq(select_pick(&ocl_cpu, c, 0, &chosen, why), -ENOENT);
	ck_assert_int_eq(select_pick(&ocl_cpu, c, 1, NULL, why), -EINVAL);
	bad.backend = 0;
	ck_assert_int_eq(select_pick(&bad, c, 1, &chosen, why), -EINVAL);
	bad = ocl_cpu;
	bad.type = 9;
	ck_assert_int_eq(select_pick(&bad, c, 1, &chosen, why), -EINVAL);
	ck_assert_int_eq(devimg_select_image(&bad, NULL, 0, &chosen, why),
			 -EINVAL);
	ck_assert_str_eq(devimg_backend_name(DEVIMG_BACKEND_CUDA), "cuda");
	ck_assert_str_eq(devimg_backend_name(DEVIMG_BACKEND_LEVEL_ZERO),
			 "level_zero");
	ck_assert_str_eq(devimg_backend_name(0), "unknown");
}
END_TEST

START_TEST(test_many_candidates)
{
	struct select_cand c[100];
	char (*reasons)[DEVIMG_REASON_MAX] = calloc(100, sizeof(*reasons));
	size_t i, chosen;

	for (i = 0; i < 100; i++)
		c[i] = (struct select_cand)CAND("spir64", DEVIMG_FORMAT_SPIRV);
	ck_assert_int_eq(select_pick(&ocl_gpu, c, 100, &chosen, reasons), 0);
	ck_assert_uint_eq(chosen, 99);
	ck_assert_has(reasons[0], "the last spir64 image (99) is taken");
	free(reasons);
}
END_TEST

/* ---- device requirements ---- */

#define BIT(n) ((uint64_t)1 << (n))

/* PoCL's CPU as the OpenCL plugin reports it: fp64, no fp16. */
static const struct devimg_device_features pocl_features = {
	.size = sizeof(struct devimg_device_features),
	.aspects = BIT(DEVIMG_ASPECT_CPU) | BIT(DEVIMG_ASPECT_FP64) |
		   BIT(DEVIMG_ASPECT_ATOMIC64),
	.aspects_known = BIT(DEVIMG_ASPECT_CPU) | BIT(DEVIMG_ASPECT_GPU) |
			 BIT(DEVIMG_ASPECT_ACCELERATOR) |
			 BIT(DEVIMG_ASPECT_CUSTOM) | BIT(DEVIMG_ASPECT_FP16) |
			 BIT(DEVIMG_ASPECT_FP64) | BIT(DEVIMG_ASPECT_ATOMIC64),
	.aspects_reported = 1,
	.nsub_group_sizes = 3,
	.sub_group_sizes = { 8, 16, 32 },
	.max_work_group_size = 256,
	.max_work_item_sizes = { 256, 256, 64 },
};

/* A plugin of an older interface: only the type is known. */
static const struct devimg_device_features type_only = {
	.size = sizeof(struct devimg_device_features),
	.aspects = BIT(DEVIMG_ASPECT_CPU),
	.aspects_known = BIT(DEVIMG_ASPECT_CPU) | BIT(DEVIMG_ASPECT_GPU) |
			 BIT(DEVIMG_ASPECT_ACCELERATOR) |
			 BIT(DEVIMG_ASPECT_CUSTOM),
};

static size_t pick_with_ok(const struct devimg_device_features *feat,
			   const struct select_cand *c, size_t n)
{
	size_t chosen = 99;

	memset(why, '?', sizeof(why));
	ck_assert_int_eq(select_pick_with(&ocl_cpu, feat, c, n, &chosen, why),
			 0);
	ck_assert_str_eq(why[chosen], "");
	return chosen;
}

START_TEST(test_reqs_lacking_aspect_passed_over)
{
	static const uint32_t fp16[] = { DEVIMG_ASPECT_FP16 };
	static const uint32_t cpu_fp64[] = { DEVIMG_ASPECT_CPU,
					     DEVIMG_ASPECT_FP64 };
	struct select_reqs r0 = { .aspects = fp16, .naspects = 1 };
	struct select_reqs r1 = { .aspects = cpu_fp64, .naspects = 2 };
	struct select_cand c[] = {
		CAND("spir64_x86_64", DEVIMG_FORMAT_NATIVE),
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
	};
	size_t chosen = 99;

	c[0].reqs = &r0;
	c[1].reqs = &r1;
	/* Preferred on the CPU, but it needs fp16: the spir64 one runs. */
	ck_assert_uint_eq(pick_with_ok(&pocl_features, c, 2), 1);
	ck_assert_str_eq(why[0], "image 0 (target spir64_x86_64): needs aspect fp16, device lacks it");
	/* Without features, requirements are not looked at. */
	ck_assert_uint_eq(pick_ok(&ocl_cpu, c, 2), 0);
	ck_assert_int_eq(select_pick_with(&ocl_cpu, &pocl_features, c, 1,
					  &chosen, why), -ENOEXEC);
	ck_assert_uint_eq(chosen, 99);
	ck_assert_str_eq(why[0], "image 0 (target spir64_x86_64): needs aspect fp16, device lacks it");
}
END_TEST

START_TEST(test_reqs_unknown_aspects_not_assumed)
{
	static const uint32_t fp64[] = { DEVIMG_ASPECT_FP64 };
	static const uint32_t cpu[] = { DEVIMG_ASPECT_CPU };
	static const uint32_t gpu[] = { DEVIMG_ASPECT_GPU };
	static const uint32_t far[] = { DEVIMG_ASPECT_CPU, 70 };
	static const uint32_t usm[] = { DEVIMG_ASPECT_USM_DEVICE_ALLOCATIONS };
	struct select_reqs r = { .naspects = 1 };
	struct select_cand c[] = { CAND("spir64", DEVIMG_FORMAT_SPIRV) };
	size_t chosen;

	c[0].reqs = &r;
	r.aspects = fp64;
	ck_assert_int_eq(select_pick_with(&ocl_cpu, &type_only, c, 1, &chosen,
					  why), -ENOEXEC);
	ck_assert_str_eq(why[0], "image 0 (target spir64): needs aspect fp64; the plugin reports no aspects, only the device type's are known");
	r.aspects = gpu;
	ck_assert_int_eq(select_pick_with(&ocl_cpu, &type_only, c, 1, &chosen,
					  why), -ENOEXEC);
	ck_assert_str_eq(why[0], "image 0 (target spir64): needs aspect gpu, device lacks it");
	r.aspects = cpu;
	ck_assert_uint_eq(pick_with_ok(&type_only, c, 1), 0);
	r.aspects = usm;
	ck_assert_int_eq(select_pick_with(&ocl_cpu, &pocl_features, c, 1,
					  &chosen, why), -ENOEXEC);
	ck_assert_str_eq(why[0], "image 0 (target spir64): needs aspect usm_device_allocations, which is not known for the device");
	r.aspects = far;
	r.naspects = 2;
	ck_assert_int_eq(select_pick_with(&ocl_cpu, &pocl_features, c, 1,
					  &chosen, why), -ENOEXEC);
	ck_assert_str_eq(why[0], "image 0 (target spir64): needs aspect 70, which is not known for the device");
}
END_TEST

START_TEST(test_reqs_sub_group_size)
{
	struct select_reqs r = { .sub_group_size = 16 };
	struct select_cand c[] = { CAND("spir64", DEVIMG_FORMAT_SPIRV) };
	size_t chosen;

	c[0].reqs = &r;
	ck_assert_uint_eq(pick_with_ok(&pocl_features, c, 1), 0);
	r.sub_group_size = 64;
	ck_assert_int_eq(select_pick_with(&ocl_cpu, &pocl_features, c, 1,
					  &chosen, why), -ENOEXEC);
	ck_assert_str_eq(why[0], "image 0 (target spir64): needs sub-group size 64, device has 8, 16, 32");
	ck_assert_int_eq(select_pick_with(&ocl_cpu, &type_only, c, 1, &chosen,
					  why), -ENOEXEC);
	ck_assert_str_eq(why[0], "image 0 (target spir64): needs sub-group size 64, device reports no sub-group sizes");
}
END_TEST

START_TEST(test_reqs_work_group_size)
{
	struct select_reqs r = { .wg_dims = 2, .wg_size = { 128, 2, 1 } };
	struct select_cand c[] = { CAND("spir64", DEVIMG_FORMAT_SPIRV) };
	size_t chosen;

	c[0].reqs = &r;
	ck_assert_uint_eq(pick_with_ok(&pocl_features, c, 1), 0);
	r.wg_size[1] = 4;
	ck_assert_int_eq(select_pick_with(&ocl_cpu, &pocl_features, c, 1,
					  &chosen, why), -ENOEXEC);
	ck_assert_str_eq(why[0], "image 0 (target spir64): needs work-group size 128x4 (512 work-items), device allows 256");
	r.wg_dims = 3;
	r.wg_size[0] = 1;
	r.wg_size[1] = 1;
	r.wg_size[2] = 128;
	ck_assert_int_eq(select_pick_with(&ocl_cpu, &pocl_features, c, 1,
					  &chosen, why), -ENOEXEC);
	ck_assert_str_eq(why[0], "image 0 (target spir64): needs work-group size 1x1x128, device allows 64 in dimension 2");
	/* Limits not known: not held against the image. */
	ck_assert_uint_eq(pick_with_ok(&type_only, c, 1), 0);
}
END_TEST

START_TEST(test_reqs_unreadable)
{
	struct select_reqs r0 = { .error = -EINVAL }, r1 = { .error = -ESTALE };
	struct select_cand c[] = {
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
		CAND("spir64", DEVIMG_FORMAT_SPIRV),
	};

	c[0].reqs = &r0;
	c[1].reqs = &r1;
	ck_assert_uint_eq(pick_with_ok(&pocl_features, c, 3), 2);
	ck_assert_str_eq(why[0], "image 0 (target spir64): malformed device requirements (the log says which)");
	ck_assert_str_eq(why[1], "image 1 (target spir64): unregistered before its device requirements were read");
	/* The last spir64 image qualifying is taken, others passed over. */
	c[2].reqs = &r0;
	r0.error = 0;
	ck_assert_uint_eq(pick_with_ok(&pocl_features, c, 3), 2);
	ck_assert_str_eq(why[0], "image 0 (target spir64): the last spir64 image (2) is taken");
}
END_TEST

START_TEST(test_content_from_magic)
{
	static const char ptx_ws[] = "\n  .version 8.0\n.target  sm_90a\n";
	unsigned sm;

	ck_assert_int_eq(image_content_of(fx_spirv, 16, &sm), CONTENT_SPIRV);
	ck_assert_int_eq(image_content_of("\x07\x23\x02\x03", 4, &sm),
			 CONTENT_SPIRV);
	ck_assert_int_eq(image_content_of(fx_llvmbc, 16, &sm), CONTENT_LLVMBC);
	ck_assert_int_eq(image_content_of(fx_elf, 16, &sm), CONTENT_ELF);
	ck_assert_int_eq(image_content_of(fx_ptx, strlen(fx_ptx), &sm),
			 CONTENT_PTX);
	ck_assert_uint_eq(sm, 80);
	ck_assert_int_eq(image_content_of(ptx_ws, strlen(ptx_ws), &sm),
			 CONTENT_PTX);
	ck_assert_uint_eq(sm, 90);
	ck_assert_int_eq(image_content_of(".version 7.0\n.target", 20, &sm),
			 CONTENT_PTX);
	ck_assert_uint_eq(sm, 0);
	ck_assert_int_eq(image_content_of("BC", 2, &sm), CONTENT_UNKNOWN);
	ck_assert_int_eq(image_content_of("hello", 5, &sm), CONTENT_UNKNOWN);
	ck_assert_int_eq(image_content_of("", 0, &sm), CONTENT_UNKNOWN);
}
END_TEST

/* Through the registry: formats NONE are guessed from the bytes. */
START_TEST(test_registered_images_by_magic)
{
	struct devimg_device_caps cuda_75 = cuda_80;
	struct devimg_image *imgs[8];
	enum devimg_image_format fmt;
	struct fixture f;
	size_t n, chosen = 99, i;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_NONE, fx_spirv, 16);
	fx_image(&f, "spir64", DEVIMG_FORMAT_NONE, fx_llvmbc, 16);
	fx_image(&f, "nvptx64", DEVIMG_FORMAT_NONE, fx_ptx, strlen(fx_ptx));
	fx_image(&f, "nvptx64", DEVIMG_FORMAT_NONE, fx_elf, 16);
	for (i = 0; i < 4; i++)
		fx_entry(&f, (unsigned)i, "k");
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_find_kernel("k", imgs, 8, &n), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_int_eq(devimg_image_guess_format(imgs[1], &fmt), 0);
	ck_assert_int_eq(fmt, DEVIMG_FORMAT_LLVMBC);
	ck_assert_int_eq(devimg_image_guess_format(imgs[3], &fmt), 0);
	ck_assert_int_eq(fmt, DEVIMG_FORMAT_NATIVE);

	ck_assert_int_eq(devimg_select_image(&pocl_cpu, imgs, n, &chosen, why),
			 0);
	ck_assert_uint_eq(chosen, 1);
	ck_assert_has(why[0], "format none (spirv by its magic)");
	ck_assert_str_eq(why[2], "image 2 (target nvptx64): not for backend opencl");
	ck_assert_int_eq(devimg_select_image(&ocl_gpu, imgs, n, &chosen, why),
			 0);
	ck_assert_uint_eq(chosen, 0);
	ck_assert_int_eq(devimg_select_image(&cuda_80, imgs, n, &chosen, why),
			 0);
	ck_assert_uint_eq(chosen, 2);
	cuda_75.cuda_cc = 75;
	ck_assert_int_eq(devimg_select_image(&cuda_75, imgs, n, &chosen, why),
			 0);
	ck_assert_uint_eq(chosen, 3);
	ck_assert_has(why[2], "PTX for sm_80, device has compute capability 7.5");

	__sycl_unregister_lib(&f.desc);
	/* Guessed already: the cached formats still select. */
	ck_assert_int_eq(devimg_select_image(&cuda_75, imgs, n, &chosen, why),
			 0);
	ck_assert_uint_eq(chosen, 3);
	for (i = 0; i < n; i++)
		devimg_image_unref(imgs[i]);
	fx_fini(&f);
}
END_TEST

START_TEST(test_unregistered_unguessed_image_rejected)
{
	struct devimg_image *img;
	struct fixture f;
	size_t n, chosen;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_NONE, fx_spirv, 16);
	fx_entry(&f, 0, "k");
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_find_kernel("k", &img, 1, &n), 0);
	__sycl_unregister_lib(&f.desc);
	ck_assert_int_eq(devimg_select_image(&ocl_cpu, &img, 1, &chosen, why),
			 -ENOEXEC);
	ck_assert_has(why[0], "unregistered before its format was guessed");
	devimg_image_unref(img);
	fx_fini(&f);
}
END_TEST

/* Requirements from the images' property sets, through the registry. */
START_TEST(test_registered_requirements)
{
	static const unsigned char fp16[] = { 5, 0, 0, 0 };
	static const unsigned char cpu_fp64[] = { 1, 0, 0, 0, 6, 0, 0, 0 };
	struct devimg_image *imgs[4];
	struct fixture f;
	size_t n, chosen = 99, i;
	unsigned s;

	fx_init(&f);
	fx_image(&f, "spir64_x86_64", DEVIMG_FORMAT_SPIRV, fx_spirv, 16);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv, 16);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv, 16);
	s = fx_set(&f, 0, "SYCL/device requirements");
	fx_bytes(&f, 0, s, "aspects", fp16, 32);
	s = fx_set(&f, 1, "SYCL/device requirements");
	fx_bytes(&f, 1, s, "aspects", cpu_fp64, 64);
	fx_u32(&f, 1, s, "reqd_sub_group_size", 16);
	s = fx_set(&f, 2, "SYCL/device requirements");
	fx_u32(&f, 2, s, "aspects", 6);
	for (i = 0; i < 3; i++)
		fx_entry(&f, (unsigned)i, "k");
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_find_kernel("k", imgs, 4, &n), 0);
	ck_assert_uint_eq(n, 3);

	fx_log_capture();
	ck_assert_int_eq(devimg_select_image_with(&ocl_cpu, &pocl_features,
						  imgs, n, &chosen, why), 0);
	fx_log_release();
	ck_assert_uint_eq(chosen, 1);
	ck_assert_str_eq(why[0], "image 0 (target spir64_x86_64): needs aspect fp16, device lacks it");
	ck_assert_str_eq(why[2], "image 2 (target spir64): malformed device requirements (the log says which)");
	ck_assert_has(fx_log_text(), "set 'SYCL/device requirements' property 'aspects': type 1, expected 2 (byte array)");
	/* A device whose plugin reports no aspects: fp64 is not assumed. */
	fx_log_capture();
	ck_assert_int_eq(devimg_select_image_with(&ocl_cpu, &type_only, imgs, n,
						  &chosen, why), -ENOEXEC);
	fx_log_release();
	ck_assert_str_eq(why[1], "image 1 (target spir64): needs aspect fp64; the plugin reports no aspects, only the device type's are known");
	/* devimg_select_image() does not look at requirements. */
	ck_assert_int_eq(devimg_select_image(&ocl_cpu, imgs, n, &chosen, why),
			 0);
	ck_assert_uint_eq(chosen, 0);
	for (i = 0; i < n; i++)
		devimg_image_unref(imgs[i]);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}
END_TEST

static Suite *select_suite(void)
{
	Suite *s = suite_create("select");
	TCase *rules = tcase_create("rules");
	TCase *reg = tcase_create("registered");

	tcase_add_test(rules, test_opencl_cpu_prefers_x86_64);
	tcase_add_test(rules, test_triples_by_arch);
	tcase_add_test(rules, test_reason_escapes_target);
	tcase_add_test(rules, test_opencl_falls_back_to_last_spir64);
	tcase_add_test(rules, test_opencl_gpu_prefers_gen);
	tcase_add_test(rules, test_opencl_accelerator_prefers_fpga);
	tcase_add_test(rules, test_level_zero_gen_then_spir64);
	tcase_add_test(rules, test_cuda_first_nvptx64);
	tcase_add_test(rules, test_cuda_rejects_ptx_for_newer_sm);
	tcase_add_test(rules, test_opencl_ptx_device_takes_nvptx64);
	tcase_add_test(rules, test_format_needs_ingestion);
	tcase_add_test(rules, test_spir_then_spirv_of_one_kernel);
	tcase_add_test(rules, test_guessed_format_named_in_reason);
	tcase_add_test(rules, test_nothing_fits);
	tcase_add_test(rules, test_bad_arguments);
	tcase_add_test(rules, test_many_candidates);
	tcase_add_test(rules, test_content_from_magic);
	tcase_add_test(rules, test_reqs_lacking_aspect_passed_over);
	tcase_add_test(rules, test_reqs_unknown_aspects_not_assumed);
	tcase_add_test(rules, test_reqs_sub_group_size);
	tcase_add_test(rules, test_reqs_work_group_size);
	tcase_add_test(rules, test_reqs_unreadable);
	tcase_add_test(reg, test_registered_images_by_magic);
	tcase_add_test(reg, test_unregistered_unguessed_image_rejected);
	tcase_add_test(reg, test_registered_requirements);
	suite_add_tcase(s, rules);
	suite_add_tcase(s, reg);
	return s;
}

int main(void)
{
	return run_suite(select_suite());
}
