// SPDX-License-Identifier: MIT
/*
 * The LSB-first base64 of byte arrays. Expected strings were worked out by
 * hand from docs/formats.md, "Byte arrays" ("encode b0 b1 b2 -> c0 = b0 &
 * 63, ...") and are checked against a bit-by-bit reference written
 * independently here.
 */
#include <errno.h>

#include "tests/props/testutil.h"

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Bit i of the stream is bit i%8 of byte i/8; character k takes bits 6k..6k+5. */
static size_t ref_encode(const unsigned char *in, size_t n, char *out)
{
	size_t nbits = n * 8, nchars = (nbits + 5) / 6, k, j, i;
	unsigned v;

	for (k = 0; k < nchars; k++) {
		v = 0;
		for (j = 0; j < 6; j++) {
			i = 6 * k + j;
			if (i < nbits && (in[i / 8] >> (i % 8) & 1))
				v |= 1u << j;
		}
		out[k] = alphabet[v];
	}
	return nchars;
}

static size_t ref_decode(const char *in, size_t len, unsigned char *out)
{
	size_t nbytes = len * 6 / 8, k, j, i;
	unsigned c;

	for (k = 0; k < nbytes; k++) {
		out[k] = 0;
		for (j = 0; j < 8; j++) {
			i = 8 * k + j;
			c = (unsigned)(strchr(alphabet, in[i / 6]) - alphabet);
			if (c >> (i % 6) & 1)
				out[k] |= (unsigned char)(1u << j);
		}
	}
	return nbytes;
}

struct vector {
	const char *bytes;
	size_t n;
	const char *text;
};

static const struct vector vectors[] = {
	{ "", 0, "" },
	{ "\x01", 1, "BA" },			/* n % 3 == 1 */
	{ "\xff", 1, "/D" },
	{ "\x80", 1, "AC" },
	{ "\x01\x02", 2, "BIA" },		/* n % 3 == 2 */
	{ "\xff\xff", 2, "//P" },
	{ "\x01\x02\x03", 3, "BIwA" },		/* n % 3 == 0 */
	{ "\xff\xff\xff", 3, "////" },
	{ "Man", 3, "NFmb" },			/* standard base64 says "TWFu" */
	{ "\0\0\0\x80", 4, "AAAAAC" },
	{ "\x08\0\0\0\0\0\0\0\x01", 9, "IAAAAAAAAAQA" },	/* 8 bits: 0x01 */
};

START_TEST(test_vectors_encode)
{
	const struct vector *v = &vectors[_i];
	char out[64];
	size_t len = props_b64_encoded_len(v->n);

	ck_assert_uint_eq(len, strlen(v->text));
	memset(out, '#', sizeof(out));
	props_b64_encode(v->bytes, v->n, out);
	ck_assert_mem_eq(out, v->text, len);
	ck_assert_int_eq(out[len], '#');
	ck_assert_uint_eq(ref_encode((const unsigned char *)v->bytes, v->n, out), len);
	ck_assert_mem_eq(out, v->text, len);
}
END_TEST

START_TEST(test_vectors_decode)
{
	const struct vector *v = &vectors[_i];
	unsigned char out[64];
	size_t len = strlen(v->text), n = 99, bad = 99;

	ck_assert_int_eq(props_b64_decoded_len(len, &n), 0);
	ck_assert_uint_eq(n, v->n);
	memset(out, 0xee, sizeof(out));
	ck_assert_int_eq(props_b64_decode(v->text, len, out, &bad), 0);
	ck_assert_mem_eq(out, v->bytes, n);
	ck_assert_uint_eq(out[n], 0xee);
	ck_assert_uint_eq(bad, 99);
}
END_TEST

