// SPDX-License-Identifier: MIT
/*
 * Registration validates each descriptor: every bad one is rejected whole,
 * with its reason logged and kept for devimg_registry_status(), and
 * nothing crashes.
 */
#include <errno.h>

#include "util/devimg_limits.h"
#include "tests/loader/fixture.h"
#include "loader/registry/registry.h"
#include "util/errmsg.h"

static const unsigned char bytes[64] = { 0x03, 0x02, 0x23, 0x07 };

/* A valid descriptor: two images, entries, a set with three properties. */
static void good(struct fixture *f)
{
	unsigned s;

	fx_init(f);
	fx_image(f, "spir64", DEVIMG_FORMAT_SPIRV, bytes, sizeof(bytes));
	fx_entry(f, 0, "k_one");
	fx_entry(f, 0, "k_two");
	s = fx_set(f, 0, "SYCL/misc properties");
	fx_u32(f, 0, s, "u", 7);
	fx_bytes(f, 0, s, "b", "\x01", 8);
	fx_image(f, "nvptx64", DEVIMG_FORMAT_NONE, bytes, sizeof(bytes));
	fx_entry(f, 1, "k_one");
}

/*
 * The descriptor must be rejected: by descriptor_validate at registration
 * (late false) or, for its entries, when the registry is first read (late
 * true: registration queued it). Either way the reason is kept and
 * logged, and nothing is registered.
 */
static void expect_rejected_when(struct fixture *f, const char *reason,
				 bool late)
{
	struct errmsg msg = { 0 };
	char text[256];
	size_t n = 1;
	int err = 0;

	if (late) {
		ck_assert_int_eq(descriptor_validate(&f->desc, &msg), 0);
	} else {
		ck_assert_int_eq(descriptor_validate(&f->desc, &msg), -EINVAL);
		ck_assert_has(msg.msg, reason);
	}

	fx_log_capture();
	__sycl_register_lib(&f->desc);
	if (late)
		ck_assert_ptr_null(strstr(fx_log_text(), reason));
	ck_assert_int_eq(devimg_registry_status(), -EINVAL);
	fx_log_release();
	ck_assert_has(fx_log_text(), reason);
	ck_assert_uint_eq(devimg_registry_problem_count(), 1);
	ck_assert_int_eq(devimg_registry_problem(0, &err, text, sizeof(text)),
			 0);
	ck_assert_int_eq(err, -EINVAL);
	ck_assert_has(text, reason);
	ck_assert_int_eq(devimg_registry_images(NULL, 0, &n), 0);
	ck_assert_uint_eq(n, 0);
	/* Unregistering a rejected descriptor is harmless. */
	__sycl_unregister_lib(&f->desc);
	fx_fini(f);
}

static void expect_rejected(struct fixture *f, const char *reason)
{
	expect_rejected_when(f, reason, false);
}

START_TEST(test_good_descriptor_registers)
{
	struct fixture f;
	size_t n;

	good(&f);
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_status(), 0);
	ck_assert_uint_eq(devimg_registry_problem_count(), 0);
	ck_assert_int_eq(devimg_registry_problem(0, NULL, NULL, 0), -ENOENT);
	ck_assert_int_eq(devimg_registry_images(NULL, 0, &n), 0);
	ck_assert_uint_eq(n, 2);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}
END_TEST

START_TEST(test_null_descriptor)
{
	struct errmsg msg;

	ck_assert_int_eq(descriptor_validate(NULL, &msg), -EINVAL);
	ck_assert_has(msg.msg, "descriptor is NULL");
	__sycl_register_lib(NULL);
	ck_assert_int_eq(devimg_registry_status(), -EINVAL);
	__sycl_unregister_lib(NULL);
}
END_TEST

START_TEST(test_binaries_version)
{
	struct fixture f;

	good(&f);
	f.desc.version = 2;
	expect_rejected(&f, "version 2, expected 1");
}
END_TEST

START_TEST(test_count_without_images)
{
	struct fixture f;

	good(&f);
	f.desc.images = NULL;
	expect_rejected(&f, "2 images but images is NULL");
}
END_TEST

START_TEST(test_host_entries_half_null)
{
	struct fixture f;

	good(&f);
	f.desc.host_begin = f.entries[0];
	expect_rejected(&f, "host entries begin");
}
END_TEST

START_TEST(test_image_version)
{
	struct fixture f;

	good(&f);
	f.images[1].version = 4;
	expect_rejected(&f, "image 1: version 4, expected 1, 2 or 3");
}
END_TEST

START_TEST(test_image_version_1_accepted)
{
	struct errmsg msg;
	struct fixture f;

	good(&f);
	f.images[0].version = 1;
	ck_assert_int_eq(descriptor_validate(&f.desc, &msg), 0);
	fx_fini(&f);
}
END_TEST

