// SPDX-License-Identifier: MIT
/*
 * The OffloadBinary reader and writer: blobs laid out by hand as LLVM's
 * writer lays them out (version 1 as clang 15 to 19 write it, version 2
 * and 3 with several entries), the writer's output read back, several
 * blobs in one section, and every kind of bad input refused with a line
 * naming the field. Then the worst shapes a blob can take (entries that
 * share a string map or a long key, overlapping maps, keys that are
 * suffixes of each other, many keys, values without a NUL after them,
 * compressed bodies claiming gigabytes), read under a budget of memory
 * and comparisons per input byte, and honest blobs read as a slow
 * reference reader reads them.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>

#include "props/offload-binary.h"
#include "tests/props/testutil.h"
#include "util/errmsg.h"
#include "util/le.h"

/*
 * ---- What a parse costs ----
 *
 * The reader promises (docs/limits.md) a peak of heap memory per input
 * byte; this file counts what it allocates, with the C library's own
 * allocator underneath (glibc's __libc_*), and refuses an allocation that
 * would pass the budget, so a reader that does not keep to it fails
 * quickly with -ENOMEM instead of taking the machine's memory. Under
 * AddressSanitizer the allocator is the sanitizer's: its hooks count,
 * and nothing is refused. Under valgrind, whose allocator replaces this
 * one, nothing is counted (mc_works is 0; valgrind checks the accesses).
 * strcmp() and memcmp() are counted too: a
 * reader that compares each key with every earlier one is stopped at a
 * linear budget, with no clock involved.
 */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#ifndef TEST_ASAN
#define TEST_ASAN 0
#endif

/* Peak heap of one parse: MEM_FACTOR bytes per input byte, and slack. */
#define MEM_FACTOR 8u
#define MEM_SLACK (64u * 1024)

static int mc_works;		/* allocations are seen here */

static struct {
	int on;
	long long cap;		/* 0: no cap */
	long long live, peak;
	unsigned refused;	/* allocations refused for the cap */
	size_t cmps, cmp_cap;
} mc;

static size_t mem_budget(size_t n)
{
	return MEM_FACTOR * n + MEM_SLACK;
}

static void mc_begin(size_t cap, size_t cmp_cap)
{
	mc.live = mc.peak = 0;
	mc.refused = 0;
	mc.cmps = 0;
	mc.cap = (long long)cap;
	mc.cmp_cap = cmp_cap;
	mc.on = 1;
}

static void mc_end(void)
{
	mc.on = 0;
}

static void mc_add(size_t n)
{
	mc.live += (long long)n;
	if (mc.live > mc.peak)
		mc.peak = mc.live;
}

static void mc_count_cmp(void)
{
	if (mc.on && mc.cmp_cap && ++mc.cmps > mc.cmp_cap) {
		mc.on = 0;
		ck_abort_msg("more than %zu string comparisons: the reader "
			     "compares keys with each other", mc.cmp_cap);
	}
}

int strcmp(const char *a, const char *b)
{
	const unsigned char *x = (const void *)a, *y = (const void *)b;

	mc_count_cmp();
	while (*x && *x == *y) {
		x++;
		y++;
	}
	return *x - *y;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	mc_count_cmp();
	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

#if TEST_ASAN
int __sanitizer_install_malloc_and_free_hooks(
	void (*m)(const volatile void *, size_t),
	void (*f)(const volatile void *));
size_t __sanitizer_get_allocated_size(const volatile void *p);

static void asan_malloc_hook(const volatile void *p, size_t n)
{
	if (mc.on)
		mc_add(n);
}

static void asan_free_hook(const volatile void *p)
{
	if (mc.on)
		mc.live -= (long long)__sanitizer_get_allocated_size(p);
}

static void mc_hook(void)
{
	__sanitizer_install_malloc_and_free_hooks(asan_malloc_hook,
						  asan_free_hook);
}
#else
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t k, size_t n);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);

static void mc_hook(void)
{
}

/* 1 when n more bytes would pass the cap (counted as refused). */
static int mc_over(size_t n)
{
	if (!mc.on || !mc.cap ||
	    (n <= (size_t)mc.cap && mc.live + (long long)n <= mc.cap))
		return 0;
	mc.refused++;
	return 1;
}

void *malloc(size_t n)
{
	void *p;

	if (mc_over(n))
		return NULL;
	p = __libc_malloc(n);
	if (p && mc.on)
		mc_add(malloc_usable_size(p));
	return p;
}

void *calloc(size_t k, size_t n)
{
	void *p;

	if (n && k > SIZE_MAX / n)
		return NULL;
	if (mc_over(k * n))
		return NULL;
	p = __libc_calloc(k, n);
	if (p && mc.on)
		mc_add(malloc_usable_size(p));
	return p;
}

void *realloc(void *p, size_t n)
{
	size_t old = p && mc.on ? malloc_usable_size(p) : 0;
	void *q;

	if (mc_over(n > old ? n - old : 0))
		return NULL;
	q = __libc_realloc(p, n);
	if (mc.on && (q || !n)) {
		mc.live -= (long long)old;
		if (q)
			mc_add(malloc_usable_size(q));
	}
	return q;
}

void free(void *p)
{
	if (p && mc.on)
		mc.live -= (long long)malloc_usable_size(p);
	__libc_free(p);
}
#endif

/* Whether an allocation is seen (not under valgrind). */
static void mc_init(void)
{
	void *(*volatile alloc)(size_t) = malloc;
	void *p;

	mc_hook();
	mc_begin(0, 0);
	p = alloc(64);
	mc_end();
	free(p);
	mc_works = mc.peak > 0;
	if (!mc_works)
		printf("note: allocations are not counted here (valgrind?)\n");
}

/*
 * Parse b under the promised memory budget and a linear budget of
 * comparisons; then check that the budget held.
 */
