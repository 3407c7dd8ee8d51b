// SPDX-License-Identifier: MIT
/*
 * The SYCLBIN reader and writer: files laid out as DPC++'s runtime writes
 * them (syclbin-fixture.h, bare and in their OffloadBinary envelope), the
 * writer's three forms read back, and bad input refused with a line naming
 * the field; the reader's bounds: work and memory linear in the input
 * whatever its headers and entries share or overlap, counted by wrapping
 * the allocator (docs/limits.md).
 */
#include <errno.h>
#include <stdint.h>

#include "util/devimg_limits.h"
#include "props/syclbin.h"
#include "tests/containers/syclbin-fixture.h"
#include "tests/props/testutil.h"
#include "util/errmsg.h"
#include "util/le.h"

/*
 * Counting what the reader allocates. With glibc, which lets a program
 * replace malloc, the program's malloc, calloc, realloc and free wrap
 * glibc's: while counting is on, every byte asked for is added up, the
 * live bytes' peak kept, and an allocation that would take the total
 * past the budget fails, so that a reader doing more than its input
 * allows stops at once (-ENOMEM) instead of exhausting the machine.
 * strcmp is counted too: the work of looking names up. Under sanitizers
 * (which own the allocator) or another C library nothing is counted and
 * the tests check results only.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define NO_COUNTING 1
#endif
#endif
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && \
	!defined(NO_COUNTING)
#define COUNTING 1
#include <malloc.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);

static struct {
	int on;
	size_t budget;		/* bytes that may be asked for in all */
	size_t bytes, calls, live, peak, cmps, refused;
} ac;

static int ac_take(size_t n)
{
	if (!ac.on)
		return 1;
	if (n > ac.budget - ac.bytes) {
		ac.refused++;
		errno = ENOMEM;
		return 0;
	}
	ac.bytes += n;
	ac.calls++;
	return 1;
}

static void ac_live(void *p, int sign)
{
	size_t n;

	if (!ac.on || !p)
		return;
	n = malloc_usable_size(p);
	if (sign > 0) {
		ac.live += n;
		if (ac.live > ac.peak)
			ac.peak = ac.live;
	} else {
		ac.live -= n < ac.live ? n : ac.live;
	}
}

void *malloc(size_t n)
{
	void *p;

	if (!ac_take(n))
		return NULL;
	p = __libc_malloc(n);
	ac_live(p, 1);
	return p;
}

void *calloc(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	if (!ac_take(n * size))
		return NULL;
	p = __libc_calloc(n, size);
	ac_live(p, 1);
	return p;
}

void *realloc(void *old, size_t n)
{
	size_t was = old ? malloc_usable_size(old) : 0;
	void *p;

	if (!ac_take(n))
		return NULL;
	p = __libc_realloc(old, n);
	if (p && ac.on) {
		ac.live -= was < ac.live ? was : ac.live;
		ac_live(p, 1);
	}
	return p;
}

void free(void *p)
{
	ac_live(p, -1);
	__libc_free(p);
}

int strcmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;

	if (ac.on)
		ac.cmps++;
	while (*x && *x == *y) {
		x++;
		y++;
	}
	return *x - *y;
}

static void counting_start(size_t budget)
{
	memset(&ac, 0, sizeof(ac));
	ac.budget = budget;
	ac.on = 1;
}

static void counting_stop(void)
{
	ac.on = 0;
}
#else
static struct {
	size_t bytes, calls, live, peak, cmps, refused;
} ac;

static void counting_start(size_t budget)
{
	(void)budget;
	(void)ac;
}

static void counting_stop(void)
{
}
#endif

/*
 * The budget promised per input byte (docs/limits.md): all the bytes the
 * reader asks the allocator for while parsing, freed or not, at most
 * BUDGET_PER_BYTE per byte of the file plus BUDGET_FIXED; the bytes held
 * at once at most PEAK_PER_BYTE per byte plus BUDGET_FIXED; strcmp calls
 * at most one per byte plus BUDGET_FIXED.
 */
#define BUDGET_PER_BYTE 64u
#define PEAK_PER_BYTE 16u
#define BUDGET_FIXED ((size_t)64 << 10)
#define BUDGET(len) ((len) * BUDGET_PER_BYTE + BUDGET_FIXED)

/* syclbin_parse() under the budget of its input, which must hold. */
static int parse_counted(const unsigned char *b, size_t n, struct syclbin **sb,
			 struct errmsg *err)
{
	int rc;

	counting_start(BUDGET(n));
	rc = syclbin_parse(b, n, "s.syclbin", sb, err);
	counting_stop();
#ifdef COUNTING
	ck_assert_msg(!ac.refused && ac.peak <= n * PEAK_PER_BYTE +
		      BUDGET_FIXED && ac.cmps <= n + BUDGET_FIXED,
		      "%zu bytes: %zu bytes asked for in %zu calls (%zu over "
		      "the budget refused), %zu held at once, %zu strcmp; "
		      "rc %d %s", n, ac.bytes, ac.calls, ac.refused, ac.peak,
		      ac.cmps, rc, err->msg);
#endif
	return rc;
}

