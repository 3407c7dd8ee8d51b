// SPDX-License-Identifier: MIT
/*
 * open-module FILE: dlopen() FILE, say whether it opened, dlclose() it.
 */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	void *handle;

	if (argc != 2) {
		fputs("usage: open-module FILE\n", stderr);
		return 2;
	}
	handle = dlopen(argv[1], RTLD_NOW);
	if (!handle) {
		fprintf(stderr, "open-module: %s\n", dlerror());
		return 1;
	}
	puts("opened");
	dlclose(handle);
	return 0;
}