static int parse_counted(const unsigned char *b, size_t n,
			 struct offload_binary **ob, struct errmsg *err)
{
	int r;

	mc_begin(mem_budget(n), n + 64);
	r = offload_binary_parse(b, n, "shape.bin", ob, err);
	mc_end();
	ck_assert_msg(!mc.refused && mc.peak <= (long long)mem_budget(n),
		      "a %zu-byte blob wanted more than %zu bytes of heap "
		      "(peak %lld, %u allocations refused; rc %d: %s)", n,
		      mem_budget(n), mc.peak, mc.refused, r, err->msg);
	return r;
}

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
	struct errmsg err = { 0 };
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
	struct errmsg err = { 0 };
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
	struct errmsg err = { 0 };
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
	struct errmsg err = { 0 };
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
	struct errmsg err = { 0 };
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
	struct errmsg err;
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
	struct errmsg err = { 0 };
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
	struct errmsg err = { 0 };
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
	put_le64(b + 32, (uint64_t)1 << 32);
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
	struct errmsg err = { 0 };
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
	struct errmsg err = { 0 };
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
	struct errmsg err;
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

/* ---- A slow reference reader: what the reader must return ---- */

/*
 * Whether the reader must accept the blob at b (len bytes from there):
 * 0 yes, -1 no, 1 compressed (not judged here). Every check the reader
 * documents, the obvious way.
 */
static int ref_accepts(const unsigned char *b, size_t len)
{
	uint64_t bsz, eoff, count, i, j, esz, hdr;
	uint32_t version;

	if (len < 32 || memcmp(b, OFFLOAD_BINARY_MAGIC, 4))
		return -1;
	version = get_le32(b + 4);
	if (version == 0 || version > 3 || (version == 3 && len < 40))
		return -1;
	hdr = version == 3 ? 40 : 32;
	bsz = get_le64(b + 8);
	if (bsz > len || bsz < hdr)
		return -1;
	if (version == 3 && get_le64(b + 32))
		return 1;
	eoff = get_le64(b + 16);
	count = version == 1 ? 1 : get_le64(b + 24);
	if (eoff > bsz || count > (bsz - eoff) / 40 || !count)
		return -1;
	esz = version == 1 ? 16 : 24;
	for (i = 0; i < count; i++) {
		const unsigned char *e = b + eoff + 40 * i;
		uint64_t soff = get_le64(e + 8), nstr = get_le64(e + 16);
		uint64_t ioff = get_le64(e + 24), isz = get_le64(e + 32);

		if (ioff > bsz || isz > bsz - ioff || soff > bsz ||
		    nstr > (bsz - soff) / esz)
			return -1;
		for (j = 0; j < nstr; j++) {
			const unsigned char *se = b + soff + esz * j;
			uint64_t koff = get_le64(se), voff = get_le64(se + 8);

			if (koff >= bsz || !memchr(b + koff, 0, bsz - koff) ||
			    voff > bsz)
				return -1;
			if (version == 1 ? !memchr(b + voff, 0, bsz - voff) :
			    get_le64(se + 16) > bsz - voff)
				return -1;
		}
	}
	return 0;
}

/*
 * ob holds what the blob at b says: each entry's fields, and its strings
 * in first-seen key order, a repeated key with its last value, each value
 * NUL-terminated after value_len bytes; offload_entry_string() finds
 * every key and no other.
 */
static void ref_compare(const unsigned char *b, const struct offload_binary *ob)
{
	uint32_t version = get_le32(b + 4);
	uint64_t eoff = get_le64(b + 16), esz = version == 1 ? 16 : 24;
	size_t i, j, k, n;

	ck_assert_uint_eq(ob->version, version);
	ck_assert_uint_eq(ob->nentries, version == 1 ? 1 : get_le64(b + 24));
	for (i = 0; i < ob->nentries; i++) {
		const unsigned char *raw = b + eoff + 40 * i;
		const struct offload_entry *e = &ob->entries[i];
		uint64_t soff = get_le64(raw + 8), nstr = get_le64(raw + 16);
		struct offload_string *want = calloc(nstr + 1, sizeof(*want));
		const char *v;
		size_t len;

		ck_assert_uint_eq(e->image_kind, raw[0] | raw[1] << 8);
		ck_assert_uint_eq(e->offload_kind, raw[2] | raw[3] << 8);
		ck_assert_uint_eq(e->flags, get_le32(raw + 4));
		ck_assert_ptr_eq(e->image, b + get_le64(raw + 24));
		ck_assert_uint_eq(e->image_size, get_le64(raw + 32));
		for (j = n = 0; j < nstr; j++) {
			const unsigned char *se = b + soff + esz * j;
			const char *key = (const char *)b + get_le64(se);
			const char *val = (const char *)b + get_le64(se + 8);
			size_t vlen = version == 1 ? strlen(val) :
				      get_le64(se + 16);

			for (k = 0; k < n && strcmp(want[k].key, key); k++)
				;
			want[k] = (struct offload_string){ key, val, vlen };
			if (k == n)
				n++;
		}
		ck_assert_uint_eq(e->nstrings, n);
		for (k = 0; k < n; k++) {
			const struct offload_string *s = &e->strings[k];

			ck_assert_str_eq(s->key, want[k].key);
			ck_assert_uint_eq(s->value_len, want[k].value_len);
			ck_assert(!memcmp(s->value, want[k].value, s->value_len));
			ck_assert_int_eq(s->value[s->value_len], 0);
			v = offload_entry_string(e, want[k].key, &len);
			ck_assert_ptr_eq(v, s->value);
			ck_assert_uint_eq(len, s->value_len);
		}
		ck_assert_ptr_null(offload_entry_string(e, "no such key", NULL));
		free(want);
	}
}

/* Refusals for a cost the blob does not pay for, which ref_accepts() lacks. */
#define BUDGET_REFUSAL "more than the blob's"

