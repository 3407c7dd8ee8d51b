// SPDX-License-Identifier: MIT
/*
 * The OffloadBinary reader and writer: blobs laid out by hand as LLVM's
 * writer lays them out (version 1 as clang 15 to 19 write it, version 2
 * and 3 with several entries), the writer's output read back, several
 * blobs in one section, and every kind of bad input refused with a line
 * naming the field.
 */
#include <errno.h>

#include "offload-binary.h"
#include "../props/testutil.h"

/* Version 1, one entry: "triple" and "arch", an 8-byte image. */
static size_t make_v1(unsigned char *b)
{
	static const char strtab[] = "\0triple\0nvptx64-nvidia-cuda\0arch\0sm_70";
	size_t st = 32 + 40 + 2 * 16, img;

	memset(b, 0, 256);
	memcpy(b, "\x10\xff\x10\xad", 4);
	put_le32(b + 4, 1);
	put_le64(b + 16, 32);	/* EntryOffset */
	put_le64(b + 24, 40);	/* EntrySize in version 1 */
	b[32] = 5;		/* PTX */
	b[34] = 2;		/* CUDA */
	put_le64(b + 32 + 8, 72);	/* string entries */
	put_le64(b + 32 + 16, 2);
	memcpy(b + st, strtab, sizeof(strtab));
	img = (st + sizeof(strtab) + 7) / 8 * 8;
	put_le64(b + 32 + 24, img);
	put_le64(b + 32 + 32, 8);
	put_le64(b + 72, st + 1);	/* triple */
	put_le64(b + 80, st + 8);
	put_le64(b + 88, st + 28);	/* arch */
	put_le64(b + 96, st + 33);
	memcpy(b + img, "PTXIMAGE", 8);
	put_le64(b + 8, img + 8);
	return img + 8;
}

START_TEST(test_v1_by_hand)
{
	unsigned char b[256];
	size_t n = make_v1(b), len;
	struct offload_binary *ob;
	struct props_error err = { "" };
	const struct offload_entry *e;

	ck_assert_int_eq(offload_binary_parse(b, n, "v1", &ob, &err), 0);
	ck_assert_uint_eq(ob->version, 1);
	ck_assert_uint_eq(ob->size, n);
	ck_assert_uint_eq(ob->nentries, 1);
	e = &ob->entries[0];
	ck_assert_uint_eq(e->image_kind, OFFLOAD_IMAGE_PTX);
	ck_assert_uint_eq(e->offload_kind, OFFLOAD_KIND_CUDA);
	ck_assert_uint_eq(e->image_size, 8);
	ck_assert(!memcmp(e->image, "PTXIMAGE", 8));
	ck_assert_str_eq(offload_entry_string(e, "triple", &len),
			 "nvptx64-nvidia-cuda");
	ck_assert_uint_eq(len, 19);
	ck_assert_str_eq(offload_entry_string(e, "arch", NULL), "sm_70");
	ck_assert_ptr_null(offload_entry_string(e, "symbols", NULL));
	ck_assert_str_eq(offload_image_kind_name(e->image_kind), "s");
	ck_assert_str_eq(offload_kind_name(e->offload_kind), "cuda");
	offload_binary_free(ob);
}
END_TEST

