// SPDX-License-Identifier: MIT
/*
 * The "symbols" string of an OffloadBinary entry in the three forms LLVM's
 * tools write: the binary table of clang-sycl-linker 23, NUL-joined names
 * (LLVM between 22 and 23) and '\n'-joined names (clang-sycl-linker 22).
 */
#include <errno.h>
#include <stdio.h>

#include "util/devimg_limits.h"
#include "props/offload-symbols.h"
#include "tests/props/testutil.h"
#include "util/errmsg.h"
#include "util/le.h"

#define WHERE "a.o: OffloadBinary entry 1"

/* Bytes as clang-sycl-linker 23 writes them for "vadd" and "gid". */
static const char vadd_gid_table[] =
	"\x02\x00\x00\x00"
	"\x14\x00\x00\x00\x04\x00\x00\x00"
	"\x19\x00\x00\x00\x03\x00\x00\x00"
	"vadd\0gid";	/* and the literal's NUL */

/* What a clang-23 -fsycl program carries. */
static const char fill_table[] =
	"\x01\x00\x00\x00"
	"\x0c\x00\x00\x00\x09\x00\x00\x00"
	"_ZTS4Fill";

/* With the NUL of a string literal: the bytes a table ends with. */
#define BYTES(lit) (lit), sizeof(lit)

static void decode_ok(const char *s, size_t len, enum offload_symbols_form form,
		      struct offload_symbols *sy)
{
	struct errmsg err = { 0 };

	ck_assert_msg(offload_symbols_decode(s, len, WHERE, sy, &err) == 0,
		      "decode failed: %s", err.msg);
	ck_assert_str_eq(offload_symbols_form_name(sy->form),
			 offload_symbols_form_name(form));
}

static void expect_names(const struct offload_symbols *sy, const char *a,
			 const char *b)
{
	ck_assert_uint_eq(sy->n, 2);
	ck_assert_str_eq(sy->names[0], a);
	ck_assert_str_eq(sy->names[1], b);
}

static void decode_fails(const char *s, size_t len, const char *reason)
{
	struct offload_symbols sy = { .n = 99 };
	struct errmsg err = { 0 };

	ck_assert_int_eq(offload_symbols_decode(s, len, WHERE, &sy, &err),
			 -EINVAL);
	ck_assert_err_has(err, WHERE ": \"symbols\"");
	ck_assert_err_has(err, reason);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	ck_assert_uint_eq(sy.n, 99);	/* untouched */
}

static size_t table(unsigned char *t, uint32_t count, const uint32_t *slots,
		    const char *names, size_t nlen)
{
	size_t i;

	put_le32(t, count);
	for (i = 0; i < 2 * (size_t)count; i++)
		put_le32(t + 4 + 4 * i, slots[i]);
	memcpy(t + 4 + 8 * (size_t)count, names, nlen);
	return 4 + 8 * (size_t)count + nlen;
}

START_TEST(test_table_of_clang_sycl_linker_23)
{
	struct offload_symbols sy;

	decode_ok(BYTES(vadd_gid_table), OFFLOAD_SYMBOLS_TABLE, &sy);
	expect_names(&sy, "vadd", "gid");
	offload_symbols_fini(&sy);
	ck_assert_ptr_null(sy.names);
	ck_assert_uint_eq(sy.n, 0);
}
END_TEST

START_TEST(test_table_of_clang_23_fsycl_program)
{
	struct offload_symbols sy;

	decode_ok(BYTES(fill_table), OFFLOAD_SYMBOLS_TABLE, &sy);
	ck_assert_uint_eq(sy.n, 1);
	ck_assert_str_eq(sy.names[0], "_ZTS4Fill");
	offload_symbols_fini(&sy);
}
END_TEST

/* Names may share bytes: they point into one copy of the string. */
START_TEST(test_table_names_may_overlap)
{
	static const uint32_t slots[] = { 28, 6, 31, 3, 28, 6 };
	unsigned char t[64];
	struct offload_symbols sy;
	size_t n = table(t, 3, slots, "kernel", 7);

	decode_ok((const char *)t, n, OFFLOAD_SYMBOLS_TABLE, &sy);
	ck_assert_uint_eq(sy.n, 3);
	ck_assert_str_eq(sy.names[0], "kernel");
	ck_assert_str_eq(sy.names[1], "nel");
	ck_assert_ptr_eq(sy.names[2], sy.names[0]);
	ck_assert_ptr_eq(sy.names[1], sy.names[0] + 3);
	offload_symbols_fini(&sy);
}
END_TEST

