// SPDX-License-Identifier: MIT
/*
 * Device globals: "SYCL/device globals" values as sycl-post-link writes
 * them, and HostAccessINTEL decorations in SPIR-V modules, the fixture
 * assembled from devglobal.spvasm and malformed ones built here word by
 * word.
 */
#include <errno.h>

#include "tests/slurp.h"
#include "props/device-global.h"
#include "tests/props/testutil.h"
#include "util/le.h"

/* A property value: 64-bit bit count, uint32 size, uint8 flag, padding. */
static void make_value(unsigned char *v, uint64_t nbits, uint32_t size,
		       uint8_t flag)
{
	put_le64(v, nbits);
	put_le32(v + 8, size);
	v[12] = flag;
	/* sycl-post-link leaves the padding unset: any bytes may be there. */
	v[13] = 0xa5;
	v[14] = 0x5a;
	v[15] = 0xff;
}

static int decode_err(const unsigned char *v, uint64_t len, char *msg,
		      size_t msgsize)
{
	struct devglobal_info info = { 77, 77 };
	int r = devglobal_decode(v, len, &info, msg, msgsize);

	ck_assert_uint_eq(info.size, 77);
	ck_assert_uint_eq(info.image_scope, 77);
	return r;
}

#define ck_assert_str_has(s, sub)                                           \
	ck_assert_msg(strstr((s), (sub)) != NULL, "message '%s' lacks '%s'",  \
		      (s), (sub))

/*
 * sycl-post-link's own test (device-globals/test_global_variable.ll)
 * prints these values in the .prop text, up to the padding it leaves
 * unset: "AAAAA" here completes them with zero padding.
 */
START_TEST(test_post_link_text_values_decode)
{
	static const struct {
		const char *b64;
		uint32_t size, scope;
	} cases[] = {
		{ "ABAAAAAAAAABAAAAAAAAAA", 4, 0 },
		{ "ABAAAAAAAAQAAAAABAAAAA", 1, 1 },
	};
	struct devglobal_info info;
	unsigned char v[16];
	char msg[256] = "";
	size_t i, n, bad;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(props_b64_decoded_len(strlen(cases[i].b64),
						       &n), 0);
		ck_assert_uint_eq(n, sizeof(v));
		ck_assert_int_eq(props_b64_decode(cases[i].b64,
						  strlen(cases[i].b64), v, &bad),
				 0);
		ck_assert_int_eq(devglobal_decode(v, n, &info, msg,
						  sizeof(msg)), 0);
		ck_assert_uint_eq(info.size, cases[i].size);
		ck_assert_uint_eq(info.image_scope, cases[i].scope);
	}
}
END_TEST

START_TEST(test_padding_is_not_read)
{
	struct devglobal_info info;
	unsigned char v[16];
	char msg[256] = "";

	make_value(v, 64, 0x01020304, 0);
	ck_assert_int_eq(devglobal_decode(v, sizeof(v), &info, msg,
					  sizeof(msg)), 0);
	ck_assert_uint_eq(info.size, 0x01020304);
	ck_assert_uint_eq(info.image_scope, 0);
}
END_TEST

START_TEST(test_length_other_than_16_is_refused)
{
	static const uint64_t lens[] = { 0, 8, 12, 15, 17, 24 };
	unsigned char v[24] = { 0 };
	char msg[256], want[64];
	size_t i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		/* The bit count agrees with the payload: only the length is wrong. */
		put_le64(v, lens[i] > 8 ? (lens[i] - 8) * 8 : 0);
		ck_assert_int_eq(decode_err(v, lens[i], msg, sizeof(msg)),
				 -EINVAL);
		snprintf(want, sizeof(want), "length: saw %u bytes, expected 16",
			 (unsigned)lens[i]);
		ck_assert_str_has(msg, want);
	}
}
END_TEST

/* A 16-byte value of nbits and flag is refused with a message holding want. */
static void value_refused(uint64_t nbits, uint8_t flag, const char *want)
{
	unsigned char v[16];
	char msg[256];

	make_value(v, nbits, 4, flag);
	ck_assert_int_eq(decode_err(v, sizeof(v), msg, sizeof(msg)), -EINVAL);
	ck_assert_str_has(msg, want);
}

START_TEST(test_bit_count_other_than_64_is_refused)
{
	static const uint64_t bits[] = { 0, 57, 63, 65, 128, UINT64_MAX };
	char want[64];
	size_t i;

	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		snprintf(want, sizeof(want), "bit count: saw %llu, expected 64",
			 (unsigned long long)bits[i]);
		value_refused(bits[i], 0, want);
	}
}
END_TEST

START_TEST(test_flag_other_than_0_or_1_is_refused)
{
	value_refused(64, 2, "device_image_scope flag: saw 2, expected 0 or 1");
	value_refused(64, 0xff, "device_image_scope flag: saw 255");
}
END_TEST

