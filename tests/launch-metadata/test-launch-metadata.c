// SPDX-License-Identifier: MIT
/*
 * libdevimg's view of launch metadata in registered images (hand-built
 * descriptors): eliminated-argument masks, required work-group sizes and
 * device requirements, with the errors a malformed property gives.
 */
#include <errno.h>

#include "tests/loader/fixture.h"

static const uint32_t wg_8x4[] = { 8, 4 };

/* One registered spir64 image defining "k"; img gets a reference. */
static void register_one(struct fixture *f, struct devimg_image **img)
{
	size_t n;

	fx_entry(f, 0, "k");
	__sycl_register_lib(&f->desc);
	ck_assert_int_eq(devimg_registry_find_kernel("k", img, 1, &n), 0);
	ck_assert_uint_eq(n, 1);
}

static void u32s(struct fixture *f, unsigned img, unsigned set,
		 const char *name, const uint32_t *v, size_t n)
{
	unsigned char p[64];
	size_t i;

	for (i = 0; i < n; i++) {
		p[i * 4] = (unsigned char)v[i];
		p[i * 4 + 1] = (unsigned char)(v[i] >> 8);
		p[i * 4 + 2] = (unsigned char)(v[i] >> 16);
		p[i * 4 + 3] = (unsigned char)(v[i] >> 24);
	}
	fx_bytes(f, img, set, name, p, n * 32);
}

START_TEST(test_arg_mask)
{
	struct devimg_image *img;
	const unsigned char *mask;
	struct fixture f;
	size_t nargs = 0;
	unsigned s;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv, 16);
	s = fx_set(&f, 0, "SYCL/kernel param opt");
	fx_bytes(&f, 0, s, "k", "\x02", 4);
	fx_u32(&f, 0, s, "bad", 3);
	register_one(&f, &img);

	ck_assert_int_eq(devimg_image_kernel_arg_mask(img, "k", &mask, &nargs),
			 0);
	ck_assert_uint_eq(nargs, 4);
	ck_assert_uint_eq(mask[0], 0x02);
	ck_assert_int_eq(devimg_image_kernel_arg_mask(img, "other", &mask,
						      &nargs), -ENOENT);
	fx_log_capture();
	ck_assert_int_eq(devimg_image_kernel_arg_mask(img, "bad", &mask,
						      &nargs), -EINVAL);
	fx_log_release();
	ck_assert_has(fx_log_text(), "set 'SYCL/kernel param opt' property 'bad': type 1, expected 2 (byte array)");
	ck_assert_int_eq(devimg_image_kernel_arg_mask(img, NULL, &mask,
						      &nargs), -EINVAL);
	devimg_image_unref(img);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}
END_TEST

START_TEST(test_reqd_work_group_size)
{
	static const uint32_t four[] = { 1, 2, 3, 4 };
	struct devimg_image *img;
	struct fixture f;
	size_t size[3];
	unsigned dims = 0, s;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv, 16);
	s = fx_set(&f, 0, "SYCL/program metadata");
	u32s(&f, 0, s, "k@reqd_work_group_size", wg_8x4, 2);
	u32s(&f, 0, s, "j@reqd_work_group_size", four, 4);
	register_one(&f, &img);

	ck_assert_int_eq(devimg_image_reqd_work_group_size(img, "k", &dims,
							   size), 0);
	ck_assert_uint_eq(dims, 2);
	ck_assert_uint_eq(size[0], 8);
	ck_assert_uint_eq(size[1], 4);
	ck_assert_uint_eq(size[2], 1);
	ck_assert_int_eq(devimg_image_reqd_work_group_size(img, "other", &dims,
							   size), -ENOENT);
	fx_log_capture();
	ck_assert_int_eq(devimg_image_reqd_work_group_size(img, "j", &dims,
							   size), -EINVAL);
	fx_log_release();
	ck_assert_has(fx_log_text(), "property 'j@reqd_work_group_size': 4 sizes, expected 0 to 3");
	devimg_image_unref(img);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}
END_TEST

/*
 * An empty reqd_work_group_size byte array: DPC++'s runtime counts no
 * dimension and takes the image for any device; so does selection here.
 */
START_TEST(test_empty_work_group_size_is_no_requirement)
{
	static const char *const names[] = {
		"reqd_work_group_size", "reqd_work_group_size_uint64_t",
	};
	struct devimg_image_reqs reqs;
	struct devimg_image *img;
	struct fixture f;
	unsigned s, i;

	for (i = 0; i < 2; i++) {
		fx_init(&f);
		fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv, 16);
		s = fx_set(&f, 0, "SYCL/device requirements");
		fx_bytes(&f, 0, s, names[i], "", 0);
		register_one(&f, &img);
		memset(&reqs, 0xff, sizeof(reqs));
		reqs.size = sizeof(reqs);
		ck_assert_int_eq(devimg_image_requirements(img, &reqs), 0);
		ck_assert_uint_eq(reqs.wg_dims, 0);
		devimg_image_unref(img);
		__sycl_unregister_lib(&f.desc);
		fx_fini(&f);
	}
}
END_TEST

