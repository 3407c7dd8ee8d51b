// SPDX-License-Identifier: MIT
/*
 * Kernels and launches, with the conventions of the device compiler's CUDA
 * lowering (docs/formats.md, section 11):
 *  - local-memory arguments are 32-bit byte offsets into the kernel's one
 *    dynamic shared-memory array, laid out at launch (geometry.c);
 *  - a kernel that reads the global offset has a twin, <name>_with_offset,
 *    taking the same parameters and then three uint32 by value; a launch
 *    with a non-zero offset runs the twin;
 *  - an emulated spec-constant buffer is an ordinary last parameter of the
 *    plain kernel, so it comes before the twin's offset.
 *
 * A kernel keeps its arguments (values copied, buffers as device
 * pointers, local sizes) and the pointer array cuLaunchKernel reads them
 * through. The loader serialises the calls on one kernel.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/cuda/cuda-plugin.h"
#include "plugins/cuda/geometry.h"

#define TWIN_SUFFIX "_with_offset"

/* Without cuFuncGetParamInfo, argument indices are only bounded by this. */
#define MAX_ARGS 4096u

/* Dynamic shared memory a launch may use without opting in. */
#define SHARED_DEFAULT_LIMIT (48u * 1024u)

enum arg_kind { ARG_UNSET, ARG_VALUE, ARG_MEM, ARG_LOCAL };

struct cu_arg {
	enum arg_kind kind;
	size_t size;			/* value bytes, or local bytes */
	void *value;			/* ARG_VALUE: a copy */
	size_t capacity;		/* bytes allocated at value */
	CUdeviceptr ptr;		/* ARG_MEM */
	uint32_t local_offset;		/* ARG_LOCAL, set at launch */
};

/* One of the two functions of a kernel: the plain one or its twin. */
struct cu_function {
	CUfunction fn;
	int static_shared;		/* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */
	int max_threads;		/* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK */
	size_t auto_limit;		/* block size cap; 0 until needed */
	int dynamic_limit;		/* opted-in dynamic shared bytes */
};

/*
 * What a launch of the same size as the last one reads comes first, in
 * its first 128 bytes (a launch follows the driver's, which evicts much
 * of the cache): the program's context, the counts, the plain function,
 * the parameters, the last size and its checked grid and block.
 */
struct devimg_plugin_kernel {
	CUcontext ctx;			/* the program's */
	unsigned nargs;			/* slots in args (and params - 1) */
	unsigned nset;			/* arguments not ARG_UNSET */
	unsigned nlocal;		/* arguments of kind ARG_LOCAL */
	unsigned last_dims;
	bool counted;			/* nparams from cuFuncGetParamInfo */
	/*
	 * geo_ok: the grid and block of the last launch, of function
	 * last_f over last_global, checked; geo_local: its block was the
	 * launch's local size (else the plugin picked it).
	 */
	bool geo_ok, geo_local;
	unsigned nparams;		/* parameters of the plain kernel */
	void **params;			/* nargs + 1: the twin's offset last */
	struct cu_function *last_f;
	size_t last_global[3];
	unsigned geo_grid[3], geo_block[3];
	struct cu_function plain, twin;	/* twin.fn NULL: no twin */
	struct devimg_plugin_program *prog;
	char *name;
	size_t *param_size;		/* their sizes, when counted */
	struct cu_arg *args;
	uint32_t offset[3];
};

/* The sizes of fn's parameters, probed with cuFuncGetParamInfo (12.4). */
static int count_params(CUfunction fn, const char *name, unsigned *count,
			size_t **sizes)
{
	size_t *v = NULL, *w, offset, size;
	unsigned n;
	CUresult err;

	for (n = 0;; n++) {
		err = cu.cuFuncGetParamInfo(fn, n, &offset, &size);
		if (err == CUDA_ERROR_INVALID_VALUE)
			break;
		if (err != CUDA_SUCCESS) {
			free(v);
			return cu_fail(err, "cuFuncGetParamInfo(%s, %u)", name,
				       n);
		}
		w = realloc(v, (n + 1) * sizeof(*w));
		if (!w) {
			free(v);
			return plugin_error(-ENOMEM, "out of memory for the parameters of %s",
					    name);
		}
		v = w;
		v[n] = size;
	}
	*count = n;
	*sizes = v;
	return 0;
}

