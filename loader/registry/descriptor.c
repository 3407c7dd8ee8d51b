// SPDX-License-Identifier: MIT
/*
 * Descriptors: the checks a descriptor passes before it is registered,
 * and the images built from it.
 *
 * Checking is O(images): the descriptor's structure (versions, kinds,
 * formats, targets, spans and counts, property sets). The kernel entries,
 * O(names), are validated, copied and indexed when the registry is first
 * read (registry_settle() calls descriptor_build()), so a program pays
 * nothing at start-up for names it never looks up, and a library opened
 * and closed unused costs a few microseconds. Nothing here reads image
 * bytes or property values.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/devimg_limits.h"
#include "loader/registry/registry.h"

/* Sanity bounds (limits.h): beyond them a count comes from corruption. */
#define MAX_ENTRIES DEVIMG_LIMIT_ENTRIES
#define MAX_PROPS DEVIMG_LIMIT_PROPS
#define MAX_BYTE_ARRAY DEVIMG_LIMIT_BYTE_ARRAY

struct span {
	const char *what;
	const void *begin;
	const void *end;
	size_t elem;
};

/* Both NULL, or both set with begin <= end and whole elements between. */
static int span_count(const struct span *s, size_t max, size_t *n,
		      struct errmsg *msg, const char *where)
{
	uintptr_t b = (uintptr_t)s->begin, e = (uintptr_t)s->end;

	*n = 0;
	if (!s->begin && !s->end)
		return 0;
	if (!s->begin || !s->end) {
		errmsg_esc(msg, -EINVAL, "%s: %s begin %p end %p: one is NULL",
			   where, s->what, s->begin, s->end);
		return -EINVAL;
	}
	if (e < b) {
		errmsg_esc(msg, -EINVAL, "%s: %s end %p before begin %p",
			   where, s->what, s->end, s->begin);
		return -EINVAL;
	}
	if ((e - b) % s->elem) {
		errmsg_esc(msg, -EINVAL,
			   "%s: %s span of %zu bytes is not a multiple of %zu",
			   where, s->what, (size_t)(e - b), s->elem);
		return -EINVAL;
	}
	*n = (e - b) / s->elem;
	if (*n > max) {
		errmsg_esc(msg, -EINVAL, "%s: %zu %s, more than %zu",
			   where, *n, s->what, max);
		return -EINVAL;
	}
	return 0;
}

static int validate_property(const struct devimg_property *p, size_t j,
			     struct errmsg *msg, const char *where)
{
	if (!p->name) {
		errmsg_esc(msg, -EINVAL, "%s property %zu: name is NULL",
			   where, j);
		return -EINVAL;
	}
	switch (p->type) {
	case DEVIMG_PROPERTY_UINT32:
		return 0;
	case DEVIMG_PROPERTY_BYTE_ARRAY:
		if (!p->value || p->size < 8 || p->size > MAX_BYTE_ARRAY) {
			errmsg_esc(msg, -EINVAL,
				   "%s property %zu: byte array value %p size %llu, expected a value of 8 to 2^32 bytes",
				   where, j, p->value,
				   (unsigned long long)p->size);
			return -EINVAL;
		}
		return 0;
	case DEVIMG_PROPERTY_STRING:
		if (!p->value) {
			errmsg_esc(msg, -EINVAL,
				   "%s property %zu: string value is NULL",
				   where, j);
			return -EINVAL;
		}
		return 0;
	default:
		errmsg_esc(msg, -EINVAL,
			   "%s property %zu: type %u unknown, expected 1 (uint32), 2 (byte array) or 3 (string)",
			   where, j, p->type);
		return -EINVAL;
	}
}

static int validate_propset(const struct devimg_property_set *s,
			    struct errmsg *msg, const char *where)
{
	struct span span = { "properties", s->begin, s->end,
			     sizeof(struct devimg_property) };
	size_t n, j;
	int r;

	if (!s->name) {
		errmsg_esc(msg, -EINVAL, "%s: name is NULL", where);
		return -EINVAL;
	}
	r = span_count(&span, MAX_PROPS, &n, msg, where);
	for (j = 0; r == 0 && j < n; j++)
		r = validate_property(&s->begin[j], j, msg, where);
	return r;
}

static int validate_propsets(const struct devimg_device_image *img,
			     struct errmsg *msg, const char *where)
{
	struct span span = { "property sets", img->props_begin,
			     img->props_end,
			     sizeof(struct devimg_property_set) };
	char at[160];
	size_t n, j;
	int r;

	r = span_count(&span, MAX_PROPS, &n, msg, where);
	for (j = 0; r == 0 && j < n; j++) {
		snprintf(at, sizeof(at), "%s property set %zu", where, j);
		r = validate_propset(&img->props_begin[j], msg, at);
	}
	return r;
}

static int count_entries(const struct devimg_device_image *img, size_t *n,
			 struct errmsg *msg, const char *where)
{
	struct span span = { "entries", img->entries_begin, img->entries_end,
			     sizeof(struct devimg_offload_entry) };

	return span_count(&span, MAX_ENTRIES, n, msg, where);
}

/* Named by key: the descriptor or blob the object registered. */
static void image_where(char *where, size_t size, const void *key,
			unsigned i)
{
	snprintf(where, size, "descriptor %p image %u", key, i);
}

/* Every entry has a name: checked when the entries are indexed. */
static int validate_entries(const struct devimg_device_image *img,
			    struct errmsg *msg, const char *where)
{
	size_t n, j;
	int r;

