// SPDX-License-Identifier: MIT
/*
 * Linked into a program that upstream's tools made: a constructor of the
 * default priority, which runs after their priority-1 registration and
 * before main(), prints what libdevimg holds then, one line an image:
 *
 *   before main: N images
 *   image I: format F, target T, kernels: NAME NAME ...
 *   image I set NAME: PROP=1|VALUE PROP=2|HEX ...
 *
 * F is the format the image declares, as a number (docs/formats.md); a
 * line per property set follows its image's, each property as in .props
 * text but for a byte array's bytes (its bit count first), in hex; a set
 * whose sets cannot be read shows "image I sets: error E".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <devimg/devimg.h>

#include "tests/upstream/regshow.h"

static void print_sets(size_t i, struct devimg_image *img)
{
	const struct devimg_propset_info *sets;
	size_t j, k, n;
	uint64_t b;
	int r;

	r = devimg_image_propsets(img, &sets, &n);
	if (r) {
		printf("image %zu sets: error %d\n", i, r);
		return;
	}
	for (j = 0; j < n; j++) {
		printf("image %zu set %s:", i, sets[j].name);
		for (k = 0; k < sets[j].nprops; k++) {
			const struct devimg_property_info *p;

			p = &sets[j].props[k];

			printf(" %s=%d|", p->name, (int)p->type);
			if (p->type == DEVIMG_PROPERTY_UINT32)
				printf("%u", (unsigned)p->u32);
			for (b = 0; p->type != DEVIMG_PROPERTY_UINT32 &&
				    b < p->size; b++)
				printf("%02x", p->data[b]);
		}
		putchar('\n');
	}
}

void regshow_print(const char *when)
{
	struct devimg_image *imgs[64];
	size_t i, j, n = 0;

	if (devimg_registry_images(imgs, 64, &n) || n > 64) {
		printf("%s: cannot list the registry (%zu images)\n", when, n);
		exit(3);
	}
	printf("%s: %zu images\n", when, n);
	for (i = 0; i < n; i++) {
		printf("image %zu: format %d, target %s, kernels:", i,
		       (int)devimg_image_format(imgs[i]),
		       devimg_image_target(imgs[i]));
		for (j = 0; j < devimg_image_entry_count(imgs[i]); j++)
			printf(" %s", devimg_image_entry_name(imgs[i], j));
		putchar('\n');
		print_sets(i, imgs[i]);
		devimg_image_unref(imgs[i]);
	}
	fflush(stdout);
}

#ifndef REGSHOW_NO_CONSTRUCTOR
__attribute__((constructor)) static void regshow_before_main(void)
{
	regshow_print("before main");
}
#endif