static int function_init(struct cu_function *f, const char *name)
{
	CUresult err;

	err = cu.cuFuncGetAttribute(&f->static_shared,
				    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f->fn);
	if (err == CUDA_SUCCESS)
		err = cu.cuFuncGetAttribute(&f->max_threads,
					    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
					    f->fn);
	if (err != CUDA_SUCCESS)
		return cu_fail(err, "cuFuncGetAttribute(%s)", name);
	f->dynamic_limit = (int)SHARED_DEFAULT_LIMIT - f->static_shared;
	return 0;
}

/* The twin, if the module has one that follows the convention. */
static int find_twin(struct devimg_plugin_kernel *k)
{
	size_t n = strlen(k->name) + sizeof(TWIN_SUFFIX);
	size_t *sizes = NULL;
	unsigned count;
	CUresult err;
	char *twin;
	int rc = 0;

	twin = malloc(n);
	if (!twin)
		return plugin_error(-ENOMEM, "out of memory for a kernel name");
	snprintf(twin, n, "%s%s", k->name, TWIN_SUFFIX);
	err = cu.cuModuleGetFunction(&k->twin.fn, k->prog->module, twin);
	if (err == CUDA_ERROR_NOT_FOUND) {
		k->twin.fn = NULL;
		goto out;
	}
	if (err != CUDA_SUCCESS) {
		rc = cu_fail(err, "cuModuleGetFunction(\"%s\")", twin);
		goto out;
	}
	rc = function_init(&k->twin, twin);
	if (rc == 0 && k->counted)
		rc = count_params(k->twin.fn, twin, &count, &sizes);
	if (rc == 0 && k->counted &&
	    (count != k->nparams + 1 || sizes[count - 1] != 3 * sizeof(uint32_t)))
		rc = plugin_error(-EINVAL,
				  "kernel %s has %u parameters, its twin %s %u (the last of %zu bytes): a twin takes the kernel's parameters and then three uint32",
				  k->name, k->nparams, twin, count,
				  count ? sizes[count - 1] : 0);
out:
	free(sizes);
	free(twin);
	return rc;
}

/* The pointer cuLaunchKernel reads argument a through. */
static void *arg_pointer(struct cu_arg *a)
{
	switch (a->kind) {
	case ARG_VALUE:
		return a->value;
	case ARG_LOCAL:
		return &a->local_offset;
	default:
		return &a->ptr;
	}
}

/*
 * Room for arguments 0..n-1 and their pointer array, which ends with the
 * twin's offset. The pointers are made again, since the slots may move.
 */
static int grow_args(struct devimg_plugin_kernel *k, unsigned n)
{
	struct cu_arg *args;
	void **params;
	unsigned i;

	if (k->params && n <= k->nargs)
		return 0;
	params = realloc(k->params, (n + 1) * sizeof(*params));
	if (!params)
		return plugin_error(-ENOMEM, "out of memory for %u arguments", n);
	k->params = params;
	if (n > k->nargs) {
		args = realloc(k->args, n * sizeof(*args));
		if (!args)
			return plugin_error(-ENOMEM, "out of memory for %u arguments",
					    n);
		memset(args + k->nargs, 0, (n - k->nargs) * sizeof(*args));
		k->args = args;
		k->nargs = n;
	}
	for (i = 0; i < k->nargs; i++)
		params[i] = arg_pointer(&k->args[i]);
	params[k->nargs] = k->offset;
	return 0;
}

int cu_kernel_create(struct devimg_plugin_program *prog, const char *name,
		     struct devimg_plugin_kernel **out)
{
	struct devimg_plugin_kernel *k;
	CUresult err;
	int rc;