START_TEST(test_lines_of_clang_sycl_linker_22)
{
	struct offload_symbols sy;

	decode_ok(TEXT("vadd\ngid"), OFFLOAD_SYMBOLS_LINES, &sy);
	expect_names(&sy, "vadd", "gid");
	offload_symbols_fini(&sy);
	decode_ok(TEXT("vadd\n\ngid\n"), OFFLOAD_SYMBOLS_LINES, &sy);
	expect_names(&sy, "vadd", "gid");
	offload_symbols_fini(&sy);
}
END_TEST

START_TEST(test_nul_joined)
{
	struct offload_symbols sy;

	decode_ok(TEXT("vadd\0gid"), OFFLOAD_SYMBOLS_NUL, &sy);
	expect_names(&sy, "vadd", "gid");
	offload_symbols_fini(&sy);
	decode_ok(BYTES("vadd\0gid"), OFFLOAD_SYMBOLS_NUL, &sy);
	expect_names(&sy, "vadd", "gid");
	ck_assert_uint_eq(sy.text_size, sizeof("vadd\0gid") + 1);
	offload_symbols_fini(&sy);
	decode_ok(TEXT("vadd\0\0gid\0\0"), OFFLOAD_SYMBOLS_NUL, &sy);
	expect_names(&sy, "vadd", "gid");
	offload_symbols_fini(&sy);
}
END_TEST

START_TEST(test_one_name)
{
	struct offload_symbols sy;

	decode_ok(TEXT("_ZTS4Fill"), OFFLOAD_SYMBOLS_NUL, &sy);
	ck_assert_uint_eq(sy.n, 1);
	ck_assert_str_eq(sy.names[0], "_ZTS4Fill");
	offload_symbols_fini(&sy);
}
END_TEST

START_TEST(test_empty_and_all_nul_have_no_names)
{
	static const char zeros[16];
	struct offload_symbols sy;
	size_t len;

	for (len = 0; len <= sizeof(zeros); len++) {
		decode_ok(zeros, len, OFFLOAD_SYMBOLS_NONE, &sy);
		ck_assert_uint_eq(sy.n, 0);
		offload_symbols_fini(&sy);
	}
	ck_assert_str_eq(offload_symbols_form_name(OFFLOAD_SYMBOLS_NONE),
			 "none");
}
END_TEST

/* Names point into text, so a copy of text carries them all. */
START_TEST(test_names_point_into_text)
{
	struct offload_symbols sy;
	size_t i;

	decode_ok(BYTES(vadd_gid_table), OFFLOAD_SYMBOLS_TABLE, &sy);
	ck_assert_uint_eq(sy.text_size, sizeof(vadd_gid_table) + 1);
	for (i = 0; i < sy.n; i++) {
		ck_assert(sy.names[i] >= sy.text);
		ck_assert(sy.names[i] < sy.text + sy.text_size);
	}
	offload_symbols_fini(&sy);
}
END_TEST

START_TEST(test_table_count_too_large)
{
	unsigned char t[64];

	memcpy(t, vadd_gid_table, sizeof(vadd_gid_table));
	put_le32(t, 5);
	decode_fails((const char *)t, sizeof(vadd_gid_table),
		     "count 5 needs a header of 4 + 8 * 5 bytes, but the string has 29");
}
END_TEST

START_TEST(test_table_offset_inside_header)
{
	static const uint32_t slots[] = { 20, 4, 8, 3 };
	unsigned char t[64];
	size_t n = table(t, 2, slots, "vadd\0gid", 9);

	decode_fails((const char *)t, n,
		     "name 1's offset 8 lies inside the 20-byte header, expected 20 or more");
}
END_TEST

START_TEST(test_table_offset_past_end)
{
	static const uint32_t slots[] = { 20, 4, 29, 3 };
	unsigned char t[64];
	size_t n = table(t, 2, slots, "vadd\0gid", 9);

	decode_fails((const char *)t, n,
		     "name 1's offset 29 lies past the end of the 29-byte string, expected below 29");
}
END_TEST

START_TEST(test_table_length_past_end)
{
	static const uint32_t slots[] = { 20, 4, 25, 4 };
	unsigned char t[64];
	size_t n = table(t, 2, slots, "vadd\0gid", 9);

	decode_fails((const char *)t, n,
		     "name 1's length 4 at offset 25 runs past the end of the 29-byte string with its NUL, expected at most 3");
	/* Offset and length that wrap a 32-bit sum still fail. */
	{
		static const uint32_t wrap[] = { 12, 0xffffffffu };
		size_t m = table(t, 1, wrap, "vadd", 5);

		decode_fails((const char *)t, m,
			     "name 0's length 4294967295 at offset 12 runs past the end");
	}
}
END_TEST