static const char *const kernels[] = { "_ZTS4vadd", "_ZTS5vscale" };
static const unsigned char spv[] = { 0x03, 0x02, 0x23, 0x07, 1, 2, 3, 4, 5 };
static const unsigned char cubin[] = { 0x7f, 'E', 'L', 'F', 9, 9 };

static void check_fixture_model(const struct syclbin *sb, int native)
{
	const struct syclbin_module *m;

	ck_assert_uint_eq(sb->version, 1);
	ck_assert_int_eq(sb->has_state, 1);
	ck_assert_uint_eq(sb->state, 2);
	ck_assert_uint_eq(sb->nmodules, 1);
	m = &sb->modules[0];
	ck_assert_uint_eq(syclbin_module_kernel_count(m), 2);
	ck_assert_str_eq(syclbin_module_kernel(m, 0), "_ZTS4vadd");
	ck_assert_str_eq(syclbin_module_kernel(m, 1), "_ZTS5vscale");
	ck_assert_ptr_null(syclbin_module_kernel(m, 2));
	ck_assert_uint_eq(m->nir, 1);
	ck_assert_uint_eq(m->ir[0].size, sizeof(spv));
	ck_assert(!memcmp(m->ir[0].data, spv, sizeof(spv)));
	ck_assert_uint_eq(m->ir[0].ir_type, 0);
	ck_assert_str_eq(m->ir[0].target, "spir64-unknown-unknown");
	ck_assert_uint_eq(m->nnative, (size_t)native);
	if (native) {
		ck_assert_uint_eq(m->native[0].size, sizeof(cubin));
		ck_assert(!memcmp(m->native[0].data, cubin, sizeof(cubin)));
		ck_assert_str_eq(m->native[0].target, "nvptx64-nvidia-cuda");
		ck_assert_str_eq(m->native[0].arch, "sm_80");
	}
	ck_assert(props_find_set(m->meta, "SYCL/device requirements"));
}

START_TEST(test_runtime_layout)
{
	int envelope = _i & 1, native = _i >> 1;
	struct errmsg err = { 0 };
	struct syclbin *sb;
	unsigned char *b;
	size_t n;

	b = fx_syclbin(envelope, 2, kernels, 2,
		       "[SYCL/device requirements]\naspects=2|AAAAAAAAAAA\n",
		       spv, sizeof(spv), native ? cubin : NULL, sizeof(cubin),
		       "nvptx64-nvidia-cuda", "sm_80", &n);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(syclbin_is(b, n), 1);
	ck_assert_int_eq(syclbin_parse(b, n, "fx.syclbin", &sb, &err), 0);
	ck_assert_int_eq(sb->form, envelope ? SYCLBIN_FORM_ENVELOPE :
			 SYCLBIN_FORM_BARE);
	check_fixture_model(sb, native);
	syclbin_free(sb);
	free(b);
}
END_TEST

/* The writer: each form read back to the same model. */
START_TEST(test_write_read_back)
{
	static const enum syclbin_form forms[] = {
		SYCLBIN_FORM_BARE, SYCLBIN_FORM_ENVELOPE, SYCLBIN_FORM_V2,
	};
	struct syclbin_image_in imgs[2] = {
		{ 0, "spir64-unknown-unknown", NULL, spv, sizeof(spv) },
		{ 1, "nvptx64-nvidia-cuda", "sm_80", cubin, sizeof(cubin) },
	};
	struct syclbin_module_in mods[2];
	struct errmsg err = { 0 };
	struct props *meta = props_new(), *meta2 = props_new();
	struct props_set *s;
	struct syclbin *sb;
	unsigned char *b;
	size_t n;

	s = props_add_set(meta, "SYCL/kernel names");
	props_add_u32(s, "_ZTS4vadd", 1);
	props_add_u32(s, "_ZTS5vscale", 1);
	s = props_add_set(meta, "SYCL/device requirements");
	props_add_bytes(s, "aspects", "\x01\0\0\0", 32);
	s = props_add_set(meta2, "SYCL/kernel names");
	props_add_u32(s, "other", 1);
	mods[0] = (struct syclbin_module_in){ meta, imgs, 2 };
	mods[1] = (struct syclbin_module_in){ meta2, imgs, 1 };

	ck_assert_int_eq(syclbin_write(1, mods, 2, forms[_i], &b, &n, &err), 0);
	ck_assert_int_eq(syclbin_is(b, n), 1);
	ck_assert_int_eq(syclbin_parse(b, n, "w", &sb, &err), 0);
	ck_assert_int_eq(sb->form, forms[_i]);
	ck_assert_uint_eq(sb->state, 1);
	ck_assert_uint_eq(sb->nmodules, 2);
	ck_assert(props_equal(sb->modules[0].meta, meta));
	ck_assert(props_equal(sb->modules[1].meta, meta2));
	ck_assert_uint_eq(sb->modules[0].nir, 1);
	ck_assert_uint_eq(sb->modules[0].nnative, 1);
	ck_assert_uint_eq(sb->modules[1].nir, 1);
	ck_assert_uint_eq(sb->modules[1].nnative, 0);
	ck_assert(!memcmp(sb->modules[1].ir[0].data, spv, sizeof(spv)));
	ck_assert(!memcmp(sb->modules[0].native[0].data, cubin, sizeof(cubin)));
	ck_assert_str_eq(sb->modules[0].native[0].arch, "sm_80");
	ck_assert_str_eq(sb->modules[0].native[0].target, "nvptx64-nvidia-cuda");
	ck_assert_str_eq(sb->modules[1].ir[0].target, "spir64-unknown-unknown");
	if (forms[_i] == SYCLBIN_FORM_ENVELOPE) {
		/* as the runtime's envelope reader wants it */
		ck_assert(!memcmp(b, "\x10\xff\x10\xad\x02\0\0\0", 8));
		ck_assert_uint_eq(b[32], 7);
		ck_assert_uint_eq(b[34], 8);
	}
	syclbin_free(sb);
	free(b);
	props_free(meta);
	props_free(meta2);
}
END_TEST