	if (!prog || !name || !out)
		return plugin_error(-EINVAL, "kernel_create: NULL argument");
	if (!prog->module)
		return plugin_error(-EINVAL, "kernel_create(\"%s\"): the program is not built",
				    name);
	k = calloc(1, sizeof(*k));
	if (!k || !(k->name = strdup(name))) {
		free(k);
		return plugin_error(-ENOMEM, "out of memory for a kernel");
	}
	k->prog = prog;
	k->ctx = prog->ctx;
	err = cu.cuModuleGetFunction(&k->plain.fn, prog->module, name);
	if (err != CUDA_SUCCESS) {
		rc = cu_fail(err, "cuModuleGetFunction(\"%s\") on \"%s\"",
			     name, prog->device->name);
		goto fail;
	}
	rc = function_init(&k->plain, name);
	if (rc == 0 && cu.cuFuncGetParamInfo) {
		/* A driver that cannot tell leaves the count unknown. */
		rc = count_params(k->plain.fn, name, &k->nparams,
				  &k->param_size);
		k->counted = rc == 0;
		if (rc != -ENOMEM)
			rc = 0;
	}
	if (rc == 0)
		rc = find_twin(k);
	if (rc == 0)
		rc = grow_args(k, k->counted ? k->nparams : 0);
	if (rc < 0)
		goto fail;
	*out = k;
	return 0;
fail:
	cu_kernel_release(k);
	return rc;
}

int cu_kernel_arg_count(struct devimg_plugin_kernel *k, unsigned *count)
{
	if (!k || !count)
		return plugin_error(-EINVAL, "kernel_arg_count: NULL argument");
	if (!k->counted)
		return plugin_error(-ENOTSUP,
				    "the CUDA driver cannot tell the parameters of %s: cuFuncGetParamInfo needs a CUDA 12.4 driver",
				    k->name);
	*count = k->nparams;
	return 0;
}

/*
 * The slot of argument index, checked against the parameter's size when
 * the driver told it.
 */
static int arg_slot(struct devimg_plugin_kernel *k, unsigned index,
		    size_t size, const char *what, struct cu_arg **out)
{
	int rc;

	if (!k)
		return plugin_error(-EINVAL, "kernel_set_arg: NULL kernel");
	if (k->counted && index >= k->nparams)
		return plugin_error(-EINVAL, "kernel %s has %u parameters, no argument %u",
				    k->name, k->nparams, index);
	if (!k->counted && index >= MAX_ARGS)
		return plugin_error(-EINVAL, "kernel %s: argument %u is past the %u a launch can take",
				    k->name, index, MAX_ARGS);
	if (k->counted && k->param_size[index] != size)
		return plugin_error(-EINVAL,
				    "kernel %s: argument %u (%s) is a parameter of %zu bytes, %zu given",
				    k->name, index, what, k->param_size[index],
				    size);
	rc = grow_args(k, index + 1);
	if (rc < 0)
		return rc;
	*out = &k->args[index];
	return 0;
}

static void arg_set_kind(struct devimg_plugin_kernel *k, unsigned index,
			 enum arg_kind kind)
{
	struct cu_arg *a = &k->args[index];

	if (a->kind == ARG_LOCAL)
		k->nlocal--;
	if (kind == ARG_LOCAL)
		k->nlocal++;
	if (a->kind == ARG_UNSET)
		k->nset++;
	a->kind = kind;
	k->params[index] = arg_pointer(a);
}

int cu_kernel_set_arg_value(struct devimg_plugin_kernel *k, unsigned index,
			    size_t size, const void *value)
{
	struct cu_arg *a;
	int rc;

	if (!size || !value)
		return plugin_error(-EINVAL, "kernel_set_arg_value: no value for argument %u",
				    index);
	rc = arg_slot(k, index, size, "a value", &a);
	if (rc < 0)
		return rc;
	if (a->capacity < size) {
		/*
		 * Without parameter sizes the driver reads what the kernel
		 * declares: keep at least a pointer's worth, zeroed.
		 */
		size_t cap = size < sizeof(CUdeviceptr) ? sizeof(CUdeviceptr) :
							  size;
		void *v = calloc(1, cap);

		if (!v)
			return plugin_error(-ENOMEM, "out of memory for argument %u",
					    index);
		free(a->value);
		a->value = v;
		a->capacity = cap;
	}
	memcpy(a->value, value, size);
	a->size = size;
	arg_set_kind(k, index, ARG_VALUE);
	return 0;
}

int cu_kernel_set_arg_mem(struct devimg_plugin_kernel *k, unsigned index,
			  struct devimg_plugin_mem *mem)
{
	struct cu_arg *a;
	int rc;

