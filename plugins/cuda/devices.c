// SPDX-License-Identifier: MIT
/*
 * The one platform, "CUDA", and every GPU the driver shows as its device,
 * enumerated once at init with what devimg needs to know about them.
 *
 * No driver, a driver without GPUs or a failing cuInit is no error: the
 * plugin then has no platform, and says why in the message of the thread
 * that initialised it and of every thread that lists the platforms.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/cuda/cuda-plugin.h"
#include "plugins/common/enumerate.h"
#include "plugins/common/listing.h"

static struct devimg_plugin_platform platform;
static unsigned nplatforms;
static char none_reason[1024];

/* Keep the calling thread's message as the reason there is no platform. */
static void no_platform(void)
{
	snprintf(none_reason, sizeof(none_reason), "%s", plugin_last_error());
}

static int attribute(struct devimg_plugin_device *dev, int attr,
		     const char *label, int *value)
{
	CUresult err = cu.cuDeviceGetAttribute(value, attr, dev->id);

	if (err != CUDA_SUCCESS)
		return cu_fail(err, "cuDeviceGetAttribute(%s) of CUDA device %d",
			       label, dev->ordinal);
	return 0;
}

/* Integer attributes, read into the device's own fields. */
static const struct {
	int attr;
	const char *label;
	size_t offset;
} device_ints[] = {
#define ATTR(name, field) \
	{ CU_DEVICE_ATTRIBUTE_##name, #name, \
	  offsetof(struct devimg_plugin_device, field) }
	ATTR(MAX_BLOCK_DIM_X, max_block[0]),
	ATTR(MAX_BLOCK_DIM_Y, max_block[1]),
	ATTR(MAX_BLOCK_DIM_Z, max_block[2]),
	ATTR(MAX_GRID_DIM_X, max_grid[0]),
	ATTR(MAX_GRID_DIM_Y, max_grid[1]),
	ATTR(MAX_GRID_DIM_Z, max_grid[2]),
	ATTR(MAX_SHARED_MEMORY_PER_BLOCK, shared_default),
	ATTR(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, shared_optin),
#undef ATTR
};

/*
 * DPC++ aspects of a GPU this plugin drives: what every CUDA GPU of
 * compute capability 5.0 or newer has (fp64, 64-bit atomics; fp16 from
 * 5.3), warps of 32 as the one sub-group size, and no images, USM or
 * profiling, which the plugin does not offer.
 */
static void set_aspects(struct devimg_plugin_device_info *info, int major,
			int minor)
{
	static const unsigned absent[] = {
		DEVIMG_PLUGIN_ASPECT_CPU, DEVIMG_PLUGIN_ASPECT_ACCELERATOR,
		DEVIMG_PLUGIN_ASPECT_CUSTOM, DEVIMG_PLUGIN_ASPECT_IMAGE,
		DEVIMG_PLUGIN_ASPECT_ONLINE_COMPILER,
		DEVIMG_PLUGIN_ASPECT_ONLINE_LINKER,
		DEVIMG_PLUGIN_ASPECT_QUEUE_PROFILING,
		DEVIMG_PLUGIN_ASPECT_USM_DEVICE_ALLOCATIONS,
		DEVIMG_PLUGIN_ASPECT_USM_HOST_ALLOCATIONS,
		DEVIMG_PLUGIN_ASPECT_USM_SHARED_ALLOCATIONS,
		DEVIMG_PLUGIN_ASPECT_USM_SYSTEM_ALLOCATIONS,
		DEVIMG_PLUGIN_ASPECT_USM_ATOMIC_HOST_ALLOCATIONS,
		DEVIMG_PLUGIN_ASPECT_USM_ATOMIC_SHARED_ALLOCATIONS,
	};
	size_t i;

	for (i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		plugin_set_aspect(info, absent[i], false);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_GPU, true);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_FP64, true);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_ATOMIC64, true);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_FP16,
			  major > 5 || (major == 5 && minor >= 3));
	info->sub_group_sizes[0] = 32;
	info->nsub_group_sizes = 1;
}

