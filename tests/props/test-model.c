// SPDX-License-Identifier: MIT
/* The in-memory model: sets, properties, lookups, equality, byte arrays. */
#include <errno.h>

#include "tests/props/testutil.h"
#include "util/errmsg.h"
#include "util/le.h"

START_TEST(test_add_and_find_keep_file_order)
{
	struct props *p = props_new();
	struct props_set *s;
	const struct props_set *fs;
	const struct props_prop *pr;

	ck_assert_ptr_nonnull(p);
	s = props_add_set(p, "A");
	ck_assert_int_eq(props_add_u32(s, "x", 7), 0);
	ck_assert_int_eq(props_add_string(s, "x", "second"), 0);
	ck_assert_int_eq(props_add_string(s, "s", "hello"), 0);
	s = props_add_set(p, "B");
	ck_assert_ptr_nonnull(s);
	s = props_add_set(p, "A");
	ck_assert_int_eq(props_add_u32(s, "y", 1), 0);

	ck_assert_uint_eq(p->nsets, 3);
	fs = props_find_set(p, "A");
	ck_assert_ptr_eq(fs, &p->sets[0]);
	ck_assert_ptr_null(props_find_set(p, "C"));
	pr = props_set_find(fs, "x");
	ck_assert_int_eq(pr->type, PROPS_UINT32);
	ck_assert_uint_eq(pr->u32, 7);
	pr = props_set_find(fs, "s");
	ck_assert_int_eq(pr->type, PROPS_STRING);
	ck_assert_uint_eq(pr->size, 5);
	ck_assert_str_eq((const char *)pr->data, "hello");
	ck_assert_ptr_null(props_set_find(fs, "y"));
	ck_assert_uint_eq(props_find_set(p, "B")->nprops, 0);
	props_free(p);
}
END_TEST

START_TEST(test_many_sets_and_props_grow)
{
	struct props *p = props_new();
	struct props_set *s = NULL;
	char name[32];
	int i;

	for (i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "set%d", i);
		s = props_add_set(p, name);
		ck_assert_ptr_nonnull(s);
		ck_assert_int_eq(props_add_u32(s, name, (uint32_t)i), 0);
	}
	for (i = 0; i < 1000; i++)
		ck_assert_int_eq(props_add_u32(s, "more", (uint32_t)i), 0);
	ck_assert_uint_eq(p->nsets, 1000);
	ck_assert_uint_eq(p->sets[999].nprops, 1001);
	ck_assert_uint_eq(props_set_find(props_find_set(p, "set512"), "set512")->u32, 512);
	props_free(p);
}
END_TEST

START_TEST(test_add_bytes_prepends_bit_count)
{
	static const unsigned char pay[] = { 0xab, 0x01 };
	struct props *p = props_new();
	struct props_set *s = props_add_set(p, "S");
	const struct props_prop *pr;

	ck_assert_int_eq(props_add_bytes(s, "nine", pay, 9), 0);
	ck_assert_int_eq(props_add_bytes(s, "none", NULL, 0), 0);
	ck_assert_int_eq(props_add_bytes(s, "bad", NULL, 1), -EINVAL);
	pr = props_set_find(s, "nine");
	ck_assert_int_eq(pr->type, PROPS_BYTE_ARRAY);
	ck_assert_uint_eq(pr->size, 10);
	ck_assert_mem_eq(pr->data, "\x09\0\0\0\0\0\0\0\xab\x01", 10);
	pr = props_set_find(s, "none");
	ck_assert_uint_eq(pr->size, 8);
	ck_assert_mem_eq(pr->data, "\0\0\0\0\0\0\0\0", 8);
	ck_assert_ptr_null(props_set_find(s, "bad"));
	props_free(p);
}
END_TEST

static struct props *sample(void)
{
	struct props *p = props_new();
	struct props_set *s = props_add_set(p, "A");

	props_add_u32(s, "u", 1);
	props_add_string(s, "s", "str");
	props_add_bytes(s, "b", "\x05", 3);
	props_add_set(p, "Empty");
	return p;
}

