// SPDX-License-Identifier: MIT
/*
 * Platforms and devices of every OpenCL implementation the ICD loader
 * knows, enumerated once at init together with what devimg needs to know
 * about them: which image formats they accept, which entry points newer
 * than OpenCL 1.2 they have, which DPC++ aspects and sub-group sizes.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/opencl/opencl.h"
#include "plugins/common/enumerate.h"
#include "plugins/common/listing.h"

static struct devimg_plugin_platform *platforms;
static unsigned nplatforms;

static int platform_string(cl_platform_id id, cl_platform_info what,
			   const char *label, char **out)
{
	size_t size;
	cl_int err;
	char *s;

	err = clGetPlatformInfo(id, what, 0, NULL, &size);
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clGetPlatformInfo(%s)", label);
	s = malloc(size + 1);
	if (!s)
		return plugin_error(-ENOMEM, "out of memory for the platform %s",
				    label);
	err = clGetPlatformInfo(id, what, size, s, NULL);
	if (err != CL_SUCCESS) {
		free(s);
		return ocl_fail(err, "clGetPlatformInfo(%s)", label);
	}
	s[size] = '\0';
	*out = s;
	return 0;
}

static int device_string(cl_device_id id, cl_device_info what,
			 const char *label, char **out)
{
	size_t size;
	cl_int err;
	char *s;

	err = clGetDeviceInfo(id, what, 0, NULL, &size);
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clGetDeviceInfo(%s)", label);
	s = malloc(size + 1);
	if (!s)
		return plugin_error(-ENOMEM, "out of memory for the device %s",
				    label);
	err = clGetDeviceInfo(id, what, size, s, NULL);
	if (err != CL_SUCCESS) {
		free(s);
		return ocl_fail(err, "clGetDeviceInfo(%s)", label);
	}
	s[size] = '\0';
	*out = s;
	return 0;
}

static int device_value(cl_device_id id, cl_device_info what,
			const char *label, void *value, size_t size)
{
	cl_int err = clGetDeviceInfo(id, what, size, value, NULL);

	if (err != CL_SUCCESS)
		return ocl_fail(err, "clGetDeviceInfo(%s)", label);
	return 0;
}

/*
 * Entry points the ICD loader exports but OpenCL 1.2 does not declare:
 * looked up in the loader this plugin is linked with. Call them only for
 * platforms whose version promises them, since an older driver's dispatch
 * table has no slot for them.
 */
static void *icd_loader_symbol(const char *name)
{
	void *handle, *sym = NULL;
	Dl_info info;

	if (!dladdr((void *)(uintptr_t)clGetPlatformIDs, &info) ||
	    !info.dli_fname)
		return NULL;
	handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	if (!handle)
		return NULL;
	sym = dlsym(handle, name);
	dlclose(handle);
	return sym;
}

/* A core entry point of version min_version of platform, or NULL. */
static void *core_function(cl_platform_id platform, unsigned version,
			   unsigned min_version, const char *name)
{
	void *fn;

	if (version < min_version)
		return NULL;
	fn = clGetExtensionFunctionAddressForPlatform(platform, name);
	return fn ? fn : icd_loader_symbol(name);
}

static bool il_is_spirv(cl_device_id id, cl_device_info what)
{
	char *il = NULL;
	bool spirv;

	if (device_string(id, what, "IL_VERSION", &il) < 0)
		return false;
	spirv = strstr(il, "SPIR-V") != NULL;
	free(il);
	return spirv;
}

/* SPIR-V: core in 2.1 (CL_DEVICE_IL_VERSION), else cl_khr_il_program. */
static void find_il_support(struct devimg_plugin_device *dev,
			    cl_platform_id platform, unsigned version,
			    const char *extensions)
{
	void *fn = NULL;

	if (version >= 210 && il_is_spirv(dev->id, CL_DEVICE_IL_VERSION))
		fn = core_function(platform, version, 210,
				   "clCreateProgramWithIL");
	if (!fn && ocl_has_word(extensions, "cl_khr_il_program") &&
	    il_is_spirv(dev->id, CL_DEVICE_IL_VERSION_KHR))
		fn = clGetExtensionFunctionAddressForPlatform(
			platform, "clCreateProgramWithILKHR");
	dev->create_with_il = (ocl_create_with_il_fn)(uintptr_t)fn;
	if (fn)
		dev->set_spec_const = (ocl_set_spec_const_fn)(uintptr_t)
			core_function(platform, version, 220,
				      "clSetProgramSpecializationConstant");
}

