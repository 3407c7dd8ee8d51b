// SPDX-License-Identifier: MIT
/* Specialization-constant descriptors and the defaults blob. */
#include <errno.h>

#include "tests/props/testutil.h"
#include "util/errmsg.h"
#include "util/le.h"

/* docs/formats.md section 5, decoded example (from DPC++'s own tests). */
static const char example[] =
	"[SYCL/specialization constants]\n"
	"9d329ad59055e972____ZL12StructSpecId=2|gBAAAAAAAAAAAAAAAAAAAgAAAAA\n"
	"9d329ad59055e972____ZL10BoolSpecId=2|gBAAAAAAAAQAAAAAAAAAAEAAAAA\n"
	"[SYCL/specialization constants default values]\n"
	"all=2|IBAAAAAAAAAFAAAAjBAAAEA\n";

#define STRUCT_ID "9d329ad59055e972____ZL12StructSpecId"
#define BOOL_ID "9d329ad59055e972____ZL10BoolSpecId"
#define PAD PROPS_SPEC_PADDING_ID

/* A descriptor byte array: header (nbits, or 96 per tuple when 0), tuples. */
static size_t make_desc(unsigned char *buf, const uint32_t (*t)[3], size_t n,
			uint64_t nbits)
{
	size_t i;

	put_le64(buf, nbits ? nbits : 96 * n);
	for (i = 0; i < n; i++) {
		put_le32(buf + 8 + 12 * i, t[i][0]);
		put_le32(buf + 12 + 12 * i, t[i][1]);
		put_le32(buf + 16 + 12 * i, t[i][2]);
	}
	return 8 + 12 * n;
}

static void decode_ok(const char *name, const uint32_t (*t)[3], size_t n,
		      struct props_spec_const *c)
{
	unsigned char buf[8 + 12 * 16];
	struct errmsg err = { 0 };
	size_t size = make_desc(buf, t, n, 0);
	int r = props_spec_decode(name, buf, size, c, &err);

	ck_assert_msg(r == 0, "decode failed (%d): %s", r, err.msg);
}

static int decode_err(const uint32_t (*t)[3], size_t n, uint64_t nbits,
		      size_t size_adj, struct errmsg *err)
{
	unsigned char buf[8 + 12 * 16] = { 0 };
	struct props_spec_const c;
	size_t size = make_desc(buf, t, n, nbits) + size_adj;
	int r = props_spec_decode("K", buf, size, &c, err);

	ck_assert_ptr_null(c.descs);
	ck_assert_uint_eq(c.ndescs, 0);
	return r;
}