START_TEST(test_equal_compares_everything)
{
	struct props *a = sample(), *b = sample();

	ck_assert_int_eq(props_equal(a, b), 1);
	b->sets[0].props[0].u32 = 2;
	ck_assert_int_eq(props_equal(a, b), 0);
	b->sets[0].props[0].u32 = 1;
	b->sets[0].props[2].data[8] = 6;
	ck_assert_int_eq(props_equal(a, b), 0);
	b->sets[0].props[2].data[8] = 5;
	b->sets[0].props[1].name[0] = 'z';
	ck_assert_int_eq(props_equal(a, b), 0);
	b->sets[0].props[1].name[0] = 's';
	b->sets[1].name[0] = 'e';
	ck_assert_int_eq(props_equal(a, b), 0);
	b->sets[1].name[0] = 'E';
	ck_assert_int_eq(props_equal(a, b), 1);
	props_add_u32(&b->sets[1], "extra", 0);
	ck_assert_int_eq(props_equal(a, b), 0);
	props_free(b);

	b = props_new();
	props_add_set(b, "Empty");
	ck_assert_int_eq(props_equal(a, b), 0);
	props_free(b);
	props_free(a);
}
END_TEST

START_TEST(test_equal_distinguishes_types)
{
	struct props *a = props_new(), *b = props_new();

	props_add_string(props_add_set(a, "S"), "v", "");
	props_add_bytes(props_add_set(b, "S"), "v", NULL, 0);
	ck_assert_int_eq(props_equal(a, b), 0);
	props_free(a);
	props_free(b);
}
END_TEST

START_TEST(test_bytes_payload_validates_header)
{
	unsigned char buf[11] = { 0 };
	struct errmsg err = { 0 };
	const unsigned char *pay = NULL;
	uint64_t bits = 0;

	put_le64(buf, 24);
	ck_assert_int_eq(props_bytes_payload(buf, 11, "set 'S' property 'p'", &pay,
					     &bits, &err), 0);
	ck_assert_ptr_eq(pay, buf + 8);
	ck_assert_uint_eq(bits, 24);
	put_le64(buf, 17);
	ck_assert_int_eq(props_bytes_payload(buf, 11, "w", &pay, &bits, &err), 0);

	put_le64(buf, 25);
	ck_assert_int_eq(props_bytes_payload(buf, 11, "set 'S' property 'p'", &pay,
					     &bits, &err), -EINVAL);
	ck_assert_err_has(err, "set 'S' property 'p': header bit count larger than the payload");
	ck_assert_err_has(err, "saw 25 bits for 3 payload bytes, expected at most 24 bits");

	put_le64(buf, 16);
	ck_assert_int_eq(props_bytes_payload(buf, 11, "w", &pay, &bits, &err), -EINVAL);
	ck_assert_err_has(err, "w: header bit count smaller than the payload");

	ck_assert_int_eq(props_bytes_payload(buf, 7, "w", &pay, &bits, &err), -EINVAL);
	ck_assert_err_has(err, "w: byte array shorter than its bit-count header: saw 7 bytes");

	put_le64(buf, UINT64_MAX);
	ck_assert_int_eq(props_bytes_payload(buf, 11, "w", &pay, &bits, &err), -EINVAL);
	ck_assert_err_has(err, "larger than the payload");
}
END_TEST

static Suite *model_suite(void)
{
	Suite *s = suite_create("props-model");
	TCase *tc = tcase_create("model");

	tcase_add_test(tc, test_add_and_find_keep_file_order);
	tcase_add_test(tc, test_many_sets_and_props_grow);
	tcase_add_test(tc, test_add_bytes_prepends_bit_count);
	tcase_add_test(tc, test_equal_compares_everything);
	tcase_add_test(tc, test_equal_distinguishes_types);
	tcase_add_test(tc, test_bytes_payload_validates_header);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(model_suite());
}
