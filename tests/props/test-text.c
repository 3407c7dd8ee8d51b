// SPDX-License-Identifier: MIT
/* The .props reader and writer: canonical text, errors, random round trips. */
#include <errno.h>
#include <stdio.h>

#include "tests/props/testutil.h"
#include "util/errmsg.h"

static const char canonical[] =
	"[SYCL/specialization constants]\n"
	"9d329ad59055e972____ZL12StructSpecId=2|gBAAAAAAAAAAAAAAAAAAAgAAAAA\n"
	"[SYCL/devicelib req mask]\n"
	"DeviceLibReqMask=1|0\n"
	"max=1|4294967295\n"
	"[Empty]\n"
	"[SYCL/misc properties]\n"
	"optLevel=1|2\n"
	"name with | and [x]=1|7\n"
	"eight=2|IAAAAAAAAAQA\n"
	"zero=2|AAAAAAAAAAA\n";

static char *write_props(const struct props *p, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(props_write(p, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

static struct props *parse_ok(const char *text, size_t len)
{
	struct errmsg err = { 0 };
	struct props *p = NULL;
	int r = props_parse(text, len, "t.props", &p, &err);

	ck_assert_msg(r == 0, "parse failed (%d): %s", r, err.msg);
	ck_assert_ptr_nonnull(p);
	return p;
}

START_TEST(test_parse_canonical_model)
{
	struct props *p = parse_ok(TEXT(canonical));
	const struct props_set *s;
	const struct props_prop *pr;

	ck_assert_uint_eq(p->nsets, 4);
	ck_assert_str_eq(p->sets[2].name, "Empty");
	ck_assert_uint_eq(p->sets[2].nprops, 0);
	s = props_find_set(p, "SYCL/devicelib req mask");
	ck_assert_uint_eq(props_set_find(s, "max")->u32, 4294967295u);
	s = props_find_set(p, "SYCL/misc properties");
	pr = props_set_find(s, "name with | and [x]");
	ck_assert_int_eq(pr->type, PROPS_UINT32);
	ck_assert_uint_eq(pr->u32, 7);
	pr = props_set_find(s, "eight");
	ck_assert_int_eq(pr->type, PROPS_BYTE_ARRAY);
	ck_assert_uint_eq(pr->size, 9);
	ck_assert_mem_eq(pr->data, "\x08\0\0\0\0\0\0\0\x01", 9);
	pr = props_set_find(s, "zero");
	ck_assert_uint_eq(pr->size, 8);
	props_free(p);
}
END_TEST

START_TEST(test_write_reproduces_canonical_text)
{
	struct props *p = parse_ok(TEXT(canonical));
	size_t len = 0;
	char *out = write_props(p, &len);

	ck_assert_uint_eq(len, sizeof(canonical) - 1);
	ck_assert_mem_eq(out, canonical, len);
	free(out);
	props_free(p);
}
END_TEST

START_TEST(test_crlf_empty_lines_and_no_final_newline)
{
	static const char crlf[] =
		"\r\n[A]\r\n\r\nx=1|5\r\n\n\ns=1|6\r\n[B]\r\nb=2|IAAAAAAAAAQA";
	static const char lf[] = "[A]\nx=1|5\ns=1|6\n[B]\nb=2|IAAAAAAAAAQA\n";
	struct props *a = parse_ok(TEXT(crlf)), *b = parse_ok(TEXT(lf));
	size_t len = 0;
	char *out;

	ck_assert_int_eq(props_equal(a, b), 1);
	out = write_props(a, &len);
	ck_assert_uint_eq(len, sizeof(lf) - 1);
	ck_assert_mem_eq(out, lf, len);
	free(out);
	props_free(a);
	props_free(b);
}
END_TEST

/* Only "\r\n" ends a line: a '\r' at the very end stays on its line. */
START_TEST(test_cr_at_end_of_text_stays_on_the_line)
{
	struct errmsg err = { 0 };
	struct props *p = NULL;

	ck_assert_int_eq(props_parse(TEXT("[S]\nx=1|5\r"), "t.props", &p, &err),
			 -EINVAL);
	ck_assert_err_has(err, "t.props:2:6: bad decimal number: saw '5\\x0d'");
	p = parse_ok(TEXT("[S]\r"));
	ck_assert_str_eq(p->sets[0].name, "S");
	props_free(p);
}
END_TEST

START_TEST(test_no_set_is_an_error)
{
	static const char *const texts[] = { "", "\n\r\n\n" };
	struct errmsg err = { 0 };
	struct props *p = NULL;
	int i;

	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(props_parse(texts[i], strlen(texts[i]), "t.props",
					     &p, &err), -EINVAL);
		ck_assert_ptr_null(p);
		ck_assert_err_has(err, "t.props:1:1: no property set: saw ");
	}
	ck_assert_err_has(err, "only blank lines");
}
END_TEST

START_TEST(test_leading_zeros_and_limits)
{
	struct props *p = parse_ok(TEXT("[S]\na=1|007\nb=1|0\nc=1|0004294967295\n"));

	ck_assert_uint_eq(p->sets[0].props[0].u32, 7);
	ck_assert_uint_eq(p->sets[0].props[1].u32, 0);
	ck_assert_uint_eq(p->sets[0].props[2].u32, 4294967295u);
	props_free(p);
}
END_TEST

struct bad_case {
	const char *text;
	int ret;
	const char *msg[3];
};

static const struct bad_case bad_cases[] = {
	{ "a=1|2\n", -EINVAL,
	  { "t.props:1:1: property outside a set: saw 'a=1|2', expected a '[Set name]' line" } },
	{ "\n\nx=3|s\n[S]\n", -EINVAL, { "t.props:3:1: property outside a set" } },
	{ "[S]\nabc\n", -EINVAL,
	  { "t.props:2:1: missing '=' in property: saw 'abc', expected Name=Type|Value" } },
	{ "[S]\nab=1\n", -EINVAL,
	  { "t.props:2:4: missing '|' after the property type: saw '1', expected Type|Value" } },
	{ "[S]\nab=4|1\n", -EINVAL,
	  { "t.props:2:4: bad property type: saw '4', expected 1 (UINT32) or 2 (BYTE_ARRAY)" } },
	{ "[S]\nab=3|x\n", -EINVAL, { "t.props:2:4: bad property type: saw '3'" } },
	{ "[S]\nab=8|1\n", -EINVAL, { "t.props:2:4: bad property type: saw '8'" } },
	{ "[S]\nab=-1|1\n", -EINVAL, { "t.props:2:4: bad property type: saw '-1'" } },
	{ "[S]\nab=0x1|1\n", -EINVAL, { "t.props:2:4: bad property type: saw '0x1'" } },
	{ "[S]\nab=4294967299|1\n", -EINVAL, { "t.props:2:4: bad property type: saw '4294967299'" } },
	{ "[S]\nab=\n", -EINVAL, { "t.props:2:4: missing '|' after the property type" } },
	{ "[S]\nab=12|1\n", -EINVAL, { "t.props:2:4: bad property type: saw '12'" } },
	{ "[S]\nab=|1\n", -EINVAL, { "t.props:2:4: empty property type: saw '|1'" } },
	{ "[S]\nab=0|1\n", -EINVAL, { "t.props:2:4: bad property type: saw '0'" } },
	{ "[S]\nab=1|12x\n", -EINVAL,
	  { "t.props:2:8: bad decimal number: saw '12x', expected digits 0-9 only" } },
	{ "[S]\nab=1|-1\n", -EINVAL, { "t.props:2:6: bad decimal number: saw '-1'" } },
	{ "[S]\nab=1|+1\n", -EINVAL, { "t.props:2:6: bad decimal number: saw '+1'" } },
	{ "[S]\nab=1| 1\n", -EINVAL, { "t.props:2:6: bad decimal number: saw ' 1'" } },
	{ "[S]\nab=1|\n", -EINVAL,
	  { "t.props:2:6: empty property value: saw '1|', expected a value after '|'" } },
	{ "[S]\r\nab=2|IAAA*AAAAAQA\r\n", -EINVAL,
	  { "t.props:2:10: bad base64 character: saw '*', expected A-Z, a-z, 0-9, '+' or '/'" } },
	{ "[S]\nab=2|IAAAAAAAAAQA==\n", -EINVAL, { "t.props:2:18: bad base64 character: saw '='" } },
	{ "[S]\nab=2|IAAAAAAAAAQAA\n", -EINVAL,
	  { "t.props:2:6: truncated base64: saw 'IAAAAAAAAAQAA' (13 characters)" } },
	/* 9 bits claimed, one payload byte */
	{ "[S]\nab=2|JAAAAAAAAAQA\n", -EINVAL,
	  { "t.props:2:6: header bit count larger than the payload",
	    "saw 9 bits for 1 payload bytes, expected at most 8 bits" } },
	{ "[S]\nab=2|AAAA\n", -EINVAL,
	  { "t.props:2:6: byte array shorter than its bit-count header: saw 3 bytes, expected at least 8" } },
	{ "[S]\nab=2|\n", -EINVAL, { "t.props:2:6: empty property value" } },
	{ "[S\n", -EINVAL,
	  { "t.props:1:3: unterminated set name: saw '[S', expected ']' to close it" } },
	{ "[]\n", -EINVAL, { "t.props:1:2: empty set name" } },
	{ "[]x\n", -EINVAL, { "t.props:1:2: empty set name" } },
	{ "[x\n[]]\n", -EINVAL, { "t.props:1:3: unterminated set name" } },
	{ "[S]\n=1|2\n", -EINVAL, { "t.props:2:1: empty property name: saw '=1|2'" } },
	{ "[S]\nlong", -EINVAL, { "t.props:2:1: missing '='" } },
};

START_TEST(test_malformed_input)
{
	const struct bad_case *c = &bad_cases[_i];
	struct errmsg err = { 0 };
	struct props *p = (struct props *)&err;
	int i;

	ck_assert_int_eq(props_parse(c->text, strlen(c->text), "t.props", &p, &err),
			 c->ret);
	ck_assert_ptr_null(p);
	for (i = 0; i < 3 && c->msg[i]; i++)
		ck_assert_err_has(err, c->msg[i]);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
}
END_TEST

/* The first NUL ends the text: what follows it is not read at all. */
START_TEST(test_nul_byte_ends_the_text)
{
	static const char text[] = "[S]\na=1|5\0y\n[T]\nb=bad\n";
	static const char cut[] = "[S]\na=1|\0" "5\n";
	struct errmsg err = { 0 };
	struct props *p = parse_ok(text, sizeof(text) - 1);

	ck_assert_uint_eq(p->nsets, 1);
	ck_assert_uint_eq(p->sets[0].nprops, 1);
	ck_assert_uint_eq(p->sets[0].props[0].u32, 5);
	props_free(p);
	p = NULL;
	ck_assert_int_eq(props_parse(cut, sizeof(cut) - 1, "t.props", &p, &err),
			 -EINVAL);
	ck_assert_err_has(err, "t.props:2:5: empty property value");
}
END_TEST

START_TEST(test_long_text_is_cut_in_messages)
{
	char text[300];
	struct errmsg err = { 0 };
	struct props *p = NULL;

	memcpy(text, "[S]\n", 4);
	memset(text + 4, 'x', sizeof(text) - 4);
	ck_assert_int_eq(props_parse(text, sizeof(text), NULL, &p, &err), -EINVAL);
	ck_assert_err_has(err, "<input>:2:1: missing '='");
	ck_assert_err_has(err, "xxx...'");
	ck_assert_uint_lt(strlen(err.msg), sizeof(err.msg) - 1);
}
END_TEST

START_TEST(test_unprintable_text_is_escaped)
{
	struct errmsg err = { 0 };
	struct props *p = NULL;

	ck_assert_int_eq(props_parse(TEXT("[S]\na=\x01'\xff|1\n"), "t", &p, &err), -EINVAL);
	ck_assert_err_has(err, "saw '\\x01\\'\\xff'");
}
END_TEST

START_TEST(test_write_refuses_what_cannot_be_read_back)
{
	struct props *p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	static const char *const bad_names[] = { "a=b", "a\nb", "[x", "" };
	size_t i;

	for (i = 0; i < 4; i++) {
		p = props_new();
		props_add_u32(props_add_set(p, "S"), bad_names[i], 1);
		ck_assert_int_eq(props_write(p, f), -EINVAL);
		props_free(p);
	}
	p = props_new();
	props_add_string(props_add_set(p, "S"), "s", "one line");
	ck_assert_int_eq(props_write(p, f), -EINVAL);
	props_free(p);
	p = props_new();
	ck_assert_int_eq(props_write(p, f), -EINVAL);
	props_add_set(p, "S");
	props_add_set(p, "S");
	ck_assert_int_eq(props_write(p, f), -EINVAL);
	props_free(p);
	p = props_new();
	props_add_u32(props_add_set(p, "S"), "a", 1);
	props_add_u32(&p->sets[0], "a", 2);
	ck_assert_int_eq(props_write(p, f), -EINVAL);
	props_free(p);
	p = props_new();
	props_add_set(p, "a\nb");
	ck_assert_int_eq(props_write(p, f), -EINVAL);
	props_free(p);
	p = props_new();
	props_add_bytes(props_add_set(p, "S"), "b", "\1", 8);
	p->sets[0].props[0].size = 8;	/* header says 8 bits, no payload */
	ck_assert_int_eq(props_write(p, f), -EINVAL);
	props_free(p);
	fclose(f);
	ck_assert_uint_eq(len, 0);
	free(buf);
}
END_TEST

/* xorshift64*: a fixed seed makes every run see the same models. */
static uint64_t rng_state;

static uint32_t rng(uint32_t bound)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32) % bound;
}