START_TEST(test_lengths)
{
	size_t n;

	ck_assert_uint_eq(props_b64_encoded_len(0), 0);
	ck_assert_uint_eq(props_b64_encoded_len(1), 2);
	ck_assert_uint_eq(props_b64_encoded_len(2), 3);
	ck_assert_uint_eq(props_b64_encoded_len(3), 4);
	ck_assert_uint_eq(props_b64_encoded_len(20), 27);
	ck_assert_uint_eq(props_b64_encoded_len(17), 23);
	ck_assert_uint_eq(props_b64_encoded_len(SIZE_MAX), SIZE_MAX);
	ck_assert_int_eq(props_b64_decoded_len(27, &n), 0);
	ck_assert_uint_eq(n, 20);
	ck_assert_int_eq(props_b64_decoded_len(23, &n), 0);
	ck_assert_uint_eq(n, 17);
	ck_assert_int_eq(props_b64_decoded_len(0, &n), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(props_b64_decoded_len(1, &n), -EINVAL);
	ck_assert_int_eq(props_b64_decoded_len(13, &n), -EINVAL);
}
END_TEST

static void check_round_trip(const unsigned char *in, size_t n)
{
	char enc[400], ref[400];
	unsigned char dec[300], refdec[300];
	size_t len = props_b64_encoded_len(n);

	props_b64_encode(in, n, enc);
	ck_assert_uint_eq(ref_encode(in, n, ref), len);
	ck_assert_mem_eq(enc, ref, len);
	ck_assert_int_eq(props_b64_decode(enc, len, dec, NULL), 0);
	ck_assert_mem_eq(dec, in, n);
	ck_assert_uint_eq(ref_decode(enc, len, refdec), n);
	ck_assert_mem_eq(refdec, in, n);
}

START_TEST(test_all_byte_values)
{
	unsigned char buf[256];
	unsigned v;

	for (v = 0; v < 256; v++) {
		buf[0] = (unsigned char)v;
		buf[1] = (unsigned char)(255 - v);
		buf[2] = (unsigned char)(v ^ 0x5a);
		check_round_trip(buf, 1);
		check_round_trip(buf, 2);
		check_round_trip(buf, 3);
		buf[0] = 0;
		buf[1] = (unsigned char)v;
		check_round_trip(buf, 2);
		buf[2] = (unsigned char)v;
		buf[1] = 0;
		check_round_trip(buf, 3);
	}
	for (v = 0; v < 256; v++)
		buf[v] = (unsigned char)v;
	for (v = 0; v <= 256; v++)
		check_round_trip(buf, v);
}
END_TEST

START_TEST(test_every_character_value)
{
	unsigned char out[3];
	char text[4] = { 'A', 'A', 'A', 'A' };
	unsigned c;
	size_t bad;
	int r;

	for (c = 0; c < 256; c++) {
		text[2] = (char)c;
		bad = 99;
		r = props_b64_decode(text, 4, out, &bad);
		if (c && strchr(alphabet, (int)c)) {
			ck_assert_int_eq(r, 0);
			ck_assert_uint_eq((unsigned)(out[1] >> 4 | (out[2] & 3) << 4),
					  (unsigned)(strchr(alphabet, (int)c) - alphabet));
		} else {
			ck_assert_int_eq(r, -EINVAL);
			ck_assert_uint_eq(bad, 2);
		}
	}
}
END_TEST

START_TEST(test_bad_input_positions)
{
	unsigned char out[16];
	size_t bad = 0;

	ck_assert_int_eq(props_b64_decode(TEXT("AB*D"), out, &bad), -EINVAL);
	ck_assert_uint_eq(bad, 2);
	ck_assert_int_eq(props_b64_decode(TEXT("AAAAAA="), out, &bad), -EINVAL);
	ck_assert_uint_eq(bad, 6);
	ck_assert_int_eq(props_b64_decode(TEXT("AAAA AA"), out, &bad), -EINVAL);
	ck_assert_uint_eq(bad, 4);
	/* A lone last character is truncation: bad_pos is the length. */
	ck_assert_int_eq(props_b64_decode(TEXT("AAAAA"), out, &bad), -EINVAL);
	ck_assert_uint_eq(bad, 5);
	ck_assert_int_eq(props_b64_decode(TEXT("A"), out, NULL), -EINVAL);
}
END_TEST

static Suite *base64_suite(void)
{
	Suite *s = suite_create("props-base64");
	TCase *tc = tcase_create("base64");
	int nvec = (int)(sizeof(vectors) / sizeof(vectors[0]));

	tcase_add_loop_test(tc, test_vectors_encode, 0, nvec);
	tcase_add_loop_test(tc, test_vectors_decode, 0, nvec);
	tcase_add_test(tc, test_lengths);
	tcase_add_test(tc, test_all_byte_values);
	tcase_add_test(tc, test_every_character_value);
	tcase_add_test(tc, test_bad_input_positions);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(base64_suite());
}
