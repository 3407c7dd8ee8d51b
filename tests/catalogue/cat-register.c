// SPDX-License-Identifier: MIT
/*
 * cat-register CASE: registers one malformed binary descriptor through
 * __sycl_register_lib(), as a wrapped library's constructor would, reads
 * the registry and unregisters it. The library's default log function
 * writes the rejection (one line) to stderr; exit status 1 when the
 * registry reports a problem, 0 when the descriptor was taken, 2 for an
 * unknown CASE. Cases: image-version, kind, format, target-null,
 * bin-reversed, entries-partial, entry-empty, prop-type, bytes-short,
 * count-no-images, host-half-null, too-many-props, llvm-entries-partial,
 * llvm-entry-mixed, llvm-image-kind, blob-size.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <devimg/devimg.h>

static unsigned char bin[16] = { 0x03, 0x02, 0x23, 0x07 };
static unsigned char bytes[12] = { 32 };	/* 32 bits, 4 bytes payload */
static struct devimg_offload_entry entries[2] = {
	{ NULL, "k_one", 0, 0, 0 },
	{ NULL, "k_two", 0, 0, 0 },
};
static struct devimg_property props[2] = {
	{ "u", NULL, DEVIMG_PROPERTY_UINT32, 7 },
	{ "b", bytes, DEVIMG_PROPERTY_BYTE_ARRAY, sizeof(bytes) },
};
static struct devimg_property_set sets[1] = {
	{ "SYCL/misc properties", props, props + 2 },
};
static struct devimg_device_image image = {
	2, DEVIMG_KIND_SYCL, DEVIMG_FORMAT_SPIRV, "spir64", "", "",
	NULL, NULL, bin, bin + sizeof(bin), entries, entries + 2, sets,
	sets + 1,
};
static struct devimg_device_binaries desc = {
	DEVIMG_BINARIES_VERSION, 1, &image, NULL, NULL,
};

/* LLVM's layouts: 56-byte entries, a version 3 image, a blob. */
static struct devimg_llvm_offload_entry llvm_entries[2] = {
	{ 0, 1, 8, 0, NULL, "k_one", 0, 0, NULL },
	{ 0, 1, 8, 0, NULL, "k_two", 0, 0, NULL },
};
static struct devimg_device_image_v3 image_v3[2] = {
	{ 3, 8, 6, "spirv64-unknown-unknown", "", "", bin, bin + sizeof(bin),
	  llvm_entries, llvm_entries + 2, NULL, NULL },
	{ 3, 4, 2, "spir64", "", "", bin, bin + sizeof(bin), entries,
	  entries + 2, NULL, NULL },
};
static struct devimg_device_binaries desc_v3 = {
	DEVIMG_BINARIES_VERSION, 2, (struct devimg_device_image *)image_v3,
	NULL, NULL,
};
/* Magic, version 2, Size 8: less than its own header. */
static _Alignas(8) unsigned char blob[32] = {
	0x10, 0xff, 0x10, 0xad, 2, 0, 0, 0, 8,
};
static void *reg = &desc;

static int corrupt(const char *c)
{
	static struct devimg_property many[2];

	if (!strcmp(c, "image-version"))
		image.version = 7;
	else if (!strcmp(c, "kind"))
		image.kind = DEVIMG_KIND_OPENMP;
	else if (!strcmp(c, "format"))
		image.format = 9;
	else if (!strcmp(c, "target-null"))
		image.target = NULL;
	else if (!strcmp(c, "bin-reversed"))
		image.bin_end = bin + 2, image.bin_begin = bin + 10;
	else if (!strcmp(c, "entries-partial"))
		image.entries_end = (void *)((char *)(entries + 1) + 8);
	else if (!strcmp(c, "entry-empty"))
		entries[1].name = "";
	else if (!strcmp(c, "prop-type"))
		props[1].type = 7;
	else if (!strcmp(c, "bytes-short"))
		props[1].size = 4;
	else if (!strcmp(c, "count-no-images"))
		desc.count = 3, desc.images = NULL;
	else if (!strcmp(c, "host-half-null"))
		desc.host_begin = entries;
	else if (!strcmp(c, "too-many-props"))
		/* 2^60 properties: a begin/end pair from a corrupted file. */
		sets[0].begin = many,
		sets[0].end = (void *)((uintptr_t)many + ((uintptr_t)1 << 60));
	else if (!strcmp(c, "llvm-entries-partial"))
		reg = &desc_v3,
		image_v3[0].entries_end = (char *)llvm_entries + 80;
	else if (!strcmp(c, "llvm-entry-mixed"))
		reg = &desc_v3, llvm_entries[1].flags = 1;
	else if (!strcmp(c, "llvm-image-kind"))
		reg = &desc_v3, image_v3[0].format = 9;
	else if (!strcmp(c, "blob-size"))
		reg = blob;
	else
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	size_t n = 0;
	int status;

	if (argc != 2 || corrupt(argv[1]) < 0) {
		fprintf(stderr, "usage: cat-register CASE\n");
		return 2;
	}
	__sycl_register_lib(reg);
	devimg_registry_images(NULL, 0, &n);
	status = devimg_registry_status();
	__sycl_unregister_lib(reg);
	return status < 0 ? 1 : 0;
}
