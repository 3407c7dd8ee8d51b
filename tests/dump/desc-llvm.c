// SPDX-License-Identifier: MIT
/*
 * A binary descriptor laid out as clang-linker-wrapper 22 lays it out
 * (docs/formats.md, section 1, "Newer layouts"), for devimg-dump to find
 * by its structure: a version-1 descriptor, 80-byte images of version 3
 * with LLVM's offload kind 8 and image kinds, 56-byte LLVM offload
 * entries, and the image bytes in an allocated SHT_LLVM_OFFLOADING
 * section that holds no OffloadBinary (raw bytes, as LLVM 22 puts them).
 * Nothing registers it; no .devimg index describes it.
 *
 *   image 0: image kind 0 (none), SPIR-V bytes, target
 *            spirv64-unknown-unknown, entries _ZTS4Fill and _ZTS5Other;
 *   image 1: image kind 2 (bitcode), target spir64, entry _ZTS4Last.
 *
 * Variants, each making the descriptor break the rule that finds it:
 *   -DDESC_BAD_BIN    image 1's bin_end lies past the file;
 *   -DDESC_BAD_COUNT  the count is over DEVIMG_LIMIT_IMAGES (65000);
 *   -DDESC_BAD_KIND   image 1 has LLVM image kind 7.
 */
#include <stddef.h>
#include <stdint.h>

struct llvm_entry {
	uint64_t reserved;
	uint16_t version;
	uint16_t kind;
	uint32_t flags;
	void *addr;
	const char *name;
	uint64_t size;
	uint64_t data;
	void *aux_addr;
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
	const void *entries_begin;
	const void *entries_end;
	const void *props_begin;
	const void *props_end;
};

struct binaries {
	uint16_t version;
	uint16_t count;
	const struct image_v3 *images;
	const void *host_begin;
	const void *host_end;
};

_Static_assert(sizeof(struct llvm_entry) == 56, "LLVM entry");
_Static_assert(sizeof(struct image_v3) == 80, "image v3");

/* The tests write the same bytes with printf: keep them in step. */
__asm__(".section .llvm.offloading,\"a\",@0x6fff4c0b\n"
	".balign 16\n"
	"desc_llvm_spv:\n"
	".byte 0x03, 0x02, 0x23, 0x07\n"
	".ascii \"spirv image 0\"\n"
	"desc_llvm_spv_end:\n"
	".byte 0, 0, 0\n"
	"desc_llvm_bc:\n"
	".byte 0x42, 0x43, 0xc0, 0xde\n"
	".ascii \"bitcode image 1\"\n"
	"desc_llvm_bc_end:\n"
	".previous\n");

extern const unsigned char desc_llvm_spv[], desc_llvm_spv_end[];
extern const unsigned char desc_llvm_bc[], desc_llvm_bc_end[];

#define ENTRY(n) { 0, 1, 8, 0, NULL, n, 0, 0, NULL }

static const struct llvm_entry entries0[] = {
	ENTRY("_ZTS4Fill"),
	ENTRY("_ZTS5Other"),
};

static const struct llvm_entry entries1[] = {
	ENTRY("_ZTS4Last"),
};

#ifdef DESC_BAD_BIN
#define BIN1_END ((const unsigned char *)0x7ffffff00000)
#else
#define BIN1_END desc_llvm_bc_end
#endif

#ifdef DESC_BAD_KIND
#define KIND1 7
#else
#define KIND1 2
#endif

#ifdef DESC_BAD_COUNT
#define COUNT 65001
#else
#define COUNT 2
#endif

static const struct image_v3 images[] = {
	{ 3, 8, 0, "spirv64-unknown-unknown", "", "", desc_llvm_spv,
	  desc_llvm_spv_end, entries0, entries0 + 2, NULL, NULL },
	{ 3, 8, KIND1, "spir64", "", "", desc_llvm_bc, BIN1_END, entries1,
	  entries1 + 1, NULL, NULL },
};

__attribute__((used)) static const struct binaries descriptor = {
	1, COUNT, images, NULL, NULL,
};
