// SPDX-License-Identifier: MIT
/*
 * The public structs a caller fills or receives carry their size first:
 * one below the DEVIMG_0.1 size (a caller that sets none) is refused with
 * a message naming the struct and both sizes; a larger one (a caller
 * built against a newer header) is accepted, the library reading and
 * writing only the prefix it knows. On the registry (device caps and
 * features given to selection, an image's requirements) and on the fake
 * plugin's device (caps and features received, a bundle's filter).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/loader/fixture.h"

#define CANARY UINT64_C(0x5a5a5a5a5a5a5a5a)

#define SIZE_0_1(type, last)						\
	(offsetof(struct type, last) + sizeof(((struct type *)0)->last))

static char why[4][DEVIMG_REASON_MAX];

/*
 * A struct as a caller of a newer header makes it: size bytes of fill,
 * its size first, and a field the library does not know (the canary) in
 * its last 8 bytes.
 */
static void *newer_struct(void *p, size_t size, int fill)
{
	const uint64_t canary = CANARY;

	memset(p, fill, size);
	*(size_t *)p = size;
	memcpy((char *)p + size - sizeof(canary), &canary, sizeof(canary));
	return p;
}

/* Whether the library left the canary of newer_struct() alone. */
static bool canary_intact(const void *p, size_t size)
{
	uint64_t v;

	memcpy(&v, (const char *)p + size - sizeof(v), sizeof(v));
	return v == CANARY;
}

/* The message of a struct of size bytes refused. */
static const char *refused(const char *name, size_t size, size_t min)
{
	static char text[256];

	snprintf(text, sizeof(text),
		 "struct %s: size %zu is below its DEVIMG_0.1 size %zu (set .size = sizeof(struct %s))",
		 name, size, min, name);
	return text;
}

/* One spir64 SPIR-V image defining "k", requiring fp64 and cpu. */
static struct devimg_image *one_image(struct fixture *f)
{
	static const unsigned char aspects[] = { 6, 0, 0, 0, 1, 0, 0, 0 };
	struct devimg_image *img;
	size_t n;
	unsigned s;

	fx_init(f);
	fx_image(f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv, 16);
	fx_entry(f, 0, "k");
	s = fx_set(f, 0, "SYCL/device requirements");
	fx_bytes(f, 0, s, "aspects", aspects, 64);
	fx_u32(f, 0, s, "reqd_sub_group_size", 16);
	__sycl_register_lib(&f->desc);
	ck_assert_int_eq(devimg_registry_images(&img, 1, &n), 0);
	ck_assert_uint_eq(n, 1);
	return img;
}

static void drop_image(struct fixture *f, struct devimg_image *img)
{
	devimg_image_unref(img);
	__sycl_unregister_lib(&f->desc);
	fx_fini(f);
}

START_TEST(test_caps_without_size_refused)
{
	/* As a caller written before the size existed fills it. */
	struct devimg_device_caps caps = {
		.backend = DEVIMG_BACKEND_OPENCL,
		.type = DEVIMG_DEVICE_CPU,
		.spirv = 1,
	};
	const char *want = refused("devimg_device_caps", 0,
				   SIZE_0_1(devimg_device_caps, ptx));
	struct devimg_image *img;
	struct fixture f;
	size_t chosen = 99;

	img = one_image(&f);
	fx_log_capture();
	ck_assert_int_eq(devimg_select_image(&caps, &img, 1, &chosen, why),
			 -EINVAL);
	fx_log_release();
	ck_assert_uint_eq(chosen, 99);
	ck_assert_str_eq(devimg_last_error(), want);
	ck_assert_has(fx_log_text(), want);
	/* One byte short of the last 0.1 field. */
	caps.size = SIZE_0_1(devimg_device_caps, ptx) - 1;
	ck_assert_int_eq(devimg_select_image(&caps, &img, 1, &chosen, why),
			 -EINVAL);
	ck_assert_str_eq(devimg_last_error(),
			 refused("devimg_device_caps", caps.size, caps.size + 1));
	caps.size = sizeof(caps);
	ck_assert_int_eq(devimg_select_image(&caps, &img, 1, &chosen, why), 0);
	ck_assert_uint_eq(chosen, 0);
	drop_image(&f, img);
}
END_TEST

