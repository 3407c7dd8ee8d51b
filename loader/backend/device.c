// SPDX-License-Identifier: MIT
/*
 * Devices: names, backends, and what image selection needs: capabilities
 * (backend, type, formats) and features (aspects, sub-group sizes,
 * work-group limits) against images' device requirements.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "loader/backend/backend.h"

/* The plugin interface and the public header number aspects alike. */
#define SAME_ASPECT(a)							\
	_Static_assert((int)DEVIMG_ASPECT_##a ==			\
		       (int)DEVIMG_PLUGIN_ASPECT_##a, #a)
SAME_ASPECT(CPU);
SAME_ASPECT(GPU);
SAME_ASPECT(ACCELERATOR);
SAME_ASPECT(CUSTOM);
SAME_ASPECT(FP16);
SAME_ASPECT(FP64);
SAME_ASPECT(IMAGE);
SAME_ASPECT(ONLINE_COMPILER);
SAME_ASPECT(ONLINE_LINKER);
SAME_ASPECT(QUEUE_PROFILING);
SAME_ASPECT(USM_DEVICE_ALLOCATIONS);
SAME_ASPECT(USM_HOST_ALLOCATIONS);
SAME_ASPECT(USM_SHARED_ALLOCATIONS);
SAME_ASPECT(USM_SYSTEM_ALLOCATIONS);
SAME_ASPECT(USM_ATOMIC_HOST_ALLOCATIONS);
SAME_ASPECT(USM_ATOMIC_SHARED_ALLOCATIONS);
SAME_ASPECT(ATOMIC64);
#undef SAME_ASPECT

#define ASPECT(n) ((uint64_t)1 << (n))
#define TYPE_ASPECTS (ASPECT(DEVIMG_ASPECT_CPU) | ASPECT(DEVIMG_ASPECT_GPU) | \
		      ASPECT(DEVIMG_ASPECT_ACCELERATOR) | \
		      ASPECT(DEVIMG_ASPECT_CUSTOM))

/* Whether a plugin's info is large enough to hold field. */
#define INFO_HAS(info, field)						\
	((info)->size >= offsetof(struct devimg_plugin_device_info, field) + \
			 sizeof((info)->field))

/*
 * The type gives cpu, gpu, accelerator (and custom for "other" devices);
 * the rest is what the plugin determined, when its info carries aspects.
 */
static void device_init_features(struct devimg_device *dev)
{
	const struct devimg_plugin_device_info *info = dev->info;
	struct devimg_device_features *f = &dev->features;
	uint64_t known = 0, has = 0;
	unsigned i;

	memset(f, 0, sizeof(*f));
	f->size = sizeof(*f);
	switch (info->type) {
	case DEVIMG_PLUGIN_DEVICE_CPU:
		f->aspects = ASPECT(DEVIMG_ASPECT_CPU);
		break;
	case DEVIMG_PLUGIN_DEVICE_GPU:
		f->aspects = ASPECT(DEVIMG_ASPECT_GPU);
		break;
	case DEVIMG_PLUGIN_DEVICE_ACCELERATOR:
		f->aspects = ASPECT(DEVIMG_ASPECT_ACCELERATOR);
		break;
	default:
		f->aspects = ASPECT(DEVIMG_ASPECT_CUSTOM);
		break;
	}
	f->aspects_known = TYPE_ASPECTS;
	if (INFO_HAS(info, aspects_known)) {
		known = info->aspects_known;
		has = info->aspects & known;
	}
	f->aspects = (f->aspects & ~known) | has;
	f->aspects_known |= known;
	f->aspects_reported = (known & ~TYPE_ASPECTS) != 0;
	if (INFO_HAS(info, sub_group_sizes)) {
		for (i = 0; i < info->nsub_group_sizes && i < 8; i++)
			f->sub_group_sizes[i] = info->sub_group_sizes[i];
		f->nsub_group_sizes = i;
	}
	f->max_work_group_size = info->max_work_group_size;
	memcpy(f->max_work_item_sizes, info->max_work_item_sizes,
	       sizeof(f->max_work_item_sizes));
}

void device_init_caps(struct devimg_device *dev)
{
	const struct devimg_plugin_device_info *info = dev->info;
	struct devimg_device_caps *caps = &dev->caps;

	memset(caps, 0, sizeof(*caps));
	caps->size = sizeof(*caps);
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
	device_init_features(dev);
}

DEVIMG_EXPORT const char *devimg_device_name(const struct devimg_device *dev)
{
	return dev && dev->info->name ? dev->info->name : "";
}

/*
 * The backend of the plugin: a plugin for a backend devimg does not know
 * is named as it names itself, though its devices take images as OpenCL
 * devices do (caps.backend).
 */
DEVIMG_EXPORT const char *
devimg_device_backend(const struct devimg_device *dev)
{
	return dev ? devimg_plugin_backend(dev->plugin) : "unknown";
}

DEVIMG_EXPORT int devimg_device_caps(const struct devimg_device *dev,
				     struct devimg_device_caps *caps)
{
	int err;

	if (!dev || !caps)
		return backend_fail(-EINVAL, "devimg_device_caps: NULL %s",
				    !dev ? "device" : "caps");
	err = api_struct_size("devimg_device_caps", caps->size,
			      DEVIMG_SIZE_0_1(devimg_device_caps, ptx));
	if (err < 0)
		return err;
	api_struct_write(caps, &dev->caps, sizeof(dev->caps));
	return 0;
}

DEVIMG_EXPORT int
devimg_device_features(const struct devimg_device *dev,
		       struct devimg_device_features *features)
{
	int err;

	if (!dev || !features)
		return backend_fail(-EINVAL,
				    "devimg_device_features: NULL %s",
				    !dev ? "device" : "features");
	err = api_struct_size("devimg_device_features", features->size,
			      DEVIMG_SIZE_0_1(devimg_device_features,
					      max_work_item_sizes));
	if (err < 0)
		return err;
	api_struct_write(features, &dev->features, sizeof(dev->features));
	return 0;
}