/* Every prefix of a file is refused, never read past. */
START_TEST(test_truncated)
{
	struct errmsg err;
	struct syclbin *sb;
	unsigned char *b, *c;
	size_t n, i, pad = (8 - (sizeof(spv) + sizeof(cubin)) % 8) % 8;

	b = fx_syclbin(_i, 0, kernels, 2, "", spv, sizeof(spv), cubin,
		       sizeof(cubin), "nvptx64-nvidia-cuda", "sm_80", &n);
	/* A bare file may lose its final padding: nothing reads it. */
	for (i = 0; i < (_i ? n : n - pad); i++) {
		/* a copy of exactly i bytes, so ASan sees any overread */
		c = malloc(i ? i : 1);
		memcpy(c, b, i);
		memset(&err, 0, sizeof(err));
		ck_assert_int_ne(syclbin_parse(c, i, "t.syclbin", &sb, &err), 0);
		ck_assert_ptr_null(sb);
		ck_assert_err_has(err, "t.syclbin");
		free(c);
	}
	free(b);
}
END_TEST

static void expect_bad(const unsigned char *b, size_t n, const char *what)
{
	struct errmsg err = { 0 };
	struct syclbin *sb;

	ck_assert_int_eq(syclbin_parse(b, n, "bad.syclbin", &sb, &err),
			 -EINVAL);
	ck_assert_ptr_null(sb);
	ck_assert_err_has(err, "bad.syclbin");
	ck_assert_err_has(err, what);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
}

START_TEST(test_bad_fields)
{
	unsigned char *b, *c;
	size_t n;

	b = fx_syclbin(0, 1, kernels, 2, "", spv, sizeof(spv), NULL, 0, NULL,
		       NULL, &n);
	c = malloc(n);
#define RESET memcpy(c, b, n)
	RESET;
	c[0] = 'X';
	expect_bad(c, n, "not a SYCLBIN");
	RESET;
	put_le32(c + 4, 2);
	expect_bad(c, n, "version 2");
	RESET;
	put_le32(c + 8, 0x10000000);
	expect_bad(c, n, "header tables");
	RESET;
	put_le64(c + 24, UINT64_MAX);
	expect_bad(c, n, "header tables");
	RESET;
	put_le64(c + 32, n);
	expect_bad(c, n, "byte tables");
	RESET;
	put_le64(c + 48, 4096);
	expect_bad(c, n, "global metadata");
	RESET;
	put_le64(c + 56, UINT64_MAX);		/* module metadata offset */
	expect_bad(c, n, "abstract module 0 metadata");
	RESET;
	put_le32(c + 76, 1);			/* IR offset past the table */
	expect_bad(c, n, "past the header tables");
	RESET;
	put_le64(c + 88 + 16, 1);		/* IR bytes 1 .. size + 1 */
	expect_bad(c, n, "IR module 0 bytes");
	RESET;
	put_le64(c + 88 + 24, UINT64_MAX);
	expect_bad(c, n, "IR module 0 bytes");
	RESET;
	memcpy(c + 56 + 2 * 32, "[SYCLBIN/global metadata]\nstate=1|7", 35);
	expect_bad(c, n, "state");
#undef RESET
	free(c);
	free(b);
}
END_TEST