/* Parse every blob of the section at b as the reference does. */
static void ref_section(const unsigned char *c, size_t n)
{
	struct errmsg err;
	struct offload_binary *ob;
	size_t off = 0, at;
	int r, want;

	while (off < n) {
		memset(&err, 0, sizeof(err));
		at = off;
		want = ref_accepts(c + at, n - at);
		r = offload_binary_parse_at(c, n, &off, "m", &ob, &err);
		if (want == 1) {
			if (r)
				break;
			offload_binary_free(ob);
			continue;
		}
		if (r) {
			ck_assert_msg(want == -1 || strstr(err.msg, BUDGET_REFUSAL),
				      "refused a blob the reference reads: %s",
				      err.msg);
			ck_assert_ptr_null(ob);
			break;
		}
		ck_assert_msg(want == 0, "accepted a blob the reference refuses");
		ref_compare(c + at, ob);
		offload_binary_free(ob);
	}
}

static const struct offload_string strs_dup[] = {
	{ "triple", "spir64", 6 },
	{ "arch", "x", 1 },
	{ "triple", "spirv64", 7 },
	{ "", "empty key", 9 },
	{ "arch", "", 0 },
	{ "symbols", "a\0b\0", 4 },
};

/* Honest blobs, the writer's and the hand-made ones, read as the reference. */
START_TEST(test_same_as_reference)
{
	struct offload_image_in in[3] = {
		{ OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL, 0, "\x03\x02\x23\x07zz",
		  6, strs_a, 3 },
		{ OFFLOAD_IMAGE_CUBIN, OFFLOAD_KIND_SYCL, 0, "\x7f" "ELF", 4,
		  strs_b, 2 },
		{ OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_OPENMP, 0, "ab", 2,
		  strs_dup, 6 },
	};
	unsigned char hand[512], *b;
	unsigned version;
	size_t n, k;

	n = make_v1(hand);
	ref_section(hand, n);
	for (version = 1; version <= 3; version++) {
		for (k = 0; k < 3; k++) {
			if (version == 1 && k != 1)
				continue;
			ck_assert_int_eq(offload_binary_write(
				version == 1 ? &in[1] : in, version == 1 ? 1 : k + 1,
				version, &b, &n, NULL), 0);
			ck_assert_int_eq(ref_accepts(b, n), 0);
			ref_section(b, n);
			free(b);
		}
	}
}
END_TEST

/* Every byte changed: accepted or refused as the reference says. */
START_TEST(test_mutations_as_reference)
{
	static const unsigned char vals[] = { 0x00, 0x01, 0x08, 0x7f, 0x80, 0xff };
	struct offload_image_in in[3] = {
		{ OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL, 0, "\x03\x02\x23\x07zz",
		  6, strs_a, 3 },
		{ OFFLOAD_IMAGE_CUBIN, OFFLOAD_KIND_SYCL, 0, "\x7f" "ELF", 4,
		  strs_b, 2 },
		{ OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL, 0, "ab", 2,
		  strs_dup, 6 },
	};
	unsigned version = (unsigned)_i + 1;
	unsigned char *b, *c;
	size_t n, i, v;

	ck_assert_int_eq(offload_binary_write(version == 1 ? &in[1] : in,
					      version == 1 ? 1 : 3, version, &b, &n,
					      NULL), 0);
	c = malloc(n);
	for (i = 0; i < n; i++) {
		for (v = 0; v < sizeof(vals); v++) {
			memcpy(c, b, n);
			c[i] = vals[v];
			ref_section(c, n);
		}
	}
	free(c);
	free(b);
}
END_TEST

/* ---- The worst shapes: blobs laid out by hand ---- */

#define ALIGN8(x) (((x) + 7) / 8 * 8)

/* A zeroed version 3 blob of size bytes, count entries at offset 40. */
static unsigned char *shape_new(size_t size, uint64_t count)
{
	unsigned char *b = calloc(1, size);

	ck_assert_ptr_nonnull(b);
	memcpy(b, OFFLOAD_BINARY_MAGIC, OFFLOAD_BINARY_MAGIC_LEN);
	put_le32(b + 4, 3);
	put_le64(b + 8, size);
	put_le64(b + 16, 40);
	put_le64(b + 24, count);
	return b;
}

/* Entry i: a SYCL SPIR-V image (the header's first 4 bytes), its map. */
static void shape_entry(unsigned char *b, size_t i, uint64_t soff,
			uint64_t nstr)
{
	unsigned char *p = b + 40 + 40 * i;

	p[0] = OFFLOAD_IMAGE_SPIRV;
	p[2] = OFFLOAD_KIND_SYCL;
	put_le64(p + 8, soff);
	put_le64(p + 16, nstr);
	put_le64(p + 24, 0);
	put_le64(p + 32, 4);
}

static void shape_str(unsigned char *b, uint64_t at, uint64_t koff,
		      uint64_t voff, uint64_t vlen)
{
	put_le64(b + at, koff);
	put_le64(b + at + 8, voff);
	put_le64(b + at + 16, vlen);
}

/*
 * Look-ups after a parse: no allocation, a few comparisons each. Check's
 * assertions talk to the test runner: LOOKUP() counts failures instead.
 */
static unsigned lookup_failures;
#define LOOKUP(cond) ((cond) ? (void)0 : (void)lookup_failures++)

static void lookups_begin(size_t n)
{
	lookup_failures = 0;
	mc_begin(MEM_SLACK, 24 * n + 64);
}

static void lookups_end(void)
{
	mc_end();
	ck_assert_uint_eq(lookup_failures, 0);
	ck_assert_int_le(mc.peak, 0);
}

/* A refusal for what entries reference, DEVIMG_LIMIT_REFERENCE_RATIO. */
#define REFS_REFUSAL "counted once for each entry naming them, come to " \
	"more than 16 times the blob's"

