// SPDX-License-Identifier: MIT
/*
 * Binary descriptors laid out as DPC++'s clang-offload-wrapper lays them
 * out (docs/formats.md, section 1), without a .devimg index beside them,
 * for devimg-dump to find by their structure:
 *
 *   descriptor A: image 0, version 2 (96 bytes): kind 4, format spirv,
 *                 target spir64, compile options "-O2", a manifest,
 *                 32-byte entries kernel_a and kernel_b, property sets
 *                 "SYCL/specialization constants" (one constant: id 7,
 *                 offset 0, size 4) and "SYCL/misc properties" (optLevel
 *                 = 2, note = "hi");
 *                 image 1, version 1 (read alike): format native, target
 *                 nvptx64, PTX text, no entries, no property sets;
 *   descriptor B: image 0, version 3 (80 bytes, DPC++'s preview layout)
 *                 with kind 4: format llvmbc, target spir64_x86_64,
 *                 entry kernel_c.
 *
 * The tests write the image bytes with printf: keep them in step.
 */
#include <stddef.h>
#include <stdint.h>

struct entry {
	void *addr;
	const char *name;
	size_t size;
	int32_t flags;
	int32_t reserved;
};

struct property {
	const char *name;
	const void *value;
	uint32_t type;
	uint64_t size;
};

struct property_set {
	const char *name;
	const struct property *begin;
	const struct property *end;
};

struct image {
	uint16_t version;
	uint8_t kind;
	uint8_t format;
	const char *target;
	const char *compile_opts;
	const char *link_opts;
	const char *manifest_begin;
	const char *manifest_end;
	const unsigned char *bin_begin;
	const unsigned char *bin_end;
	const struct entry *entries_begin;
	const struct entry *entries_end;
	const struct property_set *props_begin;
	const struct property_set *props_end;
};

struct image_v3 {
	uint16_t version;
	uint8_t kind;
	uint8_t format;
	const char *target;
	const char *compile_opts;
	const char *link_opts;
	const unsigned char *bin_begin;
	const unsigned char *bin_end;
	const struct entry *entries_begin;
	const struct entry *entries_end;
	const struct property_set *props_begin;
	const struct property_set *props_end;
};

struct binaries {
	uint16_t version;
	uint16_t count;
	const void *images;
	const struct entry *host_begin;
	const struct entry *host_end;
};

_Static_assert(sizeof(struct entry) == 32, "entry");
_Static_assert(sizeof(struct property) == 32, "property");
_Static_assert(sizeof(struct property_set) == 24, "property set");
_Static_assert(sizeof(struct image) == 96, "image");
_Static_assert(sizeof(struct image_v3) == 80, "image v3");

static const unsigned char spv[] = "\x03\x02\x23\x07" "dpcpp spirv";
static const unsigned char ptx[] = "// ptx\n.version 7.0\n";
static const unsigned char bc[] = "BC\xc0\xde" "dpcpp bitcode";
static const char manifest[] = "manifest line";

static const struct entry entries_a[] = {
	{ NULL, "kernel_a", 0, 0, 0 },
	{ NULL, "kernel_b", 0, 0, 0 },
};

static const struct entry entries_b[] = {
	{ NULL, "kernel_c", 0, 0, 0 },
};

/* Bit count 96, then {id 7, offset 0, size 4}, little-endian. */
static const unsigned char spec[] = {
	0x60, 0, 0, 0, 0, 0, 0, 0,
	7, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0,
};

static const struct property spec_props[] = {
	{ "9d329ad59055e972____ZL6SpecId", spec, 2, sizeof(spec) },
};

static const struct property misc_props[] = {
	{ "optLevel", NULL, 1, 2 },
	{ "note", "hi", 3, 3 },
};

static const struct property_set sets[] = {
	{ "SYCL/specialization constants", spec_props, spec_props + 1 },
	{ "SYCL/misc properties", misc_props, misc_props + 2 },
};

static const struct image images_a[] = {
	{ 2, 4, 2, "spir64", "-O2", "", manifest,
	  manifest + sizeof(manifest) - 1, spv, spv + sizeof(spv) - 1,
	  entries_a, entries_a + 2, sets, sets + 2 },
	{ 1, 4, 1, "nvptx64", "", "", NULL, NULL, ptx,
	  ptx + sizeof(ptx) - 1, NULL, NULL, NULL, NULL },
};

static const struct image_v3 images_b[] = {
	{ 3, 4, 3, "spir64_x86_64", "", "", bc, bc + sizeof(bc) - 1,
	  entries_b, entries_b + 1, NULL, NULL },
};

__attribute__((used)) static const struct binaries descriptor_a = {
	1, 2, images_a, NULL, NULL,
};

__attribute__((used)) static const struct binaries descriptor_b = {
	1, 1, images_b, NULL, NULL,
};