/* Version 3 as LLVM writes it now: two entries, 24-byte string entries. */
START_TEST(test_v3_by_hand)
{
	unsigned char b[512] = { 0 };
	struct offload_binary *ob;
	struct props_error err = { "" };
	static const char strtab[] = "\0triple\0spir64\0arch\0\0k\0a\0b";
	size_t st = 40 + 2 * 40 + 3 * 24, img, i;

	memcpy(b, "\x10\xff\x10\xad", 4);
	put_le32(b + 4, 3);
	put_le64(b + 16, 40);
	put_le64(b + 24, 2);
	memcpy(b + st, strtab, sizeof(strtab));
	img = (st + sizeof(strtab) + 7) / 8 * 8;
	/* entry 0: SPIR-V for SYCL, triple + arch "" */
	b[40] = 6;
	b[42] = 8;
	put_le64(b + 48, 120);
	put_le64(b + 56, 2);
	put_le64(b + 64, img);
	put_le64(b + 72, 4);
	/* entry 1: metadata only, one string "k" = "a\0b" (3 bytes) */
	b[80] = 0;
	b[82] = 1;
	put_le32(b + 84, OFFLOAD_FLAG_METADATA);
	put_le64(b + 88, 120 + 48);
	put_le64(b + 96, 1);
	put_le64(b + 104, img + 4);
	put_le64(b + 112, 0);
	put_le64(b + 120, st + 1);
	put_le64(b + 128, st + 8);
	put_le64(b + 136, 6);
	put_le64(b + 144, st + 15);
	put_le64(b + 152, st + 20);
	put_le64(b + 160, 0);
	put_le64(b + 168, st + 21);
	put_le64(b + 176, st + 23);
	put_le64(b + 184, 3);
	memcpy(b + img, "\x03\x02\x23\x07", 4);
	i = (img + 4 + 7) / 8 * 8;
	put_le64(b + 8, i);

	ck_assert_int_eq(offload_binary_parse(b, i, "v3", &ob, &err), 0);
	ck_assert_uint_eq(ob->version, 3);
	ck_assert_uint_eq(ob->nentries, 2);
	ck_assert_uint_eq(ob->entries[0].image_kind, OFFLOAD_IMAGE_SPIRV);
	ck_assert_uint_eq(ob->entries[0].offload_kind, OFFLOAD_KIND_SYCL);
	ck_assert_str_eq(offload_entry_string(&ob->entries[0], "triple", NULL),
			 "spir64");
	ck_assert_str_eq(offload_entry_string(&ob->entries[0], "arch", NULL), "");
	ck_assert(!memcmp(ob->entries[0].image, "\x03\x02\x23\x07", 4));
	ck_assert_uint_eq(ob->entries[1].flags, OFFLOAD_FLAG_METADATA);
	ck_assert_uint_eq(ob->entries[1].image_size, 0);
	ck_assert_uint_eq(ob->entries[1].strings[0].value_len, 3);
	ck_assert(!memcmp(ob->entries[1].strings[0].value, "a\0b", 4));
	offload_binary_free(ob);
}
END_TEST

static const struct offload_string strs_a[] = {
	{ "triple", "spir64-unknown-unknown", 22 },
	{ "arch", "", 0 },
	{ "symbols", "k1\0k2", 5 },
};
static const struct offload_string strs_b[] = {
	{ "triple", "nvptx64-nvidia-cuda", 19 },
	{ "arch", "sm_80", 5 },
};

START_TEST(test_write_read_back)
{
	struct offload_image_in in[2] = {
		{ OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL, 0, "\x03\x02\x23\x07zz",
		  6, strs_a, 3 },
		{ OFFLOAD_IMAGE_CUBIN, OFFLOAD_KIND_SYCL, 0, "\x7f" "ELF", 4,
		  strs_b, 2 },
	};
	unsigned version = (unsigned)_i + 2;
	struct props_error err = { "" };
	struct offload_binary *ob;
	unsigned char *b;
	size_t n, i, j;

	ck_assert_int_eq(offload_binary_write(in, 2, version, &b, &n, &err), 0);
	ck_assert_uint_eq(n % 8, 0);
	ck_assert_uint_eq(b[4], version);
	ck_assert_int_eq(offload_binary_parse(b, n, "w", &ob, &err), 0);
	ck_assert_uint_eq(ob->size, n);
	ck_assert_uint_eq(ob->nentries, 2);
	for (i = 0; i < 2; i++) {
		const struct offload_entry *e = &ob->entries[i];

		ck_assert_uint_eq(e->image_kind, in[i].image_kind);
		ck_assert_uint_eq(e->offload_kind, in[i].offload_kind);
		ck_assert_uint_eq(e->image_size, in[i].image_size);
		ck_assert(!memcmp(e->image, in[i].image, e->image_size));
		ck_assert_uint_eq(e->nstrings, in[i].nstrings);
		for (j = 0; j < e->nstrings; j++) {
			ck_assert_str_eq(e->strings[j].key, in[i].strings[j].key);
			ck_assert_uint_eq(e->strings[j].value_len,
					  in[i].strings[j].value_len);
			ck_assert(!memcmp(e->strings[j].value,
					  in[i].strings[j].value,
					  e->strings[j].value_len));
		}
	}
	/* The first image starts 8-aligned after the string table. */
	ck_assert_uint_eq((size_t)(ob->entries[0].image - b) % 8, 0);
	offload_binary_free(ob);
	free(b);
}
END_TEST

