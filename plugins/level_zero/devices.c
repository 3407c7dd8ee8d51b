// SPDX-License-Identifier: MIT
/*
 * Drivers and their root devices, enumerated once at init together with
 * what devimg needs to know about them: the compute queue group, limits,
 * and whether the driver has the global-offset extension.
 *
 * Without any driver, zeInit() fails: that is zero platforms, not an
 * error, and the calling thread's message says why.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/level_zero/level_zero.h"
#include "plugins/common/enumerate.h"
#include "plugins/common/listing.h"

static struct devimg_plugin_platform *platforms;
static unsigned nplatforms;
/* Why there are no platforms, for every later init to repeat. */
static char no_platforms[256];

static const char *vendor_name(uint32_t id, char *buf, size_t size)
{
	switch (id) {
	case 0x8086:
		return "Intel(R) Corporation";
	case 0x10de:
		return "NVIDIA Corporation";
	case 0x1002:
		return "Advanced Micro Devices, Inc.";
	default:
		snprintf(buf, size, "PCI vendor 0x%04x", id);
		return buf;
	}
}

static enum devimg_plugin_device_type device_type(ze_device_type_t type)
{
	switch (type) {
	case ZE_DEVICE_TYPE_GPU:
		return DEVIMG_PLUGIN_DEVICE_GPU;
	case ZE_DEVICE_TYPE_CPU:
		return DEVIMG_PLUGIN_DEVICE_CPU;
	case ZE_DEVICE_TYPE_FPGA:
	case ZE_DEVICE_TYPE_MCA:
	case ZE_DEVICE_TYPE_VPU:
		return DEVIMG_PLUGIN_DEVICE_ACCELERATOR;
	default:
		return DEVIMG_PLUGIN_DEVICE_OTHER;
	}
}

static int device_properties(struct devimg_plugin_device *dev)
{
	ze_device_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
	};
	struct devimg_plugin_device_info *info = &dev->info;
	char buf[32];
	ze_result_t res;

	res = zeDeviceGetProperties(dev->id, &props);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeDeviceGetProperties");
	props.name[sizeof(props.name) - 1] = '\0';
	snprintf(dev->name, sizeof(dev->name), "%s", props.name);
	snprintf(dev->vendor, sizeof(dev->vendor), "%s",
		 vendor_name(props.vendorId, buf, sizeof(buf)));
	info->type = device_type(props.type);
	/* Execution units, as DPC++ counts Level Zero compute units. */
	info->max_compute_units = props.numSlices * props.numSubslicesPerSlice *
				  props.numEUsPerSubslice;
	return 0;
}

static int device_compute(struct devimg_plugin_device *dev)
{
	ze_device_compute_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES,
	};
	struct devimg_plugin_device_info *info = &dev->info;
	ze_result_t res;
	unsigned i;

	res = zeDeviceGetComputeProperties(dev->id, &props);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeDeviceGetComputeProperties(\"%s\")",
			       dev->name);
	info->max_work_group_size = props.maxTotalGroupSize;
	info->max_work_item_sizes[0] = props.maxGroupSizeX;
	info->max_work_item_sizes[1] = props.maxGroupSizeY;
	info->max_work_item_sizes[2] = props.maxGroupSizeZ;
	info->local_mem_size = props.maxSharedLocalMemory;
	for (i = 0; i < props.numSubGroupSizes &&
		    i < ZE_SUBGROUPSIZE_COUNT &&
		    i < sizeof(info->sub_group_sizes) /
			sizeof(info->sub_group_sizes[0]); i++)
		info->sub_group_sizes[i] = props.subGroupSizes[i];
	info->nsub_group_sizes = i;
	return 0;
}

/* DPC++ aspects from the device type and its module properties. */
static int device_aspects(struct devimg_plugin_device *dev)
{
	ze_device_module_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES,
	};
	struct devimg_plugin_device_info *info = &dev->info;
	ze_result_t res;

	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_CPU,
			  info->type == DEVIMG_PLUGIN_DEVICE_CPU);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_GPU,
			  info->type == DEVIMG_PLUGIN_DEVICE_GPU);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_ACCELERATOR,
			  info->type == DEVIMG_PLUGIN_DEVICE_ACCELERATOR);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_ONLINE_COMPILER, true);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_ONLINE_LINKER, true);
	res = zeDeviceGetModuleProperties(dev->id, &props);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeDeviceGetModuleProperties(\"%s\")",
			       dev->name);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_FP16,
			  props.flags & ZE_DEVICE_MODULE_FLAG_FP16);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_FP64,
			  props.flags & ZE_DEVICE_MODULE_FLAG_FP64);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_ATOMIC64,
			  props.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS);
	return 0;
}

