// SPDX-License-Identifier: MIT
/*
 * Sizes that wrap: property sets whose byte arrays each pass registration
 * (at most 4 GiB) but whose copy adds up to 2^64 bytes plus a few
 * megabytes, in both shapes the limits allow (2^20 sets sharing one array
 * of 2^12 properties, and 2^12 sets sharing one of 2^20), read through
 * every introspection and selection function: each must fail cleanly,
 * none may copy. Then launch ranges that wrap size_t in each dimension.
 * The byte arrays' values are 16 bytes: only a wrapped size reads past
 * them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "loader/dispatch/dispatch.h"
#include "tests/loader/fixture.h"

#define SET_NAMES 5

static const char *const set_names[SET_NAMES] = {
	"SYCL/device requirements",
	"SYCL/kernel param opt",
	"SYCL/program metadata",
	"SYCL/specialization constants",
	"SYCL/specialization constants default values",
};

static const char prop_name[] = "k";
static const unsigned char value[16] = { 32 };
static const unsigned char bin[16] = { 0x03, 0x02, 0x23, 0x07 };

struct big {
	struct devimg_device_binaries desc;
	struct devimg_device_image image;
	struct devimg_offload_entry entry;
	struct devimg_property_set *sets;
	struct devimg_property *props;
};

/*
 * nsets sets over one array of nprops properties, each property's copy
 * taking 2^32 bytes (its info record, name and value): nsets * nprops =
 * 2^32 of them add up to 2^64, the rest (the sets' records) is small.
 */
static void big_init(struct big *b, size_t nsets, size_t nprops)
{
	uint64_t size = ((uint64_t)1 << 32) -
			sizeof(struct devimg_property_info) - sizeof(prop_name);
	size_t i;

	memset(b, 0, sizeof(*b));
	b->sets = calloc(nsets, sizeof(*b->sets));
	b->props = calloc(nprops, sizeof(*b->props));
	ck_assert(b->sets && b->props);
	for (i = 0; i < nprops; i++) {
		b->props[i].name = (char *)prop_name;
		b->props[i].value = (void *)value;
		b->props[i].type = DEVIMG_PROPERTY_BYTE_ARRAY;
		b->props[i].size = size;
	}
	for (i = 0; i < nsets; i++) {
		b->sets[i].name = (char *)set_names[i % SET_NAMES];
		b->sets[i].begin = b->props;
		b->sets[i].end = b->props + nprops;
	}
	b->entry.name = (char *)prop_name;
	b->image = (struct devimg_device_image){
		.version = 2,
		.kind = DEVIMG_KIND_SYCL,
		.format = DEVIMG_FORMAT_SPIRV,
		.target = "spir64",
		.compile_opts = "",
		.link_opts = "",
		.bin_begin = bin,
		.bin_end = bin + sizeof(bin),
		.entries_begin = &b->entry,
		.entries_end = &b->entry + 1,
		.props_begin = b->sets,
		.props_end = b->sets + nsets,
	};
	b->desc.version = 1;
	b->desc.count = 1;
	b->desc.images = &b->image;
}

static void big_fini(struct big *b)
{
	free(b->sets);
	free(b->props);
}

/* Callers set the size of the structs they hand over. */
#define CAPS sizeof(struct devimg_device_caps)

static const struct devimg_device_caps ocl_cpu = {
	CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_CPU, 1, 1, 0, 0
};

/* Every reader of the property sets fails with -EOVERFLOW, once logged. */
static void check_refused(size_t nsets, size_t nprops)
{
	const struct devimg_spec_const_info *consts;
	const struct devimg_propset_info *sets;
	const struct devimg_property_info *prop;
	struct devimg_device_features feat = { .size = sizeof(feat) };
	char reasons[1][DEVIMG_REASON_MAX];
	struct devimg_spec_values *v = NULL;
	struct devimg_image_reqs reqs = { .size = sizeof(reqs) };
	struct devimg_image *img;
	const unsigned char *mask;
	const void *defaults;
	size_t n, size[3], chosen;
	unsigned dims;
	struct big b;

	big_init(&b, nsets, nprops);
	fx_log_capture();
	__sycl_register_lib(&b.desc);
	ck_assert_int_eq(devimg_registry_images(&img, 1, &n), 0);
	ck_assert_uint_eq(n, 1);

	ck_assert_int_eq(devimg_image_propsets(img, &sets, &n), -EOVERFLOW);
	ck_assert_has(fx_log_text(), "property sets take more than");
	fx_log_clear();
	ck_assert_int_eq(devimg_image_find_property(img, set_names[0],
						    prop_name, &prop),
			 -EOVERFLOW);
	ck_assert_int_eq(devimg_image_spec_consts(img, &consts, &n, &defaults,
						  &size[0]),
			 -EOVERFLOW);
	ck_assert_int_eq(devimg_spec_values_new(img, &v), -EOVERFLOW);
	ck_assert_ptr_null(v);
	ck_assert_int_eq(devimg_image_requirements(img, &reqs),
			 -EOVERFLOW);
	ck_assert_int_eq(devimg_image_kernel_arg_mask(img, prop_name, &mask,
						      &n),
			 -EOVERFLOW);
	ck_assert_int_eq(devimg_image_reqd_work_group_size(img, prop_name,
							   &dims, size),
			 -EOVERFLOW);
	/* Selection without requirements never reads the sets. */
	ck_assert_int_eq(devimg_select_image(&ocl_cpu, &img, 1, &chosen, NULL),
			 0);
	ck_assert_uint_eq(chosen, 0);
	ck_assert_int_lt(devimg_select_image_with(&ocl_cpu, &feat, &img, 1,
						  &chosen, reasons),
			 0);
	ck_assert_has(reasons[0], "device requirements unreadable");
	/* The copy was refused once; later calls did not add up again. */
	ck_assert_ptr_null(strstr(fx_log_text(), "take more than"));

	devimg_image_unref(img);
	__sycl_unregister_lib(&b.desc);
	fx_log_release();
	big_fini(&b);
}

