// SPDX-License-Identifier: MIT
/*
 * Spec constants of an image: the model decoded from its property sets,
 * and user values turned into the native (SpecId, size, bytes) list and
 * the emulated buffer.
 */
#include <errno.h>

#include "tests/loader/fixture.h"
#include "props/props.h"

#define PAD 0xffffffffu
#define SPEC_SET "SYCL/specialization constants"
#define DEFAULTS_SET "SYCL/specialization constants default values"
#define STRUCT_ID "9d329ad59055e972____ZL12StructSpecId"
#define BOOL_ID "9d329ad59055e972____ZL10BoolSpecId"

static struct fixture f;
static unsigned char bin[16] = { 0x03, 0x02, 0x23, 0x07 };

/* A property value in the .props text encoding (docs/formats.md section 2). */
static void b64_prop(unsigned set, const char *name, const char *text)
{
	struct devimg_property_set *s = &f.sets[0][set];
	size_t n, i = s->begin ? (size_t)(s->end - s->begin) : 0;
	unsigned char *buf;

	ck_assert_int_eq(props_b64_decoded_len(strlen(text), &n), 0);
	buf = malloc(n);
	ck_assert_int_eq(props_b64_decode(text, strlen(text), buf, NULL), 0);
	f.owned[f.nowned++] = buf;
	s->begin = f.props[0][set];
	s->end = s->begin + i + 1;
	s->begin[i] = (struct devimg_property){ (char *)name, buf,
		DEVIMG_PROPERTY_BYTE_ARRAY, n };
}

static struct devimg_image *register_image(void)
{
	struct devimg_image *img;
	size_t n;

	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_status(), 0);
	ck_assert_int_eq(devimg_registry_find_kernel("k", &img, 1, &n), 0);
	return img;
}

/* docs/formats.md section 5: the decoded example from DPC++'s tests. */
static struct devimg_image *formats_example(void)
{
	unsigned s;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, bin, sizeof(bin));
	fx_entry(&f, 0, "k");
	s = fx_set(&f, 0, SPEC_SET);
	b64_prop(s, STRUCT_ID, "gBAAAAAAAAAAAAAAAAAAAgAAAAA");
	b64_prop(s, BOOL_ID, "gBAAAAAAAAQAAAAAAAAAAEAAAAA");
	s = fx_set(&f, 0, DEFAULTS_SET);
	b64_prop(s, "all", "IBAAAAAAAAAFAAAAjBAAAEA");
	return register_image();
}

/*
 * A composite with padding (SpecIds 10 and 11 around 4 padding bytes) and
 * a scalar with a smaller SpecId, given in the other order.
 */
static struct devimg_image *composite(void)
{
	static const uint32_t comp[] = { 10, 0, 4, PAD, 4, 4, 11, 8, 8 };
	static const uint32_t scalar[] = { 5, 0, 2 };
	/* Property order, as DPC++'s runtime lays them: not SpecId order. */
	static const unsigned char defaults[18] = {
		0x10, 0x11, 0x12, 0x13, 0, 0, 0, 0,	/* Comp: SpecIds 10, 11 */
		0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
		0x01, 0x02,				/* S: SpecId 5 */
	};
	unsigned s;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, bin, sizeof(bin));
	fx_entry(&f, 0, "k");
	s = fx_set(&f, 0, SPEC_SET);
	fx_spec(&f, 0, s, "Comp", comp, 3);
	fx_spec(&f, 0, s, "S", scalar, 1);
	s = fx_set(&f, 0, DEFAULTS_SET);
	fx_bytes(&f, 0, s, "all", defaults, sizeof(defaults) * 8);
	return register_image();
}

static void done(struct devimg_image *img)
{
	__sycl_unregister_lib(&f.desc);
	devimg_image_unref(img);
	fx_fini(&f);
}

