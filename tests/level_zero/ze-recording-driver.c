// SPDX-License-Identifier: MIT
/*
 * ze-recording-driver: a Level Zero driver for the contract tests. The real
 * Level Zero loader (libze_loader.so.1) loads it as an alternate driver
 * (ZE_ENABLE_ALT_DRIVERS=/path/libze_recording_driver.so) through its
 * ze/zet/zesGet*ProcAddrTable exports; it has one GPU, records every call
 * it receives, one line each, and answers as a driver would:
 *
 *  - modules come from SPIR-V (ZE_MODULE_FORMAT_IL_SPIRV) or from its own
 *    native binaries ("ZERECNAT" then the SPIR-V, what
 *    zeModuleGetNativeBinary returns); it reads kernels, parameter kinds
 *    and sizes, SpecIds, imports and exports from the SPIR-V
 *    (spirv-scan.c);
 *  - as the specification has it, a module that imports functions is
 *    created, gives kernels only once zeModuleDynamicLink has resolved
 *    each import against the one module of the link that exports it
 *    (the link fails, with a log naming the symbol, otherwise), and is
 *    linked once; a launch of its kernels is refused once a module it
 *    calls into is destroyed;
 *  - kernel arguments are checked against the parameters: a buffer is an
 *    8-byte pointer, local memory a size with no value, a value its type's
 *    size;
 *  - zeKernelSuggestGroupSize picks, dimension by dimension, the largest
 *    divisor of the global size within a budget of 64 work-items;
 *  - a module's CrossWorkgroup variables that HostAccessINTEL or an
 *    export names are zero-filled host memory, which
 *    zeModuleGetGlobalPointer gives by that name
 *    (ZE_RESULT_ERROR_INVALID_GLOBAL_NAME for another);
 *  - copies run when a command list executes, on host memory that stands
 *    for device memory; kernels do not run;
 *  - lists must be closed to execute; a kernel or an allocation that a
 *    command still in a list (not reset since) uses cannot be destroyed,
 *    nor a module with kernels, nor a context with objects.
 *
 * Environment:
 *   ZE_RECORDING_LOG=FILE            append the call records to FILE
 *   ZE_RECORDING_NO_GLOBAL_OFFSET=1  do not report the
 *                                    ZE_experimental_global_offset extension
 *   ZE_RECORDING_OLD_GLOBALS=1       refuse an unknown global name with
 *                                    ZE_RESULT_ERROR_INVALID_ARGUMENT, as
 *                                    Intel's driver did before
 *                                    ZE_RESULT_ERROR_INVALID_GLOBAL_NAME
 *
 * Lines are "<driver file>: <call> key=value ..."; a failed call's line
 * ends with "-> ZE_RESULT_..." and, when its arguments were refused, why.
 * At exit, "exit live: ..." counts the objects never destroyed.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ze_ddi.h>
#include <zes_ddi.h>
#include <zet_ddi.h>

#include "tests/level_zero/spirv-scan.h"

#define NATIVE_MAGIC "ZERECNAT"
#define NATIVE_MAGIC_SIZE 8
#define SUGGEST_BUDGET 64
#define MAX_GROUP_TOTAL 256
#define DRIVER_VERSION 0x01020003u	/* 1.2.3 */
#define COMPUTE_ORDINAL 1		/* 0 is copy only */

enum kind {
	KIND_DRIVER,
	KIND_DEVICE,
	KIND_CONTEXT,
	KIND_QUEUE,
	KIND_LIST,
	KIND_MODULE,
	KIND_LOG,
	KIND_KERNEL,
	KIND_ALLOCATION,
	NKINDS
};

static const char *const kind_names[NKINDS] = {
	"drivers", "devices", "contexts", "queues", "lists", "modules",
	"logs", "kernels", "allocations",
};

#define MAGIC 0x7a655243u

struct head {
	uint32_t magic;
	enum kind kind;
	unsigned id;
};

struct context {
	struct head h;
	unsigned users;		/* queues, lists, modules, allocations */
};

struct queue {
	struct head h;
	struct context *ctx;
	uint32_t ordinal;
};

enum command_type { CMD_COPY, CMD_LAUNCH, CMD_BARRIER };

struct kernel;

#define LAUNCH_MEMS 8

struct command {
	enum command_type type;
	void *dst;
	const void *src;
	size_t n;
	const struct kernel *kernel;
	unsigned mems[LAUNCH_MEMS];	/* allocations its arguments name */
};

struct list {
	struct head h;
	struct list *next;		/* all lists, for "in use" checks */
	struct context *ctx;
	uint32_t ordinal;
	bool closed;
	unsigned n, cap;
	struct command *cmds;
};

struct module {
	struct head h;
	struct module *next;		/* all live modules */
	struct context *ctx;
	struct spv_module spv;
	unsigned char *spirv;
	size_t size;
	unsigned kernels;
	bool linked;			/* its imports resolved */
	unsigned *import_from;		/* the module of each import */
	unsigned char **globals;	/* the storage of spv.globals[i] */
};

struct build_log {
	struct head h;
	char *text;
};

struct arg {
	bool set;
	unsigned mem;		/* the allocation a pointer names, or 0 */
	char desc[48];
};

struct kernel {
	struct head h;
	struct module *mod;
	const struct spv_kernel *spv;
	struct arg *args;
	uint32_t group[3];
	uint32_t offset[3];
};

struct allocation {
	unsigned id;
	char *ptr;
	size_t size;
	struct context *ctx;
};

static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
static int log_fd = -1;
static bool log_tried;
static char tag[128] = "ze-recording-driver";
static unsigned made[NKINDS], live[NKINDS];
static struct head driver = { MAGIC, KIND_DRIVER, 1 };
static struct head device = { MAGIC, KIND_DEVICE, 1 };
static struct allocation *allocs;
static unsigned nallocs;
static struct list *all_lists;
static struct module *all_modules;

/* ---- the record ---- */

/* Open the log and name the driver by its file, once. */
static void log_open(void)
{
	const char *path = getenv("ZE_RECORDING_LOG");
	const char *slash;
	Dl_info info;

	log_tried = true;
	if (dladdr(&log_fd, &info) && info.dli_fname) {
		slash = strrchr(info.dli_fname, '/');
		snprintf(tag, sizeof(tag), "%s",
			 slash ? slash + 1 : info.dli_fname);
	}
	if (path && path[0])
		log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			      0644);
}

