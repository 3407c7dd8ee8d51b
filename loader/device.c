// SPDX-License-Identifier: MIT
/* Devices: names, backends and the capabilities image selection needs. */
#include <errno.h>
#include <string.h>

#include "dispatch.h"

void device_init_caps(struct devimg_device *dev)
{
	const struct devimg_plugin_device_info *info = dev->info;
	struct devimg_device_caps *caps = &dev->caps;

	memset(caps, 0, sizeof(*caps));
	if (info->backend && !strcmp(info->backend, "level_zero"))
		caps->backend = DEVIMG_BACKEND_LEVEL_ZERO;
	else if (info->backend && !strcmp(info->backend, "cuda"))
		caps->backend = DEVIMG_BACKEND_CUDA;
	else
		caps->backend = DEVIMG_BACKEND_OPENCL;
	switch (info->type) {
	case DEVIMG_PLUGIN_DEVICE_CPU:
		caps->type = DEVIMG_DEVICE_CPU;
		break;
	case DEVIMG_PLUGIN_DEVICE_GPU:
		caps->type = DEVIMG_DEVICE_GPU;
		break;
	default:
		/* "other" devices take what accelerators take */
		caps->type = DEVIMG_DEVICE_ACCELERATOR;
		break;
	}
	caps->spirv = !!(info->formats & DEVIMG_PLUGIN_FORMAT_SPIRV);
	caps->spir = !!(info->formats & DEVIMG_PLUGIN_FORMAT_SPIR);
	caps->cuda_cc = info->cc_major * 10 + info->cc_minor;
	caps->ptx = caps->backend == DEVIMG_BACKEND_OPENCL &&
		    (info->formats & DEVIMG_PLUGIN_FORMAT_PTX);
}

DEVIMG_EXPORT const char *devimg_device_name(const struct devimg_device *dev)
{
	return dev && dev->info->name ? dev->info->name : "";
}

DEVIMG_EXPORT const char *
devimg_device_backend(const struct devimg_device *dev)
{
	return dev ? devimg_backend_name(dev->caps.backend) : "unknown";
}

DEVIMG_EXPORT int devimg_device_caps(const struct devimg_device *dev,
				     struct devimg_device_caps *caps)
{
	if (!dev || !caps)
		return -EINVAL;
	*caps = dev->caps;
	return 0;
}