START_TEST(test_features_without_size_refused)
{
	struct devimg_device_caps caps = {
		.size = sizeof(caps),
		.backend = DEVIMG_BACKEND_OPENCL,
		.type = DEVIMG_DEVICE_CPU,
		.spirv = 1,
	};
	struct devimg_device_features feat = { .aspects_known = ~0ull };
	struct devimg_image *img;
	struct fixture f;
	size_t chosen = 99;

	img = one_image(&f);
	fx_log_capture();
	ck_assert_int_eq(devimg_select_image_with(&caps, &feat, &img, 1,
						  &chosen, why), -EINVAL);
	fx_log_release();
	ck_assert_uint_eq(chosen, 99);
	ck_assert_str_eq(devimg_last_error(),
			 refused("devimg_device_features", 0,
				 SIZE_0_1(devimg_device_features,
					  max_work_item_sizes)));
	drop_image(&f, img);
}
END_TEST

/* A caller of a newer header: its structs are larger, with more after. */
START_TEST(test_larger_input_structs_accepted)
{
	struct {
		struct devimg_device_caps caps;
		uint64_t newer;
	} caps = {
		.caps = {
			.backend = DEVIMG_BACKEND_OPENCL,
			.type = DEVIMG_DEVICE_CPU,
			.spirv = 1,
		},
		.newer = CANARY,
	};
	struct {
		struct devimg_device_features feat;
		uint64_t newer;
	} feat = {
		.feat = {
			.aspects = (1u << DEVIMG_ASPECT_CPU) |
				   (1u << DEVIMG_ASPECT_FP64),
			.aspects_known = ~0ull,
			.aspects_reported = 1,
			.nsub_group_sizes = 1,
			.sub_group_sizes = { 16 },
		},
		.newer = CANARY,
	};
	struct devimg_image *img;
	struct fixture f;
	size_t chosen = 99;

	caps.caps.size = sizeof(caps);
	feat.feat.size = sizeof(feat);
	img = one_image(&f);
	ck_assert_int_eq(devimg_select_image_with(&caps.caps, &feat.feat,
						  &img, 1, &chosen, why), 0);
	ck_assert_uint_eq(chosen, 0);
	/* What the library knows is still read: fp64 is needed. */
	feat.feat.aspects &= ~(1u << DEVIMG_ASPECT_FP64);
	ck_assert_int_eq(devimg_select_image_with(&caps.caps, &feat.feat,
						  &img, 1, &chosen, why),
			 -ENOEXEC);
	ck_assert_str_eq(why[0], "image 0 (target spir64): needs aspect fp64, device lacks it");
	ck_assert_uint_eq(caps.newer, CANARY);
	ck_assert_uint_eq(feat.newer, CANARY);
	drop_image(&f, img);
}
END_TEST