START_TEST(test_formats_example_decodes_exactly)
{
	static const unsigned char defaults[] = {
		72, 0, 0, 0, 0, 0, 0, 0,
		0x14, 0, 0, 0, 0x63, 0, 0, 0, 0x01,
	};
	struct errmsg err = { 0 };
	struct props_spec_const c[2];
	const struct props_set *sc, *sd;
	const struct props_prop *ps, *pb, *pd;
	struct props *p = NULL;
	uint32_t total = 0;

	ck_assert_int_eq(props_parse(TEXT(example), "ex.props", &p, &err), 0);
	sc = props_find_set(p, PROPS_SET_SPEC_CONSTS);
	sd = props_find_set(p, PROPS_SET_SPEC_DEFAULTS);
	ck_assert_ptr_nonnull(sc);
	ck_assert_ptr_nonnull(sd);
	ps = props_set_find(sc, STRUCT_ID);
	pb = props_set_find(sc, BOOL_ID);
	pd = props_set_find(sd, PROPS_SPEC_DEFAULTS_PROP);
	ck_assert_uint_eq(ps->size, 20);
	ck_assert_uint_eq(pb->size, 20);
	ck_assert_uint_eq(pd->size, sizeof(defaults));
	ck_assert_mem_eq(pd->data, defaults, sizeof(defaults));

	ck_assert_int_eq(props_spec_decode(STRUCT_ID, ps->data, ps->size, &c[0],
					   &err), 0);
	ck_assert_int_eq(props_spec_decode(BOOL_ID, pb->data, pb->size, &c[1],
					   &err), 0);
	ck_assert_str_eq(c[0].name, STRUCT_ID);
	ck_assert_uint_eq(c[0].ndescs, 1);
	ck_assert_uint_eq(c[0].descs[0].id, 0);
	ck_assert_uint_eq(c[0].descs[0].offset, 0);
	ck_assert_uint_eq(c[0].descs[0].size, 8);
	ck_assert_uint_eq(c[0].size, 8);
	ck_assert_uint_eq(c[0].first_id, 0);
	ck_assert_uint_eq(c[1].ndescs, 1);
	ck_assert_uint_eq(c[1].descs[0].id, 1);
	ck_assert_uint_eq(c[1].descs[0].offset, 0);
	ck_assert_uint_eq(c[1].descs[0].size, 1);
	ck_assert_uint_eq(c[1].size, 1);
	ck_assert_uint_eq(c[1].first_id, 1);

	ck_assert_int_eq(props_spec_layout(c, 2, pd->data, pd->size, &total, &err),
			 0);
	ck_assert_uint_eq(total, 9);
	ck_assert_str_eq(c[0].name, STRUCT_ID);
	ck_assert_uint_eq(c[0].blob_offset, 0);
	ck_assert_str_eq(c[1].name, BOOL_ID);
	ck_assert_uint_eq(c[1].blob_offset, 8);
	props_spec_const_fini(&c[0]);
	props_spec_const_fini(&c[1]);
	props_free(p);
}
END_TEST

START_TEST(test_composite_with_padding)
{
	static const uint32_t t[][3] = {
		{ 5, 0, 4 }, { PAD, 4, 4 }, { 3, 8, 8 }, { 9, 17, 1 }, { PAD, 16, 1 },
	};
	struct props_spec_const c;

	decode_ok("Composite", t, 5, &c);
	ck_assert_uint_eq(c.ndescs, 5);
	ck_assert_uint_eq(c.descs[1].id, PAD);
	ck_assert_uint_eq(c.descs[3].offset, 17);
	ck_assert_uint_eq(c.size, 18);
	ck_assert_uint_eq(c.first_id, 3);
	props_spec_const_fini(&c);
}
END_TEST

START_TEST(test_only_padding_has_no_first_id)
{
	static const uint32_t t[][3] = { { PAD, 0, 2 } };
	struct props_spec_const c;

	decode_ok("Pad", t, 1, &c);
	ck_assert_uint_eq(c.first_id, PAD);
	ck_assert_uint_eq(c.size, 2);
	props_spec_const_fini(&c);
}
END_TEST

/*
 * DPC++'s runtime walks the set's properties in order and gives each
 * constant the next bytes of the blob: file order, whatever the SpecIds.
 */
START_TEST(test_layout_keeps_property_order)
{
	static const uint32_t a[][3] = { { 7, 0, 4 } };
	static const uint32_t b[][3] = { { PAD, 0, 3 } };
	static const uint32_t c2[][3] = { { PAD, 0, 2 }, { 2, 2, 2 } };
	static const uint32_t d[][3] = { { 2, 0, 1 } };
	static const uint32_t e[][3] = { { 1, 4, 4 }, { 0x10, 0, 4 } };
	static const char *const names[] = { "a", "b", "c", "d", "e" };
	static const uint32_t offsets[] = { 0, 4, 7, 11, 12 };
	struct errmsg err = { 0 };
	struct props_spec_const c[5];
	unsigned char all[8 + 20] = { 160 };
	uint32_t total = 0;
	int i;

	decode_ok("a", a, 1, &c[0]);
	decode_ok("b", b, 1, &c[1]);
	decode_ok("c", c2, 2, &c[2]);
	decode_ok("d", d, 1, &c[3]);
	decode_ok("e", e, 2, &c[4]);
	ck_assert_int_eq(props_spec_layout(c, 5, all, sizeof(all), &total, &err),
			 0);
	ck_assert_uint_eq(total, 4 + 3 + 4 + 1 + 8);
	for (i = 0; i < 5; i++) {
		ck_assert_str_eq(c[i].name, names[i]);
		ck_assert_uint_eq(c[i].blob_offset, offsets[i]);
		props_spec_const_fini(&c[i]);
	}
}
END_TEST