static int device_query(struct devimg_plugin_device *dev)
{
	struct devimg_plugin_device_info *info = &dev->info;
	int major, minor, sms, threads, managed = 0, concurrent = 0;
	size_t i, total;
	CUresult err;
	int rc;

	err = cu.cuDeviceGet(&dev->id, dev->ordinal);
	if (err != CUDA_SUCCESS)
		return cu_fail(err, "cuDeviceGet(%d)", dev->ordinal);
	err = cu.cuDeviceGetName(dev->name, (int)sizeof(dev->name), dev->id);
	if (err != CUDA_SUCCESS)
		return cu_fail(err, "cuDeviceGetName of CUDA device %d",
			       dev->ordinal);
	dev->name[sizeof(dev->name) - 1] = '\0';
	err = cu.cuDeviceTotalMem(&total, dev->id);
	if (err != CUDA_SUCCESS)
		return cu_fail(err, "cuDeviceTotalMem of CUDA device %d",
			       dev->ordinal);
	for (i = 0; i < sizeof(device_ints) / sizeof(device_ints[0]); i++) {
		rc = attribute(dev, device_ints[i].attr, device_ints[i].label,
			       (int *)((char *)dev + device_ints[i].offset));
		if (rc < 0)
			return rc;
	}
	if ((rc = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
			    "COMPUTE_CAPABILITY_MAJOR", &major)) ||
	    (rc = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
			    "COMPUTE_CAPABILITY_MINOR", &minor)) ||
	    (rc = attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
			    "MULTIPROCESSOR_COUNT", &sms)) ||
	    (rc = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
			    "MAX_THREADS_PER_BLOCK", &threads)) ||
	    (rc = attribute(dev, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY,
			    "MANAGED_MEMORY", &managed)) ||
	    (rc = attribute(dev, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
			    "CONCURRENT_MANAGED_ACCESS", &concurrent)))
		return rc;
	if (dev->shared_optin < dev->shared_default)
		dev->shared_optin = dev->shared_default;
	dev->managed = managed && concurrent;
	snprintf(dev->version, sizeof(dev->version), "sm_%d%d", major, minor);

	plugin_device_names(info, &platform, "cuda", dev->name,
			    "NVIDIA Corporation", dev->version,
			    platform.version);
	info->type = DEVIMG_PLUGIN_DEVICE_GPU;
	info->formats = DEVIMG_PLUGIN_FORMAT_NATIVE | DEVIMG_PLUGIN_FORMAT_PTX;
	/* Offsets reach kernels through their _with_offset twins. */
	info->caps = DEVIMG_PLUGIN_CAP_GLOBAL_OFFSET;
	info->max_compute_units = (unsigned)sms;
	info->max_work_group_size = (size_t)threads;
	for (i = 0; i < 3; i++)
		info->max_work_item_sizes[i] = (size_t)dev->max_block[i];
	/* What a kernel can use: the plugin opts in above the default. */
	info->local_mem_size = (uint64_t)dev->shared_optin;
	info->global_mem_size = total;
	info->address_bits = 64;
	info->cc_major = (unsigned)major;
	info->cc_minor = (unsigned)minor;
	set_aspects(info, major, minor);
	return 0;
}

void cu_platforms_fini(void)
{
	free(platform.devices);
	memset(&platform, 0, sizeof(platform));
	nplatforms = 0;
}

int cu_platforms_init(void)
{
	int count = 0, version = 0, i, rc = 0;
	CUresult err;

	none_reason[0] = '\0';
	if (cu_driver_open() < 0) {
		no_platform();
		return 0;
	}
	err = cu.cuInit(0);
	if (err != CUDA_SUCCESS) {
		cu_fail(err, "cuInit(0)");
		no_platform();
		return 0;
	}
	err = cu.cuDeviceGetCount(&count);
	if (err != CUDA_SUCCESS) {
		cu_fail(err, "cuDeviceGetCount");
		no_platform();
		return 0;
	}
	if (count <= 0) {
		plugin_error(0, "the CUDA driver shows no device");
		no_platform();
		return 0;
	}
	err = cu.cuDriverGetVersion(&version);
	if (err != CUDA_SUCCESS)
		return cu_fail(err, "cuDriverGetVersion");
	platform.devices = calloc((size_t)count, sizeof(*platform.devices));
	if (!platform.devices)
		return plugin_error(-ENOMEM, "out of memory for %d CUDA devices",
				    count);
	snprintf(platform.version, sizeof(platform.version), "CUDA %d.%d",
		 version / 1000, version % 1000 / 10);
	platform.info.size = sizeof(platform.info);
	platform.info.name = "CUDA";
	platform.info.vendor = "NVIDIA Corporation";
	platform.info.version = platform.version;
	for (i = 0; i < count && rc == 0; i++) {
		platform.devices[i].ordinal = i;
		rc = device_query(&platform.devices[i]);
	}
	if (rc < 0) {
		cu_platforms_fini();
		return rc;
	}
	platform.ndevices = (unsigned)count;
	nplatforms = 1;
	return 0;
}

int cu_platform_list(unsigned capacity,
		     struct devimg_plugin_platform **out, unsigned *count)
{
	int rc = plugin_platform_list(&platform, nplatforms, capacity, out,
				      count);

	if (rc == 0 && !nplatforms && none_reason[0])
		plugin_error(0, "%s", none_reason);
	return rc;
}
