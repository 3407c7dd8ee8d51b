// SPDX-License-Identifier: MIT
/*
 * Prints the descriptor that a wrapped object made with
 * -emit-reg-funcs=0 -desc-name=NAME exports as ".sycl_offloading.NAME",
 * reading it the way a runtime of that image version would: the 96-byte
 * version-2 image, or (with -DIMAGE_V3) the 80-byte version-3 image that
 * DPC++'s sycl_device_binary_struct is under __INTEL_PREVIEW_BREAKING_CHANGES.
 *
 * stdout: "count N", then one line per image:
 *   "image I version V kind K format F target T copts C lopts L size S
 *    entries E,..."
 * and each image's bytes in the file img.I of the current folder.
 */
#include <stdint.h>
#include <stdio.h>

struct entry {
	void *addr;
	char *name;
	size_t size;
	int32_t flags;
	int32_t reserved;
};

struct image {
	uint16_t version;
	uint8_t kind;
	uint8_t format;
	const char *target;
	const char *compile_opts;
	const char *link_opts;
#ifndef IMAGE_V3
	const char *manifest_begin;
	const char *manifest_end;
#endif
	const unsigned char *bin_begin;
	const unsigned char *bin_end;
	struct entry *entries_begin;
	struct entry *entries_end;
	void *props_begin;
	void *props_end;
};

struct binaries {
	uint16_t version;
	uint16_t count;
	struct image *images;
	struct entry *host_begin;
	struct entry *host_end;
};

#ifdef IMAGE_V3
_Static_assert(sizeof(struct image) == 80, "version 3 image");
#else
_Static_assert(sizeof(struct image) == 96, "version 2 image");
#endif

extern const struct binaries desc __asm__(DESC);

int main(void)
{
	unsigned i;

	printf("binaries %u count %u\n", desc.version, desc.count);
	for (i = 0; i < desc.count; i++) {
		const struct image *img = &desc.images[i];
		const struct entry *e;
		char name[32];
		FILE *f;

		printf("image %u version %u kind %u format %u target %s copts %s lopts %s size %zu entries ",
		       i, img->version, img->kind, img->format, img->target,
		       img->compile_opts, img->link_opts,
		       (size_t)(img->bin_end - img->bin_begin));
		for (e = img->entries_begin; e != img->entries_end; e++)
			printf("%s%s", e == img->entries_begin ? "" : ",",
			       e->name);
		printf("\n");
		snprintf(name, sizeof(name), "img.%u", i);
		f = fopen(name, "wb");
		if (!f || fwrite(img->bin_begin, 1,
				 (size_t)(img->bin_end - img->bin_begin), f) !=
			  (size_t)(img->bin_end - img->bin_begin) ||
		    fclose(f))
			return 1;
	}
	return 0;
}