static enum devimg_plugin_device_type device_type(cl_device_type type)
{
	if (type & CL_DEVICE_TYPE_GPU)
		return DEVIMG_PLUGIN_DEVICE_GPU;
	if (type & CL_DEVICE_TYPE_CPU)
		return DEVIMG_PLUGIN_DEVICE_CPU;
	if (type & CL_DEVICE_TYPE_ACCELERATOR)
		return DEVIMG_PLUGIN_DEVICE_ACCELERATOR;
	return DEVIMG_PLUGIN_DEVICE_OTHER;
}

/* Scalar properties, read straight into the device's info. */
static const struct {
	cl_device_info what;
	const char *label;
	size_t offset;
	size_t size;
} device_numbers[] = {
#define NUMBER(what, field) \
	{ CL_DEVICE_##what, #what, \
	  offsetof(struct devimg_plugin_device_info, field), \
	  sizeof(((struct devimg_plugin_device_info *)0)->field) }
	NUMBER(MAX_COMPUTE_UNITS, max_compute_units),
	NUMBER(MAX_WORK_GROUP_SIZE, max_work_group_size),
	NUMBER(LOCAL_MEM_SIZE, local_mem_size),
	NUMBER(GLOBAL_MEM_SIZE, global_mem_size),
	NUMBER(ADDRESS_BITS, address_bits),
#undef NUMBER
};

/* Strings, each a copy the device owns. */
static const struct {
	cl_device_info what;
	const char *label;
	size_t offset;
} device_strings[] = {
	{ CL_DEVICE_NAME, "NAME", offsetof(struct devimg_plugin_device, name) },
	{ CL_DEVICE_VENDOR, "VENDOR",
	  offsetof(struct devimg_plugin_device, vendor) },
	{ CL_DEVICE_VERSION, "VERSION",
	  offsetof(struct devimg_plugin_device, version) },
	{ CL_DRIVER_VERSION, "DRIVER_VERSION",
	  offsetof(struct devimg_plugin_device, driver_version) },
};

static int device_work_item_sizes(struct devimg_plugin_device *dev)
{
	size_t *all;
	cl_uint dims;
	int rc;

	rc = device_value(dev->id, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
			  "MAX_WORK_ITEM_DIMENSIONS", &dims, sizeof(dims));
	if (rc < 0 || dims == 0)
		return rc;
	all = calloc(dims, sizeof(*all));
	if (!all)
		return plugin_error(-ENOMEM, "out of memory for work-item sizes");
	rc = device_value(dev->id, CL_DEVICE_MAX_WORK_ITEM_SIZES,
			  "MAX_WORK_ITEM_SIZES", all, dims * sizeof(*all));
	if (rc == 0)
		memcpy(dev->info.max_work_item_sizes, all,
		       (dims < 3 ? dims : 3) * sizeof(*all));
	free(all);
	return rc;
}

static int device_query(struct devimg_plugin_device *dev)
{
	cl_device_type type;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(device_strings) / sizeof(device_strings[0]);
	     i++) {
		rc = device_string(dev->id, device_strings[i].what,
				   device_strings[i].label,
				   (char **)((char *)dev +
					     device_strings[i].offset));
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < sizeof(device_numbers) / sizeof(device_numbers[0]);
	     i++) {
		rc = device_value(dev->id, device_numbers[i].what,
				  device_numbers[i].label,
				  (char *)&dev->info + device_numbers[i].offset,
				  device_numbers[i].size);
		if (rc < 0)
			return rc;
	}
	rc = device_value(dev->id, CL_DEVICE_TYPE, "TYPE", &type, sizeof(type));
	if (rc < 0)
		return rc;
	dev->info.type = device_type(type);
	return device_work_item_sizes(dev);
}