	r = count_entries(img, &n, msg, where);
	for (j = 0; r == 0 && j < n; j++) {
		const char *name = img->entries_begin[j].name;

		if (!name || !*name) {
			errmsg_esc(msg, -EINVAL, "%s entry %zu: name is %s",
				   where, j, name ? "empty" : "NULL");
			r = -EINVAL;
		}
	}
	return r;
}

static int validate_header(const struct devimg_device_image *img,
			   struct errmsg *msg, const char *where)
{
	/*
	 * The offload wrapper writes 2; DPC++'s runtime builds images of
	 * version 1 itself (images loaded from files, its unit tests) with
	 * the same 96-byte layout, property sets included. Both read alike.
	 * Version 3 images (80 bytes) come here as their shadow (layout.c).
	 */
	if (img->version < 1 || img->version > 3) {
		errmsg_esc(msg, -EINVAL,
			   "%s: version %u, expected 1, 2 or 3",
			   where, img->version);
		return -EINVAL;
	}
	if (img->kind != DEVIMG_KIND_SYCL) {
		errmsg_esc(msg, -EINVAL,
			   "%s: offload kind %u, expected 4 (SYCL)", where,
			   img->kind);
		return -EINVAL;
	}
	/* 4 (compressed) is checked when first used, not here. */
	if (img->format > DEVIMG_FORMAT_COMPRESSED) {
		errmsg_esc(msg, -EINVAL,
			   "%s: format %u unknown, expected 0 (none), 1 (native), 2 (SPIR-V), 3 (LLVM bitcode) or 4 (compressed)",
			   where, img->format);
		return -EINVAL;
	}
	if (!img->target) {
		errmsg_esc(msg, -EINVAL, "%s: target is NULL", where);
		return -EINVAL;
	}
	return 0;
}

static int validate_bytes(const struct devimg_device_image *img,
			  struct errmsg *msg, const char *where)
{
	struct span bin = { "image bytes", img->bin_begin, img->bin_end, 1 };
	struct span manifest = { "manifest", img->manifest_begin,
				 img->manifest_end, 1 };
	size_t n;
	int r;

	if (!img->bin_begin || !img->bin_end) {
		errmsg_esc(msg, -EINVAL,
			   "%s: image bytes begin %p end %p: NULL", where,
			   (const void *)img->bin_begin,
			   (const void *)img->bin_end);
		return -EINVAL;
	}
	r = span_count(&bin, SIZE_MAX, &n, msg, where);
	if (r == 0)
		r = span_count(&manifest, SIZE_MAX, &n, msg, where);
	return r;
}

static int validate_image(const struct devimg_device_image *img,
			  unsigned i, struct errmsg *msg, const void *key)
{
	char where[96];
	size_t n;
	int r;

	image_where(where, sizeof(where), key, i);
	r = validate_header(img, msg, where);
	if (r == 0)
		r = validate_bytes(img, msg, where);
	if (r == 0)
		r = count_entries(img, &n, msg, where);
	if (r == 0)
		r = validate_propsets(img, msg, where);
	return r;
}

int descriptor_validate(const struct devimg_device_binaries *desc,
			struct errmsg *msg)
{
	return descriptor_validate_as(desc, desc, msg);
}

int descriptor_validate_as(const struct devimg_device_binaries *desc,
			   const void *key, struct errmsg *msg)
{
	struct span host;
	char where[64];
	size_t n;
	unsigned i;
	int r;

	if (!desc) {
		errmsg_esc(msg, -EINVAL, "descriptor is NULL");
		return -EINVAL;
	}
	snprintf(where, sizeof(where), "descriptor %p", key);
	if (desc->version != DEVIMG_BINARIES_VERSION) {
		errmsg_esc(msg, -EINVAL, "%s: version %u, expected %u",
			   where, desc->version, DEVIMG_BINARIES_VERSION);
		return -EINVAL;
	}
	if (desc->count && !desc->images) {
		errmsg_esc(msg, -EINVAL, "%s: %u images but images is NULL",
			   where, desc->count);
		return -EINVAL;
	}
	host = (struct span){ "host entries", desc->host_begin,
			      desc->host_end,
			      sizeof(struct devimg_offload_entry) };
	r = span_count(&host, MAX_ENTRIES, &n, msg, where);
	for (i = 0; r == 0 && i < desc->count; i++)
		r = validate_image(&desc->images[i], i, msg, key);
	return r;
}

static void free_images(struct devimg_image **imgs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		devimg_image_unref(imgs[i]);
	free(imgs);
}

int descriptor_build(const struct devimg_device_binaries *desc,
		     const void *key, struct devimg_image ***out,
		     struct errmsg *msg)
{
	struct devimg_image **imgs = NULL;
	char where[96];
	unsigned i;
	int r = 0;

	for (i = 0; r == 0 && i < desc->count; i++) {
		image_where(where, sizeof(where), key, i);
		r = validate_entries(&desc->images[i], msg, where);
	}
	if (r < 0)
		return r;
	if (desc->count) {
		imgs = calloc(desc->count, sizeof(*imgs));
		if (!imgs)
			goto err_nomem;
	}
	for (i = 0; i < desc->count; i++) {
		imgs[i] = image_new(desc, i);
		if (!imgs[i])
			goto err_nomem;
		imgs[i]->desc = key;
	}
	*out = imgs;
	return 0;

err_nomem:
	errmsg_esc(msg, -ENOMEM,
		   "descriptor %p: out of memory at image %u", key, i);
	if (imgs)
		free_images(imgs, i);
	return -ENOMEM;
}
