// SPDX-License-Identifier: MIT
/*
 * The registry: kernel lookups over several descriptors sharing names,
 * unregistration by descriptor, records that outlive their library,
 * introspection of what registration copied, and the kernel names of
 * OffloadBinary blobs in each form of their "symbols" string.
 */
#include <errno.h>
#include <stdio.h>

#include "tests/loader/fixture.h"
#include "props/offload-binary.h"
#include "util/errmsg.h"

static const unsigned char bytes[32] = { 0x03, 0x02, 0x23, 0x07, 9, 9 };

/* Strings in heap memory, to scribble over as dlclose() would unmap them. */
struct heap_strings {
	char *target;
	char *opts;
	char *names[3];
};

static void heap_strings_new(struct heap_strings *h, const char *prefix)
{
	char buf[64];
	int i;

	h->target = strdup("spir64_x86_64");
	h->opts = strdup("-cl-fast-relaxed-math");
	for (i = 0; i < 3; i++) {
		snprintf(buf, sizeof(buf), "%s_%d", prefix, i);
		h->names[i] = strdup(buf);
	}
}

static void heap_strings_scribble_free(struct heap_strings *h)
{
	int i;

	memset(h->target, 'X', strlen(h->target));
	free(h->target);
	memset(h->opts, 'X', strlen(h->opts));
	free(h->opts);
	for (i = 0; i < 3; i++) {
		memset(h->names[i], 'X', strlen(h->names[i]));
		free(h->names[i]);
	}
}

/* Image 0 of a: k_shared, k_a; image 1: k_shared, k_a1. b: k_shared, k_b. */
static void two_descriptors(struct fixture *a, struct fixture *b)
{
	fx_init(a);
	fx_image(a, "spir64", DEVIMG_FORMAT_SPIRV, bytes, sizeof(bytes));
	fx_entry(a, 0, "k_shared");
	fx_entry(a, 0, "k_a");
	fx_image(a, "nvptx64", DEVIMG_FORMAT_NONE, bytes, sizeof(bytes));
	fx_entry(a, 1, "k_shared");
	fx_entry(a, 1, "k_a1");
	fx_init(b);
	fx_image(b, "spir64", DEVIMG_FORMAT_SPIRV, bytes, sizeof(bytes));
	fx_entry(b, 0, "k_b");
	fx_entry(b, 0, "k_shared");
}

static size_t find(const char *name, struct devimg_image **imgs, size_t max)
{
	size_t n = 99;
	int r = devimg_registry_find_kernel(name, imgs, max, &n);

	ck_assert_int_eq(r, n ? 0 : -ENOENT);
	return n;
}

static void unref_all(struct devimg_image **imgs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		devimg_image_unref(imgs[i]);
}

START_TEST(test_lookup_in_registration_order)
{
	struct devimg_image *imgs[4];
	struct fixture a, b;

	two_descriptors(&a, &b);
	__sycl_register_lib(&a.desc);
	__sycl_register_lib(&b.desc);
	ck_assert_uint_eq(find("k_shared", imgs, 4), 3);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[0]), &a.desc);
	ck_assert_uint_eq(devimg_image_index(imgs[0]), 0);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[1]), &a.desc);
	ck_assert_uint_eq(devimg_image_index(imgs[1]), 1);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[2]), &b.desc);
	ck_assert_uint_lt(devimg_image_id(imgs[0]), devimg_image_id(imgs[1]));
	ck_assert_uint_lt(devimg_image_id(imgs[1]), devimg_image_id(imgs[2]));
	/* The registry holds one reference, the lookup gave another. */
	ck_assert_ptr_nonnull(devimg_image_unref(imgs[0]));
	unref_all(imgs + 1, 2);
	ck_assert_uint_eq(find("k_a1", imgs, 4), 1);
	ck_assert_str_eq(devimg_image_target(imgs[0]), "nvptx64");
	unref_all(imgs, 1);
	ck_assert_uint_eq(find("k_none", imgs, 4), 0);
	ck_assert_uint_eq(find("", imgs, 4), 0);
	__sycl_unregister_lib(&a.desc);
	__sycl_unregister_lib(&b.desc);
	fx_fini(&a);
	fx_fini(&b);
}
END_TEST

