// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/common/enumerate.h"
#include "plugins/common/plugin-support.h"

void *plugin_enumerate(const struct plugin_enum *e, void *ctx, unsigned *n,
		       int *rc)
{
	unsigned char *all, *ids, *item;
	uint32_t count = 0, i;

	*n = 0;
	*rc = e->get(ctx, &count, NULL);
	if (*rc < 0 || count == 0)
		return NULL;
	ids = calloc(count, e->id_size);
	all = calloc(count, e->item_size);
	if (!ids || !all) {
		*rc = plugin_error(-ENOMEM, "out of memory for %u %s",
				   (unsigned)count, e->what);
		free(ids);
		return all;
	}
	*rc = e->get(ctx, &count, ids);
	for (i = 0; i < count && *rc == 0; i++) {
		item = all + (size_t)i * e->item_size;
		memcpy(item + e->id_offset, ids + (size_t)i * e->id_size,
		       e->id_size);
		*n = i + 1;
		*rc = e->init(ctx, item, i);
	}
	free(ids);
	return all;
}

void plugin_device_names(struct devimg_plugin_device_info *info,
			 struct devimg_plugin_platform *platform,
			 const char *backend, const char *name,
			 const char *vendor, const char *version,
			 const char *driver_version)
{
	info->size = sizeof(*info);
	info->name = name;
	info->vendor = vendor;
	info->version = version;
	info->driver_version = driver_version;
	info->backend = backend;
	info->platform = platform;
}