START_TEST(sets_share_props)
{
	check_refused((size_t)1 << 20, (size_t)1 << 12);
}
END_TEST

/* Counts and sizes swapped: few sets, many properties each. */
START_TEST(props_share_sets)
{
	check_refused((size_t)1 << 12, (size_t)1 << 20);
}
END_TEST

/* ---- launch ranges (loader/dispatch/kernel.c) ---- */

static void expect_range(int want, const char *msg, unsigned dims,
			 const size_t *off, const size_t *glob,
			 const size_t *loc)
{
	ck_assert_int_eq(launch_range_check(dims, off, glob, loc), want);
	if (msg)
		ck_assert_has(devimg_last_error(), msg);
}

START_TEST(launch_ranges)
{
	const size_t max3[3] = { SIZE_MAX, SIZE_MAX, SIZE_MAX };
	size_t glob[3], off[3], loc[3];
	unsigned d;

	/* SIZE_MAX work-items in one dimension fit; in two they do not. */
	expect_range(0, NULL, 1, NULL, max3, NULL);
	expect_range(-EINVAL, "dimension 1: global size 18446744073709551615 makes the work-item count pass SIZE_MAX",
		     3, NULL, max3, NULL);
	for (d = 0; d < 3; d++) {
		char want[128];

		/* Offset + size wraps in dimension d only. */
		glob[0] = glob[1] = glob[2] = 4;
		off[0] = off[1] = off[2] = 0;
		glob[d] = 2;
		off[d] = SIZE_MAX;
		snprintf(want, sizeof(want),
			 "dimension %u: offset %zu + global size 2 pass SIZE_MAX",
			 d, (size_t)SIZE_MAX);
		expect_range(-EINVAL, want, 3, off, glob, NULL);
		/* The last id is SIZE_MAX: fits. */
		off[d] = SIZE_MAX - 1;
		expect_range(0, NULL, 3, off, glob, NULL);

		/* The product wraps at dimension d (2^32 * 2^32). */
		glob[0] = glob[1] = glob[2] = 1;
		glob[d] = (size_t)1 << 32;
		glob[(d + 1) % 3] = (size_t)1 << 32;
		snprintf(want, sizeof(want),
			 "dimension %u: global size 4294967296 makes the work-item count",
			 d > (d + 1) % 3 ? d : (d + 1) % 3);
		expect_range(-EINVAL, want, 3, NULL, glob, NULL);

		/* A local size that does not divide, or exceeds. */
		glob[0] = glob[1] = glob[2] = 8;
		loc[0] = loc[1] = loc[2] = 4;
		loc[d] = 3;
		snprintf(want, sizeof(want),
			 "dimension %u: global size 8 is not a multiple of local size 3",
			 d);
		expect_range(-EINVAL, want, 3, NULL, glob, loc);
		loc[d] = 16;
		expect_range(-EINVAL, "not a multiple of local size 16", 3, NULL,
			     glob, loc);
		loc[d] = 0;
		expect_range(-EINVAL, "not a multiple of local size 0", 3, NULL,
			     glob, loc);
		loc[d] = 8;
		expect_range(0, NULL, 3, NULL, glob, loc);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("overflow");
	TCase *tc = tcase_create("propsets");

	/* 2^32 properties to validate and add up: seconds, not the default 4. */
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, sets_share_props);
	tcase_add_test(tc, props_share_sets);
	suite_add_tcase(s, tc);
	tc = tcase_create("launch");
	tcase_add_test(tc, launch_ranges);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