START_TEST(test_layout_of_nothing)
{
	unsigned char hdr[8] = { 0 };
	struct errmsg err = { 0 };
	uint32_t total = 99;

	ck_assert_int_eq(props_spec_layout(NULL, 0, NULL, 0, &total, &err), 0);
	ck_assert_uint_eq(total, 0);
	ck_assert_int_eq(props_spec_layout(NULL, 0, hdr, 8, &total, &err), 0);
}
END_TEST

START_TEST(test_overlap_names_both_leaves)
{
	static const uint32_t t[][3] = { { 4, 0, 8 }, { 6, 8, 4 }, { 5, 4, 4 } };
	struct errmsg err = { 0 };

	ck_assert_int_eq(decode_err(t, 3, 0, 0, &err), -EINVAL);
	ck_assert_err_has(err, "set 'SYCL/specialization constants' property 'K': leaves overlap: ");
	ck_assert_err_has(err, "leaf 0 {id 4, offset 0, size 8} and leaf 2 {id 5, offset 4, size 4}");
}
END_TEST

START_TEST(test_overlap_same_offset_and_nested)
{
	static const uint32_t same[][3] = { { 1, 0, 1 }, { 2, 0, 1 } };
	static const uint32_t nested[][3] = { { 1, 0, 16 }, { 2, 2, 2 }, { 3, 12, 2 } };
	static const uint32_t far[][3] = { { 1, 0, 16 }, { 2, 16, 2 }, { 3, 4, 2 } };
	static const uint32_t chain[][3] = { { 1, 0, 4 }, { 3, 8, 2 }, { 2, 4, 8 } };
	struct errmsg err = { 0 };

	ck_assert_int_eq(decode_err(same, 2, 0, 0, &err), -EINVAL);
	ck_assert_err_has(err, "leaf 0 {id 1, offset 0, size 1} and leaf 1 {id 2, offset 0, size 1}");
	ck_assert_int_eq(decode_err(nested, 3, 0, 0, &err), -EINVAL);
	ck_assert_err_has(err, "leaf 0 {id 1, offset 0, size 16} and leaf 1");
	ck_assert_int_eq(decode_err(far, 3, 0, 0, &err), -EINVAL);
	ck_assert_err_has(err, "leaf 0 {id 1, offset 0, size 16} and leaf 2");
	ck_assert_int_eq(decode_err(chain, 3, 0, 0, &err), -EINVAL);
	ck_assert_err_has(err, "leaf 1 {id 3, offset 8, size 2} and leaf 2 {id 2, offset 4, size 8}");
}
END_TEST

START_TEST(test_zero_size_leaf)
{
	static const uint32_t t[][3] = { { 1, 0, 4 }, { 2, 4, 0 } };
	struct errmsg err = { 0 };

	ck_assert_int_eq(decode_err(t, 2, 0, 0, &err), -EINVAL);
	ck_assert_err_has(err, "property 'K': leaf 1 {id 2, offset 4} has no bytes: saw size 0, expected at least 1");
}
END_TEST

START_TEST(test_offset_overflow)
{
	static const uint32_t t[][3] = { { 1, 0xfffffffcu, 8 } };
	static const uint32_t edge[][3] = { { 1, 0xfffffffbu, 4 } };
	struct errmsg err = { 0 };
	struct props_spec_const c;

	ck_assert_int_eq(decode_err(t, 1, 0, 0, &err), -EINVAL);
	ck_assert_err_has(err, "leaf 0 {id 1} ends past 4 GiB: saw offset 4294967292 + size 8");
	decode_ok("edge", edge, 1, &c);
	ck_assert_uint_eq(c.size, 0xffffffffu);
	props_spec_const_fini(&c);
}
END_TEST