START_TEST(test_message_is_cut_to_its_buffer)
{
	unsigned char v[16];
	char msg[8];

	make_value(v, 64, 4, 2);
	ck_assert_int_eq(decode_err(v, sizeof(v), msg, sizeof(msg)), -EINVAL);
	ck_assert_uint_eq(strlen(msg), sizeof(msg) - 1);
	ck_assert_int_eq(decode_err(v, sizeof(v), NULL, 0), -EINVAL);
}
END_TEST

/* ---- SPIR-V ---- */

#define ID_READ "6da74a122db9f35d____ZL7dg_read"
#define ID_WRITE "7da74a1187b9f35d____ZL8dg_write"
#define ID_RW "9d329ad59055e972____ZL5dg_rw"
#define ID_NONE "dda2bad52c45c432____ZL7dg_none"
#define ID_OLD "0123456789abcdef____ZL6dg_old"
#define ID_PLAIN "0123456789abcdef____ZL8dg_plain"

static unsigned char *fixture;
static size_t fixture_size;

static int access_of(const void *spv, size_t size, const char *id,
		     enum devglobal_access *a, char *msg, size_t msgsize)
{
	*a = (enum devglobal_access)99;
	msg[0] = '\0';
	return devglobal_spirv_access(spv, size, id, a, msg, msgsize);
}

static void check_fixture_answers(const unsigned char *spv, size_t size)
{
	static const struct {
		const char *id;
		enum devglobal_access want;
	} cases[] = {
		{ ID_READ, DEVGLOBAL_ACCESS_READ },
		{ ID_WRITE, DEVGLOBAL_ACCESS_WRITE },
		{ ID_RW, DEVGLOBAL_ACCESS_READ_WRITE },
		{ ID_NONE, DEVGLOBAL_ACCESS_NONE },
		/* 6147 counts 0 as read. */
		{ ID_OLD, DEVGLOBAL_ACCESS_READ },
	};
	static const char *const absent[] = {
		ID_PLAIN, "6da74a122db9f35d____ZL7dg_rea",
		"6da74a122db9f35d____ZL7dg_readx", "", "dg_read",
	};
	enum devglobal_access a;
	char msg[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_msg(access_of(spv, size, cases[i].id, &a, msg,
					sizeof(msg)) == 0,
			      "%s: %s", cases[i].id, msg);
		ck_assert_int_eq(a, cases[i].want);
	}
	for (i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
		ck_assert_int_eq(access_of(spv, size, absent[i], &a, msg,
					   sizeof(msg)), -ENOENT);
		ck_assert_int_eq(a, 99);
	}
}

START_TEST(test_assembled_module_gives_each_access)
{
	check_fixture_answers(fixture, fixture_size);
}
END_TEST

START_TEST(test_byte_swapped_module_gives_the_same)
{
	unsigned char *sw = malloc(fixture_size);
	size_t i;

	ck_assert_ptr_nonnull(sw);
	ck_assert_uint_eq(fixture[0], 0x03);
	for (i = 0; i + 4 <= fixture_size; i += 4) {
		sw[i] = fixture[i + 3];
		sw[i + 1] = fixture[i + 2];
		sw[i + 2] = fixture[i + 1];
		sw[i + 3] = fixture[i];
	}
	ck_assert_uint_eq(sw[0], 0x07);
	check_fixture_answers(sw, fixture_size);
	free(sw);
}
END_TEST

START_TEST(test_truncated_module_is_refused_where_read)
{
	enum devglobal_access a;
	char msg[256], want[96];
	size_t n = fixture_size / 4 - 1;

	/* The last OpVariable (5 words, an initializer) loses its last word. */
	ck_assert_int_eq(access_of(fixture, n * 4, ID_PLAIN, &a, msg,
				   sizeof(msg)), -EINVAL);
	snprintf(want, sizeof(want),
		 "word %zu: instruction (opcode 59) of 5 words runs past the module's end at word %zu",
		 n - 4, n);
	ck_assert_str_has(msg, want);
	/* A decoration read before the cut still answers. */
	ck_assert_int_eq(access_of(fixture, n * 4, ID_READ, &a, msg,
				   sizeof(msg)), 0);
	ck_assert_int_eq(a, DEVGLOBAL_ACCESS_READ);
	ck_assert_int_eq(access_of(fixture, fixture_size - 1, ID_READ, &a, msg,
				   sizeof(msg)), -EINVAL);
	ck_assert_str_has(msg, "whole number of 4-byte words");
	ck_assert_int_eq(access_of(fixture, 16, ID_READ, &a, msg, sizeof(msg)),
			 -EINVAL);
	ck_assert_str_has(msg, "header: saw 4 words, expected at least 5");
}
END_TEST

/*
 * A module built word by word: the header (magic replaced by magic when
 * non-zero), then the n words of ins. Returns what looking up "abcd" gives.
 */
static int built_access(uint32_t magic, const uint32_t *ins, size_t n,
			enum devglobal_access *a, char *msg, size_t msgsize)
{
	static const uint32_t header[] = { 0x07230203, 0x00010000, 0, 16, 0 };
	unsigned char buf[4 * 32];
	size_t i;

