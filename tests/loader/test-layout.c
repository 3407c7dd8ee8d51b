// SPDX-License-Identifier: MIT
/*
 * Descriptors of the newer layouts, built by hand as the wrappers lay them
 * out: images of version 3 (80 bytes, no manifest) as DPC++'s wrapper
 * writes them with kind 4 and LLVM's with kind 8 and an ImageKind, and
 * LLVM's 56-byte offload entries in images of version 2 and 3. Every
 * getter reads them as it reads a version 2 image, also in a descriptor
 * that mixes image versions.
 */
#include <errno.h>
#include <stdio.h>

#include "tests/loader/fixture.h"
#include "loader/registry/registry.h"

static const unsigned char spirv[16] = { 0x03, 0x02, 0x23, 0x07, 0, 0, 1 };
static const unsigned char bc[16] = { 'B', 'C', 0xc0, 0xde, 1, 2, 3 };

static struct devimg_llvm_offload_entry llvm_entry(char *name)
{
	return (struct devimg_llvm_offload_entry){
		.version = 1,
		.kind = 8,
		.name = name,
	};
}

/* Two v3 images: LLVM's (kind 8, SPIR-V ImageKind) and DPC++'s. */
struct v3_fixture {
	struct devimg_device_binaries desc;
	struct devimg_device_image_v3 images[2];
	struct devimg_llvm_offload_entry llvm[3];
	struct devimg_offload_entry old[2];
	struct devimg_property props[1];
	struct devimg_property_set sets[1];
};

static void v3_init(struct v3_fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->llvm[0] = llvm_entry("k_llvm_a");
	f->llvm[1] = llvm_entry("k_shared");
	f->llvm[2] = llvm_entry("k_llvm_b");
	f->old[0] = (struct devimg_offload_entry){ .name = "k_dpcpp" };
	f->old[1] = (struct devimg_offload_entry){ .name = "k_shared" };
	f->props[0] = (struct devimg_property){
		.name = "optLevel",
		.type = DEVIMG_PROPERTY_UINT32,
		.size = 2,
	};
	f->sets[0] = (struct devimg_property_set){
		"SYCL/misc properties", f->props, f->props + 1,
	};
	f->images[0] = (struct devimg_device_image_v3){
		.version = 3,
		.kind = DEVIMG_LLVM_OFFLOAD_KIND_SYCL,
		.format = DEVIMG_LLVM_IMAGE_SPIRV,
		.target = "spirv64-unknown-unknown",
		.compile_opts = "",
		.link_opts = "",
		.bin_begin = spirv,
		.bin_end = spirv + sizeof(spirv),
		.entries_begin = f->llvm,
		.entries_end = f->llvm + 3,
	};
	f->images[1] = (struct devimg_device_image_v3){
		.version = 3,
		.kind = DEVIMG_KIND_SYCL,
		.format = DEVIMG_FORMAT_LLVMBC,
		.target = "spir64",
		.compile_opts = "-O2",
		.link_opts = "-g",
		.bin_begin = bc,
		.bin_end = bc + sizeof(bc),
		.entries_begin = f->old,
		.entries_end = f->old + 2,
		.props_begin = f->sets,
		.props_end = f->sets + 1,
	};
	f->desc = (struct devimg_device_binaries){
		.version = 1,
		.count = 2,
		.images = (struct devimg_device_image *)f->images,
	};
}

static size_t find(const char *name, struct devimg_image **imgs, size_t max)
{
	size_t n = 99;

	devimg_registry_find_kernel(name, imgs, max, &n);
	return n;
}

static void unref_all(struct devimg_image **imgs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		devimg_image_unref(imgs[i]);
}

static void expect_problem(const char *reason)
{
	char text[256];
	int err = 0;

	ck_assert_int_eq(devimg_registry_status(), -EINVAL);
	ck_assert_int_eq(devimg_registry_problem(0, &err, text, sizeof(text)),
			 0);
	ck_assert_int_eq(err, -EINVAL);
	ck_assert_has(text, reason);
}