/*
 * 25,000 entries sharing one string map, one of its values 1 MiB (with a
 * NUL after it, or not: then it must be copied, once): a 2 MB blob whose
 * entries reference 26 GB, refused after the map is read once. Sixteen
 * entries sharing it are read, and the value copied once.
 */
START_TEST(test_shared_map)
{
	const size_t E = _i & 2 ? 16 : 25000, V = 1u << 20;
	static const char tab[] = "\0triple\0spir64\0big";	/* and a NUL */
	size_t m = 40 + 40 * E, st = m + 48, v = st + sizeof(tab);
	size_t n = ALIGN8(v + V + 1), i, len;
	unsigned char *b = shape_new(n, E);
	struct errmsg err = { 0 };
	struct offload_binary *ob;
	const char *s;

	for (i = 0; i < E; i++)
		shape_entry(b, i, m, 2);
	shape_str(b, m, st + 1, st + 8, 6);
	shape_str(b, m + 24, st + 15, v, V);
	memcpy(b + st, tab, sizeof(tab));
	memset(b + v, 'v', V);
	if (_i & 1)	/* no NUL after the value */
		memset(b + v + V, 'w', n - v - V);
	if (E > 16) {
		ck_assert_int_eq(parse_counted(b, n, &ob, &err), -EINVAL);
		ck_assert_ptr_null(ob);
		ck_assert_err_has(err, "shape.bin: OffloadBinary entry ");
		ck_assert_err_has(err, REFS_REFUSAL);
		free(b);
		return;
	}
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), 0);
	ck_assert_uint_eq(ob->nentries, E);
	lookups_begin(2 * E);
	for (i = 0; i < E; i++) {
		s = offload_entry_string(&ob->entries[i], "big", &len);
		LOOKUP(s && len == V && s[0] == 'v' && s[V - 1] == 'v' && !s[V]);
		s = offload_entry_string(&ob->entries[i], "triple", &len);
		LOOKUP(s && len == 6 && !strcmp(s, "spir64"));
	}
	lookups_end();
	offload_binary_free(ob);
	free(b);
}
END_TEST

/*
 * 2,000 entries with maps of their own whose one key is the same 1 MiB
 * string: the key is measured once, not once per entry, and the 2 GB the
 * entries reference is refused; 16 such entries are read.
 */
START_TEST(test_shared_long_key)
{
	const size_t E = _i ? 16 : 2000, K = 1u << 20;
	size_t m = 40 + 40 * E, st = m + 24 * E, n = ALIGN8(st + K + 2), i;
	unsigned char *b = shape_new(n, E);
	struct errmsg err = { 0 };
	struct offload_binary *ob;
	const struct offload_string *s;

	for (i = 0; i < E; i++) {
		shape_entry(b, i, m + 24 * i, 1);
		shape_str(b, m + 24 * i, st + 1, st, 0);
	}
	memset(b + st + 1, 'k', K);
	if (E > 16) {
		ck_assert_int_eq(parse_counted(b, n, &ob, &err), -EINVAL);
		ck_assert_err_has(err, REFS_REFUSAL);
		free(b);
		return;
	}
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), 0);
	for (i = 0; i < E; i += E - 1) {
		ck_assert_uint_eq(ob->entries[i].nstrings, 1);
		s = &ob->entries[i].strings[0];
		ck_assert_ptr_eq(memchr(s->key, 0, K + 1), s->key + K);
		ck_assert(s->key[0] == 'k' && !s->value_len && !*s->value);
	}
	offload_binary_free(ob);
	free(b);
}
END_TEST

/*
 * One entry whose 30,000 keys are the suffixes of one 30,000-byte run,
 * each key its own value (750 KB); then the run twice, the second's
 * suffixes repeating the first's keys at other offsets, with other values.
 * The keys and values come to 900 MB: refused, the keys told apart
 * within the budget first. Runs of 300 are read, and looked up.
 */
START_TEST(test_suffix_keys)
{
	const size_t L = _i & 2 ? 300 : 30000, runs = (size_t)(_i & 1) + 1;
	size_t st = 80 + 24 * L * runs, n = ALIGN8(st + (L + 1) * runs + 1);
	unsigned char *b = shape_new(n, 1);
	struct errmsg err = { 0 };
	struct offload_binary *ob;
	char *q = malloc(L + 1);
	size_t i, r, len, k;
	const struct offload_string *s;
	const char *v;

	shape_entry(b, 0, 80, L * runs);
	for (r = 0; r < runs; r++) {
		size_t run = st + 1 + r * (L + 1);

		memset(b + run, 'a', L);
		for (i = 0; i < L; i++)
			shape_str(b, 80 + 24 * (r * L + i), run + i,
				  run + i, L - i);
	}
	if (L > 300) {
		ck_assert_int_eq(parse_counted(b, n, &ob, &err), -EINVAL);
		ck_assert_err_has(err, "shape.bin: OffloadBinary entry 0: ");
		ck_assert_err_has(err, REFS_REFUSAL);
		free(q);
		free(b);
		return;
	}
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), 0);
	ck_assert_uint_eq(ob->entries[0].nstrings, L);
	for (i = 0; i < L; i++) {
		s = &ob->entries[0].strings[i];
		ck_assert_uint_eq(s->value_len, L - i);
		if (i % 997)
			continue;
		ck_assert_ptr_eq(memchr(s->key, 0, L - i + 1), s->key + L - i);
		ck_assert(!memcmp(s->key, s->value, L - i + 1));
	}
	memset(q, 'a', L);
	lookups_begin(8);
	for (k = 1; k <= L; k *= 7) {
		q[k] = 0;
		v = offload_entry_string(&ob->entries[0], q, &len);
		LOOKUP(v && len == k && v[0] == 'a' && !v[k]);
		q[k] = 'a';
	}
	lookups_end();
	offload_binary_free(ob);
	free(q);
	free(b);
}
END_TEST