static void random_name(char *out, size_t max, int first_may_bracket)
{
	static const char chars[] =
		"abcXYZ019_/.:- []|{}\"'\\\t\x7f\xc3\xa9";
	size_t len = 1 + rng((uint32_t)max - 1), i;

	for (i = 0; i < len; i++)
		out[i] = chars[rng(sizeof(chars) - 1)];
	if (!first_may_bracket && out[0] == '[')
		out[0] = '_';
	out[len] = '\0';
}

static void random_value(struct props_set *s, const char *name)
{
	unsigned char bytes[64];
	uint64_t nbits;
	uint32_t i;

	switch (rng(2)) {
	case 0:
		ck_assert_int_eq(props_add_u32(s, name, rng(4) ? rng(1000) :
					       (uint32_t)-1 - rng(3)), 0);
		break;
	case 1:
		nbits = rng(8 * sizeof(bytes) + 1);
		for (i = 0; i < sizeof(bytes); i++)
			bytes[i] = (unsigned char)rng(256);
		ck_assert_int_eq(props_add_bytes(s, name, bytes, nbits), 0);
		break;
	}
}

static struct props *random_props(void)
{
	struct props *p = props_new();
	struct props_set *s;
	uint32_t nsets = 1 + rng(5), nprops, i, j;
	char name[32];

