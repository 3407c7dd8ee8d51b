// SPDX-License-Identifier: MIT
/*
 * The kernel-name map: an open-addressing multimap whose slots are found
 * by key and removed by key pointer, with backward-shift deletion.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"

#define N 6000
#define KEYS 1000

/* Key i % KEYS, in its own string per node: N slots, KEYS names. */
static char keys[N][64];
static uint32_t hashes[N];
static int in_map[N];

static void keys_init(void)
{
	size_t i;

	for (i = 0; i < N; i++) {
		snprintf(keys[i], sizeof(keys[i]),
			 "_ZTSZZ4mainENKUlRN4sycl7handlerEE_clES2_E7k_%zu",
			 i % KEYS);
		hashes[i] = hash_string(keys[i]);
		in_map[i] = 0;
	}
}

/* Matches of key k must be exactly the nodes i % KEYS == k in the map. */
static void check_key(const struct hash *h, size_t k)
{
	size_t pos, want = 0, got = 0, i;
	void *v;

	for (i = k; i < N; i += KEYS)
		want += (size_t)in_map[i];
	for (v = hash_find(h, keys[k], hashes[k], &pos); v;
	     v = hash_find_next(h, keys[k], hashes[k], &pos)) {
		i = (size_t)((char (*)[64])v - keys);
		ck_assert_uint_eq(i % KEYS, k);
		ck_assert_int_eq(in_map[i], 1);
		got++;
	}
	ck_assert_uint_eq(got, want);
}

START_TEST(test_hash_spreads_similar_names)
{
	static unsigned used[16384];
	size_t i, empty = 0, longest = 0;

	keys_init();
	for (i = 0; i < 10000; i++) {
		char name[80];

		snprintf(name, sizeof(name),
			 "_ZTSZZ4mainENKUlRN4sycl7handlerEE_clES2_E7k_%zu_%zu",
			 i / 100, i % 100);
		used[hash_string(name) & 16383]++;
	}
	for (i = 0; i < 16384; i++) {
		empty += used[i] == 0;
		if (used[i] > longest)
			longest = used[i];
	}
	/* A uniform hash leaves e^-0.61 = 54% empty; allow 50..58%. */
	ck_assert_uint_gt(empty, 8192);
	ck_assert_uint_lt(empty, 9500);
	ck_assert_uint_le(longest, 8);
	ck_assert_uint_ne(hash_string("a"), hash_string("b"));
	ck_assert_uint_ne(hash_string("abcdefgh"), hash_string("abcdefgh1"));
	ck_assert_uint_eq(hash_string(keys[3]), hash_string(keys[KEYS + 3]));
}
END_TEST

START_TEST(test_multimap_insert_find_remove)
{
	struct hash h = HASH_INIT;
	unsigned seed = 7;
	size_t i, k, round;

	keys_init();
	for (i = 0; i < N; i++) {
		ck_assert_int_eq(hash_reserve(&h, h.count + 1), 0);
		hash_insert(&h, keys[i], hashes[i], keys[i]);
		in_map[i] = 1;
	}
	ck_assert_uint_eq(h.count, N);
	ck_assert_uint_ge(h.cap / 4 * 3, N);
	for (k = 0; k < KEYS; k++)
		check_key(&h, k);
	/* Random removals and re-insertions against the model. */
	for (round = 0; round < 20000; round++) {
		i = (size_t)rand_r(&seed) % N;
		if (in_map[i]) {
			ck_assert(hash_remove(&h, keys[i], hashes[i]));
			in_map[i] = 0;
		} else {
			ck_assert(!hash_remove(&h, keys[i], hashes[i]));
			hash_insert(&h, keys[i], hashes[i], keys[i]);
			in_map[i] = 1;
		}
		if (round % 97 == 0)
			check_key(&h, i % KEYS);
	}
	for (k = 0; k < KEYS; k++)
		check_key(&h, k);
	for (i = 0; i < N; i++) {
		if (in_map[i])
			ck_assert(hash_remove(&h, keys[i], hashes[i]));
	}
	ck_assert_uint_eq(h.count, 0);
	hash_fini(&h);
}
END_TEST

START_TEST(test_remove_needs_the_same_key_pointer)
{
	struct hash h = HASH_INIT;
	char copy[64];

	keys_init();
	ck_assert_int_eq(hash_reserve(&h, 1), 0);
	hash_insert(&h, keys[0], hashes[0], keys[0]);
	strcpy(copy, keys[0]);
	ck_assert(!hash_remove(&h, copy, hashes[0]));
	ck_assert(hash_remove(&h, keys[0], hashes[0]));
	hash_fini(&h);
}
END_TEST

START_TEST(test_empty_map)
{
	struct hash h = HASH_INIT;
	size_t pos;

	ck_assert_ptr_null(hash_find(&h, "x", hash_string("x"), &pos));
	ck_assert(!hash_remove(&h, "x", hash_string("x")));
	ck_assert_int_eq(hash_reserve(&h, 0), 0);
	ck_assert_ptr_null(h.slots);
	hash_fini(&h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hash");
	TCase *tc = tcase_create("hash");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_hash_spreads_similar_names);
	tcase_add_test(tc, test_multimap_insert_find_remove);
	tcase_add_test(tc, test_remove_needs_the_same_key_pointer);
	tcase_add_test(tc, test_empty_map);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
