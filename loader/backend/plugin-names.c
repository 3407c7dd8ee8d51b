// SPDX-License-Identifier: MIT
/*
 * What a plugin file's name says: its file name, and the backend it is
 * named for (devimg-opencl.so: "opencl"), for discovery, start and
 * binding alike.
 */
#include <stdio.h>
#include <string.h>

#include "loader/backend/plugin-private.h"

const char *plugin_base_name(const char *file)
{
	const char *slash = strrchr(file, '/');

	return slash ? slash + 1 : file;
}

void plugin_backend_of_name(const char *name, char *buf, size_t size)
{
	size_t n = strlen(name);
	size_t pre = strlen(DEVIMG_PLUGIN_PREFIX);
	size_t suf = strlen(DEVIMG_PLUGIN_SUFFIX);

	if (n < pre + suf)
		n = pre + suf;
	snprintf(buf, size, "%.*s", (int)(n - pre - suf), name + pre);
}

void plugin_backend_of_file(const char *file, char *buf, size_t size)
{
	plugin_backend_of_name(plugin_base_name(file), buf, size);
}