START_TEST(test_lookup_truncated_to_max)
{
	struct devimg_image *imgs[1];
	struct fixture a, b;
	size_t n;

	two_descriptors(&a, &b);
	__sycl_register_lib(&a.desc);
	__sycl_register_lib(&b.desc);
	ck_assert_int_eq(devimg_registry_find_kernel("k_shared", imgs, 1, &n),
			 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[0]), &a.desc);
	devimg_image_unref(imgs[0]);
	ck_assert_int_eq(devimg_registry_find_kernel("k_shared", NULL, 0, &n),
			 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(devimg_registry_find_kernel(NULL, NULL, 0, &n),
			 -EINVAL);
	ck_assert_int_eq(devimg_registry_find_kernel("k_a", NULL, 1, &n),
			 -EINVAL);
	ck_assert_int_eq(devimg_registry_images(imgs, 1, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[0]), &a.desc);
	devimg_image_unref(imgs[0]);
	ck_assert_int_eq(devimg_registry_images(NULL, 0, NULL), -EINVAL);
	fx_fini(&a);
	fx_fini(&b);
}
END_TEST

START_TEST(test_unregister_removes_exactly_that_descriptor)
{
	struct devimg_image *imgs[4];
	struct fixture a, b;
	size_t n;

	two_descriptors(&a, &b);
	__sycl_register_lib(&a.desc);
	__sycl_register_lib(&b.desc);
	__sycl_unregister_lib(&a.desc);
	ck_assert_uint_eq(find("k_shared", imgs, 4), 1);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[0]), &b.desc);
	unref_all(imgs, 1);
	ck_assert_uint_eq(find("k_a", imgs, 4), 0);
	ck_assert_uint_eq(find("k_a1", imgs, 4), 0);
	ck_assert_uint_eq(find("k_b", imgs, 4), 1);
	unref_all(imgs, 1);
	ck_assert_int_eq(devimg_registry_images(imgs, 4, &n), 0);
	ck_assert_uint_eq(n, 1);
	unref_all(imgs, 1);

	/* Registered again, a comes after b now. */
	__sycl_register_lib(&a.desc);
	ck_assert_uint_eq(find("k_shared", imgs, 4), 3);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[0]), &b.desc);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[1]), &a.desc);
	unref_all(imgs, 3);
	__sycl_unregister_lib(&b.desc);
	__sycl_unregister_lib(&a.desc);
	ck_assert_uint_eq(find("k_shared", imgs, 4), 0);
	fx_fini(&a);
	fx_fini(&b);
}
END_TEST

START_TEST(test_repeated_and_unknown_unregistration_harmless)
{
	struct devimg_image *imgs[4];
	struct fixture a, b;

	two_descriptors(&a, &b);
	__sycl_unregister_lib(&a.desc);		/* never registered */
	__sycl_register_lib(&a.desc);
	__sycl_register_lib(&b.desc);
	__sycl_unregister_lib(&a.desc);
	__sycl_unregister_lib(&a.desc);
	__sycl_unregister_lib(NULL);
	__sycl_unregister_lib((struct devimg_device_binaries *)bytes);
	ck_assert_uint_eq(find("k_shared", imgs, 4), 1);
	unref_all(imgs, 1);
	ck_assert_int_eq(devimg_registry_status(), 0);
	__sycl_unregister_lib(&b.desc);
	__sycl_unregister_lib(&b.desc);
	ck_assert_uint_eq(find("k_shared", imgs, 4), 0);
	fx_fini(&a);
	fx_fini(&b);
}
END_TEST

START_TEST(test_repeated_registration_ignored)
{
	struct devimg_image *imgs[4];
	struct fixture a, b;

	two_descriptors(&a, &b);
	fx_log_capture();
	__sycl_register_lib(&a.desc);
	__sycl_register_lib(&a.desc);
	fx_log_release();
	ck_assert_has(fx_log_text(), "registered already; ignored");
	ck_assert_uint_eq(find("k_shared", imgs, 4), 2);
	unref_all(imgs, 2);
	ck_assert_int_eq(devimg_registry_status(), 0);
	__sycl_unregister_lib(&a.desc);
	ck_assert_uint_eq(find("k_shared", imgs, 4), 0);
	fx_fini(&a);
	fx_fini(&b);
}
END_TEST