START_TEST(test_requirements_sizes)
{
	const size_t min = SIZE_0_1(devimg_image_reqs, work_group_num_dim);
	struct {
		struct devimg_image_reqs reqs;
		uint64_t canary;
	} big;
	union {
		struct devimg_image_reqs reqs;
		unsigned char bytes[sizeof(struct devimg_image_reqs)];
	} exact;
	struct devimg_image_reqs none = { 0 };
	struct devimg_image *img;
	struct fixture f;
	size_t i;

	img = one_image(&f);
	none.sub_group_size = 7;
	fx_log_capture();
	ck_assert_int_eq(devimg_image_requirements(img, &none), -EINVAL);
	fx_log_release();
	ck_assert_str_eq(devimg_last_error(),
			 refused("devimg_image_reqs", 0, min));
	ck_assert_uint_eq(none.sub_group_size, 7);

	newer_struct(&big, sizeof(big), 0xff);
	ck_assert_int_eq(devimg_image_requirements(img, &big.reqs), 0);
	ck_assert_uint_eq(big.reqs.size, sizeof(big));
	ck_assert_uint_eq(big.reqs.naspects, 2);
	ck_assert_uint_eq(big.reqs.aspects[0], DEVIMG_ASPECT_FP64);
	ck_assert_uint_eq(big.reqs.aspects[1], DEVIMG_ASPECT_CPU);
	ck_assert_uint_eq(big.reqs.sub_group_size, 16);
	ck_assert_uint_eq(big.reqs.wg_dims, 0);
	ck_assert_uint_eq(big.reqs.work_group_num_dim, 0);
	ck_assert(canary_intact(&big, sizeof(big)));

	/* Exactly the 0.1 fields: nothing past them is written. */
	memset(&exact, 0xaa, sizeof(exact));
	exact.reqs.size = min;
	ck_assert_int_eq(devimg_image_requirements(img, &exact.reqs), 0);
	ck_assert_uint_eq(exact.reqs.size, min);
	ck_assert_uint_eq(exact.reqs.naspects, 2);
	ck_assert_uint_eq(exact.reqs.work_group_num_dim, 0);
	for (i = min; i < sizeof(exact); i++)
		ck_assert_uint_eq(exact.bytes[i], 0xaa);
	drop_image(&f, img);
}
END_TEST

/* ---- on the fake plugin's device ---- */

static struct devimg_ctx *fake_ctx(void)
{
	struct devimg_ctx *ctx = NULL;

	setenv("DEVIMG_PLUGIN_PATH", FAKE_PLUGIN_DIR, 1);
	setenv("DEVIMG_TEST_FAKE", "device", 1);
	unsetenv("DEVIMG_DEVICE_SELECTOR");
	ck_assert_int_eq(devimg_ctx_new(&ctx), 0);
	ck_assert_msg(devimg_device_count(ctx) == 1,
		      "the fake plugin's device not found in %s",
		      FAKE_PLUGIN_DIR);
	return ctx;
}

START_TEST(test_device_structs_received)
{
	struct devimg_ctx *ctx = fake_ctx();
	struct devimg_device *dev = devimg_device_get(ctx, 0);
	struct {
		struct devimg_device_caps caps;
		uint64_t canary;
	} caps;
	struct {
		struct devimg_device_features feat;
		uint64_t canary;
	} feat;
	struct devimg_device_caps none = { 0 };
	struct devimg_device_features nofeat = { 0 };

	fx_log_capture();
	ck_assert_int_eq(devimg_device_caps(dev, &none), -EINVAL);
	ck_assert_str_eq(devimg_last_error(),
			 refused("devimg_device_caps", 0,
				 SIZE_0_1(devimg_device_caps, ptx)));
	ck_assert_int_eq(devimg_device_features(dev, &nofeat), -EINVAL);
	fx_log_release();
	ck_assert_str_eq(devimg_last_error(),
			 refused("devimg_device_features", 0,
				 SIZE_0_1(devimg_device_features,
					  max_work_item_sizes)));
	ck_assert_int_eq(none.backend, 0);
	ck_assert_uint_eq(nofeat.aspects, 0);

	ck_assert_int_eq(devimg_device_caps(dev, newer_struct(&caps,
							      sizeof(caps), 0)),
			 0);
	ck_assert_uint_eq(caps.caps.size, sizeof(caps));
	ck_assert_int_eq(caps.caps.type, DEVIMG_DEVICE_CPU);
	ck_assert_int_eq(caps.caps.spirv, 1);
	ck_assert(canary_intact(&caps, sizeof(caps)));

	ck_assert_int_eq(devimg_device_features(dev, newer_struct(&feat,
								  sizeof(feat),
								  0)),
			 0);
	ck_assert_uint_eq(feat.feat.size, sizeof(feat));
	ck_assert_uint_eq(feat.feat.aspects, 1u << DEVIMG_ASPECT_CPU);
	ck_assert_uint_eq(feat.feat.max_work_item_sizes[2], 1);
	ck_assert(canary_intact(&feat, sizeof(feat)));
	devimg_ctx_unref(ctx);
}
END_TEST

