// SPDX-License-Identifier: MIT
/*
 * The C part of the integration tests' shared libraries: a constructor of
 * default priority that checks the library's own images (priority 1) were
 * registered before it ran.
 */
#define _GNU_SOURCE
#include <devimg/devimg.h>

int fixture_lib_ctor_saw_images(void);

static int saw_images;

static void __attribute__((constructor)) fixture_lib_ctor(void)
{
	struct devimg_image *img = NULL;
	size_t n = 0;

	if (devimg_registry_find_kernel(MARKER, &img, 1, &n) == 0 && n == 1)
		saw_images = devimg_image_is_registered(img);
	devimg_image_unref(img);
}

__attribute__((visibility("default"))) int fixture_lib_ctor_saw_images(void)
{
	return saw_images;
}