static void rec(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One line, one write(): lines of several drivers or threads never mix. */
static void rec(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	if (!log_tried)
		log_open();
	if (log_fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%s: ", tag);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	n = (int)strlen(line);
	line[n++] = '\n';
	if (write(log_fd, line, (size_t)n) != n)
		perror("ze-recording-driver: log");
}

static const char *result_name(ze_result_t r)
{
	switch (r) {
	case ZE_RESULT_ERROR_INVALID_ARGUMENT:
		return "ZE_RESULT_ERROR_INVALID_ARGUMENT";
	case ZE_RESULT_ERROR_INVALID_NULL_HANDLE:
		return "ZE_RESULT_ERROR_INVALID_NULL_HANDLE";
	case ZE_RESULT_ERROR_INVALID_NULL_POINTER:
		return "ZE_RESULT_ERROR_INVALID_NULL_POINTER";
	case ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE:
		return "ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE";
	case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY:
		return "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY";
	case ZE_RESULT_ERROR_MODULE_BUILD_FAILURE:
		return "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE";
	case ZE_RESULT_ERROR_MODULE_LINK_FAILURE:
		return "ZE_RESULT_ERROR_MODULE_LINK_FAILURE";
	case ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED:
		return "ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED";
	case ZE_RESULT_ERROR_INVALID_NATIVE_BINARY:
		return "ZE_RESULT_ERROR_INVALID_NATIVE_BINARY";
	case ZE_RESULT_ERROR_INVALID_KERNEL_NAME:
		return "ZE_RESULT_ERROR_INVALID_KERNEL_NAME";
	case ZE_RESULT_ERROR_INVALID_FUNCTION_NAME:
		return "ZE_RESULT_ERROR_INVALID_FUNCTION_NAME";
	case ZE_RESULT_ERROR_INVALID_GLOBAL_NAME:
		return "ZE_RESULT_ERROR_INVALID_GLOBAL_NAME";
	case ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX:
		return "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX";
	case ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE:
		return "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE";
	case ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION:
		return "ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION";
	case ZE_RESULT_ERROR_INVALID_SIZE:
		return "ZE_RESULT_ERROR_INVALID_SIZE";
	case ZE_RESULT_ERROR_UNSUPPORTED_SIZE:
		return "ZE_RESULT_ERROR_UNSUPPORTED_SIZE";
	case ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT:
		return "ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT";
	case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE:
		return "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE";
	case ZE_RESULT_ERROR_UNSUPPORTED_VERSION:
		return "ZE_RESULT_ERROR_UNSUPPORTED_VERSION";
	default:
		return "ZE_RESULT_?";
	}
}

static ze_result_t leave(ze_result_t r)
{
	pthread_mutex_unlock(&big_lock);
	return r;
}

/* Record a refused call and return r (big_lock held, then released). */
static ze_result_t refuse(ze_result_t r, const char *call, const char *fmt,
			  ...) __attribute__((format(printf, 3, 4)));

static ze_result_t refuse(ze_result_t r, const char *call, const char *fmt,
			  ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	rec("%s -> %s (%s)", call, result_name(r), why);
	return leave(r);
}

#define ENTER() pthread_mutex_lock(&big_lock)

/* ---- objects ---- */

static void *obj_new(enum kind kind, size_t size)
{
	struct head *h = calloc(1, size);

	if (!h)
		return NULL;
	h->magic = MAGIC;
	h->kind = kind;
	h->id = ++made[kind];
	live[kind]++;
	return h;
}

static void obj_free(void *o)
{
	struct head *h = o;

	live[h->kind]--;
	h->magic = 0;
	free(h);
}

/* The object behind handle if it is one of ours of that kind. */
static void *obj_get(const void *handle, enum kind kind)
{
	const struct head *h = handle;

	if (!h || h->magic != MAGIC || h->kind != kind)
		return NULL;
	return (void *)handle;
}

static void triple(char *buf, size_t size, uint32_t x, uint32_t y,
		   uint32_t z)
{
	snprintf(buf, size, "%u,%u,%u", x, y, z);
}

/* The allocation holding p, with p's offset in it. */
static struct allocation *alloc_find(const void *p, size_t *off)
{
	unsigned i;

	for (i = 0; i < nallocs; i++) {
		const char *b = allocs[i].ptr;

		if ((const char *)p >= b &&
		    (const char *)p < b + allocs[i].size) {
			*off = (size_t)((const char *)p - b);
			return &allocs[i];
		}
	}
	return NULL;
}

/* "memN", "memN+off", "host" or "null"; the allocation's id or 0. */
static unsigned describe_ptr(char *buf, size_t size, const void *p)
{
	struct allocation *a;
	size_t off = 0;

	a = alloc_find(p, &off);
	if (!p)
		snprintf(buf, size, "null");
	else if (!a)
		snprintf(buf, size, "host");
	else if (off)
		snprintf(buf, size, "mem%u+%zu", a->id, off);
	else
		snprintf(buf, size, "mem%u", a->id);
	return a ? a->id : 0;
}

/* ---- global, driver, device ---- */

static ze_result_t ZE_APICALL init(ze_init_flags_t flags)
{
	ENTER();
	rec("zeInit flags=%#x", (unsigned)flags);
	return leave(ZE_RESULT_SUCCESS);
}

static bool global_offset_reported(void)
{
	const char *v = getenv("ZE_RECORDING_NO_GLOBAL_OFFSET");

	return !v || strcmp(v, "1") != 0;
}

static ze_result_t ZE_APICALL driver_get(uint32_t *count,
					 ze_driver_handle_t *drivers)
{
	if (!count)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (*count && drivers)
		drivers[0] = (ze_driver_handle_t)&driver;
	*count = 1;
	return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL driver_api_version(ze_driver_handle_t d,
						 ze_api_version_t *version)
{
	if (!obj_get(d, KIND_DRIVER))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	*version = ZE_API_VERSION_1_4;
	return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL driver_properties(ze_driver_handle_t d,
						ze_driver_properties_t *p)
{
	if (!obj_get(d, KIND_DRIVER))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	memset(p->uuid.id, 0x5a, sizeof(p->uuid.id));
	p->driverVersion = DRIVER_VERSION;
	return ZE_RESULT_SUCCESS;
}

static const char *const extensions[] = {
	"ZE_extension_float_atomics",
	ZE_GLOBAL_OFFSET_EXP_NAME,
	"ZE_experimental_module_program",
};

static ze_result_t ZE_APICALL driver_extensions(
	ze_driver_handle_t d, uint32_t *count,
	ze_driver_extension_properties_t *props)
{
	uint32_t n = 0, i;

	ENTER();
	if (!obj_get(d, KIND_DRIVER) || !count)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeDriverGetExtensionProperties", "bad handle");
	for (i = 0; i < sizeof(extensions) / sizeof(extensions[0]); i++) {
		if (!strcmp(extensions[i], ZE_GLOBAL_OFFSET_EXP_NAME) &&
		    !global_offset_reported())
			continue;
		if (props && n < *count) {
			snprintf(props[n].name, sizeof(props[n].name), "%s",
				 extensions[i]);
			props[n].version = ZE_MAKE_VERSION(1, 0);
		}
		n++;
	}
	if (!props || *count > n)
		*count = n;
	rec("zeDriverGetExtensionProperties count=%u%s", n,
	    props ? " (names)" : "");
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL kernel_set_global_offset(ze_kernel_handle_t k,
						       uint32_t x, uint32_t y,
						       uint32_t z);

static ze_result_t ZE_APICALL driver_function(ze_driver_handle_t d,
					      const char *name, void **fn)
{
	const char *call = "zeDriverGetExtensionFunctionAddress";

	ENTER();
	if (!obj_get(d, KIND_DRIVER) || !name || !fn)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_POINTER, call,
			      "bad arguments");
	if (strcmp(name, "zeKernelSetGlobalOffsetExp") ||
	    !global_offset_reported())
		return refuse(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME, call,
			      "name=%s", name);
	*fn = (void *)(uintptr_t)kernel_set_global_offset;
	rec("%s name=%s", call, name);
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL device_get(ze_driver_handle_t d,
					 uint32_t *count,
					 ze_device_handle_t *devices)
{
	if (!obj_get(d, KIND_DRIVER))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!count)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (*count && devices)
		devices[0] = (ze_device_handle_t)&device;
	*count = 1;
	return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL device_sub_devices(ze_device_handle_t dev,
						 uint32_t *count,
						 ze_device_handle_t *subs)
{
	if (!obj_get(dev, KIND_DEVICE) || !count)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	*count = 0;
	return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL device_properties(ze_device_handle_t dev,
						ze_device_properties_t *p)
{
	if (!obj_get(dev, KIND_DEVICE))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	ENTER();
	if (!log_tried)
		log_open();
	pthread_mutex_unlock(&big_lock);
	p->type = ZE_DEVICE_TYPE_GPU;
	p->vendorId = 0x8086;
	p->deviceId = 0x0bd5;
	p->flags = 0;
	p->coreClockRate = 1000;
	p->maxMemAllocSize = 256u << 20;
	p->maxHardwareContexts = 64;
	p->numThreadsPerEU = 8;
	p->physicalEUSimdWidth = 8;
	p->numEUsPerSubslice = 8;
	p->numSubslicesPerSlice = 4;
	p->numSlices = 1;
	p->timerResolution = 1;
	memset(p->uuid.id, 0xd5, sizeof(p->uuid.id));
	snprintf(p->name, sizeof(p->name), "Recording GPU (%s)", tag);
	return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL device_compute(
	ze_device_handle_t dev, ze_device_compute_properties_t *p)
{
	if (!obj_get(dev, KIND_DEVICE))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	p->maxTotalGroupSize = MAX_GROUP_TOTAL;
	p->maxGroupSizeX = 256;
	p->maxGroupSizeY = 256;
	p->maxGroupSizeZ = 64;
	p->maxGroupCountX = 65535;
	p->maxGroupCountY = 65535;
	p->maxGroupCountZ = 65535;
	p->maxSharedLocalMemory = 65536;
	p->numSubGroupSizes = 3;
	p->subGroupSizes[0] = 8;
	p->subGroupSizes[1] = 16;
	p->subGroupSizes[2] = 32;
	return ZE_RESULT_SUCCESS;
}

/* fp64 and 64-bit atomics, no fp16: what the aspect tests expect. */
static ze_result_t ZE_APICALL device_module(
	ze_device_handle_t dev, ze_device_module_properties_t *p)
{
	if (!obj_get(dev, KIND_DEVICE) || !p)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	p->spirvVersionSupported = ZE_MAKE_VERSION(1, 2);
	p->flags = ZE_DEVICE_MODULE_FLAG_FP64 |
		   ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
	p->maxArgumentsSize = 2048;
	p->printfBufferSize = 1 << 20;
	return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL device_memory(
	ze_device_handle_t dev, uint32_t *count,
	ze_device_memory_properties_t *p)
{
	if (!obj_get(dev, KIND_DEVICE) || !count)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (*count && p) {
		p->flags = 0;
		p->maxClockRate = 1000;
		p->maxBusWidth = 64;
		p->totalSize = 1ull << 30;
		snprintf(p->name, sizeof(p->name), "DDR");
	}
	*count = 1;
	return ZE_RESULT_SUCCESS;
}

/* Two groups: copy only first, so that a plugin must look for compute. */
static ze_result_t ZE_APICALL device_queue_groups(
	ze_device_handle_t dev, uint32_t *count,
	ze_command_queue_group_properties_t *p)
{
	static const ze_command_queue_group_property_flags_t flags[2] = {
		ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY,
		ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
			ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY,
	};
	uint32_t i;

	if (!obj_get(dev, KIND_DEVICE) || !count)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	for (i = 0; p && i < *count && i < 2; i++) {
		p[i].flags = flags[i];
		p[i].maxMemoryFillPatternSize = 16;
		p[i].numQueues = 1;
	}
	if (!p || *count > 2)
		*count = 2;
	return ZE_RESULT_SUCCESS;
}

/* ---- contexts, queues, command lists ---- */

static ze_result_t ZE_APICALL context_create(ze_driver_handle_t d,
					     const ze_context_desc_t *desc,
					     ze_context_handle_t *out)
{
	struct context *ctx;

	ENTER();
	if (!obj_get(d, KIND_DRIVER) || !desc || !out)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
			      "zeContextCreate", "bad arguments");
	ctx = obj_new(KIND_CONTEXT, sizeof(*ctx));
	if (!ctx)
		return refuse(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
			      "zeContextCreate", "calloc");
	rec("zeContextCreate context=%u", ctx->h.id);
	*out = (ze_context_handle_t)ctx;
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL context_destroy(ze_context_handle_t h)
{
	struct context *ctx;

	ENTER();
	ctx = obj_get(h, KIND_CONTEXT);
	if (!ctx)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeContextDestroy", "not a context");
	if (ctx->users)
		return refuse(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
			      "zeContextDestroy", "context=%u has %u objects",
			      ctx->h.id, ctx->users);
	rec("zeContextDestroy context=%u", ctx->h.id);
	obj_free(ctx);
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL queue_create(ze_context_handle_t h,
					   ze_device_handle_t dev,
					   const ze_command_queue_desc_t *desc,
					   ze_command_queue_handle_t *out)
{
	struct context *ctx;
	struct queue *q;

	ENTER();
	ctx = obj_get(h, KIND_CONTEXT);
	if (!ctx || !obj_get(dev, KIND_DEVICE) || !desc || !out)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeCommandQueueCreate", "bad arguments");
	if (desc->ordinal > COMPUTE_ORDINAL || desc->index != 0)
		return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			      "zeCommandQueueCreate", "ordinal=%u index=%u",
			      desc->ordinal, desc->index);
	q = obj_new(KIND_QUEUE, sizeof(*q));
	if (!q)
		return refuse(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
			      "zeCommandQueueCreate", "calloc");
	q->ctx = ctx;
	q->ordinal = desc->ordinal;
	ctx->users++;
	rec("zeCommandQueueCreate queue=%u context=%u ordinal=%u mode=%s",
	    q->h.id, ctx->h.id, q->ordinal,
	    desc->mode == ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS ? "async" :
	    desc->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS ? "sync" :
							      "default");
	*out = (ze_command_queue_handle_t)q;
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL queue_destroy(ze_command_queue_handle_t h)
{
	struct queue *q;

	ENTER();
	q = obj_get(h, KIND_QUEUE);
	if (!q)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeCommandQueueDestroy", "not a queue");
	rec("zeCommandQueueDestroy queue=%u", q->h.id);
	q->ctx->users--;
	obj_free(q);
	return leave(ZE_RESULT_SUCCESS);
}

static void run_commands(const struct list *l, unsigned *copies,
			 unsigned *launches)
{
	unsigned i;

	for (i = 0; i < l->n; i++) {
		const struct command *c = &l->cmds[i];

		if (c->type == CMD_COPY) {
			memmove(c->dst, c->src, c->n);
			++*copies;
		} else if (c->type == CMD_LAUNCH) {
			++*launches;
		}
	}
}

static ze_result_t ZE_APICALL queue_execute(ze_command_queue_handle_t h,
					    uint32_t n,
					    ze_command_list_handle_t *lists,
					    ze_fence_handle_t fence)
{
	const char *call = "zeCommandQueueExecuteCommandLists";
	unsigned copies = 0, launches = 0, commands = 0;
	struct queue *q;
	struct list *l;
	uint32_t i;

	ENTER();
	q = obj_get(h, KIND_QUEUE);
	if (!q || !n || !lists)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, call,
			      "bad arguments");
	if (fence)
		return refuse(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, call,
			      "fences are not recorded");
	for (i = 0; i < n; i++) {
		l = obj_get(lists[i], KIND_LIST);
		if (!l || l->ctx != q->ctx)
			return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, call,
				      "list %u is not of the queue's context",
				      i);
		if (!l->closed)
			return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, call,
				      "list=%u is not closed", l->h.id);
		if (l->ordinal != q->ordinal)
			return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, call,
				      "list=%u of group %u on a queue of group %u",
				      l->h.id, l->ordinal, q->ordinal);
	}
	for (i = 0; i < n; i++) {
		l = (struct list *)lists[i];
		commands += l->n;
		run_commands(l, &copies, &launches);
	}
	rec("%s queue=%u lists=%u commands=%u copies=%u launches=%u", call,
	    q->h.id, n, commands, copies, launches);
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL queue_synchronize(ze_command_queue_handle_t h,
						uint64_t timeout)
{
	struct queue *q;

	ENTER();
	q = obj_get(h, KIND_QUEUE);
	if (!q)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeCommandQueueSynchronize", "not a queue");
	if (timeout == UINT64_MAX)
		rec("zeCommandQueueSynchronize queue=%u timeout=max", q->h.id);
	else
		rec("zeCommandQueueSynchronize queue=%u timeout=%llu", q->h.id,
		    (unsigned long long)timeout);
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL list_create(ze_context_handle_t h,
					  ze_device_handle_t dev,
					  const ze_command_list_desc_t *desc,
					  ze_command_list_handle_t *out)
{
	struct context *ctx;
	struct list *l;

	ENTER();
	ctx = obj_get(h, KIND_CONTEXT);
	if (!ctx || !obj_get(dev, KIND_DEVICE) || !desc || !out)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeCommandListCreate", "bad arguments");
	if (desc->commandQueueGroupOrdinal > COMPUTE_ORDINAL)
		return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			      "zeCommandListCreate", "ordinal=%u",
			      desc->commandQueueGroupOrdinal);
	l = obj_new(KIND_LIST, sizeof(*l));
	if (!l)
		return refuse(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
			      "zeCommandListCreate", "calloc");
	l->ctx = ctx;
	l->ordinal = desc->commandQueueGroupOrdinal;
	l->next = all_lists;
	all_lists = l;
	ctx->users++;
	rec("zeCommandListCreate list=%u context=%u ordinal=%u", l->h.id,
	    ctx->h.id, l->ordinal);
	*out = (ze_command_list_handle_t)l;
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL list_destroy(ze_command_list_handle_t h)
{
	struct list *l, **pl;

	ENTER();
	l = obj_get(h, KIND_LIST);
	if (!l)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeCommandListDestroy", "not a list");
	rec("zeCommandListDestroy list=%u", l->h.id);
	for (pl = &all_lists; *pl != l; pl = &(*pl)->next)
		;
	*pl = l->next;
	l->ctx->users--;
	free(l->cmds);
	obj_free(l);
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL list_close(ze_command_list_handle_t h)
{
	struct list *l;

	ENTER();
	l = obj_get(h, KIND_LIST);
	if (!l)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeCommandListClose", "not a list");
	if (l->closed)
		return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			      "zeCommandListClose", "list=%u already closed",
			      l->h.id);
	l->closed = true;
	rec("zeCommandListClose list=%u commands=%u", l->h.id, l->n);
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL list_reset(ze_command_list_handle_t h)
{
	struct list *l;

	ENTER();
	l = obj_get(h, KIND_LIST);
	if (!l)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeCommandListReset", "not a list");
	l->closed = false;
	l->n = 0;
	rec("zeCommandListReset list=%u", l->h.id);
	return leave(ZE_RESULT_SUCCESS);
}

/* Check an append's list and events; NULL and a reason when refused. */
static struct list *appendable(ze_command_list_handle_t h,
			       ze_event_handle_t signal, uint32_t nwait,
			       const char **why)
{
	struct list *l = obj_get(h, KIND_LIST);

	*why = NULL;
	if (!l)
		*why = "not a list";
	else if (l->closed)
		*why = "the list is closed";
	else if (signal || nwait)
		*why = "events are not recorded";
	return *why ? NULL : l;
}

static int push(struct list *l, enum command_type type, void *dst,
		const void *src, size_t n, const struct kernel *k)
{
	unsigned i, m;

	if (l->n == l->cap) {
		unsigned cap = l->cap ? 2 * l->cap : 16;
		struct command *c = realloc(l->cmds, cap * sizeof(*c));

		if (!c)
			return -1;
		l->cmds = c;
		l->cap = cap;
	}
	l->cmds[l->n] = (struct command){ type, dst, src, n, k, { 0 } };
	for (i = 0, m = 0; k && i < k->spv->nparams && m < LAUNCH_MEMS; i++)
		if (k->args[i].mem)
			l->cmds[l->n].mems[m++] = k->args[i].mem;
	l->n++;
	return 0;
}

static ze_result_t ZE_APICALL list_barrier(ze_command_list_handle_t h,
					   ze_event_handle_t signal,
					   uint32_t nwait,
					   ze_event_handle_t *waits)
{
	const char *why;
	struct list *l;

	ENTER();
	l = appendable(h, signal, nwait, &why);
	if (!l)
		return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			      "zeCommandListAppendBarrier", "%s", why);
	if (push(l, CMD_BARRIER, NULL, NULL, 0, NULL) < 0)
		return refuse(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
			      "zeCommandListAppendBarrier", "realloc");
	rec("zeCommandListAppendBarrier list=%u", l->h.id);
	return leave(ZE_RESULT_SUCCESS);
}

/* Device memory in a copy must lie inside its allocation. */
static bool copy_range_ok(const void *p, size_t n)
{
	struct allocation *a;
	size_t off;

	a = alloc_find(p, &off);
	return !a || n <= a->size - off;
}

static ze_result_t ZE_APICALL list_copy(ze_command_list_handle_t h,
					void *dst, const void *src, size_t n,
					ze_event_handle_t signal,
					uint32_t nwait,
					ze_event_handle_t *waits)
{
	const char *call = "zeCommandListAppendMemoryCopy";
	char d[48], s[48];
	const char *why;
	struct list *l;

	ENTER();
	l = appendable(h, signal, nwait, &why);
	if (!l)
		return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, call, "%s", why);
	if (!dst || !src)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_POINTER, call,
			      "NULL pointer");
	describe_ptr(d, sizeof(d), dst);
	describe_ptr(s, sizeof(s), src);
	if (!copy_range_ok(dst, n) || !copy_range_ok(src, n))
		return refuse(ZE_RESULT_ERROR_INVALID_SIZE, call,
			      "dst=%s src=%s size=%zu past an allocation", d,
			      s, n);
	if (push(l, CMD_COPY, dst, src, n, NULL) < 0)
		return refuse(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, call,
			      "realloc");
	rec("%s list=%u dst=%s src=%s size=%zu", call, l->h.id, d, s, n);
	return leave(ZE_RESULT_SUCCESS);
}

/*
 * A command not yet reset away from its list may still run: what it uses
 * must not be destroyed. The list holding a launch of k, or a copy
 * touching allocation a; NULL when none.
 */
static const struct list *list_using(const struct kernel *k,
				     const struct allocation *a)
{
	const struct list *l;
	unsigned i, j;
	size_t off;

	for (l = all_lists; l; l = l->next) {
		for (i = 0; i < l->n; i++) {
			const struct command *c = &l->cmds[i];

			if (k && c->type == CMD_LAUNCH && c->kernel == k)
				return l;
			if (a && c->type == CMD_COPY &&
			    (alloc_find(c->dst, &off) == a ||
			     alloc_find(c->src, &off) == a))
				return l;
			for (j = 0; a && j < LAUNCH_MEMS; j++)
				if (c->type == CMD_LAUNCH &&
				    c->mems[j] == a->id)
					return l;
		}
	}
	return NULL;
}

/* ---- memory ---- */

static ze_result_t ZE_APICALL mem_alloc_device(
	ze_context_handle_t h, const ze_device_mem_alloc_desc_t *desc,
	size_t size, size_t alignment, ze_device_handle_t dev, void **out)
{
	const char *call = "zeMemAllocDevice";
	size_t align = alignment ? alignment : 64;
	struct allocation *a;
	struct context *ctx;
	void *p;

	ENTER();
	ctx = obj_get(h, KIND_CONTEXT);
	if (!ctx || !obj_get(dev, KIND_DEVICE) || !desc || !out)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, call,
			      "bad arguments");
	if (size == 0 || size > (256u << 20))
		return refuse(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, call,
			      "size=%zu", size);
	if (align & (align - 1))
		return refuse(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, call,
			      "alignment=%zu", alignment);
	a = realloc(allocs, (nallocs + 1) * sizeof(*a));
	if (a)
		allocs = a;
	p = a ? aligned_alloc(align, (size + align - 1) / align * align) :
		NULL;
	if (!p)
		return refuse(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, call,
			      "size=%zu", size);
	memset(p, 0, size);
	a += nallocs++;
	a->id = ++made[KIND_ALLOCATION];
	a->ptr = p;
	a->size = size;
	a->ctx = ctx;
	live[KIND_ALLOCATION]++;
	ctx->users++;
	rec("%s mem=%u size=%zu alignment=%zu", call, a->id, size, alignment);
	*out = p;
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL mem_free(ze_context_handle_t h, void *ptr)
{
	const struct list *user;
	struct allocation *a;
	struct context *ctx;
	size_t off = 0;

	ENTER();
	ctx = obj_get(h, KIND_CONTEXT);
	a = alloc_find(ptr, &off);
	if (!ctx || !a || off || a->ctx != ctx)
		return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, "zeMemFree",
			      "not an allocation of this context");
	user = list_using(NULL, a);
	if (user)
		return refuse(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, "zeMemFree",
			      "mem=%u is used by a command of list=%u",
			      a->id, user->h.id);
	rec("zeMemFree mem=%u", a->id);
	free(a->ptr);
	ctx->users--;
	live[KIND_ALLOCATION]--;
	*a = allocs[--nallocs];
	return leave(ZE_RESULT_SUCCESS);
}

/* ---- modules and build logs ---- */

static struct build_log *log_new(const char *text)
{
	struct build_log *log = obj_new(KIND_LOG, sizeof(*log));

	if (log && !(log->text = strdup(text))) {
		obj_free(log);
		return NULL;
	}
	return log;
}

/* "0:55,1:9": each constant at the width of its type in the module. */
static void describe_constants(const struct spv_module *spv,
			       const ze_module_constants_t *c, char *buf,
			       size_t size)
{
	size_t used = 0;
	uint32_t i;

	snprintf(buf, size, "none");
	for (i = 0; c && i < c->numConstants && used < size; i++) {
		const struct spv_spec *sp;
		int64_t v = 0;

		sp = spv ? spv_find_spec(spv, c->pConstantIds[i]) : NULL;
		if (!sp || !sp->size || sp->size > 8) {
			used += (size_t)snprintf(buf + used, size - used,
						 "%s%u:unknown", i ? "," : "",
						 c->pConstantIds[i]);
			continue;
		}
		memcpy(&v, c->pConstantValues[i], sp->size);
		if (sp->size < 8 && (v >> (sp->size * 8 - 1)) & 1)
			v |= -((int64_t)1 << (sp->size * 8));
		used += (size_t)snprintf(buf + used, size - used,
					 "%s%u:%lld", i ? "," : "",
					 c->pConstantIds[i], (long long)v);
	}
}

static void describe_kernels(const struct spv_module *spv, char *buf,
			     size_t size)
{
	size_t used = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < spv->nkernels && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
					 i ? "," : "", spv->kernels[i].name);
}

/* The SPIR-V of a module input; a reason in why when there is none. */
static const unsigned char *module_spirv(const ze_module_desc_t *desc,
					 size_t *size, ze_result_t *res,
					 const char **why)
{
	const unsigned char *in = desc->pInputModule;

	*size = desc->inputSize;
	*res = ZE_RESULT_SUCCESS;
	if (desc->format == ZE_MODULE_FORMAT_IL_SPIRV)
		return in;
	if (desc->format != ZE_MODULE_FORMAT_NATIVE) {
		*res = ZE_RESULT_ERROR_INVALID_ENUMERATION;
		*why = "unknown module format";
		return NULL;
	}
	if (*size < NATIVE_MAGIC_SIZE ||
	    memcmp(in, NATIVE_MAGIC, NATIVE_MAGIC_SIZE)) {
		*res = ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
		*why = "not a binary of this driver (no " NATIVE_MAGIC ")";
		return NULL;
	}
	*size -= NATIVE_MAGIC_SIZE;
	return in + NATIVE_MAGIC_SIZE;
}

/* Zero-filled storage for each of the module's globals. */
static int globals_new(struct module *mod)
{
	uint32_t i;

	if (!mod->spv.nglobals)
		return 0;
	mod->globals = calloc(mod->spv.nglobals, sizeof(*mod->globals));
	if (!mod->globals)
		return -1;
	for (i = 0; i < mod->spv.nglobals; i++) {
		mod->globals[i] = calloc(1, mod->spv.globals[i].size ?
					    mod->spv.globals[i].size : 1);
		if (!mod->globals[i])
			return -1;
	}
	return 0;
}

/* Scan and link: the log says why a build fails. */
static ze_result_t module_build(struct module *mod, const unsigned char *in,
				size_t size, char *log, size_t logsize)
{
	char err[256];

	if (spv_scan(in, size, &mod->spv, err, sizeof(err)) < 0) {
		snprintf(log, logsize, "error: cannot read the SPIR-V: %s",
			 err);
		return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
	}
	mod->spirv = malloc(size);
	if (mod->spv.nimports)
		mod->import_from = calloc(mod->spv.nimports,
					  sizeof(*mod->import_from));
	if (!mod->spirv || (mod->spv.nimports && !mod->import_from) ||
	    globals_new(mod) < 0)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	memcpy(mod->spirv, in, size);
	mod->size = size;
	mod->linked = !mod->spv.nimports;
	snprintf(log, logsize,
		 "ze-recording-driver: %u kernel(s) built, %u import(s) to link\n",
		 mod->spv.nkernels, mod->spv.nimports);
	return ZE_RESULT_SUCCESS;
}

static void module_free(struct module *mod)
{
	uint32_t i;

	for (i = 0; mod->globals && i < mod->spv.nglobals; i++)
		free(mod->globals[i]);
	free(mod->globals);
	spv_module_free(&mod->spv);
	free(mod->spirv);
	free(mod->import_from);
	obj_free(mod);
}

static struct module *module_live(unsigned id)
{
	struct module *m;

	for (m = all_modules; m && m->h.id != id; m = m->next)
		;
	return m;
}

static ze_result_t ZE_APICALL module_create(ze_context_handle_t h,
					    ze_device_handle_t dev,
					    const ze_module_desc_t *desc,
					    ze_module_handle_t *out,
					    ze_module_build_log_handle_t *plog)
{
	char log[512] = "", consts[256], kernels[256];
	struct context *ctx;
	const unsigned char *in;
	const char *why = "";
	struct build_log *bl;
	struct module *mod;
	ze_result_t res;
	size_t size;

	ENTER();
	ctx = obj_get(h, KIND_CONTEXT);
	if (!ctx || !obj_get(dev, KIND_DEVICE) || !desc || !out)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeModuleCreate", "bad arguments");
	if (!desc->pInputModule || !desc->inputSize)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
			      "zeModuleCreate", "no input");
	mod = obj_new(KIND_MODULE, sizeof(*mod));
	if (!mod)
		return refuse(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
			      "zeModuleCreate", "calloc");
	in = module_spirv(desc, &size, &res, &why);
	if (in)
		res = module_build(mod, in, size, log, sizeof(log));
	else
		snprintf(log, sizeof(log), "error: %s\n", why);
	describe_constants(in ? &mod->spv : NULL, desc->pConstants, consts,
			   sizeof(consts));
	describe_kernels(&mod->spv, kernels, sizeof(kernels));
	rec("zeModuleCreate module=%u format=%s size=%zu flags=\"%s\" constants=%s kernels=%s%s%s",
	    mod->h.id,
	    desc->format == ZE_MODULE_FORMAT_NATIVE ? "NATIVE" : "IL_SPIRV",
	    desc->inputSize, desc->pBuildFlags ? desc->pBuildFlags : "(null)",
	    consts, kernels, res ? " -> " : "", res ? result_name(res) : "");
	bl = plog ? log_new(log) : NULL;
	if (plog)
		*plog = (ze_module_build_log_handle_t)bl;
	if (res != ZE_RESULT_SUCCESS) {
		module_free(mod);
		return leave(res);
	}
	mod->ctx = ctx;
	ctx->users++;
	mod->next = all_modules;
	all_modules = mod;
	*out = (ze_module_handle_t)mod;
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL module_destroy(ze_module_handle_t h)
{
	struct module *mod, **pm;

	ENTER();
	mod = obj_get(h, KIND_MODULE);
	if (!mod)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeModuleDestroy", "not a module");
	if (mod->kernels)
		return refuse(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
			      "zeModuleDestroy", "module=%u has %u kernels",
			      mod->h.id, mod->kernels);
	rec("zeModuleDestroy module=%u", mod->h.id);
	for (pm = &all_modules; *pm != mod; pm = &(*pm)->next)
		;
	*pm = mod->next;
	mod->ctx->users--;
	module_free(mod);
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL module_native_binary(ze_module_handle_t h,
						   size_t *size,
						   uint8_t *out)
{
	const char *call = "zeModuleGetNativeBinary";
	struct module *mod;
	size_t need;

	ENTER();
	mod = obj_get(h, KIND_MODULE);
	if (!mod || !size)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, call,
			      "bad arguments");
	need = NATIVE_MAGIC_SIZE + mod->size;
	if (out && *size < need)
		return refuse(ZE_RESULT_ERROR_INVALID_SIZE, call,
			      "size=%zu, the binary has %zu", *size, need);
	if (out) {
		memcpy(out, NATIVE_MAGIC, NATIVE_MAGIC_SIZE);
		memcpy(out + NATIVE_MAGIC_SIZE, mod->spirv, mod->size);
	}
	*size = need;
	rec("%s module=%u size=%zu%s", call, mod->h.id, need,
	    out ? " (copied)" : "");
	return leave(ZE_RESULT_SUCCESS);
}

static bool old_globals(void)
{
	const char *v = getenv("ZE_RECORDING_OLD_GLOBALS");

	return v && !strcmp(v, "1");
}

static ze_result_t ZE_APICALL module_global(ze_module_handle_t h,
					    const char *name, size_t *size,
					    void **ptr)
{
	const char *call = "zeModuleGetGlobalPointer";
	struct module *mod;
	uint32_t i;

	ENTER();
	mod = obj_get(h, KIND_MODULE);
	if (!mod)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, call,
			      "not a module");
	if (!name)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_POINTER, call,
			      "no name");
	for (i = 0; i < mod->spv.nglobals; i++)
		if (!strcmp(mod->spv.globals[i].name, name))
			break;
	if (i == mod->spv.nglobals)
		return refuse(old_globals() ?
			      ZE_RESULT_ERROR_INVALID_ARGUMENT :
			      ZE_RESULT_ERROR_INVALID_GLOBAL_NAME, call,
			      "module=%u has no global \"%s\"", mod->h.id,
			      name);
	if (size)
		*size = mod->spv.globals[i].size;
	if (ptr)
		*ptr = mod->globals[i];
	rec("%s module=%u name=%s size=%u", call, mod->h.id, name,
	    mod->spv.globals[i].size);
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL module_properties(ze_module_handle_t h,
						ze_module_properties_t *p)
{
	struct module *mod;

	ENTER();
	mod = obj_get(h, KIND_MODULE);
	if (!mod || !p)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeModuleGetProperties", "bad arguments");
	p->flags = mod->spv.nimports ? ZE_MODULE_PROPERTY_FLAG_IMPORTS : 0;
	rec("zeModuleGetProperties module=%u flags=%s", mod->h.id,
	    p->flags ? "imports" : "none");
	return leave(ZE_RESULT_SUCCESS);
}

/*
 * The one module of mods[0..n) that exports name: its index, or -1 with
 * the reason (none does, or several) in why.
 */
static int exporter(struct module *const *mods, uint32_t n,
		    const char *name, const char **why)
{
	int found = -1;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (!spv_exports(&mods[i]->spv, name))
			continue;
		if (found >= 0) {
			*why = "ambiguous: exported by several modules of the link";
			return -1;
		}
		found = (int)i;
	}
	if (found < 0)
		*why = "no module of the link exports it";
	return found;
}

static void appendf(char *buf, size_t size, size_t *used, const char *fmt,
		    ...) __attribute__((format(printf, 4, 5)));

/* Append to buf; what does not fit is dropped. */
static void appendf(char *buf, size_t size, size_t *used, const char *fmt,
		    ...)
{
	va_list ap;
	int n;

	if (*used >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used += (size_t)n;
}

/*
 * Resolve the imports of the modules of mods not linked yet (when apply)
 * or check that they resolve: what each found ("module:symbol@module")
 * into what, why each did not into log. False when one did not.
 */
static bool resolve(struct module *const *mods, uint32_t n, bool apply,
		    char *log, size_t logsize, char *what, size_t whatsize)
{
	size_t lused = 0, wused = 0;
	const char *why = NULL;
	bool ok = true;
	uint32_t i, j;
	int e;

	log[0] = what[0] = '\0';
	for (i = 0; i < n; i++) {
		const struct module *m = mods[i];

		for (j = 0; !m->linked && j < m->spv.nimports; j++) {
			e = exporter(mods, n, m->spv.imports[j], &why);
			if (e < 0) {
				ok = false;
				appendf(log, logsize, &lused,
					"error: undefined reference to '%s' in module %u: %s\n",
					m->spv.imports[j], m->h.id, why);
				continue;
			}
			if (apply)
				m->import_from[j] = mods[e]->h.id;
			appendf(what, whatsize, &wused, "%s%u:%s@%u",
				wused ? "," : "", m->h.id, m->spv.imports[j],
				mods[e]->h.id);
		}
	}
	return ok;
}

/* A log's lines as one record line: "; " between them. */
static void one_line(char *log)
{
	size_t n = strlen(log);
	char *nl;

	while (n && log[n - 1] == '\n')
		log[--n] = '\0';
	for (nl = strchr(log, '\n'); nl; nl = strchr(nl, '\n'))
		*nl = ';';
}

static void describe_modules(struct module *const *mods, uint32_t n,
			     char *buf, size_t size)
{
	size_t used = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%u",
					 i ? "," : "", mods[i]->h.id);
}

static ze_result_t ZE_APICALL module_dynamic_link(
	uint32_t n, ze_module_handle_t *handles,
	ze_module_build_log_handle_t *plog)
{
	const char *call = "zeModuleDynamicLink";
	char ids[128], log[512], what[256];
	struct module **mods;
	struct build_log *bl;
	uint32_t i;
	bool ok;

	ENTER();
	if (!n || !handles)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_POINTER, call,
			      "no modules");
	mods = calloc(n, sizeof(*mods));
	if (!mods)
		return refuse(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, call, "calloc");
	for (i = 0; i < n; i++) {
		mods[i] = obj_get(handles[i], KIND_MODULE);
		if (!mods[i] || mods[i]->ctx != mods[0]->ctx) {
			free(mods);
			return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, call,
				      "module %u is not a module of the first's context",
				      i);
		}
	}
	describe_modules(mods, n, ids, sizeof(ids));
	/* Modules cannot be partially linked: check all, then resolve. */
	ok = resolve(mods, n, false, log, sizeof(log), what, sizeof(what));
	if (ok) {
		resolve(mods, n, true, log, sizeof(log), what, sizeof(what));
		for (i = 0; i < n; i++)
			mods[i]->linked = true;
		snprintf(log, sizeof(log),
			 "ze-recording-driver: %u module(s) linked\n", n);
	}
	free(mods);
	bl = plog ? log_new(log) : NULL;	/* the log as the driver gives it */
	if (plog)
		*plog = (ze_module_build_log_handle_t)bl;
	if (!ok) {
		one_line(log);
		rec("%s modules=%s -> %s (%s)", call, ids,
		    result_name(ZE_RESULT_ERROR_MODULE_LINK_FAILURE), log);
		return leave(ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
	}
	rec("%s modules=%s imports=%s", call, ids, what[0] ? what : "none");
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL log_destroy(ze_module_build_log_handle_t h)
{
	struct build_log *log;

	ENTER();
	log = obj_get(h, KIND_LOG);
	if (!log)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeModuleBuildLogDestroy", "not a log");
	rec("zeModuleBuildLogDestroy log=%u", log->h.id);
	free(log->text);
	obj_free(log);
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL log_string(ze_module_build_log_handle_t h,
					 size_t *size, char *out)
{
	struct build_log *log;
	size_t need;

	ENTER();
	log = obj_get(h, KIND_LOG);
	if (!log || !size)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeModuleBuildLogGetString", "bad arguments");
	need = strlen(log->text) + 1;
	if (out && *size) {
		size_t n = *size < need ? *size : need;

		memcpy(out, log->text, n - 1);
		out[n - 1] = '\0';
	}
	*size = need;
	rec("zeModuleBuildLogGetString log=%u size=%zu%s", log->h.id, need,
	    out ? " (copied)" : "");
	return leave(ZE_RESULT_SUCCESS);
}

/* ---- kernels ---- */

static ze_result_t ZE_APICALL kernel_create(ze_module_handle_t h,
					    const ze_kernel_desc_t *desc,
					    ze_kernel_handle_t *out)
{
	const char *call = "zeKernelCreate";
	const struct spv_kernel *spv;
	struct module *mod;
	struct kernel *k;

	ENTER();
	mod = obj_get(h, KIND_MODULE);
	if (!mod || !desc || !desc->pKernelName || !out)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, call,
			      "bad arguments");
	spv = spv_find_kernel(&mod->spv, desc->pKernelName);
	if (!spv)
		return refuse(ZE_RESULT_ERROR_INVALID_KERNEL_NAME, call,
			      "module=%u name=%s", mod->h.id,
			      desc->pKernelName);
	if (!mod->linked)
		return refuse(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED, call,
			      "module=%u imports %s and is not linked",
			      mod->h.id, mod->spv.imports[0]);
	k = obj_new(KIND_KERNEL, sizeof(*k));
	if (k)
		k->args = calloc(spv->nparams ? spv->nparams : 1,
				 sizeof(*k->args));
	if (!k || !k->args) {
		if (k)
			obj_free(k);
		return refuse(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, call,
			      "calloc");
	}
	k->mod = mod;
	k->spv = spv;
	mod->kernels++;
	rec("%s kernel=%s#%u module=%u", call, spv->name, k->h.id, mod->h.id);
	*out = (ze_kernel_handle_t)k;
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL kernel_destroy(ze_kernel_handle_t h)
{
	const struct list *user;
	struct kernel *k;

	ENTER();
	k = obj_get(h, KIND_KERNEL);
	if (!k)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeKernelDestroy", "not a kernel");
	user = list_using(k, NULL);
	if (user)
		return refuse(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
			      "zeKernelDestroy",
			      "kernel=%s#%u is launched by a command of list=%u",
			      k->spv->name, k->h.id, user->h.id);
	rec("zeKernelDestroy kernel=%s#%u", k->spv->name, k->h.id);
	k->mod->kernels--;
	free(k->args);
	obj_free(k);
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL kernel_properties(ze_kernel_handle_t h,
						ze_kernel_properties_t *p)
{
	struct kernel *k;

	ENTER();
	k = obj_get(h, KIND_KERNEL);
	if (!k || !p)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeKernelGetProperties", "bad arguments");
	p->numKernelArgs = k->spv->nparams;
	p->requiredGroupSizeX = 0;
	p->requiredGroupSizeY = 0;
	p->requiredGroupSizeZ = 0;
	p->maxSubgroupSize = 32;
	rec("zeKernelGetProperties kernel=%s#%u numKernelArgs=%u",
	    k->spv->name, k->h.id, p->numKernelArgs);
	return leave(ZE_RESULT_SUCCESS);
}

static void hex(char *buf, size_t size, const void *value, size_t n)
{
	const unsigned char *b = value;
	size_t i, used;

	used = (size_t)snprintf(buf, size, "bytes:");
	for (i = 0; i < n && used + 3 <= size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%02x", b[i]);
}

/* Describe an argument as its parameter takes it; a refusal's reason. */
static const char *check_arg(const struct spv_param *p, size_t size,
			     const void *value, struct arg *arg,
			     ze_result_t *res)
{
	char *desc = arg->desc;
	size_t dsize = sizeof(arg->desc);

	*res = ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
	arg->mem = 0;
	switch (p->kind) {
	case SPV_PARAM_LOCAL:
		if (value) {
			*res = ZE_RESULT_ERROR_INVALID_ARGUMENT;
			return "local memory takes a size and no value";
		}
		if (!size)
			return "local memory of 0 bytes";
		snprintf(desc, dsize, "local:%zu", size);
		return NULL;
	case SPV_PARAM_GLOBAL:
		if (size != sizeof(void *))
			return "a pointer takes 8 bytes";
		if (value)
			arg->mem = describe_ptr(desc, dsize,
						*(void *const *)value);
		else
			snprintf(desc, dsize, "null");
		return NULL;
	default:
		if (p->size && size != p->size)
			return "not the size of the parameter's type";
		if (!value) {
			*res = ZE_RESULT_ERROR_INVALID_NULL_POINTER;
			return "a value parameter without a value";
		}
		hex(desc, dsize, value, size);
		return NULL;
	}
}

static ze_result_t ZE_APICALL kernel_set_arg(ze_kernel_handle_t h,
					     uint32_t index, size_t size,
					     const void *value)
{
	const char *call = "zeKernelSetArgumentValue";
	struct kernel *k;
	const char *why;
	ze_result_t res;
	struct arg arg;

	ENTER();
	k = obj_get(h, KIND_KERNEL);
	if (!k)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, call,
			      "not a kernel");
	if (index >= k->spv->nparams)
		return refuse(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX,
			      call, "kernel=%s#%u index=%u of %u", k->spv->name,
			      k->h.id, index, k->spv->nparams);
	why = check_arg(&k->spv->params[index], size, value, &arg, &res);
	if (why)
		return refuse(res, call, "kernel=%s#%u index=%u size=%zu: %s",
			      k->spv->name, k->h.id, index, size, why);
	arg.set = true;
	k->args[index] = arg;
	rec("%s kernel=%s#%u index=%u size=%zu value=%s", call, k->spv->name,
	    k->h.id, index, size, value ? arg.desc : "NULL");
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL kernel_set_group_size(ze_kernel_handle_t h,
						    uint32_t x, uint32_t y,
						    uint32_t z)
{
	const char *call = "zeKernelSetGroupSize";
	struct kernel *k;

	ENTER();
	k = obj_get(h, KIND_KERNEL);
	if (!k)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, call,
			      "not a kernel");
	if (!x || !y || !z || x > 256 || y > 256 || z > 64 ||
	    (uint64_t)x * y * z > MAX_GROUP_TOTAL)
		return refuse(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
			      call, "kernel=%s#%u size=%u,%u,%u", k->spv->name,
			      k->h.id, x, y, z);
	k->group[0] = x;
	k->group[1] = y;
	k->group[2] = z;
	rec("%s kernel=%s#%u size=%u,%u,%u", call, k->spv->name, k->h.id, x, y,
	    z);
	return leave(ZE_RESULT_SUCCESS);
}

/* The largest divisor of n that is at most max. */
static uint32_t divisor_within(uint32_t n, uint32_t max)
{
	uint32_t d;

	for (d = n < max ? n : max; d > 1; d--)
		if (n % d == 0)
			return d;
	return 1;
}

static ze_result_t ZE_APICALL kernel_suggest(ze_kernel_handle_t h,
					     uint32_t gx, uint32_t gy,
					     uint32_t gz, uint32_t *x,
					     uint32_t *y, uint32_t *z)
{
	const char *call = "zeKernelSuggestGroupSize";
	uint32_t budget = SUGGEST_BUDGET;
	struct kernel *k;

	ENTER();
	k = obj_get(h, KIND_KERNEL);
	if (!k || !x || !y || !z)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, call,
			      "bad arguments");
	if (!gx || !gy || !gz)
		return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, call,
			      "global=%u,%u,%u", gx, gy, gz);
	*x = divisor_within(gx, budget);
	budget /= *x;
	*y = divisor_within(gy, budget < 256 ? budget : 256);
	budget /= *y;
	*z = divisor_within(gz, budget < 64 ? budget : 64);
	rec("%s kernel=%s#%u global=%u,%u,%u -> %u,%u,%u", call, k->spv->name,
	    k->h.id, gx, gy, gz, *x, *y, *z);
	return leave(ZE_RESULT_SUCCESS);
}

static ze_result_t ZE_APICALL kernel_set_global_offset(ze_kernel_handle_t h,
						       uint32_t x, uint32_t y,
						       uint32_t z)
{
	struct kernel *k;

	ENTER();
	k = obj_get(h, KIND_KERNEL);
	if (!k)
		return refuse(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			      "zeKernelSetGlobalOffsetExp", "not a kernel");
	k->offset[0] = x;
	k->offset[1] = y;
	k->offset[2] = z;
	rec("zeKernelSetGlobalOffsetExp kernel=%s#%u offset=%u,%u,%u",
	    k->spv->name, k->h.id, x, y, z);
	return leave(ZE_RESULT_SUCCESS);
}

static void describe_args(const struct kernel *k, char *buf, size_t size)
{
	size_t used = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < k->spv->nparams && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
					 i ? "," : "", k->args[i].desc);
}