START_TEST(test_formats_example)
{
	static const unsigned char defaults[] = { 0x14, 0, 0, 0, 0x63, 0, 0, 0,
						  1 };
	const struct devimg_spec_const_info *c;
	const struct devimg_spec_native *list;
	struct devimg_image *img = formats_example();
	struct devimg_spec_values *v;
	const void *blob, *buf;
	unsigned char no = 0;
	size_t n, size;

	ck_assert_int_eq(devimg_image_spec_consts(img, &c, &n, &blob, &size),
			 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(c[0].name, STRUCT_ID);
	ck_assert_uint_eq(c[0].size, 8);
	ck_assert_uint_eq(c[0].blob_offset, 0);
	ck_assert_uint_eq(c[0].nleaves, 1);
	ck_assert_uint_eq(c[0].leaves[0].id, 0);
	ck_assert_uint_eq(c[0].leaves[0].size, 8);
	ck_assert_str_eq(c[1].name, BOOL_ID);
	ck_assert_uint_eq(c[1].size, 1);
	ck_assert_uint_eq(c[1].blob_offset, 8);
	ck_assert_uint_eq(c[1].leaves[0].id, 1);
	ck_assert_uint_eq(size, sizeof(defaults));
	ck_assert_mem_eq(blob, defaults, sizeof(defaults));

	ck_assert_int_eq(devimg_spec_values_new(img, &v), 0);
	ck_assert_int_eq(devimg_spec_values_set(v, BOOL_ID, 1, &no), 0);
	ck_assert_int_eq(devimg_spec_values_native(v, &list, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(list[0].id, 1);
	ck_assert_uint_eq(list[0].size, 1);
	ck_assert_uint_eq(*(const unsigned char *)list[0].value, 0);
	ck_assert_int_eq(devimg_spec_values_buffer(v, &buf, &size), 0);
	ck_assert_uint_eq(size, 9);
	ck_assert_mem_eq(buf, "\x14\0\0\0\x63\0\0\0\0", 9);
	ck_assert_ptr_null(devimg_spec_values_unref(v));
	done(img);
}
END_TEST

START_TEST(test_composite_with_padding)
{
	static const unsigned char value[16] = {
		0xa0, 0xa1, 0xa2, 0xa3, 0xee, 0xee, 0xee, 0xee,
		0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
	};
	const struct devimg_spec_const_info *c;
	const struct devimg_spec_native *list;
	struct devimg_image *img = composite();
	struct devimg_spec_values *v;
	const unsigned char *buf;
	size_t n, size;

	ck_assert_int_eq(devimg_image_spec_consts(img, &c, &n, NULL, NULL), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(c[0].name, "Comp");
	ck_assert_uint_eq(c[0].size, 16);
	ck_assert_uint_eq(c[0].blob_offset, 0);
	ck_assert_uint_eq(c[0].nleaves, 3);
	ck_assert_uint_eq(c[0].leaves[1].id, PAD);
	ck_assert_str_eq(c[1].name, "S");
	ck_assert_uint_eq(c[1].blob_offset, 16);

	ck_assert_int_eq(devimg_spec_values_new(img, &v), 0);
	ck_assert_int_eq(devimg_spec_values_set(v, "Comp", 16, value), 0);
	ck_assert_int_eq(devimg_spec_values_native(v, &list, &n), 0);
	ck_assert_uint_eq(n, 2);	/* the padding has no SpecId */
	ck_assert_uint_eq(list[0].id, 10);
	ck_assert_uint_eq(list[0].size, 4);
	ck_assert_mem_eq(list[0].value, value, 4);
	ck_assert_uint_eq(list[1].id, 11);
	ck_assert_uint_eq(list[1].size, 8);
	ck_assert_mem_eq(list[1].value, value + 8, 8);
	ck_assert_int_eq(devimg_spec_values_buffer(v, (const void **)&buf,
						   &size), 0);
	ck_assert_uint_eq(size, 18);
	ck_assert_mem_eq(buf, value, 4);
	/* The caller's padding (0xee) is not taken: the defaults' stays. */
	ck_assert_mem_eq(buf + 4, "\0\0\0\0", 4);
	ck_assert_mem_eq(buf + 8, value + 8, 8);
	ck_assert_mem_eq(buf + 16, "\x01\x02", 2);
	devimg_spec_values_unref(v);
	done(img);
}
END_TEST

START_TEST(test_defaults_only)
{
	const struct devimg_spec_native *list = (void *)1;
	struct devimg_image *img = composite();
	struct devimg_spec_values *v;
	const void *buf, *blob;
	size_t n = 9, size, bsize;

	ck_assert_int_eq(devimg_spec_values_new(img, &v), 0);
	ck_assert_int_eq(devimg_spec_values_native(v, &list, &n), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(list);
	ck_assert_int_eq(devimg_spec_values_buffer(v, &buf, &size), 0);
	ck_assert_int_eq(devimg_image_spec_consts(img, NULL, NULL, &blob,
						  &bsize), 0);
	ck_assert_uint_eq(size, bsize);
	ck_assert_mem_eq(buf, blob, size);
	devimg_spec_values_unref(v);
	done(img);
}
END_TEST

START_TEST(test_partial_override_and_replace)
{
	const struct devimg_spec_native *list;
	struct devimg_image *img = composite();
	struct devimg_spec_values *v;
	const unsigned char *buf;
	uint16_t s1 = 0x7766, s2 = 0x5544;
	size_t n, size;

	ck_assert_int_eq(devimg_spec_values_new(img, &v), 0);
	ck_assert_int_eq(devimg_spec_values_set(v, "S", 2, &s1), 0);
	ck_assert_int_eq(devimg_spec_values_set(v, "S", 2, &s2), 0);
	ck_assert_int_eq(devimg_spec_values_native(v, &list, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(list[0].id, 5);
	ck_assert_mem_eq(list[0].value, &s2, 2);
	ck_assert_int_eq(devimg_spec_values_buffer(v, (const void **)&buf,
						   &size), 0);
	ck_assert_mem_eq(buf + 16, &s2, 2);
	ck_assert_mem_eq(buf, "\x10\x11\x12\x13", 4);
	ck_assert_mem_eq(buf + 8, "\x20\x21\x22\x23\x24\x25\x26\x27", 8);
	devimg_spec_values_unref(v);
	done(img);
}
END_TEST

START_TEST(test_wrong_size_rejected_naming_both)
{
	struct devimg_image *img = composite();
	struct devimg_spec_values *v;
	const struct devimg_spec_native *list;
	uint64_t eight = 0;
	size_t n;

	ck_assert_int_eq(devimg_spec_values_new(img, &v), 0);
	fx_log_capture();
	ck_assert_int_eq(devimg_spec_values_set(v, "Comp", 8, &eight), -EINVAL);
	fx_log_release();
	ck_assert_has(fx_log_text(), "'Comp'");
	ck_assert_has(fx_log_text(), "value of 8 bytes");
	ck_assert_has(fx_log_text(), "the constant has 16 bytes");
	ck_assert_int_eq(devimg_spec_values_set(v, "Nope", 8, &eight), -ENOENT);
	ck_assert_int_eq(devimg_spec_values_set(v, NULL, 8, &eight), -EINVAL);
	ck_assert_int_eq(devimg_spec_values_native(v, &list, &n), 0);
	ck_assert_uint_eq(n, 0);
	devimg_spec_values_ref(v);
	ck_assert_ptr_nonnull(devimg_spec_values_unref(v));
	ck_assert_ptr_null(devimg_spec_values_unref(v));
	done(img);
}
END_TEST

START_TEST(test_no_spec_constants)
{
	struct devimg_spec_values *v;
	struct devimg_image *img;
	const void *buf = bin;
	size_t n = 1, size = 1;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, bin, sizeof(bin));
	fx_entry(&f, 0, "k");
	img = register_image();
	ck_assert_int_eq(devimg_image_spec_consts(img, NULL, &n, &buf, &size),
			 0);
	ck_assert_int_eq(devimg_spec_values_new(img, &v), 0);
	ck_assert_int_eq(devimg_spec_values_buffer(v, &buf, &size), 0);
	ck_assert_ptr_null(buf);
	ck_assert_uint_eq(size, 0);
	devimg_spec_values_unref(v);
	done(img);
}
END_TEST

START_TEST(test_malformed_descriptor_reported)
{
	struct devimg_spec_values *v;
	struct devimg_image *img;
	unsigned s;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, bin, sizeof(bin));
	fx_entry(&f, 0, "k");
	s = fx_set(&f, 0, SPEC_SET);
	fx_bytes(&f, 0, s, "Bad", "0123456789", 80);
	img = register_image();
	fx_log_capture();
	ck_assert_int_eq(devimg_spec_values_new(img, &v), -EINVAL);
	fx_log_release();
	ck_assert_has(fx_log_text(), "property 'Bad'");
	done(img);
}
END_TEST

START_TEST(test_defaults_size_mismatch_reported)
{
	static const uint32_t scalar[] = { 5, 0, 4 };
	struct devimg_image *img;
	unsigned s;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, bin, sizeof(bin));
	fx_entry(&f, 0, "k");
	s = fx_set(&f, 0, SPEC_SET);
	fx_spec(&f, 0, s, "S", scalar, 1);
	s = fx_set(&f, 0, DEFAULTS_SET);
	fx_bytes(&f, 0, s, "all", "\1\2", 16);
	img = register_image();
	fx_log_capture();
	ck_assert_int_eq(devimg_image_spec_consts(img, NULL, NULL, NULL, NULL),
			 -EINVAL);
	fx_log_release();
	ck_assert_has(fx_log_text(), "defaults blob has 2 bytes");
	done(img);
}
END_TEST

START_TEST(test_wrong_property_type_reported)
{
	struct devimg_image *img;
	unsigned s;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, bin, sizeof(bin));
	fx_entry(&f, 0, "k");
	s = fx_set(&f, 0, SPEC_SET);
	fx_u32(&f, 0, s, "S", 3);
	img = register_image();
	fx_log_capture();
	ck_assert_int_eq(devimg_image_spec_consts(img, NULL, NULL, NULL, NULL),
			 -EINVAL);
	fx_log_release();
	ck_assert_has(fx_log_text(), "property 'S': type 1, expected 2");
	done(img);
}
END_TEST

START_TEST(test_model_outlives_unregistration)
{
	struct devimg_image *img = composite();
	struct devimg_spec_values *v;
	const void *buf;
	size_t size;

	ck_assert_int_eq(devimg_image_spec_consts(img, NULL, NULL, NULL, NULL),
			 0);
	__sycl_unregister_lib(&f.desc);
	fx_fini(&f);
	ck_assert_int_eq(devimg_spec_values_new(img, &v), 0);
	ck_assert_int_eq(devimg_spec_values_buffer(v, &buf, &size), 0);
	ck_assert_uint_eq(size, 18);
	devimg_spec_values_unref(v);
	devimg_image_unref(img);
}
END_TEST

START_TEST(test_model_needs_registration_on_first_use)
{
	struct devimg_image *img = composite();
	struct devimg_spec_values *v;

	__sycl_unregister_lib(&f.desc);
	ck_assert_int_eq(devimg_spec_values_new(img, &v), -ESTALE);
	devimg_image_unref(img);
	fx_fini(&f);
}
END_TEST

static Suite *specconst_suite(void)
{
	Suite *s = suite_create("specconst");
	TCase *tc = tcase_create("specconst");

	tcase_add_test(tc, test_formats_example);
	tcase_add_test(tc, test_composite_with_padding);
	tcase_add_test(tc, test_defaults_only);
	tcase_add_test(tc, test_partial_override_and_replace);
	tcase_add_test(tc, test_wrong_size_rejected_naming_both);
	tcase_add_test(tc, test_no_spec_constants);
	tcase_add_test(tc, test_malformed_descriptor_reported);
	tcase_add_test(tc, test_defaults_size_mismatch_reported);
	tcase_add_test(tc, test_wrong_property_type_reported);
	tcase_add_test(tc, test_model_outlives_unregistration);
	tcase_add_test(tc, test_model_needs_registration_on_first_use);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(specconst_suite());
}
