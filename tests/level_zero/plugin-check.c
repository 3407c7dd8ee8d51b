// SPDX-License-Identifier: MIT
/* The shared part of the tests that call the plugin's operations. */
#include <dlfcn.h>
#include <stdlib.h>

#include "tests/level_zero/plugin-check.h"

struct devimg_plugin_ops ops;
int failed;

int read_file(const char *path, unsigned char **out, size_t *size)
{
	FILE *f = fopen(path, "rb");
	long n;

	CHECK(f, "cannot open %s", path);
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		CHECK(0, "cannot size %s", path);
	}
	*out = malloc((size_t)n);
	*size = (size_t)n;
	if (!*out || fread(*out, 1, *size, f) != *size) {
		fclose(f);
		CHECK(0, "cannot read %s", path);
	}
	fclose(f);
	return 0;
}

int plugin_open(const char *path)
{
	devimg_plugin_init_fn init;
	void *h;
	int rc;

	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	init = h ? (devimg_plugin_init_fn)dlsym(h, DEVIMG_PLUGIN_ENTRY) : NULL;
	if (!init) {
		fprintf(stderr, "FAIL: %s\n", dlerror());
		return -1;
	}
	ops.abi_version = DEVIMG_PLUGIN_ABI_VERSION;
	ops.size = sizeof(ops);
	rc = init(DEVIMG_PLUGIN_ABI_VERSION, &ops);
	if (rc < 0) {
		fprintf(stderr, "FAIL: init: %d: %s\n", rc, ops.last_error());
		return -1;
	}
	return 0;
}