/*
 * Version 1, the densest string entries (16 bytes): 30,000 keys that are
 * the suffixes of one run, their values the suffixes of another: each
 * measured once, then refused for the 900 MB they come to; runs of 250
 * are read.
 */
START_TEST(test_v1_suffix_keys)
{
	const size_t L = _i ? 250 : 30000;
	size_t st = 72 + 16 * L, n = ALIGN8(st + 2 * (L + 1) + 1), i;
	unsigned char *b = calloc(1, n);
	struct errmsg err = { 0 };
	struct offload_binary *ob;
	const struct offload_string *s;

	memcpy(b, OFFLOAD_BINARY_MAGIC, OFFLOAD_BINARY_MAGIC_LEN);
	put_le32(b + 4, 1);
	put_le64(b + 8, n);
	put_le64(b + 16, 32);
	put_le64(b + 24, 40);
	put_le64(b + 40, 72);
	put_le64(b + 48, L);
	put_le64(b + 64, 4);
	memset(b + st + 1, 'a', L);
	memset(b + st + L + 2, 'b', L);
	for (i = 0; i < L; i++) {
		put_le64(b + 72 + 16 * i, st + 1 + i);
		put_le64(b + 80 + 16 * i, st + L + 2 + i);
	}
	if (L > 250) {
		ck_assert_int_eq(parse_counted(b, n, &ob, &err), -EINVAL);
		ck_assert_err_has(err, REFS_REFUSAL);
		free(b);
		return;
	}
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), 0);
	ck_assert_uint_eq(ob->entries[0].nstrings, L);
	for (i = 0; i < L; i++) {
		s = &ob->entries[0].strings[i];
		ck_assert_uint_eq(s->value_len, L - i);
		ck_assert(s->key[0] == 'a' && s->value[0] == 'b');
	}
	ck_assert_str_eq(offload_entry_string(&ob->entries[0], "aaa", NULL),
			 "bbb");
	offload_binary_free(ob);
	free(b);
}
END_TEST

/* K distinct 7-byte keys "k000000"... of one entry (3.2 MB for 100,000). */
static unsigned char *distinct_keys(size_t K, size_t *size)
{
	size_t st = 80 + 24 * K, n = ALIGN8(st + 1 + 8 * K), i;
	unsigned char *b = shape_new(n, 1);

	shape_entry(b, 0, 80, K);
	for (i = 0; i < K; i++) {
		snprintf((char *)b + st + 1 + 8 * i, 8, "k%06zu", i);
		shape_str(b, 80 + 24 * i, st + 1 + 8 * i, st, 0);
	}
	*size = n;
	return b;
}

START_TEST(test_distinct_keys)
{
	const size_t K = 100000;
	struct errmsg err = { 0 };
	struct offload_binary *ob;
	char key[8];
	size_t n, i, len;
	unsigned char *b = distinct_keys(K, &n);

	ck_assert_int_eq(parse_counted(b, n, &ob, &err), 0);
	ck_assert_uint_eq(ob->entries[0].nstrings, K);
	/* the count works: the strings themselves were seen allocated */
	if (mc_works)
		ck_assert_int_ge(mc.live,
				 (long long)(K * sizeof(struct offload_string)));
	lookups_begin(K);
	for (i = 0; i < K; i++) {
		snprintf(key, sizeof(key), "k%06zu", i);
		LOOKUP(!memcmp(ob->entries[0].strings[i].key, key, 8));
		LOOKUP(offload_entry_string(&ob->entries[0], key, &len) &&
		       len == 0);
	}
	lookups_end();
	offload_binary_free(ob);
	free(b);
}
END_TEST

/*
 * DEVIMG_LIMIT_REFERENCE_RATIO, exactly: 17 entries referencing 16 times
 * the blob's Size, then one byte more; through one image range they all
 * name (the blob's tail), or through one map they share, its one value
 * V bytes (and their own 4-byte images).
 */
START_TEST(test_reference_limit)
{
	const size_t E = 17, m = 40 + 40 * E, past = (size_t)(_i & 1);
	const int maps = _i & 2;
	size_t V = 11883 + past, n = maps ? m + 28 + V : 12240 + past, i;
	uint64_t refs = maps ? E * (4 + 1 + V) : E * (n - m);
	unsigned char *b = shape_new(n, E);
	struct errmsg err = { 0 };
	struct offload_binary *ob;

	ck_assert_uint_eq(refs, 16 * (uint64_t)n + past);
	for (i = 0; i < E; i++) {
		shape_entry(b, i, m, maps ? 1 : 0);
		if (!maps) {
			put_le64(b + 40 + 40 * i + 24, m);
			put_le64(b + 40 + 40 * i + 32, n - m);
		}
	}
	if (maps) {
		shape_str(b, m, m + 25, m + 27, V);
		b[m + 25] = 'k';
		memset(b + m + 27, 'v', V);
		/* the NUL after the value: the blob's last byte */
		ck_assert_uint_eq(m + 27 + V, n - 1);
	}
	if (past) {
		ck_assert_int_eq(parse_counted(b, n, &ob, &err), -EINVAL);
		ck_assert_err_has(err, "shape.bin: OffloadBinary entry 16: ");
		ck_assert_err_has(err, REFS_REFUSAL);
	} else {
		ck_assert_int_eq(parse_counted(b, n, &ob, &err), 0);
		for (i = 0; i < E; i++) {
			const struct offload_entry *e = &ob->entries[i];

			if (maps)
				ck_assert(e->nstrings == 1 &&
					  e->strings[0].value_len == V);
			else
				ck_assert(e->image == b + m &&
					  e->image_size == n - m);
		}
		offload_binary_free(ob);
	}
	free(b);
}
END_TEST

