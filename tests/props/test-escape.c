// SPDX-License-Identifier: MIT
/*
 * esc_bytes() and the escaping printf: every byte value alone and in
 * UTF-8 sequences, the C1 controls, lines kept only where asked, inputs
 * far longer than the buffer, and every bound: the output is a prefix of
 * the whole text that ends between two escapes, and it decodes back to
 * the input (a backslash never reads as the start of an escape).
 */
#include <inttypes.h>
#include <stdio.h>

#include "util/escape.h"
#include "tests/props/testutil.h"

/* Undo the escapes; -1 on a backslash that starts none. */
static long unescape(const char *s, size_t n, unsigned char *out)
{
	size_t i = 0, o = 0;

	while (i < n) {
		if (s[i] != '\\') {
			out[o++] = (unsigned char)s[i++];
		} else if (i + 1 < n && s[i + 1] == '\\') {
			out[o++] = '\\';
			i += 2;
		} else if (i + 3 < n && s[i + 1] == 'x') {
			unsigned v;

			if (sscanf(s + i + 2, "%2x", &v) != 1)
				return -1;
			out[o++] = (unsigned char)v;
			i += 4;
		} else {
			return -1;
		}
	}
	return (long)o;
}

/* No byte a terminal acts on: C0, DEL, C1 (raw or in UTF-8), bad UTF-8. */
static void assert_inert(const char *s, size_t n, int lines)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, len;

	while (i < n) {
		if (p[i] < 0x80) {
			ck_assert_msg((p[i] >= 0x20 && p[i] != 0x7f) ||
				      (lines && (p[i] == '\n' || p[i] == '\t')),
				      "raw byte 0x%02x at %zu", p[i], i);
			i++;
			continue;
		}
		len = utf8_seq_len(p + i, n - i);
		ck_assert_msg(len > 0, "bad UTF-8 at %zu", i);
		ck_assert_msg(!(p[i] == 0xc2 && p[i + 1] < 0xa0),
			      "C1 control at %zu", i);
		i += len;
	}
}

static void check_one_byte(unsigned c, unsigned flags, const char *want)
{
	char in[1] = { (char)c }, out[16];
	size_t n = esc_bytes(out, sizeof(out), in, 1, flags);

	ck_assert_msg(n == strlen(want) && !strcmp(out, want),
		      "byte 0x%02x flags %u: '%s', expected '%s'", c, flags,
		      out, want);
}

START_TEST(test_every_byte_alone)
{
	char want[8];
	unsigned c;

	for (c = 0; c < 256; c++) {
		if (c == '\\')
			strcpy(want, "\\\\");
		else if (c < 0x20 || c >= 0x7f)
			snprintf(want, sizeof(want), "\\x%02x", c);
		else
			snprintf(want, sizeof(want), "%c", c);
		check_one_byte(c, 0, want);
		if (c == '\n' || c == '\t')
			snprintf(want, sizeof(want), "%c", c);
		check_one_byte(c, ESC_LINES, want);
	}
	check_one_byte(0x1b, 0, "\\x1b");
	check_one_byte('\r', ESC_LINES, "\\x0d");
}
END_TEST

/* Every second byte after each lead byte: what stays, what is escaped. */
START_TEST(test_every_pair)
{
	unsigned a, b;

	for (a = 0; a < 256; a++) {
		for (b = 0; b < 256; b++) {
			unsigned char in[2] = { (unsigned char)a,
						(unsigned char)b };
			unsigned char back[8];
			char out[32];
			size_t n;
			long m;

			n = esc_bytes(out, sizeof(out), (const char *)in, 2,
				      0);
			ck_assert_uint_eq(n, strlen(out));
			assert_inert(out, n, 0);
			m = unescape(out, n, back);
			ck_assert_msg(m == 2 && !memcmp(back, in, 2),
				      "%02x %02x -> '%s' does not decode", a,
				      b, out);
			if (a == 0xc2 && b >= 0x80 && b < 0xa0)
				ck_assert_msg(n == 8 &&
					      !strncmp(out, "\\xc2\\x", 6),
					      "C1 %02x kept: '%s'", b, out);
			else if (a >= 0xc2 && a <= 0xdf && b >= 0x80 &&
				 b <= 0xbf)
				ck_assert_msg(n == 2, "%02x %02x escaped", a,
					      b);
		}
	}
}
END_TEST