/*
 * The functions k's module imports, "symbol@module", into buf; why a
 * launch cannot call them (their module is gone), or NULL.
 */
static const char *calls_ok(const struct kernel *k, char *buf, size_t size)
{
	static char why[128];	/* big_lock held */
	const struct module *m = k->mod;
	size_t used = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < m->spv.nimports; i++) {
		if (!module_live(m->import_from[i])) {
			snprintf(why, sizeof(why),
				 "calls %s of module=%u, which is destroyed",
				 m->spv.imports[i], m->import_from[i]);
			return why;
		}
		appendf(buf, size, &used, "%s%s@%u", i ? "," : "",
			m->spv.imports[i], m->import_from[i]);
	}
	return NULL;
}

static ze_result_t ZE_APICALL list_launch(ze_command_list_handle_t h,
					  ze_kernel_handle_t kh,
					  const ze_group_count_t *groups,
					  ze_event_handle_t signal,
					  uint32_t nwait,
					  ze_event_handle_t *waits)
{
	const char *call = "zeCommandListAppendLaunchKernel";
	char count[40], size[40], off[40], args[512], calls[256];
	struct kernel *k;
	const char *why;
	struct list *l;
	uint32_t i;

	ENTER();
	k = obj_get(kh, KIND_KERNEL);
	l = appendable(h, signal, nwait, &why);
	if (!l || !k || !groups)
		return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, call, "%s",
			      why ? why : "no kernel or group count");
	if (l->ordinal != COMPUTE_ORDINAL)
		return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, call,
			      "list=%u is of the copy-only group", l->h.id);
	if (!k->group[0])
		return refuse(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
			      call, "kernel=%s#%u has no group size",
			      k->spv->name, k->h.id);
	for (i = 0; i < k->spv->nparams; i++)
		if (!k->args[i].set)
			return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, call,
				      "kernel=%s#%u argument %u is not set",
				      k->spv->name, k->h.id, i);
	if (!groups->groupCountX || !groups->groupCountY ||
	    !groups->groupCountZ)
		return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, call,
			      "a group count of 0");
	why = calls_ok(k, calls, sizeof(calls));
	if (why)
		return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT, call,
			      "kernel=%s#%u %s", k->spv->name, k->h.id, why);
	if (push(l, CMD_LAUNCH, NULL, NULL, 0, k) < 0)
		return refuse(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, call,
			      "realloc");
	triple(count, sizeof(count), groups->groupCountX, groups->groupCountY,
	       groups->groupCountZ);
	triple(size, sizeof(size), k->group[0], k->group[1], k->group[2]);
	triple(off, sizeof(off), k->offset[0], k->offset[1], k->offset[2]);
	describe_args(k, args, sizeof(args));
	rec("%s list=%u kernel=%s#%u groups=%s group_size=%s offset=%s args=%s%s%s",
	    call, l->h.id, k->spv->name, k->h.id, count, size, off, args,
	    calls[0] ? " calls=" : "", calls);
	return leave(ZE_RESULT_SUCCESS);
}

