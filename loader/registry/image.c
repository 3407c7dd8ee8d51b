// SPDX-License-Identifier: MIT
/*
 * The image record: what registration copies out of a validated descriptor
 * (the option strings and entry names, in one allocation with the record),
 * its reference count, and the lazily built caches it frees.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/registry/registry.h"

static const char *opt_or_empty(const char *s)
{
	return s ? s : "";
}

/*
 * Bytes the record needs beyond itself, or SIZE_MAX on overflow. The
 * names' lengths are left in the entries' hash fields for copy_entries().
 */
static size_t record_extra(const struct devimg_device_image *di,
			   struct image_entry *lens, size_t nentries)
{
	size_t extra = nentries * sizeof(struct image_entry);
	size_t j;

	extra += strlen(di->target) + 1;
	extra += strlen(opt_or_empty(di->compile_opts)) + 1;
	extra += strlen(opt_or_empty(di->link_opts)) + 1;
	for (j = 0; j < nentries; j++) {
		size_t len = strlen(di->entries_begin[j].name);

		if (len >= UINT32_MAX || extra > SIZE_MAX - len - 1)
			return SIZE_MAX;
		if (lens)
			lens[j].hash = (uint32_t)len;
		extra += len + 1;
	}
	return extra;
}

static char *copy_string(char **pos, const char *s)
{
	size_t len = strlen(s) + 1;
	char *dst = *pos;

	memcpy(dst, s, len);
	*pos += len;
	return dst;
}

/* Names are read once from the descriptor: lengths, then copies. */
static void copy_entries(struct devimg_image *img,
			 const struct devimg_device_image *di,
			 const struct image_entry *lens, char **pos)
{
	size_t j;

	for (j = 0; j < img->nentries; j++) {
		struct image_entry *e = &img->entries[j];
		size_t len = lens[j].hash;

		memcpy(*pos, di->entries_begin[j].name, len + 1);
		e->name = *pos;
		e->hash = hash_bytes(e->name, len);
		*pos += len + 1;
	}
}

static void copy_fields(struct devimg_image *img,
			const struct devimg_device_image *di)
{
	img->version = di->version;
	img->kind = di->kind;
	img->format = di->format;
	img->dimg = di;
	img->bin = di->bin_begin;
	img->bin_size = (size_t)(di->bin_end - di->bin_begin);
	img->manifest = di->manifest_begin;
	img->manifest_size = di->manifest_begin ?
		(size_t)(di->manifest_end - di->manifest_begin) : 0;
}

struct devimg_image *image_new(const struct devimg_device_binaries *desc,
			       unsigned index)
{
	const struct devimg_device_image *di = &desc->images[index];
	size_t nentries = di->entries_begin ?
		(size_t)(di->entries_end - di->entries_begin) : 0;
	struct image_entry local[64], *lens = local;
	struct devimg_image *img = NULL;
	size_t extra;
	char *pos;

	if (nentries > sizeof(local) / sizeof(local[0])) {
		lens = malloc(nentries * sizeof(*lens));
		if (!lens)
			return NULL;
	}
	extra = record_extra(di, lens, nentries);
	if (extra == SIZE_MAX || extra > SIZE_MAX - sizeof(*img))
		goto out;
	img = malloc(sizeof(*img) + extra);
	if (!img)
		goto out;
	memset(img, 0, sizeof(*img));
	atomic_init(&img->refcount, 1);
	atomic_init(&img->registered, false);
	atomic_init(&img->props, NULL);
	atomic_init(&img->spec, NULL);
	atomic_init(&img->guess, 0);
	atomic_init(&img->unz, NULL);
	img->desc = desc;
	img->index = index;
	copy_fields(img, di);
	img->nentries = nentries;
	img->entries = (struct image_entry *)(img + 1);
	pos = (char *)(img->entries + nentries);
	img->target = copy_string(&pos, di->target);
	img->compile_opts = copy_string(&pos, opt_or_empty(di->compile_opts));
	img->link_opts = copy_string(&pos, opt_or_empty(di->link_opts));
	copy_entries(img, di, lens, &pos);
out:
	if (lens != local)
		free(lens);
	return img;
}

void image_free(struct devimg_image *img)
{
	image_props_free(atomic_load(&img->props));
	image_spec_free(atomic_load(&img->spec));
	free(atomic_load(&img->reqs));
	image_unz_free(atomic_load(&img->unz));
	free(img);
}

DEVIMG_EXPORT struct devimg_image *devimg_image_ref(struct devimg_image *img)
{
	if (img)
		atomic_fetch_add_explicit(&img->refcount, 1,
					  memory_order_relaxed);
	return img;
}

DEVIMG_EXPORT struct devimg_image *devimg_image_unref(struct devimg_image *img)
{
	if (!img)
		return NULL;
	if (atomic_fetch_sub_explicit(&img->refcount, 1,
				      memory_order_acq_rel) > 1)
		return img;
	image_free(img);
	return NULL;
}