/* Version 2 files made by hand through the OffloadBinary writer. */
START_TEST(test_v2_bad_roles)
{
	static const struct offload_string g[] = {
		{ "role", "global_metadata", 15 },
	};
	static const struct offload_string am5[] = {
		{ "role", "am_metadata", 11 }, { "am_index", "5", 1 },
	};
	static const struct offload_string amneg[] = {
		{ "role", "am_metadata", 11 }, { "am_index", "-1", 2 },
	};
	static const struct offload_string ir0[] = {
		{ "role", "ir", 2 }, { "am_index", "0", 1 },
	};
	static const struct offload_string odd[] = { { "role", "odd", 3 } };
	static const struct offload_string nl[] = { { "role", "a\nb", 3 } };
	static const struct offload_string am0[] = {
		{ "role", "am_metadata", 11 }, { "am_index", "0", 1 },
	};
	const char *gm = "[SYCLBIN/global metadata]\nstate=1|0\n";
	struct offload_image_in e[2] = {
		{ 7, 8, 0, gm, strlen(gm), g, 1 },
		{ 7, 8, 0, "", 0, am5, 2 },
	};
	struct errmsg err = { 0 };
	unsigned char *b;
	size_t n;

	ck_assert_int_eq(offload_binary_write(e, 2, 2, &b, &n, &err), 0);
	expect_bad(b, n, "am_index '5'");
	free(b);
	e[1].strings = amneg;
	ck_assert_int_eq(offload_binary_write(e, 2, 2, &b, &n, &err), 0);
	expect_bad(b, n, "am_index '-1'");
	free(b);
	e[1].strings = ir0;
	e[1].image = "\x10\0\0\0\0\0\0\0";	/* metadata size 16 > 0 left */
	e[1].image_size = 8;
	ck_assert_int_eq(offload_binary_write(e, 2, 2, &b, &n, &err), 0);
	expect_bad(b, n, "metadata size");
	free(b);
	e[1].image = "\4\0\0\0\0\0\0\0[X]\n";	/* metadata: one empty set */
	e[1].image_size = 12;
	ck_assert_int_eq(offload_binary_write(e, 2, 2, &b, &n, &err), 0);
	expect_bad(b, n, "no am_metadata for am_index 0");
	free(b);
	e[1].strings = odd;
	e[1].nstrings = 1;
	ck_assert_int_eq(offload_binary_write(e, 2, 2, &b, &n, &err), 0);
	expect_bad(b, n, "role 'odd'");
	free(b);
	/* a role with a line break: the message stays one line */
	e[1].strings = nl;
	ck_assert_int_eq(offload_binary_write(e, 2, 2, &b, &n, &err), 0);
	expect_bad(b, n, "role 'a\\x0ab'");
	free(b);
	/* a property type DPC++'s reader refuses is a malformed file */
	e[1] = e[0];
	e[1].strings = am0;
	e[1].nstrings = 2;
	e[1].image = "[S]\nx=9|1\n";
	e[1].image_size = strlen(e[1].image);
	ck_assert_int_eq(offload_binary_write(e, 2, 2, &b, &n, &err), 0);
	expect_bad(b, n, "abstract module 0 metadata");
	free(b);
	e[1] = e[0];
	ck_assert_int_eq(offload_binary_write(e, 2, 2, &b, &n, &err), 0);
	expect_bad(b, n, "a second global_metadata");
	free(b);
	e[1].image_kind = 6;
	ck_assert_int_eq(offload_binary_write(e, 2, 2, &b, &n, &err), 0);
	expect_bad(b, n, "image kind 6");
	free(b);
}
END_TEST

/* Version 2 as DPC++'s LLVM writes it: roles in entry strings. */
START_TEST(test_v2_by_hand)
{
	static const struct offload_string g[] = {
		{ "sycl_format_version", "2", 1 },
		{ "role", "global_metadata", 15 },
	};
	static const struct offload_string am[] = {
		{ "sycl_format_version", "2", 1 },
		{ "role", "am_metadata", 11 },
		{ "am_index", "0", 1 },
	};
	static const struct offload_string ir[] = {
		{ "sycl_format_version", "2", 1 },
		{ "role", "ir", 2 },
		{ "am_index", "0", 1 },
		{ "ir_type", "0", 1 },
		{ "triple", "spir64-unknown-unknown", 22 },
	};
	const char *gm = "[SYCLBIN/global metadata]\nstate=1|2\n";
	const char *amm = "[SYCL/kernel names]\nk1=1|1\nk2=1|1\n";
	const char *irm = "[SYCLBIN/ir module metadata]\ntype=1|0\n";
	unsigned char payload[256];
	struct offload_image_in e[3] = {
		{ 7, 8, 0, gm, strlen(gm), g, 2 },
		{ 7, 8, 0, amm, strlen(amm), am, 3 },
		{ 7, 8, 0, payload, 0, ir, 5 },
	};
	struct errmsg err = { 0 };
	struct syclbin *sb;
	unsigned char *b;
	size_t n;

	put_le64(payload, strlen(irm));
	memcpy(payload + 8, irm, strlen(irm));
	memcpy(payload + 8 + strlen(irm), spv, sizeof(spv));
	e[2].image_size = 8 + strlen(irm) + sizeof(spv);
	ck_assert_int_eq(offload_binary_write(e, 3, 2, &b, &n, &err), 0);
	ck_assert_int_eq(syclbin_is(b, n), 1);
	ck_assert_int_eq(syclbin_parse(b, n, "v2", &sb, &err), 0);
	ck_assert_int_eq(sb->form, SYCLBIN_FORM_V2);
	ck_assert_uint_eq(sb->version, 2);
	ck_assert_uint_eq(sb->state, 2);
	ck_assert_uint_eq(sb->nmodules, 1);
	ck_assert_uint_eq(syclbin_module_kernel_count(&sb->modules[0]), 2);
	ck_assert_str_eq(syclbin_module_kernel(&sb->modules[0], 1), "k2");
	ck_assert_uint_eq(sb->modules[0].nir, 1);
	ck_assert_uint_eq(sb->modules[0].ir[0].size, sizeof(spv));
	ck_assert(!memcmp(sb->modules[0].ir[0].data, spv, sizeof(spv)));
	ck_assert_uint_eq(sb->modules[0].ir[0].ir_type, 0);
	syclbin_free(sb);
	free(b);
}
END_TEST

