// SPDX-License-Identifier: MIT
/*
 * The CUDA plugin's launch geometry, without a GPU: local-memory offsets
 * as docs/formats.md section 11 gives them, and the block the plugin picks
 * when the caller leaves the choice to it.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "plugins/cuda/geometry.h"

/* Place each size in turn; check the offsets and the total. */
static void layout(const size_t *sizes, const size_t *want, size_t n,
		   size_t want_total)
{
	size_t total = 0, offset, i;

	for (i = 0; i < n; i++) {
		ck_assert(cu_local_place(&total, sizes[i], UINT32_MAX, &offset));
		ck_assert_msg(offset == want[i],
			      "argument %zu (%zu bytes) at %zu, want %zu", i,
			      sizes[i], offset, want[i]);
	}
	ck_assert_uint_eq(total, want_total);
}

START_TEST(int_then_double4_lands_on_32_bytes)
{
	static const size_t sizes[] = { 4, 32 }, want[] = { 0, 32 };

	layout(sizes, want, 2, 64);
}
END_TEST

START_TEST(alignment_is_the_size_up_to_128)
{
	static const size_t sizes[] = { 1, 1, 2, 12, 200, 256, 3 };
	static const size_t want[] = { 0, 1, 2, 12, 128, 384, 642 };

	layout(sizes, want, 7, 645);
}
END_TEST

START_TEST(first_argument_at_zero)
{
	static const size_t sizes[] = { 64 * 1024 }, want[] = { 0 };

	layout(sizes, want, 1, 64 * 1024);
}
END_TEST

START_TEST(overflow_is_refused_and_changes_nothing)
{
	size_t total = 100, offset = 7;

	ck_assert(!cu_local_place(&total, UINT32_MAX, UINT32_MAX, &offset));
	ck_assert_uint_eq(total, 100);
	ck_assert_uint_eq(offset, 7);
	total = SIZE_MAX - 3;
	ck_assert(!cu_local_place(&total, 8, SIZE_MAX, &offset));
	ck_assert_uint_eq(total, SIZE_MAX - 3);
	total = 0;
	ck_assert(cu_local_place(&total, UINT32_MAX, UINT32_MAX, &offset));
	ck_assert_uint_eq(offset, 0);
}
END_TEST

START_TEST(largest_divisor_examples)
{
	ck_assert_uint_eq(cu_largest_divisor(1000, 256), 250);
	ck_assert_uint_eq(cu_largest_divisor(256, 256), 256);
	ck_assert_uint_eq(cu_largest_divisor(3 << 20, 256), 256);
	ck_assert_uint_eq(cu_largest_divisor(1, 256), 1);
	ck_assert_uint_eq(cu_largest_divisor(5, 256), 5);
	ck_assert_uint_eq(cu_largest_divisor(194, 100), 97);
	ck_assert_uint_eq(cu_largest_divisor(1000003, 256), 1);
	ck_assert_uint_eq(cu_largest_divisor(7, 1), 1);
}
END_TEST

START_TEST(largest_divisor_against_brute_force)
{
	static const size_t limits[] = { 1, 2, 7, 64, 100, 256, 1024 };
	size_t n, i, d, got, want;

	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		for (n = 1; n <= 5000; n++) {
			for (want = 1, d = 1; d <= n && d <= limits[i]; d++)
				if (n % d == 0)
					want = d;
			got = cu_largest_divisor(n, limits[i]);
			ck_assert_msg(got == want, "n %zu limit %zu: %zu, want %zu",
				      n, limits[i], got, want);
		}
	}
}
END_TEST

START_TEST(block_divides_the_global_size)
{
	static const size_t max[3] = { 1024, 1024, 64 };
	size_t g1[1] = { 1000 }, g2[2] = { 1024, 1024 }, g3[3] = { 5, 4, 3 };
	size_t g2b[2] = { 6, 1000 }, g3b[3] = { 1, 1, 4096 }, b[3];

	cu_pick_block(1, g1, 256, max, b);
	ck_assert(b[0] == 250 && b[1] == 1 && b[2] == 1);
	cu_pick_block(2, g2, 256, max, b);
	ck_assert(b[0] == 256 && b[1] == 1 && b[2] == 1);
	cu_pick_block(3, g3, 256, max, b);
	ck_assert(b[0] == 5 && b[1] == 4 && b[2] == 3);
	/* 256 / 6 leaves 42 for y: the largest divisor of 1000 below is 40. */
	cu_pick_block(2, g2b, 256, max, b);
	ck_assert(b[0] == 6 && b[1] == 40 && b[2] == 1);
	/* z is capped by the device's block depth. */
	cu_pick_block(3, g3b, 256, max, b);
	ck_assert(b[0] == 1 && b[1] == 1 && b[2] == 64);
	/* A smaller cap (the function's or the occupancy calculator's). */
	cu_pick_block(1, g1, 128, max, b);
	ck_assert_uint_eq(b[0], 125);
}
END_TEST

static Suite *geometry_suite(void)
{
	Suite *s = suite_create("cuda-geometry");
	TCase *tc = tcase_create("geometry");

	tcase_add_test(tc, int_then_double4_lands_on_32_bytes);
	tcase_add_test(tc, alignment_is_the_size_up_to_128);
	tcase_add_test(tc, first_argument_at_zero);
	tcase_add_test(tc, overflow_is_refused_and_changes_nothing);
	tcase_add_test(tc, largest_divisor_examples);
	tcase_add_test(tc, largest_divisor_against_brute_force);
	tcase_add_test(tc, block_divides_the_global_size);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(geometry_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
