// SPDX-License-Identifier: MIT
/*
 * The keyed hashes (util/hashkey.h): SipHash against the reference
 * vectors of its paper, 1-3 differing from 2-4, and a key that is drawn
 * once per process, is not all zeros and differs between processes (so
 * no one can compute in advance which names share a slot).
 */
#include <sys/wait.h>
#include <unistd.h>

#include "util/hashkey.h"
#include "tests/props/testutil.h"
#include "util/errmsg.h"

START_TEST(test_reference_vectors)
{
	static const uint64_t k[2] = { 0x0706050403020100ull,
				       0x0f0e0d0c0b0a0908ull };
	unsigned char m[64];
	size_t i;

	for (i = 0; i < sizeof(m); i++)
		m[i] = (unsigned char)i;
	/* SipHash-2-4, key 00..0f: the empty message and 00..0e */
	ck_assert_uint_eq(siphash(k, m, 0, 2, 4), 0x726fdb47dd0e0e31ull);
	ck_assert_uint_eq(siphash(k, m, 15, 2, 4), 0xa129ca6149be45e5ull);
	/* every length hashes apart, and 1-3 is another function */
	for (i = 1; i < sizeof(m); i++) {
		ck_assert_uint_ne(siphash(k, m, i, 2, 4),
				  siphash(k, m, i - 1, 2, 4));
		ck_assert_uint_ne(siphash(k, m, i, 1, 3),
				  siphash(k, m, i, 2, 4));
	}
}
END_TEST

START_TEST(test_key_per_process)
{
	uint64_t child[2] = { 0, 0 }, mine[2];
	const uint64_t *k;
	int fd[2], status;
	pid_t pid;

	/* the child draws first: nothing drawn here is inherited */
	ck_assert_int_eq(pipe(fd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		k = siphash_key();
		_exit(write(fd[1], k, 16) == 16 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && !WEXITSTATUS(status));
	ck_assert_int_eq(read(fd[0], child, 16), 16);
	close(fd[0]);
	close(fd[1]);
	k = siphash_key();
	memcpy(mine, k, 16);
	ck_assert(mine[0] | mine[1]);
	ck_assert(child[0] != mine[0] || child[1] != mine[1]);
	/* drawn once: the same key and hash on every call */
	ck_assert_ptr_eq(siphash_key(), k);
	ck_assert_uint_eq(siphash13("kernel", 6), siphash13("kernel", 6));
	ck_assert_uint_eq(siphash13("kernel", 6),
			  siphash(mine, "kernel", 6, 1, 3));
}
END_TEST

/* Many names of one set, and the same names in another: all found. */
START_TEST(test_index_many)
{
	struct errmsg err = { 0 };
	struct props *p = NULL;
	const struct props_set *a, *b;
	char *text, *q, name[32];
	size_t i, n = 50000;

	text = malloc(40 * n + 64);
	ck_assert_ptr_nonnull(text);
	q = text + sprintf(text, "[A]\n");
	for (i = 0; i < n; i++)
		q += sprintf(q, "n%zu=1|%zu\n", i, i);
	q += sprintf(q, "[B]\n");
	for (i = 0; i < n; i += 2)
		q += sprintf(q, "n%zu=1|%zu\n", i, i + 1);
	ck_assert_int_eq(props_parse(text, (size_t)(q - text), "t.props", &p,
				     &err), 0);
	a = props_find_set(p, "A");
	b = props_find_set(p, "B");
	ck_assert(a && b);
	for (i = 0; i < n; i++) {
		const struct props_prop *x, *y;

		snprintf(name, sizeof(name), "n%zu", i);
		x = props_set_find(a, name);
		y = props_set_find(b, name);
		ck_assert(x && x->u32 == i);
		ck_assert(i % 2 ? !y : y && y->u32 == i + 1);
	}
	props_free(p);
	free(text);
}
END_TEST

static Suite *hashkey_suite(void)
{
	Suite *s = suite_create("props-hashkey");
	TCase *tc = tcase_create("hashkey");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_reference_vectors);
	tcase_add_test(tc, test_key_per_process);
	tcase_add_test(tc, test_index_many);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(hashkey_suite());
}