/*
 * Every byte of a file changed to each of a few values: the reader
 * accepts or refuses, never reads outside the buffer (ASan builds) and
 * never leaks.
 */
START_TEST(test_mutations)
{
	static const unsigned char vals[] = { 0x00, 0x01, 0x7f, 0x80, 0xff };
	int form = _i;
	struct errmsg err;
	struct syclbin *sb;
	unsigned char *b, *c;
	size_t n, i, v;

	if (form < 2) {
		b = fx_syclbin(form, 1, kernels, 2, "", spv, sizeof(spv), cubin,
			       sizeof(cubin), "nvptx64-nvidia-cuda", "sm_80",
			       &n);
	} else {
		struct syclbin_image_in img = { 0, "spir64", NULL, spv,
						sizeof(spv) };
		struct syclbin_module_in mod = { NULL, &img, 1 };

		ck_assert_int_eq(syclbin_write(0, &mod, 1, SYCLBIN_FORM_V2, &b,
					       &n, NULL), 0);
	}
	c = malloc(n);
	for (i = 0; i < n; i++) {
		for (v = 0; v < sizeof(vals); v++) {
			memcpy(c, b, n);
			c[i] = vals[v];
			if (syclbin_parse(c, n, "m", &sb, &err) == 0)
				syclbin_free(sb);
		}
	}
	free(c);
	free(b);
}
END_TEST

/* ---- the reader's bounds (docs/limits.md) ---- */

#define SHARE_ALL (FX_SHARE_AM | FX_SHARE_IR | FX_SHARE_BYTES)

/*
 * 16,384 abstract modules of a 1 MB file that each name every IR module
 * header (2^28 images), and the 128 KB one of 2,048 (4 million): refused
 * from the headers, before any image is made.
 */
START_TEST(test_modules_overlap)
{
	static const uint32_t n[] = { 16384, 2048 };
	struct errmsg err = { 0 };
	struct syclbin *sb;
	unsigned char *b;
	size_t len;

	b = fx_many(n[_i], n[_i], FX_OVERLAP | SHARE_ALL, &len);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_ge(len, n[_i] * 64u);
	ck_assert_int_eq(parse_counted(b, len, &sb, &err), -EINVAL);
	ck_assert_ptr_null(sb);
	ck_assert_err_has(err, "s.syclbin: SYCLBIN abstract module 1: IR "
			  "module header 0 also belongs to abstract module 0");
	free(b);
}
END_TEST

/* Neighbours: ranges that overlap by one header, native ones too. */
START_TEST(test_modules_overlap_neighbours)
{
	struct syclbin_image_in nat = { 1, "nvptx64-nvidia-cuda", "sm_80",
					cubin, sizeof(cubin) };
	struct syclbin_module_in mods[2] = { { NULL, &nat, 1 },
					     { NULL, &nat, 1 } };
	struct props *meta = props_new();
	struct errmsg err = { 0 };
	struct syclbin *sb;
	unsigned char *b;
	size_t len;

	/* module i names IR module headers i and i + 1 */
	b = fx_many(2048, 2048, FX_STAIR, &len);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(parse_counted(b, len, &sb, &err), -EINVAL);
	ck_assert_err_has(err, "abstract module 1: IR module header 1 also "
			  "belongs to abstract module 0");
	free(b);
	/* module 1 names module 0's native image header */
	props_add_u32(props_add_set(meta, "SYCL/kernel names"), "k", 1);
	mods[0].meta = mods[1].meta = meta;
	ck_assert_int_eq(syclbin_write(0, mods, 2, SYCLBIN_FORM_BARE, &b, &len,
				       &err), 0);
	ck_assert_int_eq(parse_counted(b, len, &sb, &err), 0);
	ck_assert_uint_eq(sb->modules[1].nnative, 1);
	syclbin_free(sb);
	put_le32(b + 56 + 32 + 28, 0);
	ck_assert_int_eq(parse_counted(b, len, &sb, &err), -EINVAL);
	ck_assert_err_has(err, "abstract module 1: native image header 0 "
			  "also belongs to abstract module 0");
	/* a module of no image claims nothing, wherever it points */
	put_le32(b + 56 + 32 + 24, 0);
	ck_assert_int_eq(parse_counted(b, len, &sb, &err), 0);
	ck_assert_uint_eq(sb->modules[1].nnative, 0);
	syclbin_free(sb);
	free(b);
	props_free(meta);
}
END_TEST