	/* Names made unique: the reader merges repeated ones. */
	for (i = 0; i < nsets; i++) {
		random_name(name, 24, 1);
		snprintf(name + strlen(name), 3, "#%c", (char)('0' + i));
		s = props_add_set(p, name);
		ck_assert_ptr_nonnull(s);
		nprops = rng(9);
		for (j = 0; j < nprops; j++) {
			random_name(name, 24, 0);
			snprintf(name + strlen(name), 3, "#%c", (char)('0' + j));
			random_value(s, name);
		}
	}
	return p;
}

START_TEST(test_random_round_trip)
{
	struct props *p, *q;
	size_t len1 = 0, len2 = 0;
	char *t1, *t2;
	int iter;

	rng_state = 0x5eed0f5eed5ull;
	for (iter = 0; iter < 500; iter++) {
		p = random_props();
		t1 = write_props(p, &len1);
		q = parse_ok(t1, len1);
		ck_assert_msg(props_equal(p, q), "iteration %d differs", iter);
		t2 = write_props(q, &len2);
		ck_assert_uint_eq(len1, len2);
		ck_assert_mem_eq(t1, t2, len1);
		free(t1);
		free(t2);
		props_free(p);
		props_free(q);
	}
}
END_TEST

START_TEST(test_read_file)
{
	struct errmsg err = { 0 };
	struct props *p = NULL;

	ck_assert_int_eq(props_read_file(PROPS_FIXTURES "/spec-example.props", &p,
					 &err), 0);
	ck_assert_uint_eq(p->nsets, 2);
	ck_assert_str_eq(p->sets[1].name, PROPS_SET_SPEC_DEFAULTS);
	ck_assert_uint_eq(props_set_find(&p->sets[1], PROPS_SPEC_DEFAULTS_PROP)->size, 17);
	props_free(p);
}
END_TEST

