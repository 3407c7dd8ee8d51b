// SPDX-License-Identifier: MIT
/*
 * A recording CUDA driver for the CUDA plugin's tests on machines without
 * a GPU: the entry points devimg-cuda.so resolves, over host memory, with
 * the driver's rules on contexts (a context must be current for
 * allocations, module loads and launches; a launch's function and stream
 * must be of the current one). Modules are PTX, whose .entry parameter
 * lists give the functions and their parameter sizes; a module whose
 * .extern .func no .func of it defines fails to load, as with ptxas.
 * Module-scope .global variables (not .extern) get zero-filled host
 * memory, their initializers ("= 5", "= {1, 2}", element by element)
 * applied, which cuModuleGetGlobal gives by name.
 * Kernels do not run: cuLaunchKernel, cuMemAlloc*, cuFuncSetAttribute and
 * cuModuleLoadDataEx append one line each to the file
 * DEVIMG_FAKE_CUDA_LOG names, e.g.
 *
 *   launch which_with_offset grid 1 1 1 block 1 1 1 shared 0 params x8 o:5,0,0
 *
 * where a 4-byte parameter prints as u32:N, a 12-byte one as o:X,Y,Z and
 * any other as xSIZE. DEVIMG_FAKE_CUDA_DEVICES sets the device count (1).
 *
 * The linker (cuLink*) takes PTX inputs and "links" them by concatenating
 * their texts, once each .extern .func of an input is defined by a
 * .visible (or .weak) .func of some input, or a .func of its own; its
 * calls record "link create", "link add PTX image0", "link complete 2
 * inputs", "link destroy", and JIT options as "link option 7=3" (create)
 * or "link image0 option 7=3" (an input). Built with FAKE_NO_LINK, the
 * driver lacks the cuLink* entry points, as one older than CUDA 5.5.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/cuda/driver.h"

#define FAKE_EXPORT __attribute__((visibility("default")))
#define MAX_PARAMS 64
#define MAX_LINK_INPUTS 16

/* The entry points, as driver.h declares them for the plugin. */
#define FAKE_PROTOTYPE(field, symbol, params) FAKE_EXPORT CUresult symbol params;
CU_REQUIRED_FUNCTIONS(FAKE_PROTOTYPE)
CU_OPTIONAL_FUNCTIONS(FAKE_PROTOTYPE)
#undef FAKE_PROTOTYPE

struct CUctx_st {
	int device;
};

struct CUfunc_st {
	char name[128];
	struct CUmod_st *module;
	unsigned nparams;
	size_t size[MAX_PARAMS];
};

struct fake_global {
	char name[128];
	size_t size;
	unsigned char *bytes;
};

struct CUmod_st {
	struct CUctx_st *ctx;
	unsigned nfuncs;
	struct CUfunc_st *funcs;
	unsigned nglobals;
	struct fake_global *globals;
};

struct CUstream_st {
	struct CUctx_st *ctx;
};

/* The JIT's log buffers, as the options of a call give them. */
struct jit_logs {
	char *info, *error;
	size_t info_size, error_size;
};

struct CUlinkState_st {
	struct CUctx_st *ctx;
	struct jit_logs logs;
	unsigned ninputs;
	char *inputs[MAX_LINK_INPUTS];	/* the PTX texts */
	char *names[MAX_LINK_INPUTS];
	char *linked;			/* after cuLinkComplete */
};

static struct CUctx_st contexts[8];
static volatile unsigned char param_bytes_sum;
static _Thread_local struct CUctx_st *current;