START_TEST(test_name_listed_twice_counts_once)
{
	struct devimg_image *imgs[4];
	struct fixture a;

	fx_init(&a);
	fx_image(&a, "spir64", DEVIMG_FORMAT_SPIRV, bytes, sizeof(bytes));
	fx_entry(&a, 0, "k");
	fx_entry(&a, 0, "k");
	__sycl_register_lib(&a.desc);
	ck_assert_uint_eq(find("k", imgs, 4), 1);
	unref_all(imgs, 1);
	__sycl_unregister_lib(&a.desc);
	fx_fini(&a);
}
END_TEST

START_TEST(test_record_outlives_unregistration)
{
	struct devimg_image *img;
	struct heap_strings h;
	struct fixture a;
	const void *p;
	void *copy;
	size_t size;

	heap_strings_new(&h, "heap");
	fx_init(&a);
	fx_image(&a, h.target, DEVIMG_FORMAT_SPIRV, bytes, sizeof(bytes));
	a.images[0].compile_opts = h.opts;
	fx_entry(&a, 0, h.names[0]);
	fx_entry(&a, 0, h.names[1]);
	fx_entry(&a, 0, h.names[2]);
	__sycl_register_lib(&a.desc);
	ck_assert_uint_eq(find("heap_1", &img, 1), 1);
	ck_assert_int_eq(devimg_image_bin(img, &p, &size), 0);
	ck_assert_ptr_eq(p, bytes);
	ck_assert_uint_eq(size, sizeof(bytes));
	ck_assert_int_eq(devimg_image_bin_copy(img, &copy, &size), 0);
	ck_assert_mem_eq(copy, bytes, sizeof(bytes));
	free(copy);

	__sycl_unregister_lib(&a.desc);
	heap_strings_scribble_free(&h);
	ck_assert_int_eq(devimg_image_is_registered(img), 0);
	ck_assert_str_eq(devimg_image_target(img), "spir64_x86_64");
	ck_assert_str_eq(devimg_image_compile_opts(img),
			 "-cl-fast-relaxed-math");
	ck_assert_str_eq(devimg_image_link_opts(img), "");
	ck_assert_uint_eq(devimg_image_entry_count(img), 3);
	ck_assert_str_eq(devimg_image_entry_name(img, 2), "heap_2");
	ck_assert_ptr_null(devimg_image_entry_name(img, 3));
	ck_assert_uint_eq(devimg_image_bin_size(img), sizeof(bytes));
	ck_assert_int_eq(devimg_image_bin(img, &p, &size), -ESTALE);
	ck_assert_int_eq(devimg_image_bin_copy(img, &copy, &size), -ESTALE);
	ck_assert_int_eq(devimg_image_manifest(img, &p, &size), -ESTALE);
	ck_assert_ptr_null(devimg_image_unref(img));
	fx_fini(&a);
}
END_TEST