/* ---- what the loader asks for ---- */

static ze_result_t table_ok(ze_api_version_t version, const void *table)
{
	if (!table)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (ZE_MAJOR_VERSION(version) != 1)
		return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
	return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetGlobalProcAddrTable(ze_api_version_t version, ze_global_dditable_t *t)
{
	ze_result_t r = table_ok(version, t);

	if (r == ZE_RESULT_SUCCESS)
		t->pfnInit = init;
	return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetDriverProcAddrTable(ze_api_version_t version, ze_driver_dditable_t *t)
{
	ze_result_t r = table_ok(version, t);

	if (r != ZE_RESULT_SUCCESS)
		return r;
	t->pfnGet = driver_get;
	t->pfnGetApiVersion = driver_api_version;
	t->pfnGetProperties = driver_properties;
	t->pfnGetExtensionProperties = driver_extensions;
	t->pfnGetExtensionFunctionAddress = driver_function;
	return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetDeviceProcAddrTable(ze_api_version_t version, ze_device_dditable_t *t)
{
	ze_result_t r = table_ok(version, t);

	if (r != ZE_RESULT_SUCCESS)
		return r;
	t->pfnGet = device_get;
	t->pfnGetSubDevices = device_sub_devices;
	t->pfnGetProperties = device_properties;
	t->pfnGetComputeProperties = device_compute;
	t->pfnGetModuleProperties = device_module;
	t->pfnGetMemoryProperties = device_memory;
	t->pfnGetCommandQueueGroupProperties = device_queue_groups;
	return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetContextProcAddrTable(ze_api_version_t version, ze_context_dditable_t *t)
{
	ze_result_t r = table_ok(version, t);

	if (r != ZE_RESULT_SUCCESS)
		return r;
	t->pfnCreate = context_create;
	t->pfnDestroy = context_destroy;
	return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetCommandQueueProcAddrTable(ze_api_version_t version,
			       ze_command_queue_dditable_t *t)
{
	ze_result_t r = table_ok(version, t);

	if (r != ZE_RESULT_SUCCESS)
		return r;
	t->pfnCreate = queue_create;
	t->pfnDestroy = queue_destroy;
	t->pfnExecuteCommandLists = queue_execute;
	t->pfnSynchronize = queue_synchronize;
	return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetCommandListProcAddrTable(ze_api_version_t version,
			      ze_command_list_dditable_t *t)
{
	ze_result_t r = table_ok(version, t);

	if (r != ZE_RESULT_SUCCESS)
		return r;
	t->pfnCreate = list_create;
	t->pfnDestroy = list_destroy;
	t->pfnClose = list_close;
	t->pfnReset = list_reset;
	t->pfnAppendBarrier = list_barrier;
	t->pfnAppendMemoryCopy = list_copy;
	t->pfnAppendLaunchKernel = list_launch;
	return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetMemProcAddrTable(ze_api_version_t version, ze_mem_dditable_t *t)
{
	ze_result_t r = table_ok(version, t);

	if (r != ZE_RESULT_SUCCESS)
		return r;
	t->pfnAllocDevice = mem_alloc_device;
	t->pfnFree = mem_free;
	return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetModuleProcAddrTable(ze_api_version_t version, ze_module_dditable_t *t)
{
	ze_result_t r = table_ok(version, t);

	if (r != ZE_RESULT_SUCCESS)
		return r;
	t->pfnCreate = module_create;
	t->pfnDestroy = module_destroy;
	t->pfnGetNativeBinary = module_native_binary;
	t->pfnGetProperties = module_properties;
	t->pfnDynamicLink = module_dynamic_link;
	t->pfnGetGlobalPointer = module_global;
	return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetModuleBuildLogProcAddrTable(ze_api_version_t version,
				 ze_module_build_log_dditable_t *t)
{
	ze_result_t r = table_ok(version, t);

	if (r != ZE_RESULT_SUCCESS)
		return r;
	t->pfnDestroy = log_destroy;
	t->pfnGetString = log_string;
	return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetKernelProcAddrTable(ze_api_version_t version, ze_kernel_dditable_t *t)
{
	ze_result_t r = table_ok(version, t);

	if (r != ZE_RESULT_SUCCESS)
		return r;
	t->pfnCreate = kernel_create;
	t->pfnDestroy = kernel_destroy;
	t->pfnGetProperties = kernel_properties;
	t->pfnSetArgumentValue = kernel_set_arg;
	t->pfnSetGroupSize = kernel_set_group_size;
	t->pfnSuggestGroupSize = kernel_suggest;
	return r;
}

/* A driver without the extension has no entry point for it either. */
ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetKernelExpProcAddrTable(ze_api_version_t version,
			    ze_kernel_exp_dditable_t *t)
{
	ze_result_t r = table_ok(version, t);

	if (r == ZE_RESULT_SUCCESS && global_offset_reported())
		t->pfnSetGlobalOffsetExp = kernel_set_global_offset;
	return r;
}

/*
 * The tables loader 1.8 also requires (it refuses a driver that lacks
 * one), or asks for, that this driver leaves empty.
 */
#define EMPTY_TABLES(X)                                                    \
	X(zeGetDeviceExpProcAddrTable, ze_device_exp_dditable_t)           \
	X(zeGetEventProcAddrTable, ze_event_dditable_t)                    \
	X(zeGetEventExpProcAddrTable, ze_event_exp_dditable_t)             \
	X(zeGetEventPoolProcAddrTable, ze_event_pool_dditable_t)           \
	X(zeGetFenceProcAddrTable, ze_fence_dditable_t)                    \
	X(zeGetImageProcAddrTable, ze_image_dditable_t)                    \
	X(zeGetImageExpProcAddrTable, ze_image_exp_dditable_t)             \
	X(zeGetPhysicalMemProcAddrTable, ze_physical_mem_dditable_t)       \
	X(zeGetSamplerProcAddrTable, ze_sampler_dditable_t)                \
	X(zeGetVirtualMemProcAddrTable, ze_virtual_mem_dditable_t)         \
	X(zeGetFabricEdgeExpProcAddrTable, ze_fabric_edge_exp_dditable_t)  \
	X(zeGetFabricVertexExpProcAddrTable,                               \
	  ze_fabric_vertex_exp_dditable_t)                                 \
	X(zetGetDeviceProcAddrTable, zet_device_dditable_t)                \
	X(zetGetContextProcAddrTable, zet_context_dditable_t)              \
	X(zetGetCommandListProcAddrTable, zet_command_list_dditable_t)     \
	X(zetGetModuleProcAddrTable, zet_module_dditable_t)                \
	X(zetGetKernelProcAddrTable, zet_kernel_dditable_t)                \
	X(zetGetMetricGroupProcAddrTable, zet_metric_group_dditable_t)     \
	X(zetGetMetricGroupExpProcAddrTable,                               \
	  zet_metric_group_exp_dditable_t)                                 \
	X(zetGetMetricProcAddrTable, zet_metric_dditable_t)                \
	X(zetGetMetricStreamerProcAddrTable, zet_metric_streamer_dditable_t) \
	X(zetGetMetricQueryPoolProcAddrTable,                              \
	  zet_metric_query_pool_dditable_t)                                \
	X(zetGetMetricQueryProcAddrTable, zet_metric_query_dditable_t)     \
	X(zetGetTracerExpProcAddrTable, zet_tracer_exp_dditable_t)         \
	X(zetGetDebugProcAddrTable, zet_debug_dditable_t)                  \
	X(zesGetDriverProcAddrTable, zes_driver_dditable_t)                \
	X(zesGetDeviceProcAddrTable, zes_device_dditable_t)                \
	X(zesGetSchedulerProcAddrTable, zes_scheduler_dditable_t)          \
	X(zesGetPerformanceFactorProcAddrTable,                            \
	  zes_performance_factor_dditable_t)                               \
	X(zesGetPowerProcAddrTable, zes_power_dditable_t)                  \
	X(zesGetFrequencyProcAddrTable, zes_frequency_dditable_t)          \
	X(zesGetEngineProcAddrTable, zes_engine_dditable_t)                \
	X(zesGetStandbyProcAddrTable, zes_standby_dditable_t)              \
	X(zesGetFirmwareProcAddrTable, zes_firmware_dditable_t)            \
	X(zesGetMemoryProcAddrTable, zes_memory_dditable_t)                \
	X(zesGetFabricPortProcAddrTable, zes_fabric_port_dditable_t)       \
	X(zesGetTemperatureProcAddrTable, zes_temperature_dditable_t)      \
	X(zesGetPsuProcAddrTable, zes_psu_dditable_t)                      \
	X(zesGetFanProcAddrTable, zes_fan_dditable_t)                      \
	X(zesGetLedProcAddrTable, zes_led_dditable_t)                      \
	X(zesGetRasProcAddrTable, zes_ras_dditable_t)                      \
	X(zesGetDiagnosticsProcAddrTable, zes_diagnostics_dditable_t)

#define EMPTY_TABLE(name, type)                                  \
	ZE_DLLEXPORT ze_result_t ZE_APICALL                      \
	name(ze_api_version_t version, type *t)                  \
	{                                                        \
		return table_ok(version, t);                     \
	}
EMPTY_TABLES(EMPTY_TABLE)
#undef EMPTY_TABLE

/* What a test checks last: every object the plugin made is gone. */
__attribute__((destructor)) static void report_live(void)
{
	char buf[512];
	size_t used = 0;
	int i;

	if (log_fd < 0)
		return;
	buf[0] = '\0';
	for (i = KIND_CONTEXT; i < NKINDS; i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used,
					 " %s=%u", kind_names[i], live[i]);
	rec("exit live:%s", buf);
	close(log_fd);
	log_fd = -1;
}