/* A refusal for what is referenced, DEVIMG_LIMIT_REFERENCE_RATIO. */
#define REFS_REFUSAL "come to more than 16 times the "

/*
 * Metadata ranges that overlap without being equal: IR module j's starts
 * j bytes into one blob. 64 such ranges are refused for the overlap;
 * 16,384 of 16 KB (134 MB of text to parse, were each read) already for
 * what they reference, before the overlap is looked for.
 */
START_TEST(test_meta_overlap)
{
	uint32_t n = _i ? 16384 : 64;
	struct errmsg err = { 0 };
	struct syclbin *sb;
	unsigned char *b;
	size_t len;

	b = fx_many(n, n, FX_SHIFT_IR, &len);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(parse_counted(b, len, &sb, &err), -EINVAL);
	ck_assert_ptr_null(sb);
	if (_i) {
		ck_assert_err_has(err, REFS_REFUSAL "file's");
	} else {
		ck_assert_err_has(err, "SYCLBIN abstract module 0 IR module 0 "
				  "metadata (");
		ck_assert_err_has(err, "overlap without being the same range");
	}
	free(b);
}
END_TEST

/*
 * Ranges shared by design: every module's metadata one range, every IR
 * module's another, every IR module's bytes one more. Each is parsed
 * once and shared; the file reads as it did.
 */
START_TEST(test_shared_ranges)
{
	struct errmsg err = { 0 };
	const struct syclbin_module *m0;
	struct syclbin *sb;
	unsigned char *b;
	size_t len, i;

	b = fx_many(16384, 16384, SHARE_ALL, &len);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(parse_counted(b, len, &sb, &err), 0);
	ck_assert_uint_eq(sb->nmodules, 16384);
	m0 = &sb->modules[0];
	for (i = 0; i < sb->nmodules; i++) {
		const struct syclbin_module *m = &sb->modules[i];

		ck_assert_ptr_eq(m->meta, m0->meta);
		ck_assert_uint_eq(syclbin_module_kernel_count(m), 1);
		ck_assert_str_eq(syclbin_module_kernel(m, 0), "k");
		ck_assert_uint_eq(m->nir, 1);
		ck_assert_uint_eq(m->nnative, 0);
		ck_assert_ptr_eq(m->ir[0].meta, m0->ir[0].meta);
		ck_assert_ptr_eq(m->ir[0].target, m0->ir[0].target);
		ck_assert_ptr_eq(m->ir[0].data, m0->ir[0].data);
		ck_assert_uint_eq(m->ir[0].size, 10);
		ck_assert_uint_eq(m->ir[0].ir_type, 0);
	}
	ck_assert_str_eq(m0->ir[0].target, "spir64-unknown-unknown");
	ck_assert_ptr_ne(m0->meta, m0->ir[0].meta);
	syclbin_free(sb);
	free(b);
}
END_TEST

/*
 * Version 2: 300 ir entries sharing one image whose metadata holds
 * 100,000 properties (1.1 MB); then also 300 modules whose am_metadata
 * entries share one image naming 100,000 kernels (2.2 MB). Whoever
 * builds the modules would handle 30 million properties or kernels:
 * refused, before any metadata is parsed. With 16 ir entries and
 * modules sharing them, read.
 */
START_TEST(test_v2_shared)
{
	unsigned shape = _i & 1 ? FX_SHARE_AM | FX_SHARE_IR : FX_SHARE_IR;
	uint32_t nir = _i & 2 ? 16 : 300, nam = _i & 1 ? nir : 1;
	struct errmsg err = { 0 };
	const struct syclbin_image *ir0;
	struct syclbin *sb;
	unsigned char *b;
	size_t len, i;

	b = fx_v2(nam, nir, 100000, shape, &len);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_ge(len, 1000000);
	if (nir > 16) {
		ck_assert_int_eq(parse_counted(b, len, &sb, &err), -EINVAL);
		ck_assert_err_has(err, "s.syclbin: OffloadBinary entry ");
		ck_assert_err_has(err, REFS_REFUSAL "blob's");
#ifdef COUNTING
		/* the structure only: no metadata parsed */
		ck_assert_uint_le(ac.bytes, len);
#endif
		free(b);
		return;
	}
	ck_assert_int_eq(parse_counted(b, len, &sb, &err), 0);
	ck_assert_int_eq(sb->form, SYCLBIN_FORM_V2);
	ck_assert_uint_eq(sb->nmodules, nam);
	ir0 = &sb->modules[0].ir[0];
	ck_assert_ptr_nonnull(props_set_find(props_find_set(ir0->meta,
			SYCLBIN_SET_IR), "p99999"));
	for (i = 0; i < nir; i++) {
		const struct syclbin_module *m = &sb->modules[i % nam];
		const struct syclbin_image *img = &m->ir[i / nam];

		ck_assert_ptr_eq(img->meta, ir0->meta);
		ck_assert_ptr_eq(img->target, ir0->target);
		ck_assert_uint_eq(img->size, 9);
		ck_assert_ptr_eq(m->meta, sb->modules[0].meta);
		ck_assert_uint_eq(syclbin_module_kernel_count(m),
				  _i & 1 ? 100000 : 1);
	}
	ck_assert_uint_eq(sb->modules[0].nir, nir / nam);
	ck_assert_str_eq(ir0->target, "spir64-unknown-unknown");
	syclbin_free(sb);
	free(b);
}
END_TEST

