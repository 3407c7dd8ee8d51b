// SPDX-License-Identifier: MIT
/*
 * Descriptors of other layouts than the one the registry reads: images of
 * version 3 (80 bytes, no manifest), entry arrays of LLVM's 56-byte
 * entries, and OffloadBinary blobs (blob.c). For those, registration
 * builds a shadow: a descriptor of the usual layout (images of 96 bytes,
 * entries of 32) whose pointers lead to the original strings, bytes and
 * property sets, so that validation, the registry and everything after
 * them read one layout. A version 1 or 2 descriptor with 32-byte entries
 * needs none and is registered as it is.
 *
 * How the images array is walked: DPC++'s runtime indexes it with the
 * size of the one device_image structure it was built with (96 bytes, or
 * 80 with its preview changes), so its wrappers write one layout per
 * descriptor. libdevimg walks it image by image, each image taking the
 * size its own version gives (3: 80 bytes, else 96): that reads those
 * descriptors the same way and also one that mixes versions, as a tool
 * that appends images of a newer wrapper to an older list writes. Entry arrays
 * are told apart as DPC++'s runtime does (sycl/source/detail/compiler.hpp):
 * 56-byte entries when the first one has reserved 0, version 1, kind 8 and
 * flags 0; every entry of such an array must.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/devimg_limits.h"
#include "loader/registry/registry.h"
#include "props/offload-binary.h"

#define V2_SIZE sizeof(struct devimg_device_image)
#define V3_SIZE sizeof(struct devimg_device_image_v3)
#define OLD_ENTRY sizeof(struct devimg_offload_entry)
#define LLVM_ENTRY sizeof(struct devimg_llvm_offload_entry)

void shadow_free(struct shadow *sh)
{
	size_t i;

	if (!sh)
		return;
	for (i = 0; i < sh->nowned; i++)
		free(sh->owned[i]);
	free(sh->owned);
	free(sh->images);
	free(sh->entries);
	offload_binary_free(sh->blob);
	free(sh);
}

struct shadow *shadow_new(unsigned count)
{
	struct shadow *sh = calloc(1, sizeof(*sh));

	if (!sh)
		return NULL;
	sh->desc.version = DEVIMG_BINARIES_VERSION;
	sh->desc.count = (uint16_t)count;
	if (count) {
		sh->images = calloc(count, sizeof(*sh->images));
		sh->owned = calloc(2 * (size_t)count, sizeof(*sh->owned));
		if (!sh->images || !sh->owned) {
			shadow_free(sh);
			return NULL;
		}
	}
	sh->desc.images = sh->images;
	return sh;
}

/* The entry at p is one of LLVM's (as DPC++'s runtime tells). */
static bool is_llvm_entry(const void *p)
{
	const struct devimg_llvm_offload_entry *e = p;

	return e->reserved == 0 && e->version == DEVIMG_LLVM_ENTRY_VERSION &&
	       e->kind == DEVIMG_LLVM_OFFLOAD_KIND_SYCL && e->flags == 0;
}

/* begin..end holds at least one entry, the first of LLVM's layout. */
static bool llvm_entries(const void *begin, const void *end)
{
	uintptr_t b = (uintptr_t)begin, e = (uintptr_t)end;

	return begin && end && e > b && e - b >= LLVM_ENTRY &&
	       is_llvm_entry(begin);
}

/*
 * 32-byte entries for the 56-byte ones at begin..end, kept by sh; entries
 * of any other layout are left to validation as they are.
 */
static int convert_entries(struct shadow *sh, struct devimg_device_image *di,
			   const void *begin, const void *end,
			   struct errmsg *msg, const char *where)
{
	const struct devimg_llvm_offload_entry *src = begin;
	size_t span = (size_t)((uintptr_t)end - (uintptr_t)begin);
	struct devimg_offload_entry *dst;
	size_t n, j;

	if (span % LLVM_ENTRY) {
		errmsg_esc(msg, -EINVAL,
			   "%s: entries span of %zu bytes is not a multiple of %zu (LLVM offload entries)",
			   where, span, LLVM_ENTRY);
		return -EINVAL;
	}
	n = span / LLVM_ENTRY;
	if (n > DEVIMG_LIMIT_ENTRIES) {
		errmsg_esc(msg, -EINVAL, "%s: %zu entries, more than %u",
			   where, n, DEVIMG_LIMIT_ENTRIES);
		return -EINVAL;
	}
	for (j = 0; j < n; j++) {
		if (!is_llvm_entry(&src[j])) {
			errmsg_esc(msg, -EINVAL,
				   "%s entry %zu: reserved %llu version %u kind %u flags %u, expected 0, 1, 8 and 0 as entry 0 (one layout an array)",
				   where, j,
				   (unsigned long long)src[j].reserved,
				   src[j].version, src[j].kind,
				   src[j].flags);
			return -EINVAL;
		}
	}
	dst = malloc(n * OLD_ENTRY);
	if (!dst) {
		errmsg_esc(msg, -ENOMEM, "%s: out of memory", where);
		return -ENOMEM;
	}
	for (j = 0; j < n; j++) {
		dst[j] = (struct devimg_offload_entry){
			.addr = src[j].addr,
			.name = src[j].name,
			.size = (size_t)src[j].size,
		};
	}
	sh->owned[sh->nowned++] = dst;
	di->entries_begin = dst;
	di->entries_end = dst + n;
	return 0;
}