START_TEST(test_introspection_fields_and_properties)
{
	const struct devimg_propset_info *sets;
	const struct devimg_property_info *prop;
	struct devimg_image *img;
	struct fixture a;
	const void *p;
	size_t n;
	unsigned s;

	fx_init(&a);
	fx_image(&a, "spir64_gen", DEVIMG_FORMAT_NATIVE, bytes, sizeof(bytes));
	a.images[0].link_opts = "-link";
	a.images[0].manifest_begin = "manifest";
	a.images[0].manifest_end = a.images[0].manifest_begin + 8;
	fx_entry(&a, 0, "k");
	s = fx_set(&a, 0, "SYCL/misc properties");
	fx_u32(&a, 0, s, "optLevel", 2);
	fx_bytes(&a, 0, s, "mask", "\xff\x01", 9);
	a.props[0][s][2].name = "str";
	a.props[0][s][2].type = DEVIMG_PROPERTY_STRING;
	a.props[0][s][2].value = "hello, world";
	a.props[0][s][2].size = 5;
	a.sets[0][s].end++;
	fx_set(&a, 0, "SYCL/Empty");
	__sycl_register_lib(&a.desc);
	ck_assert_uint_eq(find("k", &img, 1), 1);
	ck_assert_uint_eq(devimg_image_version(img), 2);
	ck_assert_int_eq(devimg_image_kind(img), DEVIMG_KIND_SYCL);
	ck_assert_int_eq(devimg_image_format(img), DEVIMG_FORMAT_NATIVE);
	ck_assert_str_eq(devimg_image_link_opts(img), "-link");
	ck_assert_uint_eq(devimg_image_manifest_size(img), 8);
	ck_assert_int_eq(devimg_image_manifest(img, &p, &n), 0);
	ck_assert_mem_eq(p, "manifest", 8);

	ck_assert_int_eq(devimg_image_propsets(img, &sets, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(sets[0].name, "SYCL/misc properties");
	ck_assert_uint_eq(sets[0].nprops, 3);
	ck_assert_str_eq(sets[0].props[0].name, "optLevel");
	ck_assert_int_eq(sets[0].props[0].type, DEVIMG_PROPERTY_UINT32);
	ck_assert_uint_eq(sets[0].props[0].u32, 2);
	ck_assert_int_eq(sets[0].props[1].type, DEVIMG_PROPERTY_BYTE_ARRAY);
	ck_assert_uint_eq(sets[0].props[1].size, 10);
	ck_assert_mem_eq(sets[0].props[1].data, "\x09\0\0\0\0\0\0\0\xff\x01",
			 10);
	ck_assert_str_eq((const char *)sets[0].props[2].data, "hello");
	ck_assert_uint_eq(sets[0].props[2].size, 5);
	ck_assert_str_eq(sets[1].name, "SYCL/Empty");
	ck_assert_uint_eq(sets[1].nprops, 0);

	ck_assert_int_eq(devimg_image_find_property(img, "SYCL/misc properties",
						    "mask", &prop), 0);
	ck_assert_ptr_eq(prop, &sets[0].props[1]);
	ck_assert_int_eq(devimg_image_find_property(img, "SYCL/misc properties",
						    "nope", &prop), -ENOENT);
	ck_assert_int_eq(devimg_image_find_property(img, "SYCL/nope", "mask",
						    &prop), -ENOENT);
	__sycl_unregister_lib(&a.desc);
	/* Copied on first use, so still there. */
	ck_assert_int_eq(devimg_image_propsets(img, &sets, &n), 0);
	ck_assert_uint_eq(n, 2);
	devimg_image_unref(img);
	fx_fini(&a);
}
END_TEST

START_TEST(test_properties_need_registration_on_first_use)
{
	const struct devimg_propset_info *sets;
	struct devimg_image *img;
	struct fixture a;
	size_t n;

	fx_init(&a);
	fx_image(&a, "spir64", DEVIMG_FORMAT_SPIRV, bytes, sizeof(bytes));
	fx_entry(&a, 0, "k");
	fx_u32(&a, 0, fx_set(&a, 0, "S"), "p", 1);
	__sycl_register_lib(&a.desc);
	ck_assert_uint_eq(find("k", &img, 1), 1);
	__sycl_unregister_lib(&a.desc);
	ck_assert_int_eq(devimg_image_propsets(img, &sets, &n), -ESTALE);
	devimg_image_unref(img);
	fx_fini(&a);
}
END_TEST

/* Enough descriptors and names to grow the map several times. */
START_TEST(test_many_descriptors_grow_and_shrink)
{
	enum { NDESC = 40, NAMES = 12 };
	static char names[NDESC][NAMES][32];
	static struct fixture f[NDESC];
	struct devimg_image *imgs[NDESC];
	size_t d, k, n;

	for (d = 0; d < NDESC; d++) {
		fx_init(&f[d]);
		fx_image(&f[d], "spir64", DEVIMG_FORMAT_SPIRV, bytes,
			 sizeof(bytes));
		for (k = 0; k < NAMES; k++) {
			snprintf(names[d][k], sizeof(names[d][k]),
				 k ? "kern_%zu_%zu" : "common", d, k);
			fx_entry(&f[d], 0, names[d][k]);
		}
		__sycl_register_lib(&f[d].desc);
	}
	ck_assert_uint_eq(find("common", imgs, NDESC), NDESC);
	for (d = 0; d < NDESC; d++)
		ck_assert_ptr_eq(devimg_image_descriptor(imgs[d]), &f[d].desc);
	unref_all(imgs, NDESC);
	/* Odd ones go first, then the even ones in reverse. */
	for (d = 1; d < NDESC; d += 2)
		__sycl_unregister_lib(&f[d].desc);
	ck_assert_uint_eq(find("common", imgs, NDESC), NDESC / 2);
	unref_all(imgs, NDESC / 2);
	ck_assert_uint_eq(find("kern_3_5", imgs, 1), 0);
	ck_assert_uint_eq(find("kern_4_5", imgs, 1), 1);
	unref_all(imgs, 1);
	for (d = NDESC; d-- > 0;) {
		if (d % 2 == 0)
			__sycl_unregister_lib(&f[d].desc);
	}
	ck_assert_int_eq(devimg_registry_images(NULL, 0, &n), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(find("common", imgs, 1), 0);
	for (d = 0; d < NDESC; d++)
		fx_fini(&f[d]);
}
END_TEST

static int log_calls;

static void count_log(void *data, int priority, const char *file, int line,
		      const char *fn, const char *format, va_list args)
{
	ck_assert_ptr_eq(data, &log_calls);
	ck_assert_int_eq(priority, DEVIMG_LOG_ERR);
	ck_assert_ptr_nonnull(file);
	ck_assert_int_gt(line, 0);
	ck_assert_str_eq(fn, "__sycl_register_lib");
	log_calls++;
}

START_TEST(test_log_function_and_priority)
{
	struct fixture a, b;

	two_descriptors(&a, &b);
	a.desc.version = 0;
	devimg_set_log_fn(count_log, &log_calls);
	devimg_set_log_priority(DEVIMG_LOG_ERR);
	ck_assert_int_eq(devimg_get_log_priority(), DEVIMG_LOG_ERR);
	__sycl_register_lib(&b.desc);	/* info: not logged */
	__sycl_register_lib(&a.desc);
	ck_assert_int_eq(log_calls, 1);
	devimg_set_log_priority(0);
	a.desc.version = 3;
	__sycl_register_lib(&a.desc);
	ck_assert_int_eq(log_calls, 1);
	devimg_set_log_fn(NULL, NULL);
	ck_assert_uint_eq(devimg_registry_problem_count(), 2);
	fx_fini(&a);
	fx_fini(&b);
}
END_TEST

START_TEST(test_trace_environment_sets_priority)
{
	/* Each test runs in its own process; the first call reads it. */
	setenv("DEVIMG_TRACE", "2", 1);
	ck_assert_int_eq(devimg_get_log_priority(), DEVIMG_LOG_DEBUG);
}
END_TEST

START_TEST(test_trace_environment_level_1)
{
	setenv("DEVIMG_TRACE", "1", 1);
	ck_assert_int_eq(devimg_get_log_priority(), DEVIMG_LOG_INFO);
}
END_TEST

START_TEST(test_default_priority_logs_errors)
{
	unsetenv("DEVIMG_TRACE");
	ck_assert_int_eq(devimg_get_log_priority(), DEVIMG_LOG_ERR);
}
END_TEST

/* "symbols" strings: clang-sycl-linker 23's table of "vadd" and "gid". */
static const char good_table[] =
	"\x02\x00\x00\x00"
	"\x14\x00\x00\x00\x04\x00\x00\x00"
	"\x19\x00\x00\x00\x03\x00\x00\x00"
	"vadd\0gid";
/* The same with name 1's offset (8) inside the 20-byte header. */
static const char bad_table[] =
	"\x02\x00\x00\x00"
	"\x14\x00\x00\x00\x04\x00\x00\x00"
	"\x08\x00\x00\x00\x03\x00\x00\x00"
	"vadd\0gid";

#define SYMBOLS(bytes, len) { "symbols", (bytes), (len) }
#define TRIPLE { "triple", "spirv64-unknown-unknown", 23 }

/* A version-2 blob of n SPIR-V SYCL entries, each with strs[i] (2 each). */
static unsigned char *blob_new(const struct offload_string (*strs)[2],
			       size_t n)
{
	struct offload_image_in in[4];
	struct errmsg err = { 0 };
	unsigned char *b;
	size_t i, size;

	ck_assert_uint_le(n, 4);
	for (i = 0; i < n; i++)
		in[i] = (struct offload_image_in){
			OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL, 0, bytes,
			sizeof(bytes), strs[i], 2,
		};
	ck_assert_msg(offload_binary_write(in, n, 2, &b, &size, &err) == 0,
		      "%s", err.msg);
	return b;
}

static void expect_entries(const char *kernel, const char *a, const char *b)
{
	struct devimg_image *img;

	ck_assert_uint_eq(find(kernel, &img, 1), 1);
	ck_assert_uint_eq(devimg_image_entry_count(img), 2);
	ck_assert_str_eq(devimg_image_entry_name(img, 0), a);
	ck_assert_str_eq(devimg_image_entry_name(img, 1), b);
	devimg_image_unref(img);
}

/* The three forms LLVM's tools write, each read as its names. */
START_TEST(test_blob_symbols_in_each_form)
{
	const struct offload_string strs[3][2] = {
		{ TRIPLE, SYMBOLS(good_table, sizeof(good_table)) },
		{ TRIPLE, SYMBOLS("k_line0\nk_line1", 15) },
		{ TRIPLE, SYMBOLS("k_nul0\0k_nul1", 14) },
	};
	unsigned char *blob = blob_new(strs, 3);
	struct devimg_image *imgs[4];

	__sycl_register_lib((void *)blob);
	ck_assert_int_eq(devimg_registry_status(), 0);
	expect_entries("vadd", "vadd", "gid");
	expect_entries("k_line1", "k_line0", "k_line1");
	expect_entries("k_nul0", "k_nul0", "k_nul1");
	ck_assert_uint_eq(find("vadd\ngid", imgs, 4), 0);
	ck_assert_uint_eq(find("\x02", imgs, 4), 0);
	__sycl_unregister_lib((void *)blob);
	ck_assert_uint_eq(find("vadd", imgs, 4), 0);
	free(blob);
}
END_TEST

/*
 * A table that is not a consistent one rejects its image alone: the
 * blob's other image registers, and the problem can be read back.
 * Registration does not read the names: the table is found bad when the
 * registry is first read, which logs it.
 */
START_TEST(test_blob_bad_symbols_table_rejects_its_image_only)
{
	const struct offload_string strs[2][2] = {
		{ TRIPLE, SYMBOLS(bad_table, sizeof(bad_table)) },
		{ TRIPLE, SYMBOLS(good_table, sizeof(good_table)) },
	};
	const char *reason = ": OffloadBinary entry 0: \"symbols\" table: "
		"name 1's offset 8 lies inside the 20-byte header, expected 20 or more";
	unsigned char *blob = blob_new(strs, 2);
	struct devimg_image *imgs[4];
	char text[256];
	size_t n = 0;
	int err = 0;

	fx_log_capture();
	__sycl_register_lib((void *)blob);
	ck_assert_has(fx_log_text(), "registered descriptor");
	ck_assert_ptr_null(strstr(fx_log_text(), reason));
	ck_assert_int_eq(devimg_registry_images(imgs, 4, &n), 0);
	ck_assert_has(fx_log_text(), reason);
	fx_log_release();

	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(devimg_image_index(imgs[0]), 0);
	unref_all(imgs, n);
	expect_entries("vadd", "vadd", "gid");
	ck_assert_uint_eq(find("gid", imgs, 4), 1);
	unref_all(imgs, 1);

	ck_assert_int_eq(devimg_registry_status(), -EINVAL);
	ck_assert_uint_eq(devimg_registry_problem_count(), 1);
	ck_assert_int_eq(devimg_registry_problem(0, &err, text, sizeof(text)),
			 0);
	ck_assert_int_eq(err, -EINVAL);
	ck_assert_has(text, reason);

	__sycl_unregister_lib((void *)blob);
	ck_assert_uint_eq(find("vadd", imgs, 4), 0);
	free(blob);
}
END_TEST

#define VALUE(key, lit) { (key), (lit), sizeof(lit) - 1 }

/* One SPIR-V SYCL entry with the n strings strs. */
static unsigned char *blob_of(const struct offload_string *strs, size_t n)
{
	struct offload_image_in in = {
		OFFLOAD_IMAGE_SPIRV, OFFLOAD_KIND_SYCL, 0, bytes, sizeof(bytes),
		strs, n,
	};
	struct errmsg err = { 0 };
	unsigned char *b;
	size_t size;

	ck_assert_msg(offload_binary_write(&in, 1, 2, &b, &size, &err) == 0,
		      "%s", err.msg);
	return b;
}

/*
 * devimg-wrap -form=blob's property sets: the strings whose key holds a
 * '/', each a set's .props text, read as the image's sets on first read.
 */
START_TEST(test_blob_property_sets)
{
	const struct offload_string strs[] = {
		TRIPLE,
		{ "arch", "", 0 },
		SYMBOLS(good_table, sizeof(good_table)),
		VALUE("SYCL/misc properties",
		      "optLevel=1|2\neight=2|IAAAAAAAAAQA\n"),
		{ "SYCL/empty", "", 0 },
	};
	unsigned char *blob = blob_of(strs, 5);
	const struct devimg_propset_info *sets;
	const struct devimg_property_info *prop;
	struct devimg_image *img;
	size_t n;

	__sycl_register_lib((void *)blob);
	ck_assert_uint_eq(find("vadd", &img, 1), 1);
	ck_assert_int_eq(devimg_image_propsets(img, &sets, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(sets[0].name, "SYCL/misc properties");
	ck_assert_uint_eq(sets[0].nprops, 2);
	ck_assert_str_eq(sets[0].props[0].name, "optLevel");
	ck_assert_int_eq(sets[0].props[0].type, DEVIMG_PROPERTY_UINT32);
	ck_assert_uint_eq(sets[0].props[0].u32, 2);
	ck_assert_str_eq(sets[1].name, "SYCL/empty");
	ck_assert_uint_eq(sets[1].nprops, 0);
	ck_assert_int_eq(devimg_image_find_property(img, "SYCL/misc properties",
						    "eight", &prop), 0);
	ck_assert_int_eq(prop->type, DEVIMG_PROPERTY_BYTE_ARRAY);
	ck_assert_uint_eq(prop->size, 9);	/* 8 bits: header, one byte */
	ck_assert_uint_eq(prop->data[0], 8);
	ck_assert_uint_eq(prop->data[8], 1);
	devimg_image_unref(img);
	__sycl_unregister_lib((void *)blob);
	free(blob);
}
END_TEST

/* A text that does not parse fails the read of the sets, not the image. */
START_TEST(test_blob_bad_property_text)
{
	const struct offload_string strs[] = {
		TRIPLE,
		SYMBOLS(good_table, sizeof(good_table)),
		VALUE("SYCL/bad", "a=1|1\nb=9|1\n"),
	};
	unsigned char *blob = blob_of(strs, 3);
	const struct devimg_propset_info *sets;
	struct devimg_image *img;
	size_t n = 7;

	__sycl_register_lib((void *)blob);
	ck_assert_int_eq(devimg_registry_status(), 0);
	ck_assert_uint_eq(find("gid", &img, 1), 1);
	ck_assert_int_eq(devimg_image_propsets(img, &sets, &n), -EINVAL);
	ck_assert_uint_eq(n, 7);
	ck_assert_has(devimg_last_error(), "set 'SYCL/bad':2:");
	ck_assert_has(devimg_last_error(), "bad property type");
	ck_assert_int_eq(devimg_image_propsets(img, &sets, &n), -EINVAL);
	devimg_image_unref(img);
	__sycl_unregister_lib((void *)blob);
	free(blob);
}
END_TEST

static Suite *registry_suite(void)
{
	Suite *s = suite_create("registry");
	TCase *tc = tcase_create("registry");

	tcase_add_test(tc, test_lookup_in_registration_order);
	tcase_add_test(tc, test_lookup_truncated_to_max);
	tcase_add_test(tc, test_unregister_removes_exactly_that_descriptor);
	tcase_add_test(tc, test_repeated_and_unknown_unregistration_harmless);
	tcase_add_test(tc, test_repeated_registration_ignored);
	tcase_add_test(tc, test_name_listed_twice_counts_once);
	tcase_add_test(tc, test_record_outlives_unregistration);
	tcase_add_test(tc, test_introspection_fields_and_properties);
	tcase_add_test(tc, test_properties_need_registration_on_first_use);
	tcase_add_test(tc, test_many_descriptors_grow_and_shrink);
	tcase_add_test(tc, test_log_function_and_priority);
	tcase_add_test(tc, test_trace_environment_sets_priority);
	tcase_add_test(tc, test_trace_environment_level_1);
	tcase_add_test(tc, test_default_priority_logs_errors);
	tcase_add_test(tc, test_blob_symbols_in_each_form);
	tcase_add_test(tc, test_blob_bad_symbols_table_rejects_its_image_only);
	tcase_add_test(tc, test_blob_property_sets);
	tcase_add_test(tc, test_blob_bad_property_text);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(registry_suite());
}
