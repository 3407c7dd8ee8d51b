// SPDX-License-Identifier: MIT
/*
 * The set of images that devimg-wrap's inputs fill before the object is
 * written (object-writer.h): an image appended zeroed, every image freed.
 */
#include <stdlib.h>
#include <string.h>

#include "wrapper/object-writer.h"

struct wrap_image *wrap_set_add(struct wrap_set *set)
{
	struct wrap_image *img;

	if (set->nimages == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 8;

		img = realloc(set->images, cap * sizeof(*img));
		if (!img)
			return NULL;
		set->images = img;
		set->cap = cap;
	}
	img = &set->images[set->nimages++];
	memset(img, 0, sizeof(*img));
	return img;
}

static void image_fini(struct wrap_image *img)
{
	free(img->path);
	free(img->data);
	free(img->target);
	free(img->arch);
	free(img->compile_opts);
	free(img->link_opts);
	free(img->manifest);
	if (img->has_entries)
		props_names_fini(&img->entries);
	props_free(img->props);
	free(img->where);
	free(img->manifest_path);
	free(img->entries_path);
}

void wrap_set_fini(struct wrap_set *set)
{
	size_t i;

	for (i = 0; i < set->nimages; i++)
		image_fini(&set->images[i]);
	free(set->images);
	set->images = NULL;
	set->nimages = 0;
	set->cap = 0;
}