unsigned shadow_format_of_llvm(unsigned image_kind)
{
	switch (image_kind) {
	case DEVIMG_LLVM_IMAGE_NONE:
	case DEVIMG_LLVM_IMAGE_PTX:	/* text: told by its bytes */
		return DEVIMG_FORMAT_NONE;
	case DEVIMG_LLVM_IMAGE_OBJECT:
	case DEVIMG_LLVM_IMAGE_CUBIN:
	case DEVIMG_LLVM_IMAGE_FATBINARY:
		return DEVIMG_FORMAT_NATIVE;
	case DEVIMG_LLVM_IMAGE_BITCODE:
		return DEVIMG_FORMAT_LLVMBC;
	case DEVIMG_LLVM_IMAGE_SPIRV:
		return DEVIMG_FORMAT_SPIRV;
	default:
		return UINT_MAX;
	}
}

/* Image i of the version-3 layout into sh's image i. */
static int copy_v3(struct shadow *sh, const struct devimg_device_image_v3 *src,
		   unsigned i, struct errmsg *msg, const char *where)
{
	struct devimg_device_image *di = &sh->images[i];

	*di = (struct devimg_device_image){
		.version = src->version,
		.kind = src->kind,
		.format = src->format,
		.target = src->target,
		.compile_opts = src->compile_opts,
		.link_opts = src->link_opts,
		.bin_begin = src->bin_begin,
		.bin_end = src->bin_end,
		.entries_begin = src->entries_begin,
		.entries_end = src->entries_end,
		.props_begin = src->props_begin,
		.props_end = src->props_end,
	};
	/* LLVM's wrapper: its OffloadKind and ImageKind numbers. */
	if (src->kind == DEVIMG_LLVM_OFFLOAD_KIND_SYCL) {
		unsigned f = shadow_format_of_llvm(src->format);

		if (f == UINT_MAX) {
			errmsg_esc(msg, -EINVAL,
				   "%s: LLVM image kind %u unknown, expected 0 to 6",
				   where, src->format);
			return -EINVAL;
		}
		di->kind = DEVIMG_KIND_SYCL;
		di->format = (uint8_t)f;
	}
	return 0;
}

/* The size of the image that starts at elem, by its version. */
static size_t image_size(const void *elem)
{
	uint16_t version;

	memcpy(&version, elem, sizeof(version));
	return version == DEVIMG_IMAGE_VERSION_NO_MANIFEST ? V3_SIZE : V2_SIZE;
}

static int shadow_descriptor(const struct devimg_device_binaries *desc,
			     struct shadow **out, struct errmsg *msg)
{
	const unsigned char *elem = (const void *)desc->images;
	struct shadow *sh;
	char where[96];
	unsigned i;
	int r = 0;

	sh = shadow_new(desc->count);
	if (!sh) {
		errmsg_esc(msg, -ENOMEM, "descriptor %p: out of memory",
			   (const void *)desc);
		return -ENOMEM;
	}
	sh->desc.host_begin = desc->host_begin;
	sh->desc.host_end = desc->host_end;
	for (i = 0; r == 0 && i < desc->count; i++, elem += image_size(elem)) {
		struct devimg_device_image *di = &sh->images[i];

		snprintf(where, sizeof(where), "descriptor %p image %u",
			 (const void *)desc, i);
		if (image_size(elem) == V3_SIZE)
			r = copy_v3(sh, (const void *)elem, i, msg, where);
		else
			memcpy(di, elem, sizeof(*di));
		if (r == 0 && llvm_entries(di->entries_begin, di->entries_end))
			r = convert_entries(sh, di, di->entries_begin,
					    di->entries_end, msg, where);
	}
	if (r < 0) {
		shadow_free(sh);
		return r;
	}
	*out = sh;
	return 0;
}

int shadow_build(const void *arg, struct shadow **out, struct errmsg *msg)
{
	const struct devimg_device_binaries *desc = arg;
	const unsigned char *elem;
	struct devimg_device_image img;
	unsigned i;

	*out = NULL;
	if (!arg)
		return 0;
	/* What descriptor_validate() rejects is left to it. */
	if (desc->version != DEVIMG_BINARIES_VERSION || !desc->count ||
	    !desc->images)
		return 0;
	elem = (const void *)desc->images;
	for (i = 0; i < desc->count; i++, elem += V2_SIZE) {
		if (image_size(elem) == V3_SIZE)
			return shadow_descriptor(desc, out, msg);
		memcpy(&img, elem, sizeof(img));
		if (llvm_entries(img.entries_begin, img.entries_end))
			return shadow_descriptor(desc, out, msg);
	}
	return 0;
}