/* cl_nv_device_attribute_query (cl_ext.h has them as *_NV). */
#define DEVICE_CC_MAJOR_NV 0x4000
#define DEVICE_CC_MINOR_NV 0x4001

/*
 * NVIDIA's OpenCL builds PTX given as a program binary: such devices take
 * nvptx64 images, and their compute capability says which PTX fits.
 */
static void find_ptx_support(struct devimg_plugin_device *dev,
			     const char *extensions)
{
	cl_uint major = 0, minor = 0;

	if (!ocl_has_word(extensions, "cl_nv_device_attribute_query"))
		return;
	if (clGetDeviceInfo(dev->id, DEVICE_CC_MAJOR_NV, sizeof(major),
			    &major, NULL) != CL_SUCCESS ||
	    clGetDeviceInfo(dev->id, DEVICE_CC_MINOR_NV, sizeof(minor),
			    &minor, NULL) != CL_SUCCESS)
		return;
	dev->info.formats |= DEVIMG_PLUGIN_FORMAT_PTX;
	dev->info.cc_major = major;
	dev->info.cc_minor = minor;
}

/* A cl_bool device property; false when the query fails. */
static bool device_flag(cl_device_id id, cl_device_info what)
{
	cl_bool v = CL_FALSE;

	return clGetDeviceInfo(id, what, sizeof(v), &v, NULL) == CL_SUCCESS &&
	       v == CL_TRUE;
}

/*
 * Sub-group sizes: cl_intel_required_subgroup_size lists them; NVIDIA's
 * warp is its one sub-group size. Otherwise unknown (none reported).
 */
static void find_sub_group_sizes(struct devimg_plugin_device *dev,
				 const char *extensions)
{
	struct devimg_plugin_device_info *info = &dev->info;
	size_t *sizes, bytes = 0, n, i;
	cl_uint warp = 0;

	if (ocl_has_word(extensions, "cl_intel_required_subgroup_size") &&
	    clGetDeviceInfo(dev->id, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, NULL,
			    &bytes) == CL_SUCCESS && bytes) {
		sizes = malloc(bytes);
		if (sizes && clGetDeviceInfo(dev->id,
					     CL_DEVICE_SUB_GROUP_SIZES_INTEL,
					     bytes, sizes, NULL) == CL_SUCCESS) {
			n = bytes / sizeof(*sizes);
			for (i = 0; i < n && i < 8; i++)
				info->sub_group_sizes[i] = (uint32_t)sizes[i];
			info->nsub_group_sizes = (unsigned)i;
		}
		free(sizes);
	} else if (ocl_has_word(extensions, "cl_nv_device_attribute_query") &&
		   clGetDeviceInfo(dev->id, CL_DEVICE_WARP_SIZE_NV,
				   sizeof(warp), &warp, NULL) == CL_SUCCESS &&
		   warp) {
		info->sub_group_sizes[0] = warp;
		info->nsub_group_sizes = 1;
	}
}

/*
 * DPC++'s aspects as its OpenCL adapter derives them: the type, the
 * floating-point and 64-bit atomic extensions, images, the online
 * compiler and linker, profiling. USM needs cl_intel_unified_shared_memory:
 * without it the USM aspects are known absent; with it they are not
 * queried here, so left unknown. One exception: fine-grained system SVM
 * (OpenCL 2.0; PoCL's CPU device) lets a kernel dereference any host
 * pointer, which is what usm_system_allocations promises, so a device
 * that reports it has that aspect whatever its extensions.
 */