START_TEST(test_read_missing_file)
{
	struct errmsg err = { 0 };
	struct props *p = (struct props *)&err;
	char want[256];

	ck_assert_int_eq(props_read_file("/nonexistent/dir/x.props", &p, &err),
			 -ENOENT);
	ck_assert_ptr_null(p);
	snprintf(want, sizeof(want), "/nonexistent/dir/x.props: cannot open: %s",
		 strerror(ENOENT));
	ck_assert_str_eq(err.msg, want);
}
END_TEST

START_TEST(test_read_directory_fails)
{
	struct errmsg err = { 0 };
	struct props *p = NULL;

	ck_assert_int_eq(props_read_file(PROPS_FIXTURES, &p, &err), -EISDIR);
	ck_assert_err_has(err, PROPS_FIXTURES ": cannot read: ");
	ck_assert_err_has(err, strerror(EISDIR));
}
END_TEST

START_TEST(test_error_location_names_file_read)
{
	struct errmsg err = { 0 };
	struct props *p = NULL;

	/* the .sym fixture is not .props text: its first line lacks '=' */
	ck_assert_int_eq(props_read_file(PROPS_FIXTURES "/kernels.sym", &p, &err),
			 -EINVAL);
	ck_assert_err_has(err, PROPS_FIXTURES "/kernels.sym:1:1: property outside a set");
}
END_TEST

