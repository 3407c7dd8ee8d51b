// SPDX-License-Identifier: MIT
/*
 * prog-globals LIBRARY ID...: ties a host variable to the first ID (as an
 * integration footer does, before any library registers), opens LIBRARY,
 * prints "ID size N scope S" for each ID (or "ID: <devimg_last_error()>"),
 * what the host variable is tied to, closes LIBRARY and prints the first
 * ID's record again, through the pointer taken while it was open, and
 * what devimg_global_find() says then.
 */
#include <dlfcn.h>
#include <stdio.h>

#include <devimg/devimg.h>

static int host_var;

static void show(const char *id)
{
	const struct devimg_global *g;

	if (devimg_global_find(id, &g) < 0) {
		printf("%s: %s\n", id, devimg_last_error());
		return;
	}
	printf("%s size %zu scope %d\n", devimg_global_id(g),
	       devimg_global_size(g), devimg_global_image_scope(g));
}

int main(int argc, char **argv)
{
	const struct devimg_global *kept = NULL, *g;
	void *lib;
	int i;

	if (argc < 3)
		return 2;
	if (devimg_global_bind_host(&host_var, argv[2]) < 0)
		return 1;
	lib = dlopen(argv[1], RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "prog-globals: %s\n", dlerror());
		return 1;
	}
	for (i = 2; i < argc; i++)
		show(argv[i]);
	if (devimg_global_find_host(&host_var, &g) == 0)
		printf("host variable: %s\n", devimg_global_id(g));
	kept = g;
	dlclose(lib);
	printf("after dlclose: %s size %zu\n", devimg_global_id(kept),
	       devimg_global_size(kept));
	show(argv[2]);
	if (devimg_global_find_host(&host_var, &g) < 0)
		printf("host variable: %s\n", devimg_last_error());
	return 0;
}