	if (!mem)
		return plugin_error(-EINVAL, "kernel_set_arg_mem: NULL buffer for argument %u",
				    index);
	rc = arg_slot(k, index, sizeof(CUdeviceptr), "a buffer", &a);
	if (rc < 0)
		return rc;
	a->ptr = mem->ptr;
	a->size = sizeof(CUdeviceptr);
	arg_set_kind(k, index, ARG_MEM);
	return 0;
}

int cu_kernel_set_arg_local(struct devimg_plugin_kernel *k, unsigned index,
			    size_t size)
{
	struct cu_arg *a;
	int rc;

	if (!size)
		return plugin_error(-EINVAL, "kernel_set_arg_local: 0 bytes for argument %u",
				    index);
	rc = arg_slot(k, index, sizeof(uint32_t), "local memory, passed as a 32-bit offset",
		      &a);
	if (rc < 0)
		return rc;
	a->size = size;
	a->local_offset = 0;
	arg_set_kind(k, index, ARG_LOCAL);
	return 0;
}

void cu_kernel_release(struct devimg_plugin_kernel *k)
{
	unsigned i;

	if (!k)
		return;
	for (i = 0; i < k->nargs; i++)
		free(k->args[i].value);
	free(k->args);
	free(k->params);
	free(k->param_size);
	free(k->name);
	free(k);
}

/* ---- launches ---- */

static void format_range(char *buf, size_t size, unsigned dims,
			 const size_t *v)
{
	size_t used = 0;
	unsigned i;

	buf[0] = '\0';
	if (!v) {
		snprintf(buf, size, "NULL");
		return;
	}
	for (i = 0; i < dims && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%zu",
					 i ? "x" : "", v[i]);
}

/*
 * Every argument up to the kernel's count is set; returns how many. The
 * slots are the parameters when counted (arg_slot() keeps to them), so
 * every slot set is every argument set.
 */
static int check_args(struct devimg_plugin_kernel *k, unsigned *count)
{
	unsigned n = k->counted ? k->nparams : k->nargs, i;

	*count = n;
	if (k->nset == k->nargs)
		return 0;
	for (i = 0; i < n; i++)
		if (i >= k->nargs || k->args[i].kind == ARG_UNSET)
			return plugin_error(-EINVAL, "launch: argument %u of kernel %s is not set",
					    i, k->name);
	return 0;
}

/* Offsets of the local arguments; the bytes of shared memory they take. */
static int layout_locals(struct devimg_plugin_kernel *k, unsigned count,
			 size_t *total)
{
	size_t offset;
	unsigned i;

	*total = 0;
	for (i = 0; i < count && k->nlocal; i++) {
		struct cu_arg *a = &k->args[i];

		if (a->kind != ARG_LOCAL)
			continue;
		if (!cu_local_place(total, a->size, UINT32_MAX, &offset))
			return plugin_error(-ENOMEM,
					    "kernel %s: local argument %u (%zu bytes) puts local memory past 4 GiB",
					    k->name, i, a->size);
		a->local_offset = (uint32_t)offset;
	}
	return 0;
}

/*
 * Let f use total bytes of dynamic shared memory: above the default 48
 * KiB (less its static shared memory) a function must opt in, up to the
 * device's opt-in maximum. It opts in once, to that maximum, so that no
 * launch of another kernel object of the same function ever lowers it.
 */
static int shared_fits(struct devimg_plugin_kernel *k, struct cu_function *f,
		       size_t total)
{
	struct devimg_plugin_device *dev = k->prog->device;
	size_t most = (size_t)dev->shared_optin;
	CUresult err;
	int max;

	if (total <= (size_t)(f->dynamic_limit > 0 ? f->dynamic_limit : 0))
		return 0;
	if ((size_t)f->static_shared > most ||
	    total > most - (size_t)f->static_shared)
		return plugin_error(-ENOMEM,
				    "kernel %s needs %zu bytes of local memory and has %d bytes of static shared memory; \"%s\" allows %zu bytes per block (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)",
				    k->name, total, f->static_shared, dev->name,
				    most);
	max = (int)(most - (size_t)f->static_shared);
	err = cu.cuFuncSetAttribute(f->fn,
				    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
				    max);
	if (err != CUDA_SUCCESS)
		return cu_fail(err, "cuFuncSetAttribute(%s, MAX_DYNAMIC_SHARED_SIZE_BYTES, %d) for %zu bytes of local memory",
			       k->name, max, total);
	f->dynamic_limit = max;
	return 0;
}