/*
 * One set's text (an OffloadBinary string of devimg-wrap -form=blob):
 * each set of the canonical text, written without its line and read
 * back under its name, is the same set.
 */
START_TEST(test_set_text_round_trip)
{
	struct props *p = parse_ok(TEXT(canonical));
	struct errmsg err = { 0 };
	size_t i, len;

	for (i = 0; i < p->nsets; i++) {
		struct props one = { .sets = &p->sets[i], .nsets = 1 };
		struct props *back = NULL;
		char *buf = NULL;
		FILE *f = open_memstream(&buf, &len);

		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(props_write_set_text(&p->sets[i], f), 0);
		ck_assert_int_eq(fclose(f), 0);
		ck_assert(!len || (buf[0] != '[' && !strstr(buf, "\n[")));
		ck_assert_int_eq(props_parse_set_text(buf, len, "s", p->sets[i].name,
						      &back, &err), 0);
		ck_assert_int_eq(props_equal(&one, back), 1);
		props_free(back);
		free(buf);
	}
	props_free(p);
}
END_TEST

START_TEST(test_set_text_errors)
{
	struct errmsg err = { 0 };
	struct props *p = (struct props *)1;

	/* Empty: a set without properties. */
	ck_assert_int_eq(props_parse_set_text("", 0, "s", "SYCL/x", &p, &err),
			 0);
	ck_assert_uint_eq(p->nsets, 1);
	ck_assert_str_eq(p->sets[0].name, "SYCL/x");
	ck_assert_uint_eq(p->sets[0].nprops, 0);
	props_free(p);
	ck_assert_int_eq(props_parse_set_text(TEXT("a=1|1\n[S]\nb=1|2\n"),
					      "s", "SYCL/x", &p, &err),
			 -EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_err_has(err, "s:2:1: set line in the text of one set's properties");
	ck_assert_int_eq(props_parse_set_text(TEXT("a=3|1\n"), "s", "SYCL/x",
					      &p, &err), -EINVAL);
	ck_assert_err_has(err, "s:1:");
	p = props_new();
	props_add_u32(props_add_set(p, "S"), "a=b", 1);
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		ck_assert_int_eq(props_write_set_text(&p->sets[0], f), -EINVAL);
		fclose(f);
		ck_assert_uint_eq(len, 0);
		free(buf);
	}
	props_free(p);
}
END_TEST

static Suite *text_suite(void)
{
	Suite *s = suite_create("props-text");
	TCase *tc = tcase_create("text");

	tcase_add_test(tc, test_parse_canonical_model);
	tcase_add_test(tc, test_write_reproduces_canonical_text);
	tcase_add_test(tc, test_crlf_empty_lines_and_no_final_newline);
	tcase_add_test(tc, test_cr_at_end_of_text_stays_on_the_line);
	tcase_add_test(tc, test_no_set_is_an_error);
	tcase_add_test(tc, test_leading_zeros_and_limits);
	tcase_add_loop_test(tc, test_malformed_input, 0,
			    (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	tcase_add_test(tc, test_nul_byte_ends_the_text);
	tcase_add_test(tc, test_long_text_is_cut_in_messages);
	tcase_add_test(tc, test_unprintable_text_is_escaped);
	tcase_add_test(tc, test_write_refuses_what_cannot_be_read_back);
	tcase_add_test(tc, test_random_round_trip);
	tcase_add_test(tc, test_read_file);
	tcase_add_test(tc, test_read_missing_file);
	tcase_add_test(tc, test_read_directory_fails);
	tcase_add_test(tc, test_error_location_names_file_read);
	tcase_add_test(tc, test_set_text_round_trip);
	tcase_add_test(tc, test_set_text_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(text_suite());
}