/*
 * The writer's version 1 is the hand-made one byte for byte (strings in
 * the table in the order the entry names them).
 */
START_TEST(test_write_v1_matches_llvm_layout)
{
	static const struct offload_string s[] = {
		{ "triple", "nvptx64-nvidia-cuda", 19 },
		{ "arch", "sm_70", 5 },
	};
	struct offload_image_in in = { OFFLOAD_IMAGE_PTX, OFFLOAD_KIND_CUDA, 0,
				       "PTXIMAGE", 8, s, 2 };
	unsigned char want[256], *b;
	struct props_error err = { "" };
	size_t wn = make_v1(want), n;

	ck_assert_int_eq(offload_binary_write(&in, 1, 1, &b, &n, &err), 0);
	ck_assert_uint_eq(n, wn);
	ck_assert(!memcmp(b, want, n));
	free(b);
}
END_TEST

/* Two blobs in one section, the second 8-aligned after the first. */
START_TEST(test_section_walk)
{
	unsigned char sec[512] = { 0 };
	struct props_error err = { "" };
	struct offload_binary *ob;
	size_t n = make_v1(sec), off = 0, seen = 0;

	ck_assert_uint_eq(n % 8, 0);
	memcpy(sec + n, sec, n);
	while (off < 2 * n) {
		ck_assert_int_eq(offload_binary_parse_at(sec, 2 * n, &off, "sec",
							 &ob, &err), 0);
		ck_assert_uint_eq(ob->entries[0].image_kind, OFFLOAD_IMAGE_PTX);
		offload_binary_free(ob);
		seen++;
	}
	ck_assert_uint_eq(seen, 2);
	ck_assert_uint_eq(off, 2 * n);
}
END_TEST

/* Every prefix shorter than Size is refused, and nothing leaks. */
START_TEST(test_truncated)
{
	unsigned char b[256];
	size_t n = make_v1(b), i;
	struct props_error err;
	struct offload_binary *ob;

	for (i = 0; i < n; i++) {
		memset(&err, 0, sizeof(err));
		ck_assert_int_eq(offload_binary_parse(b, i, "t.bin", &ob, &err),
				 -EINVAL);
		ck_assert_ptr_null(ob);
		ck_assert_err_has(err, "t.bin");
	}
}
END_TEST

static void expect_bad(unsigned char *b, size_t n, const char *what)
{
	struct props_error err = { "" };
	struct offload_binary *ob = (void *)1;

	ck_assert_int_eq(offload_binary_parse(b, n, "bad.bin", &ob, &err),
			 -EINVAL);
	ck_assert_ptr_null(ob);
	ck_assert_err_has(err, "bad.bin");
	ck_assert_err_has(err, what);
}

