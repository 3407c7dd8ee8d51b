// SPDX-License-Identifier: MIT
/*
 * The kernel-name map: one open-addressing slot per distinct key, with
 * backward-shift deletion, and a chain in insertion order of the nodes
 * sharing the key. Many equal keys must stay one slot and one chain
 * through insertions and removals in any order.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"

#define N 6000
#define KEYS 7

/*
 * Node i has key i % KEYS in a string of its own, so that a slot keeping
 * the key pointer of a node already removed is caught by scribbling over
 * that node's string. seq: when the node was last inserted (0: not in
 * the map).
 */
static struct hash_node nodes[N];
static char keys[N][64];
static uint32_t hashes[N];
static unsigned long seq[N], clock_now;

static void keys_init(size_t nkeys)
{
	size_t i;

	for (i = 0; i < N; i++) {
		snprintf(keys[i], sizeof(keys[i]),
			 "_ZTSZZ4mainENKUlRN4sycl7handlerEE_clES2_E7k_%zu",
			 i % nkeys);
		hashes[i] = hash_string(keys[i]);
		seq[i] = 0;
	}
	clock_now = 0;
}

static size_t node_index(const struct hash_node *n)
{
	return (size_t)(n - nodes);
}

static void put(struct hash *h, size_t i)
{
	if (hash_reserve(h, h->count + 1) != 0)
		ck_abort_msg("hash_reserve failed");
	hash_insert(h, &nodes[i], keys[i], hashes[i]);
	seq[i] = ++clock_now;
}

/* Remove node i, then scribble over its key as its owner may. */
static void take(struct hash *h, size_t i)
{
	hash_remove(h, &nodes[i], hashes[i]);
	seq[i] = 0;
	memset(keys[i], 'X', strlen(keys[i]));
}

static void restore_key(size_t i, size_t nkeys)
{
	snprintf(keys[i], sizeof(keys[i]),
		 "_ZTSZZ4mainENKUlRN4sycl7handlerEE_clES2_E7k_%zu",
		 i % nkeys);
}

/*
 * The chain of key k (looked up by a string of its own) must be exactly
 * the nodes of that key in the map, in insertion order, with the first
 * node's prev naming the last. Returns its length. (One assertion per
 * chain: Check records each one it passes.)
 */
static size_t check_key(const struct hash *h, size_t k, size_t nkeys)
{
	const struct hash_node *first, *n, *last = NULL;
	unsigned long prev_seq = 0;
	size_t want = 0, got = 0, i, bad = SIZE_MAX;
	char key[80];

	snprintf(key, sizeof(key),
		 "_ZTSZZ4mainENKUlRN4sycl7handlerEE_clES2_E7k_%zu", k);
	for (i = k; i < N; i += nkeys)
		want += seq[i] != 0;
	first = hash_find(h, key, hash_string(key));
	for (n = first; n && bad == SIZE_MAX; n = n->next) {
		i = node_index(n);
		if (i >= N || i % nkeys != k || seq[i] <= prev_seq ||
		    strcmp(n->key, key) != 0 || (last && n->prev != last))
			bad = got;
		prev_seq = i < N ? seq[i] : 0;
		last = n;
		got++;
	}
	ck_assert_msg(bad == SIZE_MAX, "key %zu: node %zu of its chain wrong",
		      k, bad);
	ck_assert_uint_eq(got, want);
	if (want)
		ck_assert_ptr_eq(first->prev, last);
	return got;
}

/* Slots in use: one per key that has nodes, whatever their number. */
static size_t used_slots(const struct hash *h)
{
	size_t i, used = 0;

	for (i = 0; i < h->cap; i++)
		used += h->slots[i].key != NULL;
	return used;
}

START_TEST(test_equal_keys_share_one_slot)
{
	struct hash h = HASH_INIT;
	size_t i;

	keys_init(1);
	for (i = 0; i < N; i++)
		put(&h, i);
	ck_assert_uint_eq(h.count, 1);
	ck_assert_uint_eq(h.nodes, N);
	ck_assert_uint_eq(used_slots(&h), 1);
	/* Room for one key was asked for each time: the table never grew. */
	ck_assert_uint_le(h.cap, 64);
	ck_assert_uint_eq(check_key(&h, 0, 1), N);
	ck_assert_ptr_null(hash_find(&h, "k_other", hash_string("k_other")));
	for (i = 0; i < N; i++)
		take(&h, i);
	ck_assert_uint_eq(h.count, 0);
	ck_assert_uint_eq(h.nodes, 0);
	ck_assert_uint_eq(used_slots(&h), 0);
	ck_assert_uint_eq(check_key(&h, 0, 1), 0);
	hash_fini(&h);
}
END_TEST