START_TEST(test_utf8)
{
	static const struct {
		const char *s;
		size_t len;
	} cases[] = {
		{ "a", 1 }, { "\xc3\xa9", 2 }, { "\xe2\x82\xac", 3 },
		{ "\xf0\x9f\x98\x80", 4 }, { "\xf4\x8f\xbf\xbf", 4 },
		{ "\xc0\x80", 0 },		/* overlong NUL */
		{ "\xc1\xbf", 0 }, { "\xe0\x80\x80", 0 },
		{ "\xed\xa0\x80", 0 },		/* surrogate */
		{ "\xf0\x80\x80\x80", 0 }, { "\xf4\x90\x80\x80", 0 },
		{ "\xf5\x80\x80\x80", 0 }, { "\x80", 0 }, { "\xc3", 0 },
		{ "\xe2\x82", 0 }, { "\xe2\x28\xa1", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(utf8_seq_len((const unsigned char *)cases[i].s,
					   strlen(cases[i].s)) ==
				      cases[i].len,
			      "case %zu", i);
	/* The sequence must fit the length given. */
	ck_assert_uint_eq(utf8_seq_len((const unsigned char *)"\xc3\xa9", 1),
			  0);
	ck_assert_uint_eq(utf8_seq_len((const unsigned char *)"", 0), 0);
}
END_TEST

/* A text of every byte value, many times over, with UTF-8 in between. */
static size_t mixed(char *buf, size_t n)
{
	static const char *const pieces[] = {
		"\x1b[2J", "\nFAIL", "\\x1b", "\xc2\x9b", "\xe2\x82\xac",
		"\xf0\x9f\x98\x80", "name", "\xff",
	};
	size_t i = 0, k = 0;

	while (i < n) {
		const char *p = pieces[k % 8];
		size_t l = strlen(p);

		if (k % 3 == 0) {
			buf[i++] = (char)(k / 3 % 256);
		} else {
			if (l > n - i)
				l = n - i;
			memcpy(buf + i, p, l);
			i += l;
		}
		k++;
	}
	return n;
}

/*
 * Escape the first len bytes of in into buffers of every size up to dense,
 * then of sizes sampled every step bytes to the whole length: never more
 * than the bound, never less than one unit short of it, a prefix of the
 * whole text that ends between two escapes and unescapes cleanly.
 */
static void check_bounds(const char *in, size_t len, const char *full,
			 size_t n, size_t dense, size_t step)
{
	unsigned char *back = malloc(len);
	char *out = malloc(n + 1);
	size_t size, got;

	ck_assert(out && back);
	for (size = 1; size <= n + 1; size += size < dense ? 1 : step) {
		ck_assert_uint_eq(esc_bytes(out, size, in, len, 0), n);
		got = strlen(out);
		ck_assert_uint_lt(got, size);
		/* The longest unit, a C1 control, is 8 bytes. */
		ck_assert_msg(got + 8 >= size || got == n,
			      "bound %zu: only %zu written", size, got);
		ck_assert(!memcmp(out, full, got));
		ck_assert_msg(esc_cut(full, got) == got,
			      "bound %zu: cut inside an escape at %zu", size,
			      got);
		ck_assert_int_ge(unescape(out, got, back), 0);
	}
	free(out);
	free(back);
}

START_TEST(test_long_and_every_bound)
{
	enum { N = 100000, SHORT = 6000 };
	char *in = malloc(N), *full = malloc(8 * N + 1);
	char *part = malloc(8 * SHORT + 1);
	unsigned char *back = malloc(N);
	size_t n, np;

	ck_assert(in && full && part && back);
	mixed(in, N);
	n = esc_bytes(full, 8 * N + 1, in, N, 0);
	ck_assert_uint_eq(n, strlen(full));
	assert_inert(full, n, 0);
	ck_assert_int_eq(unescape(full, n, back), N);
	ck_assert(!memcmp(back, in, N));
	ck_assert_ptr_null(memchr(full, '\x1b', n));
	ck_assert_ptr_null(memchr(full, '\n', n));

	/* Every bound on a prefix, a sample of bounds on the whole. */
	np = esc_bytes(part, 8 * SHORT + 1, in, SHORT, 0);
	check_bounds(in, SHORT, part, np, 4096, 4093);
	check_bounds(in, N, full, n, 0, 65521);
	/* A size of 0 writes nothing and still counts. */
	ck_assert_uint_eq(esc_bytes(NULL, 0, in, N, 0), n);
	free(in);
	free(full);
	free(part);
	free(back);
}
END_TEST

START_TEST(test_escaped_cut)
{
	ck_assert_uint_eq(esc_cut("ab\\x1bc", 3), 2);
	ck_assert_uint_eq(esc_cut("ab\\x1bc", 5), 2);
	ck_assert_uint_eq(esc_cut("ab\\x1bc", 6), 6);
	ck_assert_uint_eq(esc_cut("ab\\\\c", 3), 2);
	ck_assert_uint_eq(esc_cut("ab\\\\c", 4), 4);
	ck_assert_uint_eq(esc_cut("a\xe2\x82\xac", 3), 1);
	ck_assert_uint_eq(esc_cut("a\xe2\x82\xac", 4), 4);
	ck_assert_uint_eq(esc_cut("abc", 10), 3);
}
END_TEST

START_TEST(test_format)
{
	const char *name = "k\x1b[2J\nFAIL", *log = "line 1\n\x1b]0;x\x07\tline 2";
	char buf[256];
	size_t n;

	n = esc_snprintf(buf, sizeof(buf), NULL,
			 "kernel '%s' on %s: %d %zu %u %#x %02x %c%c %%",
			 name, "dev\\ice", -3, (size_t)7, 8u, 255u, 1u,
			 'A', '\x1b');
	ck_assert_str_eq(buf, "kernel 'k\\x1b[2J\\x0aFAIL' on dev\\\\ice: -3 7 8 0xff 01 A\\x1b %");
	ck_assert_uint_eq(n, strlen(buf));
	/* Width in escaped bytes, precision in input bytes, stars. */
	esc_snprintf(buf, sizeof(buf), NULL, "[%-8s|%8s|%.2s|%.*s|%*d]",
		     "\x01", "ab", "\x1b\x1b\x1b", 1, "\nx", -4, 5);
	ck_assert_str_eq(buf, "[\\x01    |      ab|\\x1b\\x1b|\\x0a|5   ]");
	esc_snprintf(buf, sizeof(buf), NULL, "%c|%llu|%" PRIu64, 0,
		     1ULL << 40, UINT64_MAX);
	ck_assert_str_eq(buf, "\\x00|1099511627776|18446744073709551615");
	/* The lines argument keeps its newlines and tab, no other does. */
	esc_snprintf(buf, sizeof(buf), log, "%s: %s", name, log);
	ck_assert_str_eq(buf, "k\\x1b[2J\\x0aFAIL: line 1\n\\x1b]0;x\\x07\tline 2");
	/* The format's own newline stays. */
	esc_snprintf(buf, sizeof(buf), NULL, "a\n%s\n", "b");
	ck_assert_str_eq(buf, "a\nb\n");
	/* Bounded: cut between escapes, whole length returned. */
	n = esc_snprintf(buf, 7, NULL, "ab%s", "\x1b\x1b");
	ck_assert_uint_eq(n, 10);
	ck_assert_str_eq(buf, "ab\\x1b");
	n = esc_snprintf(buf, 6, NULL, "ab%s", "\x1b\x1b");
	ck_assert_str_eq(buf, "ab");
}
END_TEST

START_TEST(test_stream)
{
	FILE *f = tmpfile();
	char buf[128];
	size_t n;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(esc_fprintf(f, NULL, "%s=%u\n", "\x1b[2J\nFAIL",
				     4u), 18);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	ck_assert_str_eq(buf, "\\x1b[2J\\x0aFAIL=4\n");
	fclose(f);
}
END_TEST

static Suite *escape_suite(void)
{
	Suite *s = suite_create("props-escape");
	TCase *tc = tcase_create("escape");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_every_byte_alone);
	tcase_add_test(tc, test_every_pair);
	tcase_add_test(tc, test_utf8);
	tcase_add_test(tc, test_long_and_every_bound);
	tcase_add_test(tc, test_escaped_cut);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_stream);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(escape_suite());
}
