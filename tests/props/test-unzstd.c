// SPDX-License-Identifier: MIT
/*
 * The one zstd expander (props/unzstd.c) at its edges. Frames come from
 * libzstd itself, or are frame headers written here field by field as
 * RFC 8878 section 3.1.1 lays them out: the magic 28 b5 2f fd, the frame
 * header descriptor (bits 7-6: Frame_Content_Size_Flag, bit 5:
 * Single_Segment_Flag), a window descriptor when not single-segment,
 * Frame_Content_Size, then blocks (3-byte header: Last_Block, type,
 * size << 3).
 */
#include <zstd.h>

#include "util/devimg_limits.h"
#include "tests/props/testutil.h"
#include "props/unzstd.h"
#include "util/le.h"

static unsigned char src[3000];

/* src compressed by libzstd in one call (the content size recorded). */
static unsigned char *frame_of_src(size_t *n)
{
	size_t cap = ZSTD_compressBound(sizeof(src));
	unsigned char *dst = malloc(cap);
	size_t i;

	ck_assert_ptr_nonnull(dst);
	for (i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(i * 7 / 13);
	*n = ZSTD_compress(dst, cap, src, sizeof(src), 3);
	ck_assert(!ZSTD_isError(*n));
	return dst;
}

/* Magic, FHD 0xe0 (8-byte content size, single segment), the size. */
static size_t header_with_size(unsigned char *p, uint64_t size)
{
	static const unsigned char magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

	memcpy(p, magic, 4);
	p[4] = 0xe0;
	put_le64(p + 5, size);
	/* One last raw block of no bytes. */
	p[13] = 0x01;
	p[14] = 0x00;
	p[15] = 0x00;
	return 16;
}

START_TEST(test_expands_after_head)
{
	struct props_unzstd z = { .head = 8, .want = PROPS_UNZSTD_ANY };
	unsigned char *f;
	uint64_t size;
	size_t n;

	f = frame_of_src(&n);
	ck_assert_int_eq(props_unzstd_size(f, n, &size), PROPS_UNZSTD_OK);
	ck_assert_uint_eq(size, sizeof(src));
	ck_assert_int_eq(props_unzstd(f, n, &z), PROPS_UNZSTD_OK);
	ck_assert_uint_eq(z.declared, sizeof(src));
	ck_assert_uint_eq(z.size, sizeof(src));
	ck_assert_mem_eq(z.buf + 8, src, sizeof(src));
	ck_assert_uint_eq(z.buf[8 + sizeof(src)], 0);
	free(z.buf);
	/* The exact size asked for. */
	z.want = sizeof(src);
	ck_assert_int_eq(props_unzstd(f, n, &z), PROPS_UNZSTD_OK);
	free(z.buf);
	free(f);
}
END_TEST

START_TEST(test_truncated_frame)
{
	struct props_unzstd z = { .head = 0, .want = PROPS_UNZSTD_ANY };
	unsigned char *f;
	size_t n;

	f = frame_of_src(&n);
	/* The header is whole, the last block is not. */
	ck_assert_int_eq(props_unzstd(f, n - 3, &z), PROPS_UNZSTD_CORRUPT);
	ck_assert_ptr_null(z.buf);
	ck_assert_ptr_nonnull(z.detail);
	ck_assert_uint_eq(z.declared, sizeof(src));
	/* Not even a header. */
	ck_assert_int_eq(props_unzstd(f, 3, &z), PROPS_UNZSTD_NOT_FRAME);
	ck_assert_ptr_null(z.buf);
	free(f);
}
END_TEST

START_TEST(test_size_above_limit)
{
	struct props_unzstd z = { .head = 0, .want = PROPS_UNZSTD_ANY };
	unsigned char h[16];
	uint64_t size = 0;
	size_t n;

	n = header_with_size(h, DEVIMG_LIMIT_DECOMPRESSED + 1);
	ck_assert_int_eq(props_unzstd_size(h, n, &size), PROPS_UNZSTD_TOO_BIG);
	ck_assert_uint_eq(size, 0);
	ck_assert_int_eq(props_unzstd(h, n, &z), PROPS_UNZSTD_TOO_BIG);
	ck_assert_ptr_null(z.buf);
	ck_assert_uint_eq(z.declared, DEVIMG_LIMIT_DECOMPRESSED + 1);
}
END_TEST

/*
 * At most DEVIMG_LIMIT_DECOMPRESSED, and at most 1032 times the frame's
 * bytes: each limit at its value and one past it (only the header is
 * read: the frame's other bytes are its claimed length).
 */
START_TEST(test_size_limits)
{
	size_t big = (size_t)(DEVIMG_LIMIT_DECOMPRESSED /
			      DEVIMG_LIMIT_DECOMPRESS_RATIO) + 1;
	unsigned char *h = calloc(1, big);
	uint64_t size = 0;

	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(props_unzstd_limit(big), DEVIMG_LIMIT_DECOMPRESSED);
	header_with_size(h, DEVIMG_LIMIT_DECOMPRESSED);
	ck_assert_int_eq(props_unzstd_size(h, big, &size), PROPS_UNZSTD_OK);
	ck_assert_uint_eq(size, DEVIMG_LIMIT_DECOMPRESSED);
	header_with_size(h, DEVIMG_LIMIT_DECOMPRESSED + 1);
	ck_assert_int_eq(props_unzstd_size(h, big, &size), PROPS_UNZSTD_TOO_BIG);
	/* 32 KB declaring 1 GiB (RLE blocks do it): refused. */
	ck_assert_uint_eq(props_unzstd_limit(32768), 32768u * 1032u);
	header_with_size(h, 32768u * 1032u);
	ck_assert_int_eq(props_unzstd_size(h, 32768, &size), PROPS_UNZSTD_OK);
	header_with_size(h, 32768u * 1032u + 1);
	ck_assert_int_eq(props_unzstd_size(h, 32768, &size), PROPS_UNZSTD_TOO_BIG);
	header_with_size(h, (uint64_t)1 << 30);
	ck_assert_int_eq(props_unzstd_size(h, 32768, &size), PROPS_UNZSTD_TOO_BIG);
	free(h);
}
END_TEST

START_TEST(test_unknown_content_size)
{
	/* FHD 0: no content size, not single segment; window descriptor 0. */
	static const unsigned char f[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00,
					   0x01, 0x00, 0x00 };
	struct props_unzstd z = { .head = 0, .want = PROPS_UNZSTD_ANY };
	uint64_t size;

	ck_assert_uint_eq(ZSTD_getFrameContentSize(f, sizeof(f)),
			  ZSTD_CONTENTSIZE_UNKNOWN);
	ck_assert_int_eq(props_unzstd_size(f, sizeof(f), &size),
			 PROPS_UNZSTD_NO_SIZE);
	ck_assert_int_eq(props_unzstd(f, sizeof(f), &z), PROPS_UNZSTD_NO_SIZE);
	ck_assert_ptr_null(z.buf);
}
END_TEST

START_TEST(test_other_size_than_wanted)
{
	struct props_unzstd z = { .head = 0, .want = sizeof(src) - 1 };
	unsigned char *f;
	size_t n;

	f = frame_of_src(&n);
	ck_assert_int_eq(props_unzstd(f, n, &z), PROPS_UNZSTD_OTHER_SIZE);
	ck_assert_ptr_null(z.buf);
	free(f);
}
END_TEST

START_TEST(test_recorded_size_not_filled)
{
	/* FHD 0x20: single segment, 1-byte content size 10; 5 raw bytes. */
	static const unsigned char f[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x20, 10,
					   0x29, 0x00, 0x00, 'a', 'b', 'c',
					   'd', 'e' };
	struct props_unzstd z = { .head = 0, .want = PROPS_UNZSTD_ANY };
	int r = props_unzstd(f, sizeof(f), &z);

	ck_assert(r == PROPS_UNZSTD_CORRUPT || r == PROPS_UNZSTD_SHORT);
	ck_assert_ptr_null(z.buf);
	ck_assert_uint_eq(z.declared, 10);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		test_expands_after_head, test_truncated_frame,
		test_size_above_limit, test_size_limits,
		test_unknown_content_size,
		test_other_size_than_wanted, test_recorded_size_not_filled,
	};
	Suite *s = suite_create("props-unzstd");
	TCase *tc = tcase_create("unzstd");
	size_t i;

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