START_TEST(test_requirements)
{
	static const uint32_t aspects[] = { 1, 6, 70 }, dims[] = { 2 };
	static const unsigned char wg64[] = { 64, 0, 0, 0, 0, 0, 0, 0,
					      2, 0, 0, 0, 0, 0, 0, 0 };
	struct devimg_image_reqs reqs = { .size = sizeof(reqs) };
	struct devimg_image *img;
	struct fixture f;
	const uint32_t *first;
	unsigned s;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv, 16);
	s = fx_set(&f, 0, "SYCL/device requirements");
	u32s(&f, 0, s, "aspects", aspects, 3);
	fx_u32(&f, 0, s, "reqd_sub_group_size", 16);
	/* Both forms: the uint64 one wins. */
	u32s(&f, 0, s, "reqd_work_group_size", wg_8x4, 2);
	fx_bytes(&f, 0, s, "reqd_work_group_size_uint64_t", wg64, 128);
	u32s(&f, 0, s, "work_group_num_dim", dims, 1);
	register_one(&f, &img);

	ck_assert_int_eq(devimg_image_requirements(img, &reqs), 0);
	ck_assert_uint_eq(reqs.naspects, 3);
	ck_assert_uint_eq(reqs.aspects[0], 1);
	ck_assert_uint_eq(reqs.aspects[1], 6);
	ck_assert_uint_eq(reqs.aspects[2], 70);
	ck_assert_uint_eq(reqs.sub_group_size, 16);
	ck_assert_uint_eq(reqs.wg_dims, 2);
	ck_assert_uint_eq(reqs.wg_size[0], 64);
	ck_assert_uint_eq(reqs.wg_size[1], 2);
	ck_assert_uint_eq(reqs.wg_size[2], 1);
	ck_assert_uint_eq(reqs.work_group_num_dim, 2);
	/* The aspects are the image's: the same array every time. */
	first = reqs.aspects;
	memset(&reqs, 0, sizeof(reqs));
	reqs.size = sizeof(reqs);
	ck_assert_int_eq(devimg_image_requirements(img, &reqs), 0);
	ck_assert_ptr_eq(reqs.aspects, first);
	ck_assert_uint_eq(reqs.naspects, 3);
	ck_assert_int_eq(devimg_image_requirements(img, NULL), -EINVAL);
	devimg_image_unref(img);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}
END_TEST

START_TEST(test_requirements_none_and_malformed)
{
	struct devimg_image_reqs reqs;
	struct devimg_image *imgs[2];
	struct fixture f;
	size_t n;
	unsigned s;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv, 16);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv, 16);
	s = fx_set(&f, 1, "SYCL/device requirements");
	fx_bytes(&f, 1, s, "aspects", "\x05\x00\x00", 24);
	fx_entry(&f, 0, "k");
	fx_entry(&f, 1, "k");
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_find_kernel("k", imgs, 2, &n), 0);

	memset(&reqs, 0xff, sizeof(reqs));
	reqs.size = sizeof(reqs);
	ck_assert_int_eq(devimg_image_requirements(imgs[0], &reqs), 0);
	ck_assert_uint_eq(reqs.naspects, 0);
	ck_assert_ptr_null(reqs.aspects);
	ck_assert_uint_eq(reqs.sub_group_size, 0);
	ck_assert_uint_eq(reqs.wg_dims, 0);
	ck_assert_uint_eq(reqs.work_group_num_dim, 0);
	fx_log_capture();
	ck_assert_int_eq(devimg_image_requirements(imgs[1], &reqs), -EINVAL);
	fx_log_release();
	ck_assert_has(fx_log_text(), "property 'aspects': 24 bits are not whole 32-bit integers");
	devimg_image_unref(imgs[0]);
	devimg_image_unref(imgs[1]);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}
END_TEST

START_TEST(test_aspect_names)
{
	ck_assert_str_eq(devimg_aspect_name(DEVIMG_ASPECT_FP16), "fp16");
	ck_assert_str_eq(devimg_aspect_name(DEVIMG_ASPECT_FP64), "fp64");
	ck_assert_str_eq(devimg_aspect_name(DEVIMG_ASPECT_ATOMIC64),
			 "atomic64");
	ck_assert_str_eq(devimg_aspect_name(DEVIMG_ASPECT_USM_SYSTEM_ALLOCATIONS),
			 "usm_system_allocations");
	ck_assert_ptr_null(devimg_aspect_name(1000));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("launch-metadata");
	TCase *tc = tcase_create("images");

	tcase_add_test(tc, test_arg_mask);
	tcase_add_test(tc, test_reqd_work_group_size);
	tcase_add_test(tc, test_requirements);
	tcase_add_test(tc, test_empty_work_group_size_is_no_requirement);
	tcase_add_test(tc, test_requirements_none_and_malformed);
	tcase_add_test(tc, test_aspect_names);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
