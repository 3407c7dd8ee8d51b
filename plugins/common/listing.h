/* SPDX-License-Identifier: MIT */
/*
 * The platform_list, platform_info, device_list and device_info
 * operations, as every backend plugin answers them from the platforms and
 * devices it enumerated at init.
 *
 * plugin_list() (plugin-support.c) is the one listing: the arguments
 * checked, then put() stores the handle of each item into the caller's
 * array. The functions below are its callbacks and the operations over
 * it; they are static
 * inline because they see the plugin's own structures: include this
 * header after the plugin defines struct devimg_plugin_platform (with an
 * info member, ndevices and a devices array) and struct
 * devimg_plugin_device (with an info member).
 */
#ifndef DEVIMG_PLUGIN_LISTING_H
#define DEVIMG_PLUGIN_LISTING_H

#include "plugins/common/plugin-support.h"

/* out[i] = &items[i], for arrays of platforms and of devices. */
static inline void plugin_put_platform(void *items, unsigned i, void *out)
{
	((struct devimg_plugin_platform **)out)[i] =
		(struct devimg_plugin_platform *)items + i;
}

static inline void plugin_put_device(void *items, unsigned i, void *out)
{
	((struct devimg_plugin_device **)out)[i] =
		(struct devimg_plugin_device *)items + i;
}

/* platform_list over an array of n platforms (a plugin's whole list). */
static inline int plugin_platform_list(struct devimg_plugin_platform *all,
				       unsigned n, unsigned capacity,
				       struct devimg_plugin_platform **out,
				       unsigned *count)
{
	return plugin_list("platform_list", all, n, capacity, out, count,
			   plugin_put_platform);
}

/* The device_list operation: the devices of platform, in its order. */
static inline int plugin_device_list(struct devimg_plugin_platform *platform,
				     unsigned capacity,
				     struct devimg_plugin_device **out,
				     unsigned *count)
{
	if (!platform)
		return plugin_error(-EINVAL, "device_list: NULL platform");
	return plugin_list("device_list", platform->devices,
			   platform->ndevices, capacity, out, count,
			   plugin_put_device);
}

/* The platform_info and device_info operations. */
static inline const struct devimg_plugin_platform_info *plugin_platform_info(
	struct devimg_plugin_platform *platform)
{
	return &platform->info;
}

static inline const struct devimg_plugin_device_info *plugin_device_info(
	struct devimg_plugin_device *device)
{
	return &device->info;
}

#endif