/* Global memory: the sum of the device's memories. */
static int device_memory(struct devimg_plugin_device *dev)
{
	ze_device_memory_properties_t *props;
	uint32_t n = 0, i;
	ze_result_t res;

	res = zeDeviceGetMemoryProperties(dev->id, &n, NULL);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeDeviceGetMemoryProperties(\"%s\")",
			       dev->name);
	if (n == 0)
		return 0;
	props = calloc(n, sizeof(*props));
	if (!props)
		return plugin_error(-ENOMEM, "out of memory for %u memory properties",
				    n);
	for (i = 0; i < n; i++)
		props[i].stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
	res = zeDeviceGetMemoryProperties(dev->id, &n, props);
	if (res != ZE_RESULT_SUCCESS) {
		free(props);
		return lz_fail(res, "zeDeviceGetMemoryProperties(\"%s\")",
			       dev->name);
	}
	for (i = 0; i < n; i++)
		dev->info.global_mem_size += props[i].totalSize;
	free(props);
	return 0;
}

/* The first command queue group that takes compute commands. */
static int device_queue_group(struct devimg_plugin_device *dev)
{
	ze_command_queue_group_properties_t *props;
	uint32_t n = 0, i;
	ze_result_t res;

	dev->compute_ordinal = UINT32_MAX;
	res = zeDeviceGetCommandQueueGroupProperties(dev->id, &n, NULL);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeDeviceGetCommandQueueGroupProperties(\"%s\")",
			       dev->name);
	if (n == 0)
		return 0;
	props = calloc(n, sizeof(*props));
	if (!props)
		return plugin_error(-ENOMEM, "out of memory for %u queue groups", n);
	for (i = 0; i < n; i++)
		props[i].stype =
			ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
	res = zeDeviceGetCommandQueueGroupProperties(dev->id, &n, props);
	for (i = 0; res == ZE_RESULT_SUCCESS && i < n; i++) {
		if (props[i].flags &
		    ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
			dev->compute_ordinal = i;
			break;
		}
	}
	free(props);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeDeviceGetCommandQueueGroupProperties(\"%s\")",
			       dev->name);
	return 0;
}

/* What the devices of one driver are started with. */
struct driver_ctx {
	struct devimg_plugin_platform *pl;
	const ze_driver_properties_t *driver;
	ze_api_version_t api;
};

/* Start device item of the driver ctx says (plugin_enumerate()'s init). */
static int device_init(void *ctx, void *item, unsigned index)
{
	const struct driver_ctx *d = ctx;
	struct devimg_plugin_device *dev = item;
	struct devimg_plugin_device_info *info = &dev->info;
	uint32_t v = d->driver->driverVersion;
	ze_api_version_t api = d->api;
	int rc;

	(void)index;
	rc = device_properties(dev);
	if (rc == 0)
		rc = device_compute(dev);
	if (rc == 0)
		rc = device_memory(dev);
	if (rc == 0)
		rc = device_queue_group(dev);
	if (rc == 0)
		rc = device_aspects(dev);
	if (rc < 0)
		return rc;
	snprintf(dev->version, sizeof(dev->version), "Level Zero %u.%u",
		 (unsigned)ZE_MAJOR_VERSION(api),
		 (unsigned)ZE_MINOR_VERSION(api));
	/* The major.minor.build packing that Intel's drivers use. */
	snprintf(dev->driver_version, sizeof(dev->driver_version), "%u.%u.%u",
		 v >> 24, (v >> 16) & 0xff, v & 0xffff);
	plugin_device_names(info, d->pl, "level_zero", dev->name, dev->vendor,
			    dev->version, dev->driver_version);
	info->formats = DEVIMG_PLUGIN_FORMAT_SPIRV |
			DEVIMG_PLUGIN_FORMAT_NATIVE;
	/*
	 * Offsets are always taken: launch() says which extension is missing
	 * rather than letting the loader refuse without a reason.
	 */
	info->caps = DEVIMG_PLUGIN_CAP_SPEC_CONSTANTS |
		     DEVIMG_PLUGIN_CAP_GLOBAL_OFFSET;
	info->address_bits = 64;
	return 0;
}

/* zeDeviceGet as plugin_enumerate() asks. */
static int get_devices(void *ctx, uint32_t *n, void *ids)
{
	struct driver_ctx *d = ctx;
	ze_result_t res = zeDeviceGet(d->pl->id, n, ids);

	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeDeviceGet(%s)", d->pl->name);
	return 0;
}

static int driver_devices(struct devimg_plugin_platform *pl,
			  const ze_driver_properties_t *driver,
			  ze_api_version_t api)
{
	static const struct plugin_enum device_enum =
		PLUGIN_ENUM(struct devimg_plugin_device, "devices",
			    get_devices, device_init);
	struct driver_ctx d = { .pl = pl, .driver = driver, .api = api };
	int rc;

	pl->devices = plugin_enumerate(&device_enum, &d, &pl->ndevices, &rc);
	return rc;
}