/*
 * 16 entries sharing a map of 40,000 keys, every key looked up in every
 * entry: no allocation, a few comparisons each (1.3 MB).
 */
START_TEST(test_lookup_shared_map)
{
	const size_t E = 16, K = 40000;
	size_t m = 40 + 40 * E, st = m + 24 * K, n = ALIGN8(st + 1 + 8 * K), i;
	unsigned char *b = shape_new(n, E);
	struct errmsg err = { 0 };
	struct offload_binary *ob;
	const char *v;
	char key[8];

	for (i = 0; i < E; i++)
		shape_entry(b, i, m, K);
	for (i = 0; i < K; i++) {
		snprintf((char *)b + st + 1 + 8 * i, 8, "k%06zu", i);
		shape_str(b, m + 24 * i, st + 1 + 8 * i, st + 1 + 8 * i, 7);
	}
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), 0);
	lookups_begin(2 * E * K);
	for (i = 0; i < E * K; i++) {
		snprintf(key, sizeof(key), "k%06zu", i % K);
		v = offload_entry_string(&ob->entries[i / K], key, NULL);
		LOOKUP(v && !memcmp(v, key, 8));
		LOOKUP(!offload_entry_string(&ob->entries[i / K], "triple",
					     NULL));
	}
	lookups_end();
	offload_binary_free(ob);
	free(b);
}
END_TEST

/*
 * A repeated key keeps the place of its first and the value of its last,
 * whether it repeats at the same offset or at another: versions 1 and 3,
 * and 100,000 string entries of one key.
 */
START_TEST(test_repeated_keys)
{
	static const char tab[] = "\0a\0b\0a\0c\0" "1\0" "2\0" "3\0" "4\0" "5";
	static const unsigned k[5] = { 1, 3, 5, 7, 3 };	/* a b a' c b */
	const size_t R = 100000;
	unsigned char v1[256] = { 0 }, *b;
	struct errmsg err = { 0 };
	struct offload_binary *ob;
	size_t st = 80 + 5 * 24, i, n;
	const struct offload_entry *e;

	/* version 3 */
	b = shape_new(ALIGN8(st + sizeof(tab)), 1);
	shape_entry(b, 0, 80, 5);
	for (i = 0; i < 5; i++)
		shape_str(b, 80 + 24 * i, st + k[i], st + 9 + 2 * i, 1);
	memcpy(b + st, tab, sizeof(tab));
	ck_assert_int_eq(parse_counted(b, ALIGN8(st + sizeof(tab)), &ob,
				       &err), 0);
	e = &ob->entries[0];
	ck_assert_uint_eq(e->nstrings, 3);
	ck_assert(!strcmp(e->strings[0].key, "a") &&
		  !strcmp(e->strings[0].value, "3"));
	ck_assert(!strcmp(e->strings[1].key, "b") &&
		  !strcmp(e->strings[1].value, "5"));
	ck_assert(!strcmp(e->strings[2].key, "c") &&
		  !strcmp(e->strings[2].value, "4"));
	ck_assert_str_eq(offload_entry_string(e, "a", NULL), "3");
	offload_binary_free(ob);
	free(b);

	/* version 1: 16-byte string entries, NUL-terminated values */
	memcpy(v1, "\x10\xff\x10\xad", 4);
	put_le32(v1 + 4, 1);
	put_le64(v1 + 16, 32);
	put_le64(v1 + 24, 40);
	st = 72 + 5 * 16;
	put_le64(v1 + 40, 72);
	put_le64(v1 + 48, 5);
	put_le64(v1 + 56, 0);
	put_le64(v1 + 64, 4);
	for (i = 0; i < 5; i++) {
		put_le64(v1 + 72 + 16 * i, st + k[i]);
		put_le64(v1 + 80 + 16 * i, st + 9 + 2 * i);
	}
	memcpy(v1 + st, tab, sizeof(tab));
	put_le64(v1 + 8, ALIGN8(st + sizeof(tab)));
	ck_assert_int_eq(parse_counted(v1, ALIGN8(st + sizeof(tab)), &ob,
				       &err), 0);
	e = &ob->entries[0];
	ck_assert_uint_eq(e->nstrings, 3);
	ck_assert_str_eq(offload_entry_string(e, "a", NULL), "3");
	ck_assert_str_eq(offload_entry_string(e, "b", NULL), "5");
	ck_assert_str_eq(e->strings[2].value, "4");
	offload_binary_free(ob);

	/* R string entries of one key at one offset: the last value wins */
	st = 80 + 24 * R;
	n = ALIGN8(st + sizeof(tab));
	b = shape_new(n, 1);
	shape_entry(b, 0, 80, R);
	for (i = 0; i < R; i++)
		shape_str(b, 80 + 24 * i, st + 1, st + 9 + 2 * (i % 5), 1);
	memcpy(b + st, tab, sizeof(tab));
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), 0);
	ck_assert_uint_eq(ob->entries[0].nstrings, 1);
	ck_assert_str_eq(ob->entries[0].strings[0].value, "5");
	offload_binary_free(ob);
	free(b);
}
END_TEST

/*
 * 2,000 entries whose maps overlap: entry i reads string entries i to
 * 1,999 of one table, 2 million string entries from a 144 KB blob.
 */
START_TEST(test_overlapping_maps)
{
	const size_t E = 2000, K = 2000;
	size_t m = 40 + 40 * E, st = m + 24 * K, n = ALIGN8(st + 1 + 8 * K), i;
	unsigned char *b = shape_new(n, E);
	struct errmsg err = { 0 };
	struct offload_binary *ob;

	for (i = 0; i < E; i++)
		shape_entry(b, i, m + 24 * i, K - i);
	for (i = 0; i < K; i++) {
		snprintf((char *)b + st + 1 + 8 * i, 8, "k%06zu", i);
		shape_str(b, m + 24 * i, st + 1 + 8 * i, st, 0);
	}
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), -EINVAL);
	ck_assert_ptr_null(ob);
	ck_assert_err_has(err, "shape.bin: OffloadBinary entry ");
	ck_assert_err_has(err, "string entries");
	ck_assert_err_has(err, BUDGET_REFUSAL);
	free(b);
}
END_TEST