START_TEST(test_v3_getters)
{
	const struct devimg_property_info *p;
	struct devimg_image *imgs[4];
	struct v3_fixture f;
	const void *bytes;
	size_t size;

	v3_init(&f);
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_status(), 0);
	ck_assert_int_eq(devimg_registry_images(imgs, 4, &size), 0);
	ck_assert_uint_eq(size, 2);

	/* LLVM's: kind 8 read as SYCL, ImageKind 6 as SPIR-V. */
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[0]), &f.desc);
	ck_assert_uint_eq(devimg_image_index(imgs[0]), 0);
	ck_assert_uint_eq(devimg_image_version(imgs[0]), 3);
	ck_assert_int_eq(devimg_image_kind(imgs[0]), DEVIMG_KIND_SYCL);
	ck_assert_int_eq(devimg_image_format(imgs[0]), DEVIMG_FORMAT_SPIRV);
	ck_assert_str_eq(devimg_image_target(imgs[0]),
			 "spirv64-unknown-unknown");
	ck_assert_uint_eq(devimg_image_entry_count(imgs[0]), 3);
	ck_assert_str_eq(devimg_image_entry_name(imgs[0], 0), "k_llvm_a");
	ck_assert_str_eq(devimg_image_entry_name(imgs[0], 2), "k_llvm_b");
	ck_assert_uint_eq(devimg_image_manifest_size(imgs[0]), 0);
	ck_assert_int_eq(devimg_image_bin(imgs[0], &bytes, &size), 0);
	ck_assert_ptr_eq(bytes, spirv);
	ck_assert_uint_eq(size, sizeof(spirv));

	/* DPC++'s: its own numbers, 32-byte entries, property sets. */
	ck_assert_uint_eq(devimg_image_version(imgs[1]), 3);
	ck_assert_int_eq(devimg_image_format(imgs[1]), DEVIMG_FORMAT_LLVMBC);
	ck_assert_str_eq(devimg_image_target(imgs[1]), "spir64");
	ck_assert_str_eq(devimg_image_compile_opts(imgs[1]), "-O2");
	ck_assert_str_eq(devimg_image_link_opts(imgs[1]), "-g");
	ck_assert_str_eq(devimg_image_entry_name(imgs[1], 0), "k_dpcpp");
	ck_assert_int_eq(devimg_image_find_property(imgs[1],
						    "SYCL/misc properties",
						    "optLevel", &p), 0);
	ck_assert_uint_eq(p->u32, 2);
	ck_assert_int_eq(devimg_image_bin(imgs[1], &bytes, &size), 0);
	ck_assert_ptr_eq(bytes, bc);
	unref_all(imgs, 2);

	ck_assert_uint_eq(find("k_shared", imgs, 4), 2);
	unref_all(imgs, 2);

	__sycl_unregister_lib(&f.desc);
	ck_assert_uint_eq(find("k_shared", imgs, 4), 0);
	ck_assert_int_eq(devimg_registry_images(imgs, 4, &size), 0);
	ck_assert_uint_eq(size, 0);
}
END_TEST

/* A record outlives unregistration and the shadow it was built from. */
START_TEST(test_v3_record_outlives)
{
	struct devimg_image *img;
	struct v3_fixture f;

	v3_init(&f);
	__sycl_register_lib(&f.desc);
	ck_assert_uint_eq(find("k_llvm_b", &img, 1), 1);
	__sycl_unregister_lib(&f.desc);
	memset(&f, 0, sizeof(f));
	ck_assert_int_eq(devimg_image_is_registered(img), 0);
	ck_assert_str_eq(devimg_image_entry_name(img, 2), "k_llvm_b");
	ck_assert_str_eq(devimg_image_target(img), "spirv64-unknown-unknown");
	devimg_image_unref(img);
}
END_TEST

/* LLVM's ImageKinds as devimg formats. */
START_TEST(test_llvm_image_kinds)
{
	static const unsigned want[] = {
		DEVIMG_FORMAT_NONE, DEVIMG_FORMAT_NATIVE, DEVIMG_FORMAT_LLVMBC,
		DEVIMG_FORMAT_NATIVE, DEVIMG_FORMAT_NATIVE, DEVIMG_FORMAT_NONE,
		DEVIMG_FORMAT_SPIRV,
	};
	struct devimg_image *img;
	struct v3_fixture f;
	unsigned k;

	for (k = 0; k < 7; k++) {
		v3_init(&f);
		f.desc.count = 1;
		f.images[0].format = (uint8_t)k;
		__sycl_register_lib(&f.desc);
		ck_assert_uint_eq(find("k_llvm_a", &img, 1), 1);
		ck_assert_int_eq(devimg_image_format(img), want[k]);
		devimg_image_unref(img);
		__sycl_unregister_lib(&f.desc);
	}
	v3_init(&f);
	f.images[0].format = 7;
	__sycl_register_lib(&f.desc);
	expect_problem("image 0: LLVM image kind 7 unknown, expected 0 to 6");
}
END_TEST