START_TEST(test_payload_not_whole_tuples)
{
	static const uint32_t t[][3] = { { 1, 0, 4 }, { 2, 4, 4 } };
	struct errmsg err = { 0 };

	/* 16 payload bytes with a matching 128-bit header */
	ck_assert_int_eq(decode_err(t, 1, 128, 4, &err), -EINVAL);
	ck_assert_err_has(err, "property 'K': payload is not whole {id, offset, size} tuples: saw 16 bytes, expected a non-zero multiple of 12");
	ck_assert_int_eq(decode_err(t, 0, 0, 0, &err), -EINVAL);
	ck_assert_err_has(err, "saw 0 bytes, expected a non-zero multiple of 12");
	/* 95 bits round up to the same 12 bytes but do not cover the tuple */
	ck_assert_int_eq(decode_err(t, 1, 95, 0, &err), -EINVAL);
	ck_assert_err_has(err, "bit count does not cover the tuples: saw 95 bits, expected 96");
	ck_assert_int_eq(decode_err(t, 1, 97, 0, &err), -EINVAL);
	ck_assert_err_has(err, "header bit count larger than the payload");
	ck_assert_int_eq(decode_err(t, 0, 0, (size_t)-3, &err), -EINVAL);
	ck_assert_err_has(err, "byte array shorter than its bit-count header: saw 5 bytes");
}
END_TEST

static void layout_with_defaults(size_t have, uint32_t want_total, int want_r,
				 struct errmsg *err)
{
	static const uint32_t a[][3] = { { 0, 0, 8 } };
	static const uint32_t b[][3] = { { 1, 0, 1 } };
	unsigned char blob[8 + 32] = { 0 };
	struct props_spec_const c[2];
	uint32_t total = 77;

	decode_ok("a", a, 1, &c[1]);
	decode_ok("b", b, 1, &c[0]);
	put_le64(blob, 8 * have);
	ck_assert_int_eq(props_spec_layout(c, 2, blob, 8 + have, &total, err),
			 want_r);
	ck_assert_uint_eq(total, want_total);
	/* file order: b first; on failure no offsets are assigned */
	ck_assert_str_eq(c[0].name, "b");
	ck_assert_uint_eq(c[0].blob_offset, 0);
	ck_assert_uint_eq(c[1].blob_offset, want_r ? 0 : 1);
	props_spec_const_fini(&c[0]);
	props_spec_const_fini(&c[1]);
}

START_TEST(test_defaults_blob_length)
{
	struct errmsg err = { 0 };

	layout_with_defaults(9, 9, 0, &err);
	layout_with_defaults(8, 77, -EINVAL, &err);
	ck_assert_err_has(err, "set 'SYCL/specialization constants default values' property 'all': defaults blob has 8 bytes, the constants need 9");
	layout_with_defaults(10, 77, -EINVAL, &err);
	ck_assert_err_has(err, "defaults blob has 10 bytes, the constants need 9");
	layout_with_defaults(0, 77, -EINVAL, &err);
	ck_assert_err_has(err, "defaults blob has 0 bytes, the constants need 9");
}
END_TEST

START_TEST(test_defaults_blob_bad_header)
{
	static const uint32_t a[][3] = { { 0, 0, 1 } };
	unsigned char blob[9] = { 0 };
	struct errmsg err = { 0 };
	struct props_spec_const c;
	uint32_t total = 0;

	decode_ok("a", a, 1, &c);
	put_le64(blob, 9);
	ck_assert_int_eq(props_spec_layout(&c, 1, blob, 9, &total, &err), -EINVAL);
	ck_assert_err_has(err, "property 'all': header bit count larger than the payload");
	ck_assert_int_eq(props_spec_layout(&c, 1, blob, 4, &total, &err), -EINVAL);
	ck_assert_err_has(err, "property 'all': byte array shorter than its bit-count header");
	props_spec_const_fini(&c);
}
END_TEST