/* Remove one node: the first, one in the middle, the last. */
START_TEST(test_remove_one_of_many_equal_keys)
{
	size_t which[3] = { 0, N / 2, N - 1 }, w, i;

	for (w = 0; w < 3; w++) {
		struct hash h = HASH_INIT;

		keys_init(1);
		for (i = 0; i < N; i++)
			put(&h, i);
		take(&h, which[w]);
		ck_assert_uint_eq(h.count, 1);
		ck_assert_uint_eq(h.nodes, N - 1);
		ck_assert_uint_eq(check_key(&h, 0, 1), N - 1);
		/* Appending after it still goes to the end. */
		restore_key(which[w], 1);
		put(&h, which[w]);
		ck_assert_uint_eq(check_key(&h, 0, 1), N);
		ck_assert_ptr_eq(hash_find(&h, keys[1], hashes[1])->prev,
				 &nodes[which[w]]);
		for (i = 0; i < N; i++)
			take(&h, i);
		ck_assert_uint_eq(h.count, 0);
		hash_fini(&h);
	}
}
END_TEST

/* All nodes of a key removed from the back, then from the front. */
START_TEST(test_remove_all_equal_keys_either_end)
{
	struct hash h = HASH_INIT;
	size_t i;

	keys_init(2);
	for (i = 0; i < N; i++)
		put(&h, i);
	ck_assert_uint_eq(h.count, 2);
	for (i = N; i-- > 0;) {
		if (i % 2 == 0)
			take(&h, i);
	}
	ck_assert_uint_eq(h.count, 1);
	ck_assert_uint_eq(check_key(&h, 0, 2), 0);
	ck_assert_uint_eq(check_key(&h, 1, 2), N / 2);
	for (i = 1; i < N; i += 2) {
		take(&h, i);
		if (i % 999 == 0)
			check_key(&h, 1, 2);
	}
	ck_assert_uint_eq(h.count, 0);
	ck_assert_uint_eq(h.nodes, 0);
	ck_assert_uint_eq(check_key(&h, 1, 2), 0);
	hash_fini(&h);
}
END_TEST

/*
 * Insertions and removals at random over few keys with many nodes each,
 * then over many keys with few nodes (slots shifted back on removal),
 * against the model of insertion times.
 */
START_TEST(test_interleaved_against_model)
{
	size_t nkeys_cases[3] = { KEYS, 1, 1500 }, c;

	for (c = 0; c < 3; c++) {
		size_t nkeys = nkeys_cases[c], i, k, round, total = 0;
		struct hash h = HASH_INIT;
		unsigned seed = 7;

		keys_init(nkeys);
		for (round = 0; round < 40000; round++) {
			i = (size_t)rand_r(&seed) % N;
			if (seq[i]) {
				take(&h, i);
			} else {
				restore_key(i, nkeys);
				put(&h, i);
			}
			if (round % 331 == 0)
				check_key(&h, i % nkeys, nkeys);
		}
		for (k = 0; k < nkeys; k++)
			total += check_key(&h, k, nkeys);
		ck_assert_uint_eq(total, h.nodes);
		ck_assert_uint_eq(used_slots(&h), h.count);
		for (i = 0; i < N; i++) {
			if (seq[i])
				take(&h, i);
		}
		ck_assert_uint_eq(h.count, 0);
		ck_assert_uint_eq(h.nodes, 0);
		hash_fini(&h);
	}
}
END_TEST

START_TEST(test_empty_map)
{
	struct hash h = HASH_INIT;

	ck_assert_ptr_null(hash_find(&h, "x", hash_string("x")));
	ck_assert_int_eq(hash_reserve(&h, 0), 0);
	ck_assert_ptr_null(h.slots);
	ck_assert_int_eq(hash_reserve(&h, 1), 0);
	ck_assert_ptr_null(hash_find(&h, "x", hash_string("x")));
	hash_fini(&h);
}
END_TEST

START_TEST(test_hash_spreads_similar_names)
{
	static unsigned used[16384];
	size_t i, empty = 0, longest = 0;

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
	ck_assert_uint_eq(hash_string("k_3"), hash_bytes("k_3x", 3));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hash");
	TCase *tc = tcase_create("hash");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_hash_spreads_similar_names);
	tcase_add_test(tc, test_equal_keys_share_one_slot);
	tcase_add_test(tc, test_remove_one_of_many_equal_keys);
	tcase_add_test(tc, test_remove_all_equal_keys_either_end);
	tcase_add_test(tc, test_interleaved_against_model);
	tcase_add_test(tc, test_empty_map);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
