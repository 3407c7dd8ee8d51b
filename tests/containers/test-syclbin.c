// SPDX-License-Identifier: MIT
/*
 * The SYCLBIN reader and writer: files laid out as DPC++'s runtime writes
 * them (syclbin-fixture.h, bare and in their OffloadBinary envelope), the
 * writer's three forms read back, and bad input refused with a line naming
 * the field.
 */
#include <errno.h>

#include "syclbin.h"
#include "syclbin-fixture.h"
#include "../props/testutil.h"

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
	struct props_error err = { "" };
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
	struct props_error err = { "" };
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
	struct props_error err;
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
	struct props_error err = { "" };
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
	struct props_error err = { "" };
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
	struct props_error err = { "" };
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
	struct props_error err;
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
	return s;
}

int main(void)
{
	return run_suite(syclbin_suite());
}