START_TEST(test_kind_not_sycl)
{
	struct fixture f;

	good(&f);
	f.images[0].kind = DEVIMG_KIND_OPENMP;
	expect_rejected(&f, "offload kind 2, expected 4 (SYCL)");
}
END_TEST

START_TEST(test_format_unknown)
{
	struct fixture f;

	good(&f);
	f.images[0].format = 9;
	expect_rejected(&f, "format 9 unknown");
}
END_TEST

START_TEST(test_target_null)
{
	struct fixture f;

	good(&f);
	f.images[1].target = NULL;
	expect_rejected(&f, "image 1: target is NULL");
}
END_TEST

START_TEST(test_options_null_allowed)
{
	struct errmsg msg;
	struct fixture f;

	good(&f);
	f.images[0].compile_opts = NULL;
	f.images[0].link_opts = NULL;
	ck_assert_int_eq(descriptor_validate(&f.desc, &msg), 0);
	fx_fini(&f);
}
END_TEST

START_TEST(test_bin_null)
{
	struct fixture f;

	good(&f);
	f.images[0].bin_begin = NULL;
	expect_rejected(&f, "image 0: image bytes begin");
}
END_TEST

START_TEST(test_bin_reversed)
{
	struct fixture f;

	good(&f);
	f.images[0].bin_begin = bytes + 10;
	f.images[0].bin_end = bytes + 2;
	expect_rejected(&f, "image bytes end");
}
END_TEST

START_TEST(test_manifest_half_null)
{
	struct fixture f;

	good(&f);
	f.images[0].manifest_begin = "x";
	expect_rejected(&f, "manifest begin");
}
END_TEST

START_TEST(test_entries_reversed)
{
	struct fixture f;

	good(&f);
	f.images[0].entries_end = f.images[0].entries_begin;
	f.images[0].entries_begin = f.entries[0] + 1;
	expect_rejected(&f, "entries end");
}
END_TEST

START_TEST(test_entries_not_whole)
{
	struct fixture f;

	good(&f);
	f.images[0].entries_end = (struct devimg_offload_entry *)
		((char *)f.images[0].entries_end - 8);
	expect_rejected(&f, "not a multiple of 32");
}
END_TEST

START_TEST(test_entry_name_null)
{
	struct fixture f;

	good(&f);
	f.entries[0][1].name = NULL;
	expect_rejected_when(&f, "image 0 entry 1: name is NULL", true);
}
END_TEST

START_TEST(test_entry_name_empty)
{
	struct fixture f;

	good(&f);
	f.entries[1][0].name = "";
	expect_rejected_when(&f, "image 1 entry 0: name is empty", true);
}
END_TEST

START_TEST(test_propsets_reversed)
{
	struct fixture f;

	good(&f);
	f.images[0].props_end = f.images[0].props_begin;
	f.images[0].props_begin = f.sets[0] + 1;
	expect_rejected(&f, "property sets end");
}
END_TEST

START_TEST(test_set_name_null)
{
	struct fixture f;

	good(&f);
	f.sets[0][0].name = NULL;
	expect_rejected(&f, "property set 0: name is NULL");
}
END_TEST

START_TEST(test_properties_reversed)
{
	struct fixture f;

	good(&f);
	f.sets[0][0].end = f.sets[0][0].begin;
	f.sets[0][0].begin = f.props[0][0] + 1;
	expect_rejected(&f, "properties end");
}
END_TEST

START_TEST(test_property_name_null)
{
	struct fixture f;

	good(&f);
	f.props[0][0][1].name = NULL;
	expect_rejected(&f, "property set 0 property 1: name is NULL");
}
END_TEST

START_TEST(test_property_type_unknown)
{
	struct fixture f;

	good(&f);
	f.props[0][0][0].type = 0;
	expect_rejected(&f, "property 0: type 0 unknown");
}
END_TEST

START_TEST(test_property_type_large)
{
	struct fixture f;

	good(&f);
	f.props[0][0][1].type = 77;
	expect_rejected(&f, "property 1: type 77 unknown");
}
END_TEST

START_TEST(test_byte_array_null)
{
	struct fixture f;

	good(&f);
	f.props[0][0][1].value = NULL;
	expect_rejected(&f, "byte array value (nil)");
}
END_TEST

START_TEST(test_byte_array_short)
{
	struct fixture f;

	good(&f);
	f.props[0][0][1].size = 4;
	expect_rejected(&f, "size 4, expected");
}
END_TEST

/*
 * DEVIMG_LIMIT_BYTE_ARRAY: a value of exactly 2^32 bytes (header
 * included) passes validation, which reads no value byte; one more is
 * refused.
 */