/* A version 2 image whose entries are LLVM's 56-byte ones. */
START_TEST(test_v2_llvm_entries)
{
	struct devimg_llvm_offload_entry e[2] = {
		llvm_entry("k_first"), llvm_entry("k_second"),
	};
	struct devimg_image *img;
	struct fixture f;

	fx_init(&f);
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, spirv, sizeof(spirv));
	fx_image(&f, "spir64", DEVIMG_FORMAT_SPIRV, spirv, sizeof(spirv));
	fx_entry(&f, 1, "k_old");
	f.images[0].entries_begin = (void *)e;
	f.images[0].entries_end = (void *)(e + 2);
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_status(), 0);
	ck_assert_uint_eq(find("k_second", &img, 1), 1);
	ck_assert_uint_eq(devimg_image_version(img), 2);
	ck_assert_uint_eq(devimg_image_entry_count(img), 2);
	ck_assert_str_eq(devimg_image_entry_name(img, 0), "k_first");
	ck_assert_ptr_eq(devimg_image_descriptor(img), &f.desc);
	devimg_image_unref(img);
	ck_assert_uint_eq(find("k_old", &img, 1), 1);
	ck_assert_uint_eq(devimg_image_index(img), 1);
	devimg_image_unref(img);
	__sycl_unregister_lib(&f.desc);
	ck_assert_uint_eq(find("k_first", &img, 1), 0);
	fx_fini(&f);
}
END_TEST

START_TEST(test_llvm_entries_span)
{
	struct v3_fixture f;

	v3_init(&f);
	f.images[0].entries_end = (char *)(f.llvm + 2) + 8;
	__sycl_register_lib(&f.desc);
	expect_problem("image 0: entries span of 120 bytes is not a multiple of 56 (LLVM offload entries)");
}
END_TEST

START_TEST(test_llvm_entries_mixed)
{
	struct v3_fixture f;

	v3_init(&f);
	f.llvm[2].kind = 2;
	__sycl_register_lib(&f.desc);
	expect_problem("image 0 entry 2: reserved 0 version 1 kind 2 flags 0, expected 0, 1, 8 and 0 as entry 0");
}
END_TEST

START_TEST(test_llvm_entry_without_name)
{
	struct v3_fixture f;

	v3_init(&f);
	f.llvm[1].name = NULL;
	__sycl_register_lib(&f.desc);
	expect_problem("image 0 entry 1: name is NULL");
}
END_TEST

/*
 * Images of versions 2, 3 and 2 packed one after the other: each is read
 * with the size of its own version (96, 80, 96 bytes).
 */
struct mixed_fixture {
	struct devimg_device_binaries desc;
	union {
		unsigned char bytes[2 * 96 + 80];
		uint64_t align;
	} array;
	struct devimg_offload_entry names[3];
};

static void mixed_init(struct mixed_fixture *f, uint16_t first)
{
	struct devimg_device_image v2 = {
		.version = 2,
		.kind = DEVIMG_KIND_SYCL,
		.format = DEVIMG_FORMAT_SPIRV,
		.target = "spir64",
		.bin_begin = spirv,
		.bin_end = spirv + sizeof(spirv),
	};
	struct devimg_device_image_v3 v3 = {
		.version = 3,
		.kind = DEVIMG_KIND_SYCL,
		.format = DEVIMG_FORMAT_LLVMBC,
		.target = "spir64_x86_64",
		.bin_begin = bc,
		.bin_end = bc + sizeof(bc),
	};
	unsigned char *p = f->array.bytes;

	memset(f, 0, sizeof(*f));
	f->names[0] = (struct devimg_offload_entry){ .name = "k_first" };
	f->names[1] = (struct devimg_offload_entry){ .name = "k_v3" };
	f->names[2] = (struct devimg_offload_entry){ .name = "k_last" };
	v2.version = first;
	v2.entries_begin = f->names;
	v2.entries_end = f->names + 1;
	memcpy(p, &v2, sizeof(v2));
	p += sizeof(v2);
	v3.entries_begin = f->names + 1;
	v3.entries_end = f->names + 2;
	memcpy(p, &v3, sizeof(v3));
	p += sizeof(v3);
	v2.version = 2;
	v2.target = "spir64_gen";
	v2.entries_begin = f->names + 2;
	v2.entries_end = f->names + 3;
	memcpy(p, &v2, sizeof(v2));
	f->desc = (struct devimg_device_binaries){
		.version = 1,
		.count = 3,
		.images = (struct devimg_device_image *)f->array.bytes,
	};
}