static void find_aspects(struct devimg_plugin_device *dev,
			 const char *extensions)
{
	struct devimg_plugin_device_info *info = &dev->info;
	cl_command_queue_properties qprops = 0;
	cl_device_svm_capabilities svm = 0;
	cl_device_type type = 0;
	bool usm = ocl_has_word(extensions, "cl_intel_unified_shared_memory");

	clGetDeviceInfo(dev->id, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_CPU, type & CL_DEVICE_TYPE_CPU);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_GPU, type & CL_DEVICE_TYPE_GPU);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_ACCELERATOR,
			  type & CL_DEVICE_TYPE_ACCELERATOR);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_CUSTOM,
			  type & CL_DEVICE_TYPE_CUSTOM);
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_FP16,
			  ocl_has_word(extensions, "cl_khr_fp16"));
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_FP64,
			  ocl_has_word(extensions, "cl_khr_fp64"));
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_ATOMIC64,
			  ocl_has_word(extensions, "cl_khr_int64_base_atomics") &&
			  ocl_has_word(extensions, "cl_khr_int64_extended_atomics"));
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_IMAGE,
			  device_flag(dev->id, CL_DEVICE_IMAGE_SUPPORT));
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_ONLINE_COMPILER,
			  device_flag(dev->id, CL_DEVICE_COMPILER_AVAILABLE));
	plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_ONLINE_LINKER,
			  device_flag(dev->id, CL_DEVICE_LINKER_AVAILABLE));
	if (clGetDeviceInfo(dev->id, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES,
			    sizeof(qprops), &qprops, NULL) == CL_SUCCESS)
		plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_QUEUE_PROFILING,
				  qprops & CL_QUEUE_PROFILING_ENABLE);
	if (!usm) {
		plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_USM_DEVICE_ALLOCATIONS,
				  false);
		plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_USM_HOST_ALLOCATIONS,
				  false);
		plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_USM_SHARED_ALLOCATIONS,
				  false);
		plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_USM_SYSTEM_ALLOCATIONS,
				  false);
		plugin_set_aspect(info,
				  DEVIMG_PLUGIN_ASPECT_USM_ATOMIC_HOST_ALLOCATIONS,
				  false);
		plugin_set_aspect(info,
				  DEVIMG_PLUGIN_ASPECT_USM_ATOMIC_SHARED_ALLOCATIONS,
				  false);
	}
	if (clGetDeviceInfo(dev->id, CL_DEVICE_SVM_CAPABILITIES, sizeof(svm),
			    &svm, NULL) == CL_SUCCESS &&
	    (svm & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM))
		plugin_set_aspect(info, DEVIMG_PLUGIN_ASPECT_USM_SYSTEM_ALLOCATIONS,
				  true);
	find_sub_group_sizes(dev, extensions);
}

/* Start device item of platform ctx (plugin_enumerate()'s init). */
static int device_init(void *ctx, void *item, unsigned index)
{
	struct devimg_plugin_platform *pl = ctx;
	struct devimg_plugin_device *dev = item;
	struct devimg_plugin_device_info *info = &dev->info;
	char *extensions = NULL;
	unsigned version;
	int rc;

	(void)index;
	rc = device_query(dev);
	if (rc == 0)
		rc = device_string(dev->id, CL_DEVICE_EXTENSIONS, "EXTENSIONS",
				   &extensions);
	if (rc < 0)
		return rc;

	version = ocl_parse_version(dev->version);
	find_il_support(dev, pl->id, version, extensions);
	ocl_globals_find(dev, pl->id, extensions);
	plugin_device_names(info, pl, "opencl", dev->name, dev->vendor,
			    dev->version, dev->driver_version);
	info->formats = DEVIMG_PLUGIN_FORMAT_NATIVE;
	if (ocl_has_word(extensions, "cl_khr_spir"))
		info->formats |= DEVIMG_PLUGIN_FORMAT_SPIR;
	if (dev->create_with_il)
		info->formats |= DEVIMG_PLUGIN_FORMAT_SPIRV;
	find_ptx_support(dev, extensions);
	find_aspects(dev, extensions);
	if (version >= 110)
		info->caps |= DEVIMG_PLUGIN_CAP_GLOBAL_OFFSET;
	if (dev->set_spec_const)
		info->caps |= DEVIMG_PLUGIN_CAP_SPEC_CONSTANTS;
	/* Mesa's rusticl (25.0) links an object's module with its defaults. */
	if (dev->set_spec_const && pl->name && !strcmp(pl->name, "rusticl"))
		info->caps |= DEVIMG_PLUGIN_CAP_LINK_DROPS_SPEC_CONSTANTS;
	free(extensions);
	return 0;
}