START_TEST(test_byte_array_limit)
{
	struct errmsg msg = { 0 };
	struct fixture f;

	good(&f);
	f.props[0][0][1].size = DEVIMG_LIMIT_BYTE_ARRAY;
	ck_assert_int_eq(descriptor_validate(&f.desc, &msg), 0);
	f.props[0][0][1].size = DEVIMG_LIMIT_BYTE_ARRAY + 1;
	expect_rejected(&f, "size 4294967297, expected a value of 8 to 2^32 "
			"bytes");
}
END_TEST

START_TEST(test_string_null)
{
	struct fixture f;

	good(&f);
	f.props[0][0][0].type = DEVIMG_PROPERTY_STRING;
	expect_rejected(&f, "string value is NULL");
}
END_TEST

START_TEST(test_bad_image_rejects_whole_descriptor)
{
	struct devimg_image *img;
	struct fixture f;
	size_t n;

	good(&f);
	f.images[1].version = 0;
	__sycl_register_lib(&f.desc);
	/* Image 0 was fine, but nothing of the descriptor is kept. */
	ck_assert_int_eq(devimg_registry_find_kernel("k_two", &img, 1, &n),
			 -ENOENT);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(devimg_registry_status(), -EINVAL);
	fx_fini(&f);
}
END_TEST

START_TEST(test_empty_descriptor_registers)
{
	struct fixture f;
	size_t n;

	fx_init(&f);
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_status(), 0);
	ck_assert_int_eq(devimg_registry_images(NULL, 0, &n), 0);
	ck_assert_uint_eq(n, 0);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
}
END_TEST

START_TEST(test_problems_kept_in_order)
{
	struct fixture a, b;
	char text[256];

	good(&a);
	a.desc.version = 5;
	good(&b);
	b.images[0].target = NULL;
	__sycl_register_lib(&a.desc);
	__sycl_register_lib(&b.desc);
	ck_assert_uint_eq(devimg_registry_problem_count(), 2);
	ck_assert_int_eq(devimg_registry_problem(1, NULL, text, 12), 0);
	ck_assert_uint_eq(strlen(text), 11);
	ck_assert_int_eq(devimg_registry_problem(1, NULL, text, sizeof(text)),
			 0);
	ck_assert_has(text, "target is NULL");
	ck_assert_int_eq(devimg_registry_problem(2, NULL, text, sizeof(text)),
			 -ENOENT);
	fx_fini(&a);
	fx_fini(&b);
}
END_TEST

START_TEST(test_strerror_names_codes)
{
	ck_assert_str_eq(devimg_strerror(0), "success");
	ck_assert_has(devimg_strerror(-ESTALE), "no longer registered");
	ck_assert_has(devimg_strerror(-ENOEXEC), "no image compatible");
	ck_assert_str_eq(devimg_strerror(-12345), "unknown error");
}
END_TEST

static Suite *validate_suite(void)
{
	Suite *s = suite_create("validate");
	TCase *tc = tcase_create("descriptor");

	tcase_add_test(tc, test_good_descriptor_registers);
	tcase_add_test(tc, test_null_descriptor);
	tcase_add_test(tc, test_binaries_version);
	tcase_add_test(tc, test_count_without_images);
	tcase_add_test(tc, test_host_entries_half_null);
	tcase_add_test(tc, test_image_version);
	tcase_add_test(tc, test_image_version_1_accepted);
	tcase_add_test(tc, test_kind_not_sycl);
	tcase_add_test(tc, test_format_unknown);
	tcase_add_test(tc, test_target_null);
	tcase_add_test(tc, test_options_null_allowed);
	tcase_add_test(tc, test_bin_null);
	tcase_add_test(tc, test_bin_reversed);
	tcase_add_test(tc, test_manifest_half_null);
	tcase_add_test(tc, test_entries_reversed);
	tcase_add_test(tc, test_entries_not_whole);
	tcase_add_test(tc, test_entry_name_null);
	tcase_add_test(tc, test_entry_name_empty);
	tcase_add_test(tc, test_propsets_reversed);
	tcase_add_test(tc, test_set_name_null);
	tcase_add_test(tc, test_properties_reversed);
	tcase_add_test(tc, test_property_name_null);
	tcase_add_test(tc, test_property_type_unknown);
	tcase_add_test(tc, test_property_type_large);
	tcase_add_test(tc, test_byte_array_null);
	tcase_add_test(tc, test_byte_array_short);
	tcase_add_test(tc, test_byte_array_limit);
	tcase_add_test(tc, test_string_null);
	tcase_add_test(tc, test_bad_image_rejects_whole_descriptor);
	tcase_add_test(tc, test_empty_descriptor_registers);
	tcase_add_test(tc, test_problems_kept_in_order);
	tcase_add_test(tc, test_strerror_names_codes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(validate_suite());
}
