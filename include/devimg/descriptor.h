/* SPDX-License-Identifier: MIT */
/*
 * The binary descriptor that wrapped objects hand to __sycl_register_lib():
 * DPC++'s layout (device_binaries version 1, device_image version 2), so
 * objects made by either toolchain register with either runtime.
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
#endif

#ifdef __cplusplus
}
#endif
#endif
