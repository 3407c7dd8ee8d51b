// SPDX-License-Identifier: MIT
/*
 * Prints what the registry holds, one line an image, for the shell tests
 * of objects laid out as LLVM's and DPC++'s wrappers lay them out:
 *
 *   prog-offload                 the images registered by the program
 *   prog-offload LIB...          also after each dlopen and dlclose
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <devimg/devimg.h>

static void list(const char *when)
{
	struct devimg_image *imgs[16];
	char text[256];
	size_t n = 0, i, j;
	unsigned p;

	if (devimg_registry_images(imgs, 16, &n) < 0 || n > 16) {
		printf("%s: cannot list\n", when);
		exit(1);
	}
	printf("%s: %zu images\n", when, n);
	for (i = 0; i < n; i++) {
		printf("  version %u kind %d format %d target %s bin %zu entries",
		       devimg_image_version(imgs[i]), devimg_image_kind(imgs[i]),
		       devimg_image_format(imgs[i]),
		       devimg_image_target(imgs[i]),
		       devimg_image_bin_size(imgs[i]));
		for (j = 0; j < devimg_image_entry_count(imgs[i]); j++)
			printf(" %s", devimg_image_entry_name(imgs[i], j));
		printf("\n");
		devimg_image_unref(imgs[i]);
	}
	for (p = 0; p < devimg_registry_problem_count(); p++) {
		if (devimg_registry_problem(p, NULL, text, sizeof(text)) == 0)
			printf("  problem: %s\n", text);
	}
}

int main(int argc, char **argv)
{
	int i;

	list("main");
	for (i = 1; i < argc; i++) {
		void *h = dlopen(argv[i], RTLD_NOW);

		if (!h) {
			printf("dlopen %s: %s\n", argv[i], dlerror());
			return 1;
		}
		list("dlopen");
		dlclose(h);
		list("dlclose");
	}
	return 0;
}
