/* SPDX-License-Identifier: MIT */
/*
 * The binary descriptor that wrapped objects hand to __sycl_register_lib():
 * DPC++'s layout (device_binaries version 1, device_image version 2), so
 * objects made by either toolchain register with either runtime; and the
 * newer layouts libdevimg also reads: the 80-byte device_image of version
 * 3 (no manifest) and LLVM's 56-byte offload entry.
 * Sizes and offsets are for LP64 hosts (x86-64, aarch64).
 */
#ifndef DEVIMG_DESCRIPTOR_H
#define DEVIMG_DESCRIPTOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DEVIMG_BINARIES_VERSION 1
#define DEVIMG_IMAGE_VERSION 2
/* The device_image without manifest_begin and manifest_end. */
#define DEVIMG_IMAGE_VERSION_NO_MANIFEST 3

enum devimg_offload_kind {
	DEVIMG_KIND_UNKNOWN = 0,
	DEVIMG_KIND_HOST = 1,
	DEVIMG_KIND_OPENMP = 2,
	DEVIMG_KIND_HIP = 3,
	DEVIMG_KIND_SYCL = 4,
};

enum devimg_image_format {
	DEVIMG_FORMAT_NONE = 0,		/* guess from the magic bytes */
	DEVIMG_FORMAT_NATIVE = 1,
	DEVIMG_FORMAT_SPIRV = 2,
	DEVIMG_FORMAT_LLVMBC = 3,
	DEVIMG_FORMAT_COMPRESSED = 4,	/* one zstd frame; the real format is guessed */
};

enum devimg_property_type {
	DEVIMG_PROPERTY_UNKNOWN = 0,
	DEVIMG_PROPERTY_UINT32 = 1,
	DEVIMG_PROPERTY_BYTE_ARRAY = 2,
	DEVIMG_PROPERTY_STRING = 3,
};

struct devimg_offload_entry {
	void *addr;		/* NULL for SYCL kernels */
	char *name;
	size_t size;
	int32_t flags;
	int32_t reserved;
};

/*
 * LLVM's offload entry (llvm/Frontend/Offloading/Utility.h). An entry
 * array is of this layout when its first entry has reserved 0, version 1,
 * kind 8 (SYCL) and flags 0; every entry of the array then is.
 */
#define DEVIMG_LLVM_ENTRY_VERSION 1
#define DEVIMG_LLVM_OFFLOAD_KIND_SYCL 8

struct devimg_llvm_offload_entry {
	uint64_t reserved;	/* 0 */
	uint16_t version;	/* 1 */
	uint16_t kind;		/* 8 = SYCL */
	uint32_t flags;		/* 0 */
	void *addr;		/* NULL for SYCL kernels */
	char *name;
	uint64_t size;
	uint64_t data;
	void *aux_addr;
};

struct devimg_property {
	char *name;
	void *value;		/* NULL for UINT32 */
	uint32_t type;
	uint64_t size;		/* UINT32: the value; BYTE_ARRAY: bytes with header */
};

struct devimg_property_set {
	char *name;
	struct devimg_property *begin;
	struct devimg_property *end;
};

struct devimg_device_image {
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
	struct devimg_offload_entry *entries_begin;
	struct devimg_offload_entry *entries_end;
	struct devimg_property_set *props_begin;
	struct devimg_property_set *props_end;
};

/*
 * Version 3: version 2 less the manifest. Images written by LLVM's
 * wrapper for its new offload model have kind 8 (LLVM's OffloadKind
 * SYCL) and an LLVM ImageKind as format (enum devimg_llvm_image_kind).
 */
struct devimg_device_image_v3 {
	uint16_t version;
	uint8_t kind;
	uint8_t format;
	const char *target;
	const char *compile_opts;
	const char *link_opts;
	const unsigned char *bin_begin;
	const unsigned char *bin_end;
	void *entries_begin;	/* 32- or 56-byte entries */
	void *entries_end;
	struct devimg_property_set *props_begin;
	struct devimg_property_set *props_end;
};

enum devimg_llvm_image_kind {
	DEVIMG_LLVM_IMAGE_NONE = 0,
	DEVIMG_LLVM_IMAGE_OBJECT = 1,
	DEVIMG_LLVM_IMAGE_BITCODE = 2,
	DEVIMG_LLVM_IMAGE_CUBIN = 3,
	DEVIMG_LLVM_IMAGE_FATBINARY = 4,
	DEVIMG_LLVM_IMAGE_PTX = 5,
	DEVIMG_LLVM_IMAGE_SPIRV = 6,
};

struct devimg_device_binaries {
	uint16_t version;
	uint16_t count;
	struct devimg_device_image *images;
	struct devimg_offload_entry *host_begin;
	struct devimg_offload_entry *host_end;
};

#if defined(__LP64__) && !defined(__cplusplus)
_Static_assert(sizeof(struct devimg_offload_entry) == 32, "offload_entry");
_Static_assert(sizeof(struct devimg_property) == 32, "property");
_Static_assert(sizeof(struct devimg_property_set) == 24, "property_set");
_Static_assert(sizeof(struct devimg_device_image) == 96, "device_image");
_Static_assert(sizeof(struct devimg_device_binaries) == 32, "device_binaries");
_Static_assert(offsetof(struct devimg_device_image, bin_begin) == 48, "bin_begin");
_Static_assert(offsetof(struct devimg_device_image, props_begin) == 80, "props");
_Static_assert(sizeof(struct devimg_llvm_offload_entry) == 56, "llvm_entry");
_Static_assert(offsetof(struct devimg_llvm_offload_entry, name) == 24, "name");
_Static_assert(sizeof(struct devimg_device_image_v3) == 80, "image_v3");
_Static_assert(offsetof(struct devimg_device_image_v3, bin_begin) == 32, "bin3");
#endif

#ifdef __cplusplus
}
#endif
#endif