START_TEST(test_bundle_filter_sizes)
{
	const char *want = refused("devimg_bundle_filter", 0,
				   SIZE_0_1(devimg_bundle_filter, ndevs));
	struct devimg_ctx *ctx = fake_ctx();
	struct devimg_bundle_filter none = { .kernel = "k" };
	struct {
		struct devimg_bundle_filter f;
		uint64_t newer;
	} big = { .f = { .kernel = "k" }, .newer = CANARY };
	struct devimg_bundle *b = NULL;
	char text[512];

	fx_log_capture();
	ck_assert_int_eq(devimg_bundle_new(ctx, DEVIMG_BUNDLE_INPUT, &none,
					   &b), -EINVAL);
	ck_assert_ptr_null(b);
	snprintf(text, sizeof(text), "devimg_bundle_new: %s", want);
	ck_assert_str_eq(devimg_last_error(), text);
	/* Refused before the file is read. */
	ck_assert_int_eq(devimg_bundle_new_from_syclbin(ctx, "x", 1, &none,
							&b), -EINVAL);
	fx_log_release();
	snprintf(text, sizeof(text), "devimg_bundle_new_from_syclbin: %s",
		 want);
	ck_assert_str_eq(devimg_last_error(), text);

	big.f.size = sizeof(big);
	ck_assert_int_eq(devimg_bundle_new(ctx, DEVIMG_BUNDLE_INPUT, &big.f,
					   &b), 0);
	ck_assert_uint_eq(devimg_bundle_image_count(b), 0);
	ck_assert_uint_eq(devimg_bundle_kernel_count(b), 0);
	ck_assert_ptr_null(devimg_bundle_kernel_name(b, 0));
	ck_assert_uint_eq(big.newer, CANARY);
	devimg_bundle_unref(b);
	devimg_ctx_unref(ctx);
}
END_TEST

/* The distinct names of a bundle's images, read by count and index. */
START_TEST(test_bundle_kernel_names)
{
	struct devimg_ctx *ctx = fake_ctx();
	struct devimg_bundle *b = NULL;
	struct fixture f;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv, 16);
	fx_entry(&f, 0, "k");
	fx_entry(&f, 0, "j");
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, fx_spirv, 16);
	fx_entry(&f, 1, "k");
	fx_entry(&f, 1, "m");
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_bundle_new(ctx, DEVIMG_BUNDLE_INPUT, NULL, &b),
			 0);
	ck_assert_uint_eq(devimg_bundle_image_count(b), 2);
	ck_assert_uint_eq(devimg_bundle_kernel_count(b), 3);
	ck_assert_str_eq(devimg_bundle_kernel_name(b, 0), "k");
	ck_assert_str_eq(devimg_bundle_kernel_name(b, 1), "j");
	ck_assert_str_eq(devimg_bundle_kernel_name(b, 2), "m");
	ck_assert_ptr_null(devimg_bundle_kernel_name(b, 3));
	ck_assert_ptr_null(devimg_bundle_kernel_name(NULL, 0));
	ck_assert_uint_eq(devimg_bundle_kernel_count(NULL), 0);
	devimg_bundle_unref(b);
	devimg_ctx_unref(ctx);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}
END_TEST

/* The tests of one case, added in order. */
static void add_case(Suite *s, const char *name, const TTest *const *tests,
		     size_t n)
{
	TCase *tc = tcase_create(name);
	size_t i;

	for (i = 0; i < n; i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
}

static Suite *api_suite(void)
{
	const TTest *const registry[] = {
		test_caps_without_size_refused,
		test_features_without_size_refused,
		test_larger_input_structs_accepted,
		test_requirements_sizes,
	};
	const TTest *const device[] = {
		test_device_structs_received,
		test_bundle_filter_sizes,
		test_bundle_kernel_names,
	};
	Suite *s = suite_create("api");

	add_case(s, "registry", registry, sizeof(registry) / sizeof(*registry));
	add_case(s, "device", device, sizeof(device) / sizeof(*device));
	return s;
}

int main(void)
{
	return run_suite(api_suite());
}