START_TEST(test_bad_fields)
{
	unsigned char b[256], c[256];
	size_t n = make_v1(b);

	memcpy(c, b, n);
	c[0] = 0x11;
	expect_bad(c, n, "magic");
	memcpy(c, b, n);
	put_le32(c + 4, 0);
	expect_bad(c, n, "version 0");
	put_le32(c + 4, 4);
	expect_bad(c, n, "version 4");
	memcpy(c, b, n);
	put_le64(c + 8, n + 8);
	expect_bad(c, n, "Size");
	memcpy(c, b, n);
	put_le64(c + 16, n - 8);
	expect_bad(c, n, "EntriesOffset");
	memcpy(c, b, n);
	put_le64(c + 16, UINT64_MAX - 7);
	expect_bad(c, n, "EntriesOffset");
	memcpy(c, b, n);
	put_le64(c + 32 + 24, n - 4);		/* image offset + 8 > Size */
	expect_bad(c, n, "image");
	memcpy(c, b, n);
	put_le64(c + 32 + 32, UINT64_MAX);	/* image size wraps */
	expect_bad(c, n, "image");
	memcpy(c, b, n);
	put_le64(c + 32 + 16, UINT64_MAX / 8);	/* string count */
	expect_bad(c, n, "string map");
	memcpy(c, b, n);
	put_le64(c + 72, n);			/* key offset */
	expect_bad(c, n, "key offset");
	memcpy(c, b, n);
	put_le64(c + 80, n + 100);		/* value offset */
	expect_bad(c, n, "value offset");
	memcpy(c, b, n);
	put_le64(c + 88, n - 4);		/* key without NUL: "AGE" */
	expect_bad(c, n, "no NUL");
	/* version 2 reads a count there */
	memcpy(c, b, n);
	put_le32(c + 4, 2);
	put_le64(c + 24, 0);
	expect_bad(c, n, "EntriesCount is 0");
	put_le64(c + 24, 1u << 30);
	expect_bad(c, n, "EntriesOffset");
}
END_TEST

START_TEST(test_compressed_corrupt)
{
	struct offload_image_in in = { OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL,
				       0, "abcd", 4, NULL, 0 };
	struct props_error err = { "" };
	struct offload_binary *ob;
	unsigned char *b;
	size_t n;

	ck_assert_int_eq(offload_binary_write(&in, 1, 3, &b, &n, &err), 0);
	/* not zstd (no magic), and no zlib stream either */
	put_le64(b + 32, n + 100);
	ck_assert_int_eq(offload_binary_parse(b, n, "z.bin", &ob, &err),
			 -EINVAL);
	ck_assert_err_has(err, "z.bin: compressed OffloadBinary");
	ck_assert_ptr_null(ob);
	/* more than zlib data of this size can hold: nothing allocated */
	put_le64(b + 32, (uint64_t)1 << 33);
	ck_assert_int_eq(offload_binary_parse(b, n, "z.bin", &ob, &err),
			 -EINVAL);
	ck_assert_err_has(err, "too short to inflate");
	/* InflatedSize below EntriesOffset */
	put_le64(b + 32, 8);
	ck_assert_int_eq(offload_binary_parse(b, n, "z.bin", &ob, &err),
			 -EINVAL);
	ck_assert_err_has(err, "InflatedSize 8");
	free(b);
}
END_TEST

/*
 * A zstd frame that does not declare its content size, under a huge
 * InflatedSize: refused before anything is allocated for it (a fuzzer
 * found the 4 GiB allocation), or -EOPNOTSUPP without libzstd.
 */
START_TEST(test_compressed_unknown_size)
{
	static const unsigned char frame[8] = {
		0x28, 0xb5, 0x2f, 0xfd,	/* magic */
		0x00,			/* no content size, not single-segment */
		0x58,			/* window descriptor */
		0x01, 0x00,		/* the start of a block header */
	};
	struct offload_image_in in = { OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL,
				       0, "abcd", 4, NULL, 0 };
	struct props_error err = { "" };
	struct offload_binary *ob;
	unsigned char *b;
	size_t n;
	int r;

	ck_assert_int_eq(offload_binary_write(&in, 1, 3, &b, &n, &err), 0);
	ck_assert_uint_ge(n, 48);
	memcpy(b + 40, frame, sizeof(frame));
	put_le64(b + 8, 48);
	put_le64(b + 32, (uint64_t)1 << 32);
	r = offload_binary_parse(b, 48, "u.bin", &ob, &err);
	ck_assert_msg(r == -EINVAL || r == -EOPNOTSUPP, "%d", r);
	if (r == -EINVAL)
		ck_assert_err_has(err, "without its content size");
	free(b);
}
END_TEST

