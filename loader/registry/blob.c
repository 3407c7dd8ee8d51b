// SPDX-License-Identifier: MIT
/*
 * OffloadBinary blobs handed to __sycl_register_lib(). LLVM's wrapper for
 * its new offload model may embed the blob the linker was given as it is
 * and pass its start (with its size or end, not read here: the header
 * gives the size). Each SYCL entry of the blob becomes one image of the
 * shadow (layout.c): kernel names from its "symbols" string (names ended
 * by NULs), target from "triple", format from the entry's ImageKind.
 * Entries of other offload kinds, and metadata entries without an image,
 * are skipped. The parsed blob (props/offload-binary.c) is kept with the
 * shadow, whose names point into its copies of the strings; image bytes
 * point into the blob.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devimg_limits.h"
#include "libdevimg-internal.h"
#include "offload-binary.h"

/* Magic, version and Size: what is read before the blob's size is known. */
#define BLOB_PREFIX 16u
/* The smallest header (versions 1 and 2). */
#define BLOB_HEADER 32u

bool shadow_is_blob(const void *arg)
{
	return offload_binary_is(arg, OFFLOAD_BINARY_MAGIC_LEN);
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static bool is_sycl_image(const struct offload_entry *e)
{
	return e->offload_kind == OFFLOAD_KIND_SYCL &&
	       !(e->flags & OFFLOAD_FLAG_METADATA);
}

/* The NUL-ended names of s..s+len, as 32-byte entries kept by sh. */
static int split_symbols(struct shadow *sh, struct devimg_device_image *di,
			 const char *s, size_t len, struct devimg_msg *msg,
			 const char *where)
{
	struct devimg_offload_entry *dst;
	size_t n = 0, j = 0, pos;

	for (pos = 0; pos < len; pos += strlen(s + pos) + 1) {
		if (s[pos])
			n++;
	}
	if (n > DEVIMG_LIMIT_ENTRIES) {
		devimg_msg_set(msg, -EINVAL, "%s: %zu symbols, more than %u",
			       where, n, DEVIMG_LIMIT_ENTRIES);
		return -EINVAL;
	}
	dst = calloc(n ? n : 1, sizeof(*dst));
	if (!dst) {
		devimg_msg_set(msg, -ENOMEM, "%s: out of memory", where);
		return -ENOMEM;
	}
	for (pos = 0; pos < len; pos += strlen(s + pos) + 1) {
		if (s[pos])
			dst[j++].name = (char *)(s + pos);
	}
	sh->owned[sh->nowned++] = dst;
	di->entries_begin = dst;
	di->entries_end = dst + n;
	return 0;
}

static int blob_image(struct shadow *sh, unsigned i,
		      const struct offload_entry *e, struct devimg_msg *msg,
		      const char *where)
{
	struct devimg_device_image *di = &sh->images[i];
	unsigned format = shadow_format_of_llvm(e->image_kind);
	const char *triple, *symbols;
	size_t len = 0;

	if (format == UINT_MAX) {
		devimg_msg_set(msg, -EINVAL,
			       "%s: image kind %u unknown, expected 0 to 6",
			       where, e->image_kind);
		return -EINVAL;
	}
	triple = offload_entry_string(e, "triple", NULL);
	if (!triple) {
		devimg_msg_set(msg, -EINVAL, "%s: no \"triple\" string",
			       where);
		return -EINVAL;
	}
	*di = (struct devimg_device_image){
		.version = DEVIMG_IMAGE_VERSION_NO_MANIFEST,
		.kind = DEVIMG_KIND_SYCL,
		.format = (uint8_t)format,
		.target = triple,
		.bin_begin = e->image,
		.bin_end = e->image + e->image_size,
	};
	symbols = offload_entry_string(e, "symbols", &len);
	if (!symbols)
		return 0;
	return split_symbols(sh, di, symbols, len, msg, where);
}

int shadow_blob(const void *arg, struct shadow **out, struct devimg_msg *msg)
{
	struct props_error err = { "" };
	struct offload_binary *ob;
	struct shadow *sh;
	unsigned char prefix[BLOB_PREFIX];
	char fname[64], where[128];
	uint64_t size;
	size_t i, n = 0;
	unsigned k = 0;
	int r;

	snprintf(fname, sizeof(fname), "descriptor %p", arg);
	if ((uintptr_t)arg % OFFLOAD_BINARY_ALIGN) {
		devimg_msg_set(msg, -EINVAL,
			       "%s: OffloadBinary not aligned to %u bytes",
			       fname, OFFLOAD_BINARY_ALIGN);
		return -EINVAL;
	}
	memcpy(prefix, arg, sizeof(prefix));
	size = le64(prefix + 8);
	/* The reader checks the rest against the size the header gives. */
	if (size < BLOB_HEADER) {
		devimg_msg_set(msg, -EINVAL,
			       "%s: OffloadBinary Size %llu, less than its %u-byte header",
			       fname, (unsigned long long)size, BLOB_HEADER);
		return -EINVAL;
	}
	r = offload_binary_parse(arg, (size_t)size, fname, &ob, &err);
	if (r < 0) {
		devimg_msg_set(msg, r, "%s", err.msg);
		return r;
	}
	for (i = 0; i < ob->nentries; i++)
		n += is_sycl_image(&ob->entries[i]);
	if (n > DEVIMG_LIMIT_IMAGES) {
		devimg_msg_set(msg, -EINVAL, "%s: %zu SYCL images, more than %u",
			       fname, n, DEVIMG_LIMIT_IMAGES);
		offload_binary_free(ob);
		return -EINVAL;
	}
	sh = shadow_new((unsigned)n);
	if (!sh) {
		offload_binary_free(ob);
		devimg_msg_set(msg, -ENOMEM, "%s: out of memory", fname);
		return -ENOMEM;
	}
	sh->blob = ob;
	for (i = 0; r == 0 && i < ob->nentries; i++) {
		if (!is_sycl_image(&ob->entries[i]))
			continue;
		snprintf(where, sizeof(where), "%s: OffloadBinary entry %zu",
			 fname, i);
		r = blob_image(sh, k++, &ob->entries[i], msg, where);
	}
	if (r < 0) {
		shadow_free(sh);
		return r;
	}
	*out = sh;
	return 0;
}
