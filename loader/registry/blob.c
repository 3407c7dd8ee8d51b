// SPDX-License-Identifier: MIT
/*
 * OffloadBinary blobs handed to __sycl_register_lib(). LLVM's wrapper for
 * its new offload model may embed the blob the linker was given as it is
 * and pass its start (with its size or end, not read here: the header
 * gives the size). Each SYCL entry of the blob becomes one image of the
 * shadow (layout.c): kernel names from its "symbols" string, target from
 * "triple", format from the entry's ImageKind. LLVM's tools write that
 * string three ways, told apart by its structure (props/offload-symbols.h):
 * clang-sycl-linker 23's binary table (u32 count, {offset, length} per
 * name, the NUL-ended names), NUL-joined names (LLVM between 22 and 23)
 * and '\n'-joined names (clang-sycl-linker 22). A string that claims to be
 * a table (first byte below 0x20) and is not a consistent one rejects
 * that image alone: the problem is kept for devimg_registry_problem() and
 * the blob's other images register. Entries of other offload kinds, and
 * metadata entries without an image, are skipped. The parsed blob
 * (props/offload-binary.c) is kept with the shadow; image bytes point into
 * the blob, names into a copy the shadow owns.
 *
 * Registration reads the blob's header, entries and string tables, never
 * a value's bytes: the names are decoded when the registry settles the
 * blob (shadow_blob_names(), on the first read of the registry), as a
 * descriptor's names are copied then. A program of 100,000 kernels that
 * launches none pays nothing for them (bench/startup.sh measures it).
 *
 * Property sets (what devimg-wrap -form=blob writes; docs/formats.md,
 * section 3): each string of an entry whose key holds a '/' (LLVM's own,
 * "triple", "arch", "symbols", hold none) is a set of that name, its
 * value the set's properties as .props text without the "[name]" line.
 * Registration only keeps each image's entry (sh->entries): introspect.c
 * parses the texts when the image's sets are first read and copies them
 * once into the image record, as it copies a descriptor's, in time linear
 * in their length, which the blob's Size bounds. A text that does not
 * parse fails that read, with its line and column; the image's kernels
 * register.
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
#include "props/offload-symbols.h"
#include "util/errmsg.h"
#include "util/le.h"

/* Magic, version and Size: what is read before the blob's size is known. */
#define BLOB_PREFIX 16u
/* The smallest header (versions 1 and 2). */
#define BLOB_HEADER 32u

bool shadow_is_blob(const void *arg)
{
	return offload_binary_is(arg, OFFLOAD_BINARY_MAGIC_LEN);
}

static bool is_sycl_image(const struct offload_entry *e)
{
	return e->offload_kind == OFFLOAD_KIND_SYCL &&
	       !(e->flags & OFFLOAD_FLAG_METADATA);
}

/*
 * The names of the "symbols" string s..s+len (offload-symbols.h) as
 * 32-byte entries pointing into the decoder's copy of the string; sh
 * keeps both blocks.
 */
static int split_symbols(struct shadow *sh, struct devimg_device_image *di,
			 const char *s, size_t len, struct errmsg *msg,
			 const char *where)
{
	struct errmsg err = { 0 };
	struct devimg_offload_entry *dst;
	struct offload_symbols sy;
	size_t i, bytes;
	char *text;
	int r;

	r = offload_symbols_decode(s, len, where, &sy, &err);
	if (r < 0) {
		errmsg_esc(msg, r, "%s", err.msg);
		return r;
	}
	if (size_mul(sy.n, sizeof(*dst), &bytes)) {
		errmsg_esc(msg, -EOVERFLOW, "%s: %zu symbols: too large",
			   where, sy.n);
		offload_symbols_fini(&sy);
		return -EOVERFLOW;
	}
	dst = malloc(bytes ? bytes : 1);
	if (!dst) {
		offload_symbols_fini(&sy);
		errmsg_esc(msg, -ENOMEM, "%s: out of memory", where);
		return -ENOMEM;
	}
	/* The text is in the block sy.mem, which is ours to write. */
	text = sy.text ? (char *)sy.mem + (sy.text - (const char *)sy.mem) :
			 NULL;
	for (i = 0; i < sy.n; i++)
		dst[i] = (struct devimg_offload_entry){
			.name = text + (sy.names[i] - sy.text),
		};
	di->entries_begin = dst;
	di->entries_end = dst + sy.n;
	log_dbg("%s: %zu symbols, %s form", where, sy.n,
		offload_symbols_form_name(sy.form));
	sh->owned[sh->nowned++] = dst;
	sh->owned[sh->nowned++] = offload_symbols_release(&sy);
	return 0;
}