START_TEST(test_table_missing_nul)
{
	static const uint32_t slots[] = { 20, 3, 25, 3 };
	unsigned char t[64];
	size_t n = table(t, 2, slots, "vadd\0gid", 9);

	decode_fails((const char *)t, n,
		     "name 0's length 3: byte 23 after it is 0x64, expected the NUL ending the name");
}
END_TEST

START_TEST(test_table_zero_length)
{
	static const uint32_t slots[] = { 20, 4, 25, 0 };
	unsigned char t[64];
	size_t n = table(t, 2, slots, "vadd\0gid", 9);

	decode_fails((const char *)t, n, "name 1's length 0, expected 1 or more");
}
END_TEST

START_TEST(test_table_nul_inside_name)
{
	static const uint32_t slots[] = { 12, 8 };
	unsigned char t[64];
	size_t n = table(t, 1, slots, "vadd\0gid", 9);

	decode_fails((const char *)t, n,
		     "name 0's length 8: a NUL at byte 16 inside the name, expected none before byte 20");
}
END_TEST

/* Names laid out out of index order are checked the same. */
START_TEST(test_table_nul_inside_name_out_of_order)
{
	static const uint32_t slots[] = { 23, 2, 20, 5 };
	unsigned char t[64];
	size_t n = table(t, 2, slots, "ab\0cd", 6);

	decode_fails((const char *)t, n,
		     "name 1's length 5: a NUL at byte 22 inside the name, expected none before byte 25");
}
END_TEST

START_TEST(test_table_shorter_than_count)
{
	decode_fails("\x02\x00", 2,
		     "count: the string has 2 bytes, fewer than the 4 of a count");
	/* A version 1 value is cut at its first NUL: this is all it shows. */
	decode_fails("\x02", 1, "count: the string has 1 bytes");
}
END_TEST

/*
 * A count over the limit is refused from the 4 bytes of the count alone,
 * before anything the size of its header is allocated or read.
 */
START_TEST(test_table_count_over_limit)
{
	unsigned char t[4];
	char want[96];

	put_le32(t, DEVIMG_LIMIT_ENTRIES + 1);
	t[0] = 0x01;	/* a control byte: it claims to be a table */
	snprintf(want, sizeof(want), "count %u, more than the limit of %u names",
		 DEVIMG_LIMIT_ENTRIES + 1, DEVIMG_LIMIT_ENTRIES);
	decode_fails((const char *)t, sizeof(t), want);
	put_le32(t, 0xffffffffu);
	t[0] = 0x1f;
	decode_fails((const char *)t, sizeof(t), "count 4294967071, more than the limit");
}
END_TEST

/*
 * One name given to every entry: the names together may be at most twice
 * the string (4 names of 37 bytes in 74 bytes), not one byte more (of
 * 38 bytes in 75), so that copying or printing each stays linear.
 */
START_TEST(test_table_shared_name_bounded)
{
	uint32_t slots[8];
	unsigned char t[128];
	char name[40];
	struct offload_symbols sy;
	size_t i, n;

	for (i = 0; i < 4; i++) {
		slots[2 * i] = 36;
		slots[2 * i + 1] = 37;
	}
	memset(name, 'k', 37);
	name[37] = '\0';
	n = table(t, 4, slots, name, 38);
	ck_assert_uint_eq(n, 74);
	decode_ok((const char *)t, n, OFFLOAD_SYMBOLS_TABLE, &sy);
	ck_assert_uint_eq(sy.n, 4);
	ck_assert_ptr_eq(sy.names[3], sy.names[0]);
	offload_symbols_fini(&sy);

	for (i = 0; i < 4; i++)
		slots[2 * i + 1] = 38;
	memset(name, 'k', 38);
	name[38] = '\0';
	n = table(t, 4, slots, name, 39);
	ck_assert_uint_eq(n, 75);
	t[0] = 0x04;
	decode_fails((const char *)t, n,
		     "names 0 to 3 are more than 150 bytes together, twice the string's 75");
}
END_TEST

/* A '\n' is a control byte too: a string starting with one claims a table. */
START_TEST(test_leading_control_byte_claims_a_table)
{
	decode_fails(TEXT("\nvadd\ngid"), "\"symbols\" table: count ");
	decode_fails(TEXT("\0vadd\0gid"), "\"symbols\" table: count ");
}
END_TEST

/* Text whose count would be absurd is text, not an error. */
START_TEST(test_printable_start_is_text)
{
	struct offload_symbols sy;

	decode_ok(TEXT("a\0b"), OFFLOAD_SYMBOLS_NUL, &sy);
	expect_names(&sy, "a", "b");
	offload_symbols_fini(&sy);
}
END_TEST