START_TEST(test_total_size_overflow)
{
	static const uint32_t big[][3] = { { 1, 0x80000000u, 0x7fffffffu } };
	static const uint32_t two[][3] = { { 2, 0, 2 } };
	struct errmsg err = { 0 };
	struct props_spec_const c[2];
	uint32_t total = 0;

	decode_ok("big", big, 1, &c[0]);
	decode_ok("two", two, 1, &c[1]);
	ck_assert_int_eq(props_spec_layout(c, 2, NULL, 0, &total, &err), -EINVAL);
	ck_assert_err_has(err, "constants too large: saw constant 'big' of 4294967295 bytes at offset 0, expected a total of at most 1048576 bytes");
	props_spec_const_fini(&c[0]);
	props_spec_const_fini(&c[1]);
}
END_TEST

/* DEVIMG_LIMIT_SPEC_CONSTS: 1 MiB of values in all, not a byte more. */
START_TEST(test_total_size_limit)
{
	static const uint32_t mib[][3] = { { 1, 0, 1u << 20 } };
	static const uint32_t one[][3] = { { 2, 0, 1 } };
	struct errmsg err = { 0 };
	struct props_spec_const c[2];
	uint32_t total = 0;

	decode_ok("mib", mib, 1, &c[0]);
	decode_ok("one", one, 1, &c[1]);
	ck_assert_int_eq(props_spec_layout(c, 1, NULL, 0, &total, &err), 0);
	ck_assert_uint_eq(total, 1u << 20);
	ck_assert_int_eq(props_spec_layout(c, 2, NULL, 0, &total, &err), -EINVAL);
	ck_assert_err_has(err, "constants too large: saw constant 'one' of 1 bytes at offset 1048576, expected a total of at most 1048576 bytes");
	props_spec_const_fini(&c[0]);
	props_spec_const_fini(&c[1]);
}
END_TEST

/*
 * A name twice: values are set by name, so the second could never be set
 * (found by fuzzing registration); refused naming both properties.
 */
START_TEST(test_duplicate_name)
{
	static const uint32_t a[][3] = { { 1, 0, 4 } };
	static const uint32_t b[][3] = { { 2, 0, 8 } };
	struct errmsg err = { 0 };
	struct props_spec_const c[3];
	uint32_t total = 0;

	decode_ok("x", a, 1, &c[0]);
	decode_ok("shared", b, 1, &c[1]);
	decode_ok("shared", a, 1, &c[2]);
	ck_assert_int_eq(props_spec_layout(c, 2, NULL, 0, &total, &err), 0);
	ck_assert_int_eq(props_spec_layout(c, 3, NULL, 0, &total, &err),
			 -EINVAL);
	ck_assert_err_has(err, "set 'SYCL/specialization constants': constant "
			  "'shared' twice: saw properties 1 and 2 of that "
			  "name, expected one");
	props_spec_const_fini(&c[0]);
	props_spec_const_fini(&c[1]);
	props_spec_const_fini(&c[2]);
}
END_TEST

static Suite *spec_suite(void)
{
	Suite *s = suite_create("props-specconst");
	TCase *tc = tcase_create("specconst");

	tcase_add_test(tc, test_formats_example_decodes_exactly);
	tcase_add_test(tc, test_composite_with_padding);
	tcase_add_test(tc, test_only_padding_has_no_first_id);
	tcase_add_test(tc, test_layout_keeps_property_order);
	tcase_add_test(tc, test_layout_of_nothing);
	tcase_add_test(tc, test_overlap_names_both_leaves);
	tcase_add_test(tc, test_overlap_same_offset_and_nested);
	tcase_add_test(tc, test_zero_size_leaf);
	tcase_add_test(tc, test_offset_overflow);
	tcase_add_test(tc, test_payload_not_whole_tuples);
	tcase_add_test(tc, test_defaults_blob_length);
	tcase_add_test(tc, test_defaults_blob_bad_header);
	tcase_add_test(tc, test_total_size_overflow);
	tcase_add_test(tc, test_total_size_limit);
	tcase_add_test(tc, test_duplicate_name);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(spec_suite());
}
