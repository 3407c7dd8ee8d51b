// SPDX-License-Identifier: MIT
/*
 * Linked into a program that upstream's tools made: a constructor of the
 * default priority, which runs after their priority-1 registration and
 * before main(), prints what libdevimg holds then, one line an image:
 *
 *   before main: N images
 *   image I: format F, target T, kernels: NAME NAME ...
 *
 * F is the format the image declares, as a number (docs/formats.md).
 */
#include <stdio.h>
#include <stdlib.h>

#include <devimg/devimg.h>

#include "tests/upstream/regshow.h"

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