/*
 * Values without a NUL after them: copied, NUL-terminated, each once per
 * map. 1,000 maps of a 40-byte value each; one value running to the
 * blob's very end; 1,000 maps naming one 100 KB value would copy 100 MB
 * out of a 164 KB blob: refused, naming the entry and string.
 */
START_TEST(test_unterminated_values)
{
	const size_t M = 1000, V = 100000;
	size_t m = 40 + 40 * M, st = m + 24 * M, n = ALIGN8(st + 1 + V), i;
	unsigned char *b = shape_new(n, M);
	struct errmsg err = { 0 };
	struct offload_binary *ob;
	const struct offload_string *s;

	memcpy(b + st, "\0k", 3);
	memset(b + st + 3, 'v', n - st - 3);
	for (i = 0; i < M; i++) {
		shape_entry(b, i, m + 24 * i, 1);
		shape_str(b, m + 24 * i, st + 1, st + 3 + 50 * i, 40);
		b[st + 3 + 50 * i] = (unsigned char)('0' + i % 10);
	}
	shape_str(b, m + 24 * (M - 1), st + 1, st + 3, n - st - 3);
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), 0);
	for (i = 0; i < M - 1; i++) {
		s = &ob->entries[i].strings[0];
		ck_assert_uint_eq(s->value_len, 40);
		ck_assert(s->value[0] == (char)('0' + i % 10) && s->value[39] == 'v' &&
			  !s->value[40]);
	}
	s = &ob->entries[M - 1].strings[0];
	ck_assert(s->value_len == n - st - 3 && !s->value[s->value_len]);
	ck_assert(s->value[0] == '0' && s->value[s->value_len - 1] == 'v');
	offload_binary_free(ob);

	for (i = 0; i < M; i++)
		shape_str(b, m + 24 * i, st + 1, st + 3, V - 8);
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), -EINVAL);
	ck_assert_ptr_null(ob);
	ck_assert_err_has(err, "shape.bin: OffloadBinary entry ");
	ck_assert_err_has(err, " string 0: value (offset ");
	ck_assert_err_has(err, "no NUL after it");
	ck_assert_err_has(err, BUDGET_REFUSAL);
	free(b);
}
END_TEST

/*
 * A compressed body is at most DEVIMG_LIMIT_DECOMPRESSED (4 GiB) once
 * inflated, whichever library inflates it, and a larger claim is refused
 * before anything is allocated: a zlib body of 5.2 MB claiming 5 GiB
 * (which zlib's ratio could make), and the limit exactly, and one over.
 */
START_TEST(test_compressed_limit)
{
	static const unsigned char zstd[] = {
		0x28, 0xb5, 0x2f, 0xfd, 0xe0,	/* single segment, 8-byte size */
		0x01, 0, 0, 0, 0x01, 0, 0, 0,	/* 2^32 + 1 */
	};
	const uint64_t lim = (uint64_t)1 << 32;
	const size_t big = 5202240;	/* 5 GiB / 1032, rounded up to 8 */
	struct errmsg err = { 0 };
	struct offload_binary *ob;
	unsigned char *b = shape_new(40 + big, 1);
	size_t n;
	int r;

	put_le64(b + 32, 40 + 5 * ((uint64_t)1 << 30));
	ck_assert_int_eq(parse_counted(b, 40 + big, &ob, &err), -EINVAL);
	ck_assert_err_has(err, "DEVIMG_LIMIT_DECOMPRESSED");
	ck_assert_int_lt(mc.peak, 4096);
	free(b);

	/* zlib data (no zstd magic) of 16 bytes, the claim about the limit */
	b = shape_new(56, 1);
	n = 56;
	put_le64(b + 32, 40 + lim + 1);
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), -EINVAL);
	ck_assert_err_has(err, "DEVIMG_LIMIT_DECOMPRESSED");
	ck_assert_int_lt(mc.peak, 4096);
	put_le64(b + 32, 40 + lim);
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), -EINVAL);
	ck_assert_msg(!strstr(err.msg, "DEVIMG_LIMIT"), "%s", err.msg);
	ck_assert_err_has(err, "too short to inflate");
	ck_assert_int_lt(mc.peak, 4096);
	put_le64(b + 32, 40 + lim - 1);
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), -EINVAL);
	ck_assert_err_has(err, "too short to inflate");
	ck_assert_int_lt(mc.peak, 4096);

	/*
	 * DEVIMG_LIMIT_DECOMPRESS_RATIO, zlib and zstd alike: a 16-byte
	 * body may claim 1032 * 16 bytes (and then fails as the garbage it
	 * is), not one more.
	 */
	put_le64(b + 32, 40 + 1032 * 16);
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), -EINVAL);
	ck_assert_err_has(err, "zlib data corrupt");
	put_le64(b + 32, 40 + 1032 * 16 + 1);
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), -EINVAL);
	ck_assert_err_has(err, "zlib data too short to inflate");
	memcpy(b + 40, zstd, sizeof(zstd));
	put_le64(b + 45, 1032 * 16);
	put_le64(b + 32, 40 + 1032 * 16);
	/* not counted: libzstd's own context is larger than the budget */
	ck_assert_int_eq(offload_binary_parse(b, n, "shape.bin", &ob, &err),
			 -EINVAL);
	ck_assert_msg(!strstr(err.msg, "above the limit"), "%s", err.msg);
	ck_assert_err_has(err, "zstd");
	put_le64(b + 45, 1032 * 16 + 1);
	put_le64(b + 32, 40 + 1032 * 16 + 1);
	ck_assert_int_eq(parse_counted(b, n, &ob, &err), -EINVAL);
	ck_assert_err_has(err, "content size above the limit");
	memset(b + 40, 0, 16);

	/* a zstd frame declaring one byte over */
	memcpy(b + 40, zstd, sizeof(zstd));
	put_le64(b + 32, 40 + lim + 1);
	r = parse_counted(b, n, &ob, &err);
	ck_assert_int_eq(r, -EINVAL);
	ck_assert_err_has(err, "DEVIMG_LIMIT_DECOMPRESSED");
	ck_assert_int_lt(mc.peak, 4096);
	free(b);
}
END_TEST