/*
 * The block cap of the backend's own choice: CU_AUTO_BLOCK_LIMIT, less
 * when the function allows fewer threads or the occupancy calculator
 * (when the driver has it) suggests a smaller block.
 */
static size_t auto_limit(struct cu_function *f)
{
	size_t limit = CU_AUTO_BLOCK_LIMIT;
	int min_grid, block;

	if (f->auto_limit)
		return f->auto_limit;
	if (f->max_threads > 0 && (size_t)f->max_threads < limit)
		limit = (size_t)f->max_threads;
	if (cu.cuOccupancyMaxPotentialBlockSize &&
	    cu.cuOccupancyMaxPotentialBlockSize(&min_grid, &block, f->fn, NULL,
						0, 0) == CUDA_SUCCESS &&
	    block > 0 && (size_t)block < limit)
		limit = (size_t)block;
	f->auto_limit = limit;
	return limit;
}

/*
 * Whether a launch of f over global, in work-groups of local (or of the
 * plugin's choice when NULL), is shaped as the last one; inline, as every
 * launch asks. A local size given is the block it was checked as.
 */
static inline bool same_as_last(const struct devimg_plugin_kernel *k,
				const struct cu_function *f, unsigned dims,
				const size_t *global, const size_t *local)
{
	unsigned i;

	if (!k->geo_ok || f != k->last_f || dims != k->last_dims ||
	    !local != !k->geo_local)
		return false;
	for (i = 0; i < dims; i++)
		if (global[i] != k->last_global[i] ||
		    (local && local[i] != k->geo_block[i]))
			return false;
	return true;
}

static void pick_block(struct devimg_plugin_kernel *k, struct cu_function *f,
		       unsigned dims, const size_t *global, size_t *block)
{
	struct devimg_plugin_device *dev = k->prog->device;
	size_t max_block[3];
	unsigned i;

	for (i = 0; i < 3; i++)
		max_block[i] = (size_t)dev->max_block[i];
	cu_pick_block(dims, global, auto_limit(f), max_block, block);
}

/* A grid and block checked anew (geometry() below). */
static int geometry_new(struct devimg_plugin_kernel *k, struct cu_function *f,
			unsigned dims, const size_t *global,
			const size_t *local, unsigned *grid, unsigned *block)
{
	struct devimg_plugin_device *dev = k->prog->device;
	size_t b[3] = { 1, 1, 1 }, threads = 1;
	char glob[64], loc[64];
	unsigned i;

	k->geo_ok = false;
	for (i = 0; i < dims; i++)
		if (!global[i])
			goto bad;
	if (local) {
		for (i = 0; i < dims; i++) {
			b[i] = local[i];
			if (!b[i] || b[i] > (size_t)dev->max_block[i] ||
			    global[i] % b[i])
				goto bad;
			threads *= b[i];
		}
		if (threads > (size_t)f->max_threads)
			goto bad;
	} else {
		pick_block(k, f, dims, global, b);
	}
	for (i = 0; i < 3; i++) {
		size_t g = i < dims ? global[i] / b[i] : 1;

		if (g > (size_t)dev->max_grid[i])
			goto bad;
		grid[i] = (unsigned)g;
		block[i] = (unsigned)b[i];
	}
	k->last_f = f;
	k->last_dims = dims;
	memcpy(k->last_global, global, dims * sizeof(*global));
	memcpy(k->geo_grid, grid, sizeof(k->geo_grid));
	memcpy(k->geo_block, block, sizeof(k->geo_block));
	k->geo_local = local != NULL;
	k->geo_ok = true;
	return 0;
bad:
	format_range(glob, sizeof(glob), dims, global);
	format_range(loc, sizeof(loc), dims, local);
	return plugin_error(-EINVAL,
			    "launch of %s: global size %s in work-groups of %s: every global size must be a non-zero multiple of its work-group size, a work-group at most %d threads (%dx%dx%d) and the grid at most %dx%dx%d groups",
			    k->name, glob, loc, f->max_threads, dev->max_block[0],
			    dev->max_block[1], dev->max_block[2], dev->max_grid[0],
			    dev->max_grid[1], dev->max_grid[2]);
}

