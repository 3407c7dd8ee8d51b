// SPDX-License-Identifier: MIT
/*
 * Kernels and launches. A Level Zero kernel carries its arguments, group
 * size and global offset as state that zeCommandListAppendLaunchKernel()
 * captures; the loader serialises the calls on one kernel, as Level Zero
 * asks. Group sizes are the user's or zeKernelSuggestGroupSize()'s, group
 * counts the global size divided by them. A non-zero global offset needs
 * the driver's ZE_experimental_global_offset extension.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugins/level_zero/level_zero.h"

/*
 * The kernel from the first of prog's modules that has it: a linked
 * program's kernels are in the modules of its objects.
 */
static ze_result_t kernel_find(struct devimg_plugin_program *prog,
			       const char *name, ze_kernel_handle_t *out)
{
	ze_kernel_desc_t desc = {
		.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC,
		.pKernelName = name,
	};
	ze_result_t res = ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
	unsigned i;

	for (i = 0; i < prog->nmodules; i++) {
		res = zeKernelCreate(prog->modules[i]->id, &desc, out);
		if (res != ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
			break;
	}
	return res;
}

int lz_kernel_create(struct devimg_plugin_program *prog, const char *name,
		     struct devimg_plugin_kernel **out)
{
	ze_kernel_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES,
	};
	struct devimg_plugin_kernel *k;
	ze_result_t res;

	if (!prog || !name || !out)
		return plugin_error(-EINVAL, "kernel_create: NULL argument");
	if (prog->state == LZ_PROGRAM_COMPILED)
		return plugin_error(-EINVAL, "kernel_create(\"%s\"): the program is compiled, not built: program_link makes a program of it",
				    name);
	if (prog->state == LZ_PROGRAM_NEW)
		return plugin_error(-EINVAL, "kernel_create(\"%s\"): the program is not built",
				    name);
	k = calloc(1, sizeof(*k));
	if (k)
		k->name = strdup(name);
	if (!k || !k->name) {
		free(k);
		return plugin_error(-ENOMEM, "out of memory for kernel \"%s\"", name);
	}
	res = kernel_find(prog, name, &k->id);
	if (res != ZE_RESULT_SUCCESS) {
		free(k->name);
		free(k);
		if (prog->nmodules > 1)
			return lz_fail(res, "zeKernelCreate(\"%s\") on \"%s\", in %u linked modules",
				       name, prog->device->name, prog->nmodules);
		return lz_fail(res, "zeKernelCreate(\"%s\") on \"%s\"", name,
			       prog->device->name);
	}
	res = zeKernelGetProperties(k->id, &props);
	if (res != ZE_RESULT_SUCCESS) {
		zeKernelDestroy(k->id);
		free(k->name);
		free(k);
		return lz_fail(res, "zeKernelGetProperties(%s)", name);
	}
	k->nargs = props.numKernelArgs;
	k->prog = prog;
	*out = k;
	return 0;
}

int lz_kernel_arg_count(struct devimg_plugin_kernel *k, unsigned *count)
{
	if (!k || !count)
		return plugin_error(-EINVAL, "kernel_arg_count: NULL argument");
	*count = k->nargs;
	return 0;
}

static int set_arg(struct devimg_plugin_kernel *k, unsigned index,
		   size_t size, const void *value, const char *what)
{
	ze_result_t res;

	if (!k)
		return plugin_error(-EINVAL, "kernel_set_arg: NULL kernel");
	res = zeKernelSetArgumentValue(k->id, index, size, value);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res,
			       "zeKernelSetArgumentValue(%s, argument %u, %s of %zu bytes)",
			       k->name, index, what, size);
	return 0;
}

int lz_kernel_set_arg_value(struct devimg_plugin_kernel *k, unsigned index,
			    size_t size, const void *value)
{
	if (!value || !size)
		return plugin_error(-EINVAL, "kernel_set_arg_value: no value");
	return set_arg(k, index, size, value, "value");
}

int lz_kernel_set_arg_mem(struct devimg_plugin_kernel *k, unsigned index,
			  struct devimg_plugin_mem *mem)
{
	if (!mem)
		return plugin_error(-EINVAL, "kernel_set_arg_mem: NULL buffer");
	if (k && mem->ctx != k->prog->ctx)
		return plugin_error(-EINVAL, "kernel_set_arg_mem(%s, argument %u): the buffer is of another context",
				    k->name, index);
	return set_arg(k, index, sizeof(mem->ptr), &mem->ptr, "buffer");
}

int lz_kernel_set_arg_local(struct devimg_plugin_kernel *k, unsigned index,
			    size_t size)
{
	if (!size)
		return plugin_error(-EINVAL, "kernel_set_arg_local: size 0");
	return set_arg(k, index, size, NULL, "local memory");
}

void lz_kernel_release(struct devimg_plugin_kernel *k)
{
	if (!k)
		return;
	lz_context_drain(k->prog->ctx);
	zeKernelDestroy(k->id);
	free(k->name);
	free(k);
}