/*
 * A bare file whose 300 modules' IR modules share one 1.1 MB metadata
 * range: 330 MB referenced from 1.1 MB, refused before the metadata is
 * parsed; 16 modules sharing it are read.
 */
START_TEST(test_bare_shared_fat)
{
	uint32_t n = _i ? 16 : 300;
	struct errmsg err = { 0 };
	struct syclbin *sb;
	unsigned char *b;
	size_t len, i;

	b = fx_many(n, n, FX_SHARE_IR | FX_FAT, &len);
	ck_assert_ptr_nonnull(b);
	if (n > 16) {
		ck_assert_int_eq(parse_counted(b, len, &sb, &err), -EINVAL);
		ck_assert_err_has(err, "s.syclbin: SYCLBIN abstract module ");
		ck_assert_err_has(err, REFS_REFUSAL "file's");
#ifdef COUNTING
		ck_assert_uint_le(ac.bytes, len / 8);
#endif
		free(b);
		return;
	}
	ck_assert_int_eq(parse_counted(b, len, &sb, &err), 0);
	for (i = 0; i < n; i++)
		ck_assert_ptr_eq(sb->modules[i].ir[0].meta,
				 sb->modules[0].ir[0].meta);
	ck_assert_ptr_nonnull(props_set_find(props_find_set(
		sb->modules[0].ir[0].meta, SYCLBIN_SET_IR), "p99999"));
	syclbin_free(sb);
	free(b);
}
END_TEST

/*
 * DEVIMG_LIMIT_IMAGES: at the limit read, one past it refused; the bare
 * file's count comes from its headers, before anything per image or any
 * metadata is made.
 */
START_TEST(test_image_cap)
{
	uint32_t n = DEVIMG_LIMIT_IMAGES + (_i & 1);
	int v2 = _i >> 1;
	struct errmsg err = { 0 };
	struct syclbin *sb;
	unsigned char *b;
	size_t len;
	int rc;

	b = v2 ? fx_v2(1, n, 0, FX_SHARE_IR, &len) :
		 fx_many(n, n, SHARE_ALL, &len);
	ck_assert_ptr_nonnull(b);
	rc = parse_counted(b, len, &sb, &err);
	if (n == DEVIMG_LIMIT_IMAGES) {
		ck_assert_int_eq(rc, 0);
		ck_assert_uint_eq(sb->nmodules, v2 ? 1 : n);
		ck_assert_uint_eq(v2 ? sb->modules[0].nir :
				  sb->modules[n - 1].nir, v2 ? n : 1);
		syclbin_free(sb);
	} else {
		ck_assert_int_eq(rc, -EINVAL);
		ck_assert_err_has(err, "s.syclbin: SYCLBIN of 65001 images (IR "
				  "modules and native images of its abstract "
				  "modules), more than the 65000 of a "
				  "descriptor");
#ifdef COUNTING
		/* bare: only the headers' owners, 4 bytes a 32-byte header */
		if (!v2)
			ck_assert_uint_le(ac.bytes, len / 8 + 4096);
#endif
	}
	free(b);
}
END_TEST

/*
 * Honest files of thousands of modules, as DPC++ writes them (each
 * module and IR module its own metadata and bytes): read in full, under
 * the budget.
 */
START_TEST(test_honest_many)
{
	struct errmsg err = { 0 };
	struct syclbin *sb;
	unsigned char *b;
	char k[32];
	size_t len, i, n = _i ? 3000 : 16384;

	b = _i ? fx_v2(3000, 3000, 2, 0, &len) :
		 fx_many(16384, 16384, 0, &len);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(parse_counted(b, len, &sb, &err), 0);
	ck_assert_uint_eq(sb->nmodules, n);
	ck_assert_uint_eq(sb->state, 2);
	for (i = 0; i < n; i++) {
		const struct syclbin_module *m = &sb->modules[i];

		snprintf(k, sizeof(k), "k%zu", i);
		ck_assert_uint_eq(syclbin_module_kernel_count(m), 1);
		ck_assert_str_eq(syclbin_module_kernel(m, 0), k);
		ck_assert_uint_eq(m->nir, 1);
		ck_assert_str_eq(m->ir[0].target, "spir64-unknown-unknown");
		ck_assert_uint_eq(m->ir[0].ir_type, 0);
		if (_i) {
			ck_assert(!memcmp(m->ir[0].data, "\x03\x02\x23\x07spirv",
					  9));
		} else {
			ck_assert_uint_eq(m->ir[0].size, 8);
			ck_assert_uint_eq(m->ir[0].data[4] |
					  m->ir[0].data[5] << 8, i);
		}
		if (i)
			ck_assert_ptr_ne(m->meta, sb->modules[i - 1].meta);
	}
	syclbin_free(sb);
	free(b);
}
END_TEST