static void check_mixed(uint16_t first)
{
	struct devimg_image *imgs[4];
	struct mixed_fixture f;
	size_t n;

	mixed_init(&f, first);
	__sycl_register_lib(&f.desc);
	ck_assert_int_eq(devimg_registry_status(), 0);
	ck_assert_int_eq(devimg_registry_images(imgs, 4, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(devimg_image_version(imgs[0]), first);
	ck_assert_str_eq(devimg_image_target(imgs[0]), "spir64");
	ck_assert_str_eq(devimg_image_entry_name(imgs[0], 0), "k_first");
	ck_assert_uint_eq(devimg_image_version(imgs[1]), 3);
	ck_assert_int_eq(devimg_image_format(imgs[1]), DEVIMG_FORMAT_LLVMBC);
	ck_assert_str_eq(devimg_image_target(imgs[1]), "spir64_x86_64");
	ck_assert_str_eq(devimg_image_entry_name(imgs[1], 0), "k_v3");
	ck_assert_uint_eq(devimg_image_version(imgs[2]), 2);
	ck_assert_str_eq(devimg_image_target(imgs[2]), "spir64_gen");
	ck_assert_str_eq(devimg_image_entry_name(imgs[2], 0), "k_last");
	unref_all(imgs, 3);
	__sycl_unregister_lib(&f.desc);
	ck_assert_uint_eq(find("k_v3", imgs, 4), 0);
}

START_TEST(test_mixed_v2_v3_v2)
{
	check_mixed(2);
}
END_TEST

START_TEST(test_mixed_v1_v3_v2)
{
	check_mixed(1);
}
END_TEST

/* A v3 image keeps the checks of v2 ones: here its target. */
START_TEST(test_v3_target_null)
{
	struct v3_fixture f;

	v3_init(&f);
	f.images[1].target = NULL;
	__sycl_register_lib(&f.desc);
	expect_problem("image 1: target is NULL");
}
END_TEST

/* Separate descriptors of v2 and v3 images in one program. */
START_TEST(test_v2_and_v3_descriptors)
{
	struct devimg_image *imgs[4];
	struct v3_fixture v3;
	struct fixture v2;

	fx_init(&v2);
	fx_image(&v2, "spir64", DEVIMG_FORMAT_SPIRV, spirv, sizeof(spirv));
	fx_entry(&v2, 0, "k_shared");
	v3_init(&v3);
	__sycl_register_lib(&v2.desc);
	__sycl_register_lib(&v3.desc);
	ck_assert_int_eq(devimg_registry_status(), 0);
	ck_assert_uint_eq(find("k_shared", imgs, 4), 3);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[0]), &v2.desc);
	ck_assert_uint_eq(devimg_image_version(imgs[0]), 2);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[1]), &v3.desc);
	ck_assert_uint_eq(devimg_image_version(imgs[1]), 3);
	ck_assert_ptr_eq(devimg_image_descriptor(imgs[2]), &v3.desc);
	unref_all(imgs, 3);
	__sycl_unregister_lib(&v3.desc);
	ck_assert_uint_eq(find("k_shared", imgs, 4), 1);
	unref_all(imgs, 1);
	/* Registering it again is ignored, as for any descriptor. */
	__sycl_register_lib(&v2.desc);
	ck_assert_uint_eq(find("k_shared", imgs, 4), 1);
	unref_all(imgs, 1);
	__sycl_unregister_lib(&v2.desc);
	fx_fini(&v2);
}
END_TEST

static Suite *layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *tc = tcase_create("layout");

	tcase_add_test(tc, test_v3_getters);
	tcase_add_test(tc, test_v3_record_outlives);
	tcase_add_test(tc, test_llvm_image_kinds);
	tcase_add_test(tc, test_v2_llvm_entries);
	tcase_add_test(tc, test_llvm_entries_span);
	tcase_add_test(tc, test_llvm_entries_mixed);
	tcase_add_test(tc, test_llvm_entry_without_name);
	tcase_add_test(tc, test_mixed_v2_v3_v2);
	tcase_add_test(tc, test_mixed_v1_v3_v2);
	tcase_add_test(tc, test_v3_target_null);
	tcase_add_test(tc, test_v2_and_v3_descriptors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(layout_suite());
}