static void record(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void record(const char *fmt, ...)
{
	const char *path = getenv("DEVIMG_FAKE_CUDA_LOG");
	va_list ap;
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

static int device_count(void)
{
	const char *n = getenv("DEVIMG_FAKE_CUDA_DEVICES");
	int count = n ? atoi(n) : 1;

	return count < 0 ? 0 : count > 8 ? 8 : count;
}

FAKE_EXPORT CUresult cuInit(unsigned int flags)
{
	return flags ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDriverGetVersion(int *version)
{
	*version = 12040;
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetCount(int *count)
{
	*count = device_count();
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
	if (ordinal < 0 || ordinal >= device_count())
		return CUDA_ERROR_INVALID_DEVICE;
	*dev = ordinal;
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	snprintf(name, (size_t)len, "devimg fake GPU %d", dev);
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetAttribute(int *value, int attr, CUdevice dev)
{
	switch (attr) {
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
		*value = 1024;
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
		*value = 64;
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
		*value = 0x7fffffff;
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
		*value = 65535;
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
		*value = 48 * 1024;
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
		*value = 227 * 1024;
		break;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
		*value = 132;
		break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
		*value = 9;
		break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
		*value = 0;
		break;
	case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
	case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
		*value = 1;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	return dev < device_count() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

FAKE_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	*bytes = (size_t)80 << 30;
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
	if (dev < 0 || dev >= device_count())
		return CUDA_ERROR_INVALID_DEVICE;
	contexts[dev].device = dev;
	*ctx = &contexts[dev];
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxGetCurrent(CUcontext *ctx)
{
	*ctx = current;
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx)
{
	current = ctx;
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamCreate(CUstream *stream, unsigned int flags)
{
	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (flags != CU_STREAM_NON_BLOCKING)
		record("stream flags %u", flags);
	*stream = calloc(1, sizeof(**stream));
	if (!*stream)
		return CUDA_ERROR_OUT_OF_MEMORY;
	(*stream)->ctx = current;
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamDestroy_v2(CUstream stream)
{
	free(stream);
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamSynchronize(CUstream stream)
{
	return stream ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult alloc(CUdeviceptr *ptr, size_t size, const char *kind)
{
	void *p;

	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	p = calloc(1, size);
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*ptr = (CUdeviceptr)(uintptr_t)p;
	record("alloc %s %zu on %d", kind, size, current->device);
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t size)
{
	return alloc(ptr, size, "device");
}

FAKE_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *ptr, size_t size,
				       unsigned int flags)
{
	return flags == CU_MEM_ATTACH_GLOBAL ? alloc(ptr, size, "managed") :
					       CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuMemFree_v2(CUdeviceptr ptr)
{
	free((void *)(uintptr_t)ptr);
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src,
					  size_t n, CUstream stream)
{
	memcpy((void *)(uintptr_t)dst, src, n);
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src,
					  size_t n, CUstream stream)
{
	memcpy(dst, (const void *)(uintptr_t)src, n);
	return CUDA_SUCCESS;
}

/* The size of one ".param" declaration: ".u32 x" or ".align 4 .b8 x[12]". */
static size_t param_size(const char *p, const char *end)
{
	const char *bracket = memchr(p, '[', (size_t)(end - p));
	const char *dot;

	if (bracket)
		return (size_t)strtoul(bracket + 1, NULL, 10);
	dot = strpbrk(p + 6, ".");
	if (!dot || dot >= end)
		return 0;
	return (size_t)strtoul(dot + 2, NULL, 10) / 8;
}

static int parse_entry(const char *p, struct CUfunc_st *f)
{
	const char *open = strchr(p, '('), *close, *q;
	size_t n;

	if (!open)
		return -1;
	while (*p == ' ')
		p++;
	n = (size_t)(strcspn(p, "( \t\n"));
	if (n >= sizeof(f->name))
		return -1;
	memcpy(f->name, p, n);
	f->name[n] = '\0';
	close = strchr(open, ')');
	if (!close)
		return -1;
	for (q = open; (q = strstr(q, ".param")) && q < close; q += 6) {
		const char *next = strpbrk(q, ",)");

		if (f->nparams == MAX_PARAMS || !next)
			return -1;
		f->size[f->nparams++] = param_size(q, next);
	}
	return 0;
}

/*
 * Find the log buffers among JIT options; record the other options as
 * "PREFIX KEY=VALUE".
 */
static void jit_options(const char *prefix, unsigned n, const int *options,
			void **values, struct jit_logs *l)
{
	unsigned i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < n; i++) {
		switch (options[i]) {
		case CU_JIT_INFO_LOG_BUFFER:
			l->info = values[i];
			break;
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
			l->info_size = (size_t)(uintptr_t)values[i];
			break;
		case CU_JIT_ERROR_LOG_BUFFER:
			l->error = values[i];
			break;
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
			l->error_size = (size_t)(uintptr_t)values[i];
			break;
		default:
			record("%s %d=%zu", prefix, options[i],
			       (size_t)(uintptr_t)values[i]);
		}
	}
}

static void log_to(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void log_to(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (!buf || !size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

/* The words of PTX that may be part of a function's name. */
#define PTX_NAME_CHARS \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$"

enum func_linkage { FUNC_EXTERN, FUNC_VISIBLE, FUNC_LOCAL };

/*
 * The next ".func" directive of text from *at on: its linkage (the
 * directive before it on its line), its name and the name's length;
 * NULL when there is none.
 */
static const char *next_func(const char *text, const char **at,
			     enum func_linkage *linkage, size_t *len)
{
	const char *p = *at, *line, *name;

	for (;; p += 5) {
		p = strstr(p, ".func");
		if (!p)
			return NULL;
		if (p[5] == ' ' || p[5] == '\t')
			break;
	}
	*at = p + 5;
	for (line = p; line > text && line[-1] != '\n'; line--)
		;
	*linkage = FUNC_LOCAL;
	for (; line < p; line++) {
		if (!strncmp(line, ".extern", 7))
			*linkage = FUNC_EXTERN;
		else if (!strncmp(line, ".visible", 8) ||
			 !strncmp(line, ".weak", 5))
			*linkage = FUNC_VISIBLE;
	}
	name = p + 5 + strspn(p + 5, " \t");
	if (*name == '(') {
		name = strchr(name, ')');
		if (!name)
			return NULL;
		name++;
		name += strspn(name, " \t\n");
	}
	*len = strspn(name, PTX_NAME_CHARS);
	return *len ? name : NULL;
}

/* Whether text has a .func of name with a linkage in mask (1 << linkage). */
static int has_func(const char *text, const char *name, size_t len,
		    unsigned mask)
{
	enum func_linkage linkage;
	const char *at = text, *f;
	size_t n;

	while ((f = next_func(text, &at, &linkage, &n)))
		if (mask & 1u << linkage && n == len && !strncmp(f, name, len))
			return 1;
	return 0;
}

/*
 * The first .extern .func of inputs[i] that no .func of inputs[i] and no
 * .visible or .weak .func of another input defines; NULL when none.
 */
static const char *unresolved(char *const *inputs, unsigned n, unsigned i,
			      size_t *len)
{
	enum func_linkage linkage;
	const char *at = inputs[i], *f;
	unsigned j;

	while ((f = next_func(inputs[i], &at, &linkage, len))) {
		int found;

		if (linkage != FUNC_EXTERN)
			continue;
		found = has_func(inputs[i], f, *len,
				 1u << FUNC_VISIBLE | 1u << FUNC_LOCAL);
		for (j = 0; j < n && !found; j++)
			found = j != i &&
				has_func(inputs[j], f, *len, 1u << FUNC_VISIBLE);
		if (!found)
			return f;
	}
	return NULL;
}

static int is_ptx(const char *text)
{
	return !strncmp(text, "//", 2) || !strncmp(text, ".version", 8);
}

/* Store value at p in size little-endian bytes. */
static void put_le(unsigned char *p, size_t size, unsigned long long value)
{
	size_t i;

	for (i = 0; i < size && i < 8; i++)
		p[i] = (unsigned char)(value >> (8 * i));
}

/*
 * One declaration "[.visible] .global [.align N] .TYPE name[[N]] [= init];"
 * from p (the line's text) into g; 0 when p declares none, -1 when it is
 * malformed.
 */
static int parse_global(const char *p, struct fake_global *g)
{
	size_t elem, count = 1, n, i;
	const char *name;
	char *end;

	p += strspn(p, " \t");
	while (!strncmp(p, ".visible ", 9) || !strncmp(p, ".weak ", 6))
		p = strchr(p, ' ') + 1;
	if (strncmp(p, ".global ", 8))
		return 0;
	p += 8;
	if (!strncmp(p, ".align ", 7)) {
		strtoul(p + 7, &end, 10);
		p = end + strspn(end, " ");
	}
	if (*p != '.' || !strchr("busf", p[1]))
		return -1;
	elem = strtoul(p + 2, &end, 10) / 8;
	if (!elem || *end != ' ')
		return -1;
	name = end + 1;
	n = strspn(name, PTX_NAME_CHARS);
	if (!n || n >= sizeof(g->name))
		return -1;
	memcpy(g->name, name, n);
	g->name[n] = '\0';
	p = name + n;
	if (*p == '[') {
		count = strtoul(p + 1, &end, 10);
		if (*end != ']' || !count || count > SIZE_MAX / elem)
			return -1;
		p = end + 1;
	}
	g->size = elem * count;
	g->bytes = calloc(1, g->size);
	if (!g->bytes)
		return -1;
	p += strspn(p, " ");
	if (*p != '=')
		return 1;
	p += 1 + strspn(p + 1, " {");
	for (i = 0; i < count && *p != '}' && *p != ';'; i++) {
		put_le(g->bytes + i * elem, elem, strtoull(p, &end, 0));
		if (end == p)
			return -1;
		p = end + strspn(end, ", ");
	}
	return 1;
}

static void globals_free(struct CUmod_st *m)
{
	unsigned i;

	for (i = 0; i < m->nglobals; i++)
		free(m->globals[i].bytes);
	free(m->globals);
}

/* The module's .global variables, line by line; -1: one is malformed. */
static int parse_globals(struct CUmod_st *m, const char *text)
{
	const char *line;
	int rc;

	for (line = text; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		struct fake_global g = { 0 }, *v;

		rc = parse_global(line, &g);
		if (rc <= 0) {
			free(g.bytes);
			if (rc < 0)
				return -1;
			continue;
		}
		v = realloc(m->globals, (m->nglobals + 1) * sizeof(*v));
		if (!v) {
			free(g.bytes);
			return -1;
		}
		m->globals = v;
		v[m->nglobals++] = g;
	}
	return 0;
}

FAKE_EXPORT CUresult cuModuleLoadDataEx(CUmodule *mod, const void *image,
					unsigned int noptions, int *options,
					void **values)
{
	const char *text = image, *p, *missing;
	char *const inputs[1] = { (char *)(uintptr_t)image };
	struct jit_logs logs;
	struct CUmod_st *m;
	size_t len;

	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!is_ptx(text))
		return CUDA_ERROR_INVALID_IMAGE;
	missing = unresolved(inputs, 1, 0, &len);
	if (missing) {
		jit_options("jit option", noptions, options, values, &logs);
		log_to(logs.error, logs.error_size,
		       "ptxas fatal   : Unresolved extern function '%.*s'",
		       (int)len, missing);
		return CUDA_ERROR_INVALID_PTX;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	m->ctx = current;
	for (p = text; (p = strstr(p, ".entry ")); p += 7) {
		struct CUfunc_st *v = realloc(m->funcs, (m->nfuncs + 1) * sizeof(*v));

		if (!v)
			return CUDA_ERROR_OUT_OF_MEMORY;
		m->funcs = v;
		memset(&v[m->nfuncs], 0, sizeof(*v));
		if (parse_entry(p + 7, &v[m->nfuncs]) < 0) {
			free(m->funcs);
			free(m);
			return CUDA_ERROR_INVALID_PTX;
		}
		v[m->nfuncs].module = m;
		m->nfuncs++;
	}
	if (parse_globals(m, text) < 0) {
		globals_free(m);
		free(m->funcs);
		free(m);
		return CUDA_ERROR_INVALID_PTX;
	}
	jit_options("jit option", noptions, options, values, &logs);
	log_to(logs.info, logs.info_size, "fake JIT: %u entries", m->nfuncs);
	if (m->nglobals)
		record("load %u entries %u globals on %d", m->nfuncs,
		       m->nglobals, current->device);
	else
		record("load %u entries on %d", m->nfuncs, current->device);
	*mod = m;
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuModuleUnload(CUmodule mod)
{
	if (current != mod->ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	globals_free(mod);
	free(mod->funcs);
	free(mod);
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuModuleGetFunction(CUfunction *fn, CUmodule mod,
					 const char *name)
{
	unsigned i;

	for (i = 0; i < mod->nfuncs; i++) {
		if (!strcmp(mod->funcs[i].name, name)) {
			*fn = &mod->funcs[i];
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_NOT_FOUND;
}

FAKE_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *ptr, size_t *bytes,
					  CUmodule mod, const char *name)
{
	unsigned i;

	if (!current || mod->ctx != current)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < mod->nglobals; i++)
		if (!strcmp(mod->globals[i].name, name))
			break;
	if (i == mod->nglobals)
		return CUDA_ERROR_NOT_FOUND;
	if (ptr)
		*ptr = (CUdeviceptr)(uintptr_t)mod->globals[i].bytes;
	if (bytes)
		*bytes = mod->globals[i].size;
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuFuncGetAttribute(int *value, int attr, CUfunction fn)
{
	if (attr == CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
		*value = 0;
	else if (attr == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
		*value = 1024;
	else
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuFuncSetAttribute(CUfunction fn, int attr, int value)
{
	record("attr %s %d %d", fn->name, attr, value);
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuFuncGetParamInfo(CUfunction fn, size_t index,
					size_t *offset, size_t *size)
{
	size_t i, at = 0;

	if (index >= fn->nparams)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < index; i++)
		at += fn->size[i];
	*offset = at;
	*size = fn->size[index];
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuLaunchKernel(CUfunction fn, unsigned int gx,
				    unsigned int gy, unsigned int gz,
				    unsigned int bx, unsigned int by,
				    unsigned int bz, unsigned int shared,
				    CUstream stream, void **params, void **extra)
{
	unsigned char sum = 0;
	char line[1024];
	size_t used, j;
	unsigned i;

	if (!current || fn->module->ctx != current || stream->ctx != current)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!params || extra)
		return CUDA_ERROR_INVALID_VALUE;
	used = (size_t)snprintf(line, sizeof(line),
				"launch %s grid %u %u %u block %u %u %u shared %u params",
				fn->name, gx, gy, gz, bx, by, bz, shared);
	for (i = 0; i < fn->nparams && used < sizeof(line); i++) {
		const uint32_t *u = params[i];

		/* Read every byte, as the driver does (and sanitizers see). */
		for (j = 0; j < fn->size[i]; j++)
			sum += ((const unsigned char *)params[i])[j];

		if (fn->size[i] == 4)
			used += (size_t)snprintf(line + used, sizeof(line) - used,
						 " u32:%u", u[0]);
		else if (fn->size[i] == 12)
			used += (size_t)snprintf(line + used, sizeof(line) - used,
						 " o:%u,%u,%u", u[0], u[1], u[2]);
		else
			used += (size_t)snprintf(line + used, sizeof(line) - used,
						 " x%zu", fn->size[i]);
	}
	record("%s", line);
	param_bytes_sum = sum;
	return CUDA_SUCCESS;
}

/* ---- the linker ---- */

#ifndef FAKE_NO_LINK
FAKE_EXPORT CUresult cuLinkCreate_v2(unsigned int noptions, int *options,
				     void **values, CUlinkState *state)
{
	struct CUlinkState_st *s;

	if (!current)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!state || (noptions && (!options || !values)))
		return CUDA_ERROR_INVALID_VALUE;
	s = calloc(1, sizeof(*s));
	if (!s)
		return CUDA_ERROR_OUT_OF_MEMORY;
	s->ctx = current;
	record("link create");
	jit_options("link option", noptions, options, values, &s->logs);
	*state = s;
	return CUDA_SUCCESS;
}

static const char *input_type_name(int type)
{
	switch (type) {
	case CU_JIT_INPUT_CUBIN:
		return "cubin";
	case CU_JIT_INPUT_PTX:
		return "PTX";
	case CU_JIT_INPUT_FATBINARY:
		return "fatbin";
	default:
		return "unknown";
	}
}

/* PTX only; the JIT reads it up to its NUL, which must lie within size. */
FAKE_EXPORT CUresult cuLinkAddData_v2(CUlinkState state, int type, void *data,
				      size_t size, const char *name,
				      unsigned int noptions, int *options,
				      void **values)
{
	struct jit_logs ignored;
	const char *text = data;
	char prefix[64];

	if (!state || current != state->ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!data || !size || !name)
		return CUDA_ERROR_INVALID_VALUE;
	record("link add %s %s", input_type_name(type), name);
	snprintf(prefix, sizeof(prefix), "link %s option", name);
	jit_options(prefix, noptions, options, values, &ignored);
	if (type != CU_JIT_INPUT_PTX) {
		log_to(state->logs.error, state->logs.error_size,
		       "fake linker: %s is %s; only PTX links here", name,
		       input_type_name(type));
		return CUDA_ERROR_INVALID_IMAGE;
	}
	if (!memchr(text, '\0', size) || !is_ptx(text)) {
		log_to(state->logs.error, state->logs.error_size,
		       "ptxas fatal   : %s is no NUL-terminated PTX", name);
		return CUDA_ERROR_INVALID_PTX;
	}
	if (state->ninputs == MAX_LINK_INPUTS)
		return CUDA_ERROR_OUT_OF_MEMORY;
	state->inputs[state->ninputs] = strdup(text);
	state->names[state->ninputs] = strdup(name);
	if (!state->inputs[state->ninputs] || !state->names[state->ninputs]) {
		free(state->inputs[state->ninputs]);
		free(state->names[state->ninputs]);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	state->ninputs++;
	return CUDA_SUCCESS;
}

/* The "cubin" is the inputs' texts, one after the other. */
FAKE_EXPORT CUresult cuLinkComplete(CUlinkState state, void **cubin,
				    size_t *size)
{
	const char *missing;
	size_t len, total = 0;
	unsigned i;

	if (!state || current != state->ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!cubin || !size || !state->ninputs || state->linked)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < state->ninputs; i++) {
		missing = unresolved(state->inputs, state->ninputs, i, &len);
		if (missing) {
			log_to(state->logs.error, state->logs.error_size,
			       "error   : Undefined reference to '%.*s' in '%s'",
			       (int)len, missing, state->names[i]);
			record("link complete failed on %.*s", (int)len,
			       missing);
			/* What a driver of 580 returns for it. */
			return CUDA_ERROR_INVALID_SOURCE;
		}
		total += strlen(state->inputs[i]) + 1;
	}
	state->linked = malloc(total + 1);
	if (!state->linked)
		return CUDA_ERROR_OUT_OF_MEMORY;
	state->linked[0] = '\0';
	for (i = 0; i < state->ninputs; i++) {
		strcat(state->linked, state->inputs[i]);
		strcat(state->linked, "\n");
	}
	log_to(state->logs.info, state->logs.info_size,
	       "fake linker: %u inputs linked", state->ninputs);
	record("link complete %u inputs", state->ninputs);
	*cubin = state->linked;
	*size = total;
	return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuLinkDestroy(CUlinkState state)
{
	unsigned i;

	if (!state)
		return CUDA_ERROR_INVALID_HANDLE;
	for (i = 0; i < state->ninputs; i++) {
		free(state->inputs[i]);
		free(state->names[i]);
	}
	free(state->linked);
	free(state);
	record("link destroy");
	return CUDA_SUCCESS;
}
#endif