/* The range of a launch in the 32-bit values Level Zero takes. */
struct range {
	unsigned dims;
	uint32_t global[3];
	uint32_t offset[3];
	uint32_t group[3];
	ze_group_count_t count;
};

static void format3(char *buf, size_t size, const uint32_t *v)
{
	snprintf(buf, size, "%ux%ux%u", v[0], v[1], v[2]);
}

static int range_init(struct range *r, struct devimg_plugin_kernel *k,
		      unsigned dims, const size_t *offset, const size_t *global)
{
	unsigned i;

	r->dims = dims;
	for (i = 0; i < 3; i++) {
		size_t g = i < dims ? global[i] : 1;
		size_t o = i < dims && offset ? offset[i] : 0;

		if (g == 0 || g > UINT32_MAX || o > UINT32_MAX)
			return plugin_error(-EINVAL,
					    "launch(%s): global size %zu, offset %zu in dimension %u: Level Zero takes 1 to 2^32-1 work-items and offsets below 2^32",
					    k->name, g, o, i);
		r->global[i] = (uint32_t)g;
		r->offset[i] = (uint32_t)o;
	}
	return 0;
}

/* The user's group size, or the driver's suggestion. */
static int range_group(struct range *r, struct devimg_plugin_kernel *k,
		       const size_t *local)
{
	ze_result_t res;
	unsigned i;

	if (!local) {
		res = zeKernelSuggestGroupSize(k->id, r->global[0],
					       r->global[1], r->global[2],
					       &r->group[0], &r->group[1],
					       &r->group[2]);
		if (res != ZE_RESULT_SUCCESS)
			return lz_fail(res, "zeKernelSuggestGroupSize(%s, %ux%ux%u)",
				       k->name, r->global[0], r->global[1],
				       r->global[2]);
	}
	for (i = 0; local && i < 3; i++) {
		size_t l = i < r->dims ? local[i] : 1;

		if (l == 0 || l > UINT32_MAX)
			return plugin_error(-EINVAL,
					    "launch(%s): work-group size %zu in dimension %u",
					    k->name, l, i);
		r->group[i] = (uint32_t)l;
	}
	return 0;
}

static int range_count(struct range *r, struct devimg_plugin_kernel *k,
		       bool suggested)
{
	uint32_t *count[3] = {
		&r->count.groupCountX, &r->count.groupCountY,
		&r->count.groupCountZ,
	};
	unsigned i;

	for (i = 0; i < 3; i++) {
		if (r->group[i] == 0 || r->global[i] % r->group[i])
			return plugin_error(-EINVAL,
					    "launch(%s): global size %u is not a multiple of the %s work-group size %u in dimension %u",
					    k->name, r->global[i],
					    suggested ? "suggested (zeKernelSuggestGroupSize)" : "given",
					    r->group[i], i);
		*count[i] = r->global[i] / r->group[i];
	}
	return 0;
}

/* Give k the offset of r; unchanged offsets are not set again. */
static int set_offset(struct devimg_plugin_kernel *k, const struct range *r)
{
	struct devimg_plugin_platform *pl = k->prog->ctx->platform;
	char off[48];
	ze_result_t res;

	if (!memcmp(k->offset, r->offset, sizeof(k->offset)))
		return 0;
	format3(off, sizeof(off), r->offset);
	if (!pl->global_offset)
		return plugin_error(-ENOTSUP,
				    "launch(%s) with global offset %s: %s does not report the %s extension",
				    k->name, off, pl->name, LZ_GLOBAL_OFFSET_EXT);
	res = zeKernelSetGlobalOffsetExp(k->id, r->offset[0], r->offset[1],
					 r->offset[2]);
	if (res != ZE_RESULT_SUCCESS)
		return lz_fail(res, "zeKernelSetGlobalOffsetExp(%s, %s)",
			       k->name, off);
	memcpy(k->offset, r->offset, sizeof(k->offset));
	return 0;
}

int lz_launch(struct devimg_plugin_queue *q, struct devimg_plugin_kernel *k,
	      unsigned dims, const size_t *global_offset,
	      const size_t *global_size, const size_t *local_size)
{
	struct range r = { 0 };
	char group[48];
	ze_result_t res;
	int rc;

	if (!q || !k || !global_size || dims < 1 || dims > 3)
		return plugin_error(-EINVAL, "launch: NULL argument or %u dimensions",
				    dims);
	if (q->ctx != k->prog->ctx)
		return plugin_error(-EINVAL, "launch(%s): the queue is of another context",
				    k->name);
	rc = range_init(&r, k, dims, global_offset, global_size);
	if (rc == 0)
		rc = set_offset(k, &r);
	if (rc == 0)
		rc = range_group(&r, k, local_size);
	if (rc == 0)
		rc = range_count(&r, k, !local_size);
	if (rc < 0)
		return rc;
	res = zeKernelSetGroupSize(k->id, r.group[0], r.group[1], r.group[2]);
	if (res != ZE_RESULT_SUCCESS) {
		format3(group, sizeof(group), r.group);
		return lz_fail(res, "zeKernelSetGroupSize(%s, %s)", k->name,
			       group);
	}
	return lz_queue_launch(q, k, &r.count);
}