/*
 * The densest metadata a file can hold: each module and IR module its own
 * "[A]", 35 bytes of file a blob; and modules without images.
 */
START_TEST(test_tiny_metadata)
{
	uint32_t nir = _i ? 0 : 16384;
	struct errmsg err = { 0 };
	struct syclbin *sb;
	unsigned char *b;
	size_t len;

	b = fx_many(16384, nir, FX_TINY | FX_SHARE_BYTES, &len);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(parse_counted(b, len, &sb, &err), 0);
	ck_assert_uint_eq(sb->nmodules, 16384);
	ck_assert_uint_eq(sb->modules[16383].nir, nir ? 1 : 0);
	ck_assert_ptr_ne(sb->modules[16383].meta, sb->modules[16382].meta);
	ck_assert_uint_eq(syclbin_module_kernel_count(&sb->modules[0]), 0);
	if (nir)
		ck_assert_str_eq(sb->modules[16383].ir[0].target, "");
	syclbin_free(sb);
	free(b);
}
END_TEST

/*
 * Names told apart by hashing, never by comparing each with all: module
 * metadata of 20,000 sets each opened twice and a set of 50,000
 * properties each given twice.
 */
START_TEST(test_names_many)
{
	static const struct offload_string g[] = {
		{ "role", "global_metadata", 15 },
	};
	static const struct offload_string am[] = {
		{ "role", "am_metadata", 11 }, { "am_index", "0", 1 },
	};
	const char *gm = "[SYCLBIN/global metadata]\nstate=1|0\n";
	struct offload_image_in e[2] = {
		{ 7, 8, 0, gm, strlen(gm), g, 1 },
		{ 7, 8, 0, NULL, 0, am, 2 },
	};
	struct errmsg err = { 0 };
	struct fx_buf t = { 0 };
	const struct props *p;
	struct syclbin *sb;
	unsigned char *b;
	char line[64];
	size_t len, i;

	for (i = 0; i < 40000; i++) {
		snprintf(line, sizeof(line), "[set %zu]\nx=1|%zu\n", i % 20000,
			 i);
		fx_puts(&t, line);
	}
	fx_puts(&t, "[SYCL/kernel names]\n");
	for (i = 0; i < 100000; i++) {
		snprintf(line, sizeof(line), "kernel_%zu=1|1\n", i % 50000);
		fx_puts(&t, line);
	}
	ck_assert(!t.failed);
	e[1].image = t.p;
	e[1].image_size = t.n;
	ck_assert_int_eq(offload_binary_write(e, 2, 2, &b, &len, &err), 0);
	ck_assert_int_eq(parse_counted(b, len, &sb, &err), 0);
	p = sb->modules[0].meta;
	ck_assert_uint_eq(p->nsets, 20001);
	ck_assert_uint_eq(props_set_find(props_find_set(p, "set 7"), "x")->u32,
			  20007);
	ck_assert_uint_eq(syclbin_module_kernel_count(&sb->modules[0]), 50000);
	ck_assert_str_eq(syclbin_module_kernel(&sb->modules[0], 49999),
			 "kernel_49999");
	syclbin_free(sb);
	free(b);
	free(t.p);
}
END_TEST

static Suite *syclbin_suite(void)
{
	Suite *s = suite_create("syclbin");
	TCase *tc = tcase_create("syclbin");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_runtime_layout, 0, 4);
	tcase_add_loop_test(tc, test_write_read_back, 0, 3);
	tcase_add_loop_test(tc, test_truncated, 0, 2);
	tcase_add_test(tc, test_bad_fields);
	tcase_add_test(tc, test_v2_bad_roles);
	tcase_add_test(tc, test_v2_by_hand);
	tcase_add_loop_test(tc, test_mutations, 0, 3);
	suite_add_tcase(s, tc);

	tc = tcase_create("bounds");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_modules_overlap, 0, 2);
	tcase_add_test(tc, test_modules_overlap_neighbours);
	tcase_add_loop_test(tc, test_meta_overlap, 0, 2);
	tcase_add_test(tc, test_shared_ranges);
	tcase_add_loop_test(tc, test_v2_shared, 0, 4);
	tcase_add_loop_test(tc, test_bare_shared_fat, 0, 2);
	tcase_add_loop_test(tc, test_image_cap, 0, 4);
	tcase_add_loop_test(tc, test_honest_many, 0, 2);
	tcase_add_loop_test(tc, test_tiny_metadata, 0, 2);
	tcase_add_test(tc, test_names_many);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(syclbin_suite());
}