	ck_assert_uint_le(5 + n, sizeof(buf) / 4);
	for (i = 0; i < 5; i++)
		put_le32(buf + 4 * i, header[i]);
	if (magic)
		put_le32(buf, magic);
	for (i = 0; i < n; i++)
		put_le32(buf + 4 * (5 + i), ins[i]);
	return access_of(buf, 4 * (5 + n), "abcd", a, msg, msgsize);
}

/* The module of ins (and magic) is refused with a message holding want. */
static void refused(uint32_t magic, const uint32_t *ins, size_t n,
		    const char *want)
{
	enum devglobal_access a;
	char msg[256];

	ck_assert_int_eq(built_access(magic, ins, n, &a, msg, sizeof(msg)),
			 -EINVAL);
	ck_assert_str_has(msg, want);
	ck_assert_int_eq(a, 99);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))
/* 'a' 'b' 'c' 'd' packed as SPIR-V packs literal strings. */
#define ABCD 0x64636261u
#define OP(wc, op) ((uint32_t)(wc) << 16 | (op))

START_TEST(test_built_module_answers)
{
	static const uint32_t deco[] = { OP(6, 71), 7, 6188, 2, ABCD, 0 };
	enum devglobal_access a;
	char msg[256];

	ck_assert_int_eq(built_access(0, deco, N(deco), &a, msg, sizeof(msg)),
			 0);
	ck_assert_int_eq(a, DEVGLOBAL_ACCESS_WRITE);
}
END_TEST

START_TEST(test_bad_magic_is_refused)
{
	refused(0x07230204, NULL, 0, "word 0: magic number: saw 0x07230204");
}
END_TEST

START_TEST(test_zero_word_count_is_refused)
{
	static const uint32_t nop[] = { OP(1, 0), OP(0, 71) };

	refused(0, nop, N(nop), "word 6: instruction (opcode 71) has word count 0");
}
END_TEST

START_TEST(test_access_above_3_is_refused)
{
	static const uint32_t deco[] = { OP(6, 71), 7, 6188, 4, ABCD, 0 };

	refused(0, deco, N(deco),
		"word 8: HostAccessINTEL access qualifier: saw 4, expected 0 to 3");
}
END_TEST

START_TEST(test_name_without_nul_is_refused)
{
	/* "abcd" fills its word: the NUL word that must follow is missing. */
	static const uint32_t deco[] = { OP(5, 71), 7, 6188, 1, ABCD,
					 OP(2, 5), 7 };

	refused(0, deco, N(deco),
		"word 9: HostAccessINTEL name: no NUL before the instruction ends at word 10");
}
END_TEST

START_TEST(test_short_decorations_are_refused)
{
	static const uint32_t no_name[] = { OP(4, 71), 7, 6188, 1 };
	static const uint32_t no_deco[] = { OP(2, 71), 7 };

	refused(0, no_name, N(no_name),
		"word 5: HostAccessINTEL decoration 6188: saw 4 words, expected at least 5");
	refused(0, no_deco, N(no_deco),
		"word 5: OpDecorate: saw 2 words, expected at least 3");
}
END_TEST

static Suite *devglobal_suite(int with_fixture)
{
	Suite *s = suite_create("devglobal");
	TCase *tc = tcase_create("value");

	tcase_add_test(tc, test_post_link_text_values_decode);
	tcase_add_test(tc, test_padding_is_not_read);
	tcase_add_test(tc, test_length_other_than_16_is_refused);
	tcase_add_test(tc, test_bit_count_other_than_64_is_refused);
	tcase_add_test(tc, test_flag_other_than_0_or_1_is_refused);
	tcase_add_test(tc, test_message_is_cut_to_its_buffer);
	suite_add_tcase(s, tc);
	tc = tcase_create("spirv");
	tcase_add_test(tc, test_built_module_answers);
	tcase_add_test(tc, test_bad_magic_is_refused);
	tcase_add_test(tc, test_zero_word_count_is_refused);
	tcase_add_test(tc, test_access_above_3_is_refused);
	tcase_add_test(tc, test_name_without_nul_is_refused);
	tcase_add_test(tc, test_short_decorations_are_refused);
	if (with_fixture) {
		tcase_add_test(tc, test_assembled_module_gives_each_access);
		tcase_add_test(tc, test_byte_swapped_module_gives_the_same);
		tcase_add_test(tc, test_truncated_module_is_refused_where_read);
	}
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	int r;

	fixture = slurp_or_null(DEVGLOBAL_SPV, &fixture_size);
	r = run_suite(devglobal_suite(fixture != NULL));
	if (r == EXIT_SUCCESS && !fixture) {
		printf("SKIP [spirv-as]: %s not built (configure found no spirv-as)\n",
		       DEVGLOBAL_SPV);
		r = 77;
	}
	free(fixture);
	return r;
}