/* Whether the driver lists the extension name among its extensions. */
static int driver_has_extension(struct devimg_plugin_platform *pl,
				const char *name, bool *has)
{
	ze_driver_extension_properties_t *ext;
	uint32_t n = 0, i;
	ze_result_t res;

	*has = false;
	res = zeDriverGetExtensionProperties(pl->id, &n, NULL);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeDriverGetExtensionProperties(%s)",
			       pl->name);
	if (n == 0)
		return 0;
	ext = calloc(n, sizeof(*ext));
	if (!ext)
		return plugin_error(-ENOMEM, "out of memory for %u extensions", n);
	res = zeDriverGetExtensionProperties(pl->id, &n, ext);
	for (i = 0; res == ZE_RESULT_SUCCESS && i < n && !*has; i++)
		*has = strncmp(ext[i].name, name, sizeof(ext[i].name)) == 0;
	free(ext);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeDriverGetExtensionProperties(%s)",
			       pl->name);
	return 0;
}

/*
 * The global offset: the extension listed and its function known to the
 * driver. Launches call the loader's zeKernelSetGlobalOffsetExp(), not the
 * address the driver gives: with two or more drivers the loader hands out
 * its own handles, which only its entry points translate.
 */
static int driver_global_offset(struct devimg_plugin_platform *pl)
{
	void *fn = NULL;
	ze_result_t res;
	bool listed;
	int rc;

	rc = driver_has_extension(pl, LZ_GLOBAL_OFFSET_EXT, &listed);
	if (rc < 0 || !listed)
		return rc;
	res = zeDriverGetExtensionFunctionAddress(pl->id,
						  "zeKernelSetGlobalOffsetExp",
						  &fn);
	pl->global_offset = res == ZE_RESULT_SUCCESS && fn;
	return 0;
}

/* Start driver item, the index-th (plugin_enumerate()'s init). */
static int platform_init(void *ctx, void *item, unsigned index)
{
	struct devimg_plugin_platform *pl = item;
	ze_driver_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES,
	};
	ze_api_version_t api = 0;
	uint32_t v;
	ze_result_t res;
	int rc;

	(void)ctx;
	snprintf(pl->name, sizeof(pl->name), "Level Zero driver %u", index);
	res = zeDriverGetProperties(pl->id, &props);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeDriverGetProperties(%s)", pl->name);
	res = zeDriverGetApiVersion(pl->id, &api);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeDriverGetApiVersion(%s)", pl->name);
	v = props.driverVersion;
	snprintf(pl->version, sizeof(pl->version),
		 "Level Zero %u.%u, driver %u.%u.%u",
		 (unsigned)ZE_MAJOR_VERSION(api),
		 (unsigned)ZE_MINOR_VERSION(api), v >> 24, (v >> 16) & 0xff,
		 v & 0xffff);
	rc = driver_global_offset(pl);
	if (rc == 0)
		rc = driver_devices(pl, &props, api);
	if (rc < 0)
		return rc;
	snprintf(pl->vendor, sizeof(pl->vendor), "%s",
		 pl->ndevices ? pl->devices[0].vendor : "unknown");
	pl->info.size = sizeof(pl->info);
	pl->info.name = pl->name;
	pl->info.vendor = pl->vendor;
	pl->info.version = pl->version;
	return 0;
}

void lz_platforms_fini(void)
{
	unsigned i;

	for (i = 0; i < nplatforms; i++)
		free(platforms[i].devices);
	free(platforms);
	platforms = NULL;
	nplatforms = 0;
}

/* zeInit: no driver at all is zero platforms, with a message. */
static int init_loader(bool *none)
{
	ze_result_t res = zeInit(0);

	*none = res == ZE_RESULT_ERROR_UNINITIALIZED;
	if (res == ZE_RESULT_SUCCESS)
		return 0;
	if (*none) {
		lz_fail(res, "zeInit");
		plugin_error_append(": no Level Zero driver");
		snprintf(no_platforms, sizeof(no_platforms), "%s",
			 plugin_last_error());
		return 0;
	}
	return lz_fail(res, "zeInit");
}

/* zeDriverGet as plugin_enumerate() asks. */
static int get_drivers(void *ctx, uint32_t *n, void *ids)
{
	ze_result_t res = zeDriverGet(n, ids);

	(void)ctx;
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeDriverGet");
	return 0;
}

int lz_platforms_init(void)
{
	static const struct plugin_enum driver_enum =
		PLUGIN_ENUM(struct devimg_plugin_platform, "drivers",
			    get_drivers, platform_init);
	bool none;
	int rc;

	no_platforms[0] = '\0';
	rc = init_loader(&none);
	if (rc < 0 || none)
		return rc;
	platforms = plugin_enumerate(&driver_enum, NULL, &nplatforms, &rc);
	if (rc < 0)
		lz_platforms_fini();
	return rc;
}

const char *lz_platforms_none(void)
{
	return no_platforms;
}

int lz_platform_list(unsigned capacity,
		     struct devimg_plugin_platform **out, unsigned *count)
{
	return plugin_platform_list(platforms, nplatforms, capacity, out,
				    count);
}