START_TEST(test_writer_refuses)
{
	struct offload_image_in in[2] = {
		{ OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL, 0, "a", 1, strs_a, 3 },
		{ OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL, 0, "b", 1, NULL, 0 },
	};
	struct props_error err = { "" };
	unsigned char *b;
	size_t n;

	ck_assert_int_eq(offload_binary_write(in, 0, 3, &b, &n, &err), -EINVAL);
	ck_assert_int_eq(offload_binary_write(in, 2, 1, &b, &n, &err), -EINVAL);
	ck_assert_int_eq(offload_binary_write(in, 1, 4, &b, &n, &err), -EINVAL);
	/* "k1\0k2" cannot be a version 1 value */
	ck_assert_int_eq(offload_binary_write(in, 1, 1, &b, &n, &err), -EINVAL);
	ck_assert_err_has(err, "NUL");
	ck_assert_ptr_null(b);
}
END_TEST

START_TEST(test_names)
{
	unsigned k;

	for (k = 1; k <= OFFLOAD_IMAGE_SPIRV; k++)
		ck_assert_uint_eq(offload_image_kind_from_name(
					  offload_image_kind_name(k)), k);
	ck_assert_str_eq(offload_image_kind_name(7), "");
	ck_assert_str_eq(offload_kind_name(OFFLOAD_KIND_SYCL), "sycl");
	ck_assert_str_eq(offload_kind_name(3), "none");
	ck_assert_uint_eq(offload_kind_from_name("hip"), OFFLOAD_KIND_HIP);
	ck_assert_uint_eq(offload_kind_from_name("x"), OFFLOAD_KIND_NONE);
}
END_TEST

/* Every byte changed: accepted or refused, never read out of bounds. */
START_TEST(test_mutations)
{
	static const unsigned char vals[] = { 0x00, 0x01, 0x7f, 0x80, 0xff };
	struct offload_image_in in[2] = {
		{ OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL, 0, "\x03\x02\x23\x07zz",
		  6, strs_a, 3 },
		{ OFFLOAD_IMAGE_CUBIN, OFFLOAD_KIND_SYCL, 0, "\x7f" "ELF", 4,
		  strs_b, 2 },
	};
	unsigned version = (unsigned)_i + 1;
	struct props_error err;
	struct offload_binary *ob;
	unsigned char *b, *c;
	size_t n, i, v, off;

	ck_assert_int_eq(offload_binary_write(version == 1 ? &in[1] : in,
					      version == 1 ? 1 : 2, version, &b, &n,
					      NULL), 0);
	c = malloc(n);
	for (i = 0; i < n; i++) {
		for (v = 0; v < sizeof(vals); v++) {
			memcpy(c, b, n);
			c[i] = vals[v];
			for (off = 0; off < n;) {
				if (offload_binary_parse_at(c, n, &off, "m", &ob,
							    &err))
					break;
				offload_binary_free(ob);
			}
		}
	}
	free(c);
	free(b);
}
END_TEST

static Suite *offload_suite(void)
{
	Suite *s = suite_create("offload-binary");
	TCase *tc = tcase_create("offload-binary");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_v1_by_hand);
	tcase_add_test(tc, test_v3_by_hand);
	tcase_add_loop_test(tc, test_write_read_back, 0, 2);
	tcase_add_test(tc, test_write_v1_matches_llvm_layout);
	tcase_add_test(tc, test_section_walk);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_bad_fields);
	tcase_add_test(tc, test_compressed_corrupt);
	tcase_add_test(tc, test_compressed_unknown_size);
	tcase_add_test(tc, test_writer_refuses);
	tcase_add_test(tc, test_names);
	tcase_add_loop_test(tc, test_mutations, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(offload_suite());
}