/*
 * The writer's string table: 40,000 strings of one length, all distinct,
 * then the same again in a second entry; each stored once, found with a
 * comparison or so each (the table compared every new string with every
 * earlier one of its length: 800 million comparisons).
 */
START_TEST(test_writer_many_strings)
{
	const size_t K = 20000;
	struct offload_string *strs = calloc(K, sizeof(*strs));
	char *names = malloc(16 * K);
	struct offload_image_in in[2] = {
		{ OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL, 0, "a", 1, strs, K },
		{ OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL, 0, "b", 1, strs, K },
	};
	struct errmsg err = { 0 };
	struct offload_binary *ob;
	unsigned char *b;
	size_t n, i;

	ck_assert(strs && names);
	for (i = 0; i < K; i++) {
		snprintf(names + 16 * i, 8, "k%06zu", i);
		snprintf(names + 16 * i + 8, 8, "v%06zu", i);
		strs[i] = (struct offload_string){ names + 16 * i,
						   names + 16 * i + 8, 7 };
	}
	mc_begin(SIZE_MAX / 2, 8 * K);
	ck_assert_int_eq(offload_binary_write(in, 2, 3, &b, &n, &err), 0);
	mc_end();
	/* 40,000 strings of 8 bytes, each once, after the header and maps */
	ck_assert_uint_le(n, 40 + 2 * 40 + 2 * K * 24 + 2 * K * 8 + 16);
	ck_assert_int_eq(offload_binary_parse(b, n, "w.bin", &ob, &err), 0);
	for (i = 0; i < K; i += 997) {
		ck_assert_str_eq(offload_entry_string(&ob->entries[1],
						      names + 16 * i, NULL),
				 names + 16 * i + 8);
		ck_assert_ptr_eq(ob->entries[0].strings[i].value,
				 ob->entries[1].strings[i].value);
	}
	offload_binary_free(ob);
	free(b);
	free(strs);
	free(names);
}
END_TEST

/* The head and the images put in place give what the writer writes. */
START_TEST(test_write_head_matches_writer)
{
	static const char img_a[] = "\x03\x02\x23\x07 a SPIR-V module";
	static const char img_b[] = "// PTX, 23 bytes of it.";
	struct offload_string sa[] = {
		{ "triple", "spir64", 6 },
		{ "SYCL/misc properties", "optLevel=1|2\n", 13 },
	};
	struct offload_string sb[] = { { "triple", "nvptx64", 7 } };
	struct offload_image_in in[2] = {
		{ OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL, 0, img_a,
		  sizeof(img_a) - 1, sa, 2 },
		{ OFFLOAD_IMAGE_PTX, OFFLOAD_KIND_SYCL, 0, NULL,
		  sizeof(img_b) - 1, sb, 1 },
	};
	struct errmsg err = { 0 };
	unsigned char *whole, *head, *put;
	size_t n, hn, hsize, i;
	uint64_t off[2];

	in[1].image = img_b;
	ck_assert_int_eq(offload_binary_write(in, 2, 2, &whole, &n, &err), 0);
	in[1].image = NULL;	/* not read */
	ck_assert_int_eq(offload_binary_write_head(in, 2, 2, &head, &hn, off,
						   &hsize, &err), 0);
	ck_assert_uint_eq(hsize, n);
	ck_assert_uint_eq(hn % 8, 0);
	ck_assert_uint_eq(off[0], hn);
	ck_assert_uint_eq(off[1], hn + in[0].image_size);
	put = calloc(1, n);
	ck_assert_ptr_nonnull(put);
	memcpy(put, head, hn);
	memcpy(put + off[0], img_a, in[0].image_size);
	memcpy(put + off[1], img_b, in[1].image_size);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(put[i], whole[i]);
	free(put);
	free(head);
	free(whole);
	ck_assert_int_eq(offload_binary_write_head(in, 0, 2, &head, &hn, off,
						   &hsize, &err), -EINVAL);
	ck_assert_ptr_null(head);
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
	tcase_add_test(tc, test_writer_many_strings);
	tcase_add_test(tc, test_write_head_matches_writer);
	tcase_add_test(tc, test_names);
	tcase_add_loop_test(tc, test_mutations, 0, 3);
	tcase_add_test(tc, test_same_as_reference);
	tcase_add_loop_test(tc, test_mutations_as_reference, 0, 3);
	suite_add_tcase(s, tc);

	tc = tcase_create("worst shapes");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_shared_map, 0, 4);
	tcase_add_loop_test(tc, test_shared_long_key, 0, 2);
	tcase_add_loop_test(tc, test_suffix_keys, 0, 4);
	tcase_add_loop_test(tc, test_v1_suffix_keys, 0, 2);
	tcase_add_loop_test(tc, test_reference_limit, 0, 4);
	tcase_add_test(tc, test_distinct_keys);
	tcase_add_test(tc, test_lookup_shared_map);
	tcase_add_test(tc, test_repeated_keys);
	tcase_add_test(tc, test_overlapping_maps);
	tcase_add_test(tc, test_unterminated_values);
	tcase_add_test(tc, test_compressed_limit);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	mc_init();
	return run_suite(offload_suite());
}