/*
 * The grid and block of a launch: those of the last launch when this one
 * is shaped the same, as checked then (with a local size or without).
 */
static inline int geometry(struct devimg_plugin_kernel *k,
			   struct cu_function *f, unsigned dims,
			   const size_t *global, const size_t *local,
			   unsigned *grid, unsigned *block)
{
	if (same_as_last(k, f, dims, global, local)) {
		memcpy(grid, k->geo_grid, sizeof(k->geo_grid));
		memcpy(block, k->geo_block, sizeof(k->geo_block));
		return 0;
	}
	return geometry_new(k, f, dims, global, local, grid, block);
}

/* Whether the launch runs the twin, with the offset stored for it. */
static int use_twin(struct devimg_plugin_kernel *k, unsigned dims,
		    const size_t *global_offset, bool *twin)
{
	unsigned i;

	*twin = false;
	if (!global_offset || !k->twin.fn)
		return 0;
	for (i = 0; i < dims; i++)
		if (global_offset[i])
			*twin = true;
	if (!*twin)
		return 0;
	for (i = 0; i < 3; i++) {
		size_t v = i < dims ? global_offset[i] : 0;

		if (v > UINT32_MAX)
			return plugin_error(-EINVAL, "launch of %s: global offset %zu in dimension %u does not fit the 32 bits of %s%s",
					    k->name, v, i, k->name, TWIN_SUFFIX);
		k->offset[i] = (uint32_t)v;
	}
	return 0;
}

static CUresult launch_on(struct devimg_plugin_queue *q,
			  struct devimg_plugin_kernel *k, struct cu_function *f,
			  const unsigned *grid, const unsigned *block,
			  size_t shared)
{
	return cu.cuLaunchKernel(f->fn, grid[0], grid[1], grid[2], block[0],
				 block[1], block[2], (unsigned)shared,
				 q->stream, k->params, NULL);
}

int cu_launch(struct devimg_plugin_queue *q, struct devimg_plugin_kernel *k,
	      unsigned dims, const size_t *global_offset,
	      const size_t *global_size, const size_t *local_size)
{
	unsigned grid[3], block[3], count = 0;
	struct cu_function *f;
	size_t shared = 0;
	CUresult err;
	bool twin, trusted;
	int rc;

	if (!q || !k || !global_size || dims < 1 || dims > 3)
		return plugin_error(-EINVAL, "launch: NULL argument or %u dimensions",
				    dims);
	if (q->ctx != k->ctx)
		return plugin_error(-EINVAL, "launch: kernel %s was made for \"%s\", the queue is on \"%s\"",
				    k->name, k->prog->device->name,
				    q->device->name);
	if ((rc = check_args(k, &count)) < 0 ||
	    (rc = use_twin(k, dims, global_offset, &twin)) < 0)
		return rc;
	f = twin ? &k->twin : &k->plain;
	if (k->nlocal && ((rc = layout_locals(k, count, &shared)) < 0 ||
			  (rc = shared_fits(k, f, shared)) < 0))
		return rc;
	if ((rc = geometry(k, f, dims, global_size, local_size, grid,
			   block)) < 0)
		return rc;
	/*
	 * The context this thread last made current is trusted; if code
	 * outside the plugin switched since and the driver refuses the
	 * launch for it, make it current and launch again.
	 */
	trusted = cu_known_current == q->ctx;
	if (!trusted && (rc = cu_make_current(q->ctx, "a launch")) < 0)
		return rc;
	/* The twin reads its offset through the pointer after the last. */
	err = launch_on(q, k, f, grid, block, shared);
	if (trusted && (err == CUDA_ERROR_INVALID_CONTEXT ||
			err == CUDA_ERROR_INVALID_HANDLE)) {
		if ((rc = cu_make_current(q->ctx, "a launch")) < 0)
			return rc;
		err = launch_on(q, k, f, grid, block, shared);
	}
	if (err != CUDA_SUCCESS)
		return cu_fail(err, "cuLaunchKernel(%s%s, grid %ux%ux%u, block %ux%ux%u, %zu bytes of shared memory) on \"%s\"",
			       k->name, twin ? TWIN_SUFFIX : "", grid[0],
			       grid[1], grid[2], block[0], block[1], block[2],
			       shared, q->device->name);
	return 0;
}