START_TEST(test_fini_of_zeroed_and_null)
{
	struct offload_symbols sy = { 0 };

	offload_symbols_fini(&sy);
	offload_symbols_fini(NULL);
	ck_assert_str_eq(offload_symbols_form_name(OFFLOAD_SYMBOLS_TABLE),
			 "table");
	ck_assert_str_eq(offload_symbols_form_name(OFFLOAD_SYMBOLS_LINES),
			 "lines");
	ck_assert_str_eq(offload_symbols_form_name(OFFLOAD_SYMBOLS_NUL), "nul");
}
END_TEST

/* The encoder writes clang-sycl-linker 23's bytes, which decode back. */
START_TEST(test_encode_as_clang_sycl_linker_23)
{
	static const char *const names[] = { "vadd", "gid" };
	struct offload_symbols sy;
	struct errmsg err = { 0 };
	unsigned char *t;
	size_t len;

	ck_assert_int_eq(offload_symbols_encode(names, 2, &t, &len, &err), 0);
	ck_assert_uint_eq(len, sizeof(vadd_gid_table));
	ck_assert_int_eq(memcmp(t, vadd_gid_table, len), 0);
	decode_ok((const char *)t, len, OFFLOAD_SYMBOLS_TABLE, &sy);
	expect_names(&sy, "vadd", "gid");
	offload_symbols_fini(&sy);
	free(t);

	/* No names: a zero count, which reads as none. */
	ck_assert_int_eq(offload_symbols_encode(NULL, 0, &t, &len, &err), 0);
	ck_assert_uint_eq(len, 4);
	ck_assert_uint_eq(get_le32(t), 0);
	decode_ok((const char *)t, len, OFFLOAD_SYMBOLS_NONE, &sy);
	ck_assert_uint_eq(sy.n, 0);
	free(t);
}
END_TEST

START_TEST(test_encode_many_round_trip)
{
	const size_t n = 1000;
	const char **names = calloc(n, sizeof(*names));
	char *buf = malloc(16 * n);
	struct offload_symbols sy;
	struct errmsg err = { 0 };
	unsigned char *t;
	size_t len, i;

	ck_assert(names && buf);
	for (i = 0; i < n; i++) {
		snprintf(buf + 16 * i, 16, "_ZTS%zu", i);
		names[i] = buf + 16 * i;
	}
	ck_assert_int_eq(offload_symbols_encode(names, n, &t, &len, &err), 0);
	decode_ok((const char *)t, len, OFFLOAD_SYMBOLS_TABLE, &sy);
	ck_assert_uint_eq(sy.n, n);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(sy.names[i], names[i]);
	offload_symbols_fini(&sy);
	free(t);
	free(buf);
	free(names);
}
END_TEST

START_TEST(test_encode_refuses_empty_name)
{
	static const char *const names[] = { "a", "" };
	struct errmsg err = { 0 };
	unsigned char *t = (unsigned char *)"untouched";
	size_t len = 7;

	ck_assert_int_eq(offload_symbols_encode(names, 2, &t, &len, &err),
			 -EINVAL);
	ck_assert_ptr_null(t);
	ck_assert_err_has(err, "name 1 is empty");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("offload-symbols");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_table_of_clang_sycl_linker_23);
	tcase_add_test(tc, test_table_of_clang_23_fsycl_program);
	tcase_add_test(tc, test_table_names_may_overlap);
	tcase_add_test(tc, test_lines_of_clang_sycl_linker_22);
	tcase_add_test(tc, test_nul_joined);
	tcase_add_test(tc, test_one_name);
	tcase_add_test(tc, test_empty_and_all_nul_have_no_names);
	tcase_add_test(tc, test_names_point_into_text);
	tcase_add_test(tc, test_table_count_too_large);
	tcase_add_test(tc, test_table_offset_inside_header);
	tcase_add_test(tc, test_table_offset_past_end);
	tcase_add_test(tc, test_table_length_past_end);
	tcase_add_test(tc, test_table_missing_nul);
	tcase_add_test(tc, test_table_zero_length);
	tcase_add_test(tc, test_table_nul_inside_name);
	tcase_add_test(tc, test_table_nul_inside_name_out_of_order);
	tcase_add_test(tc, test_table_shorter_than_count);
	tcase_add_test(tc, test_table_count_over_limit);
	tcase_add_test(tc, test_table_shared_name_bounded);
	tcase_add_test(tc, test_leading_control_byte_claims_a_table);
	tcase_add_test(tc, test_printable_start_is_text);
	tcase_add_test(tc, test_fini_of_zeroed_and_null);
	tcase_add_test(tc, test_encode_as_clang_sycl_linker_23);
	tcase_add_test(tc, test_encode_many_round_trip);
	tcase_add_test(tc, test_encode_refuses_empty_name);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