static void device_fini(struct devimg_plugin_device *dev)
{
	free(dev->name);
	free(dev->vendor);
	free(dev->version);
	free(dev->driver_version);
}

/* clGetDeviceIDs as plugin_enumerate() asks; ctx is the platform. */
static int get_devices(void *ctx, uint32_t *n, void *ids)
{
	struct devimg_plugin_platform *pl = ctx;
	cl_int err;

	err = clGetDeviceIDs(pl->id, CL_DEVICE_TYPE_ALL, ids ? *n : 0, ids,
			     ids ? NULL : n);
	if (!ids && err == CL_DEVICE_NOT_FOUND) {
		*n = 0;
		return 0;
	}
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clGetDeviceIDs(platform \"%s\")",
				pl->name);
	return 0;
}

static int platform_devices(struct devimg_plugin_platform *pl)
{
	static const struct plugin_enum device_enum =
		PLUGIN_ENUM(struct devimg_plugin_device, "devices",
			    get_devices, device_init);
	int rc;

	pl->devices = plugin_enumerate(&device_enum, pl, &pl->ndevices, &rc);
	return rc;
}

/* Start platform item (plugin_enumerate()'s init). */
static int platform_init(void *ctx, void *item, unsigned index)
{
	struct devimg_plugin_platform *pl = item;
	int rc;

	(void)ctx;
	(void)index;
	rc = platform_string(pl->id, CL_PLATFORM_NAME, "NAME", &pl->name);
	if (rc == 0)
		rc = platform_string(pl->id, CL_PLATFORM_VENDOR, "VENDOR",
				     &pl->vendor);
	if (rc == 0)
		rc = platform_string(pl->id, CL_PLATFORM_VERSION, "VERSION",
				     &pl->version);
	if (rc < 0)
		return rc;
	pl->info.size = sizeof(pl->info);
	pl->info.name = pl->name;
	pl->info.vendor = pl->vendor;
	pl->info.version = pl->version;
	return platform_devices(pl);
}

static void platform_fini(struct devimg_plugin_platform *pl)
{
	unsigned i;

	for (i = 0; i < pl->ndevices; i++)
		device_fini(&pl->devices[i]);
	free(pl->devices);
	free(pl->name);
	free(pl->vendor);
	free(pl->version);
}

void ocl_platforms_fini(void)
{
	unsigned i;

	for (i = 0; i < nplatforms; i++)
		platform_fini(&platforms[i]);
	free(platforms);
	platforms = NULL;
	nplatforms = 0;
}

/* clGetPlatformIDs as plugin_enumerate() asks. */
static int get_platforms(void *ctx, uint32_t *n, void *ids)
{
	cl_int err = clGetPlatformIDs(ids ? *n : 0, ids, ids ? NULL : n);

	(void)ctx;
	if (!ids && err == CL_PLATFORM_NOT_FOUND_KHR) {
		*n = 0;
		return 0;
	}
	if (err != CL_SUCCESS)
		return ocl_fail(err, "clGetPlatformIDs");
	return 0;
}

int ocl_platforms_init(void)
{
	static const struct plugin_enum platform_enum =
		PLUGIN_ENUM(struct devimg_plugin_platform, "platforms",
			    get_platforms, platform_init);
	int rc;

	platforms = plugin_enumerate(&platform_enum, NULL, &nplatforms, &rc);
	if (rc < 0)
		ocl_platforms_fini();
	return rc;
}

int ocl_platform_list(unsigned capacity,
		      struct devimg_plugin_platform **out, unsigned *count)
{
	return plugin_platform_list(platforms, nplatforms, capacity, out,
				    count);
}