/* Image i of sh from e, without its names: 0, or -EINVAL. */
static int blob_image(struct shadow *sh, unsigned i,
		      const struct offload_entry *e, struct errmsg *msg,
		      const char *where)
{
	struct devimg_device_image *di = &sh->images[i];
	unsigned format = shadow_format_of_llvm(e->image_kind);
	const char *triple;

	if (format == UINT_MAX) {
		errmsg_esc(msg, -EINVAL,
			   "%s: image kind %u unknown, expected 0 to 6",
			   where, e->image_kind);
		return -EINVAL;
	}
	triple = offload_entry_string(e, "triple", NULL);
	if (!triple) {
		errmsg_esc(msg, -EINVAL, "%s: no \"triple\" string",
			   where);
		return -EINVAL;
	}
	sh->entries[i] = e;
	*di = (struct devimg_device_image){
		.version = DEVIMG_IMAGE_VERSION_NO_MANIFEST,
		.kind = DEVIMG_KIND_SYCL,
		.format = (uint8_t)format,
		.target = triple,
		.bin_begin = e->image,
		.bin_end = e->image + e->image_size,
	};
	return 0;
}

/* Drop image i of sh, whose names could not be read. */
static void drop_image(struct shadow *sh, unsigned i)
{
	unsigned n = sh->desc.count - i - 1;

	memmove(&sh->images[i], &sh->images[i + 1], n * sizeof(*sh->images));
	memmove(&sh->entries[i], &sh->entries[i + 1],
		n * sizeof(*sh->entries));
	sh->desc.count--;
}

int shadow_blob_names(struct shadow *sh, const void *key,
		      void (*reject)(const struct errmsg *msg, void *arg),
		      void *arg, struct errmsg *msg)
{
	const struct offload_binary *ob = sh->blob;
	const char *symbols;
	char where[128];
	unsigned i = 0;
	size_t len;
	int r;

	while (i < sh->desc.count) {
		const struct offload_entry *e = sh->entries[i];

		len = 0;
		symbols = offload_entry_string(e, "symbols", &len);
		if (!symbols) {
			i++;
			continue;
		}
		snprintf(where, sizeof(where),
			 "descriptor %p: OffloadBinary entry %zu", key,
			 (size_t)(e - ob->entries));
		r = split_symbols(sh, &sh->images[i], symbols, len, msg,
				  where);
		if (r == -EINVAL) {
			reject(msg, arg);
			drop_image(sh, i);
		} else if (r < 0) {
			return r;
		} else {
			i++;
		}
	}
	sh->names_pending = false;
	return 0;
}

int shadow_blob(const void *arg, struct shadow **out, struct errmsg *msg)
{
	struct errmsg err = { 0 };
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
		errmsg_esc(msg, -EINVAL,
			   "%s: OffloadBinary not aligned to %u bytes",
			   fname, OFFLOAD_BINARY_ALIGN);
		return -EINVAL;
	}
	memcpy(prefix, arg, sizeof(prefix));
	size = get_le64(prefix + 8);
	/* The reader checks the rest against the size the header gives. */
	if (size < BLOB_HEADER) {
		errmsg_esc(msg, -EINVAL,
			   "%s: OffloadBinary Size %llu, less than its %u-byte header",
			   fname, (unsigned long long)size, BLOB_HEADER);
		return -EINVAL;
	}
	r = offload_binary_parse(arg, (size_t)size, fname, &ob, &err);
	if (r < 0) {
		errmsg_esc(msg, r, "%s", err.msg);
		return r;
	}
	for (i = 0; i < ob->nentries; i++)
		n += is_sycl_image(&ob->entries[i]);
	if (n > DEVIMG_LIMIT_IMAGES) {
		errmsg_esc(msg, -EINVAL, "%s: %zu SYCL images, more than %u",
			   fname, n, DEVIMG_LIMIT_IMAGES);
		offload_binary_free(ob);
		return -EINVAL;
	}
	sh = shadow_new((unsigned)n);
	if (!sh) {
		offload_binary_free(ob);
		errmsg_esc(msg, -ENOMEM, "%s: out of memory", fname);
		return -ENOMEM;
	}
	sh->blob = ob;
	sh->entries = calloc(n ? n : 1, sizeof(*sh->entries));
	if (!sh->entries) {
		shadow_free(sh);
		errmsg_esc(msg, -ENOMEM, "%s: out of memory", fname);
		return -ENOMEM;
	}
	for (i = 0; r >= 0 && i < ob->nentries; i++) {
		if (!is_sycl_image(&ob->entries[i]))
			continue;
		snprintf(where, sizeof(where), "%s: OffloadBinary entry %zu",
			 fname, i);
		r = blob_image(sh, k, &ob->entries[i], msg, where);
		if (r == 0)
			k++;
	}
	if (r < 0) {
		shadow_free(sh);
		return r;
	}
	sh->desc.count = (uint16_t)k;
	sh->names_pending = true;
	*out = sh;
	return 0;
}

