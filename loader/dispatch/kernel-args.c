// SPDX-License-Identifier: MIT
/*
 * A kernel's arguments: recorded by devimg_kernel_set_arg(),
 * devimg_kernel_set_arg_buf(), devimg_kernel_set_arg_local() and from
 * DPC++'s argument tables (devimg_kernel_set_args()), in the original
 * numbering; passed to the plugin kernel in the backend's, the
 * arguments the optimizer eliminated left out. The locking rules are
 * kernel.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "loader/dispatch/kernel-private.h"

static bool eliminated(const struct devimg_kernel *k, unsigned i)
{
	return k->backend && k->backend[i] == ELIMINATED;
}

unsigned kernel_first_unset(const struct devimg_kernel *k)
{
	unsigned i;

	if (k->nuser == UINT_MAX)
		return UINT_MAX;
	for (i = 0; i < k->nuser; i++)
		if (!eliminated(k, i) && (i >= k->nargs_rec ||
		    k->args[i].kind == ARG_UNSET))
			return i;
	return UINT_MAX;
}

void kernel_update_ready(struct devimg_kernel *k)
{
	k->ready = !(k->spec && k->spec_dirty) && kernel_first_unset(k) == UINT_MAX;
}

int kernel_apply_arg(struct devimg_kernel *k, unsigned i)
{
	struct devimg_plugin *p = k->dev->plugin;
	struct kernel_arg *a = &k->args[i];
	unsigned to;
	int err = 0;

	if (a->kind == ARG_UNSET)
		return 0;
	to = k->backend ? k->backend[i] : i;
	if (to == ELIMINATED)
		return 0;
	switch (a->kind) {
	case ARG_VALUE:
		err = devimg_plugin_kernel_set_arg_value(p, k->pk, to, a->size,
							 a->value);
		break;
	case ARG_BUF:
		err = devimg_plugin_kernel_set_arg_mem(p, k->pk, to,
						       a->buf->mem);
		break;
	case ARG_LOCAL:
		err = devimg_plugin_kernel_set_arg_local(p, k->pk, to,
							 a->size);
		break;
	case ARG_UNSET:
		break;
	}
	if (err < 0 && to != i)
		return backend_fail(err, "kernel '%s', argument %u (%u after elimination): %s",
				    k->name, i, to,
				    devimg_plugin_last_error(p));
	if (err < 0)
		return backend_fail(err, "kernel '%s', argument %u: %s",
				    k->name, i, devimg_plugin_last_error(p));
	return 0;
}

void kernel_arg_clear(struct kernel_arg *a)
{
	free(a->value);
	devimg_buf_unref(a->buf);
	memset(a, 0, sizeof(*a));
}

/* Room for arguments 0 to n - 1 in k->args (k->lock held). */
static int reserve_args(struct devimg_kernel *k, size_t n)
{
	struct kernel_arg *v;

	if (n <= k->nargs_rec)
		return 0;
	v = realloc(k->args, n * sizeof(*v));
	if (!v)
		return backend_fail(-ENOMEM, "kernel '%s': out of memory",
				    k->name);
	memset(v + k->nargs_rec, 0, (n - k->nargs_rec) * sizeof(*v));
	k->args = v;
	k->nargs_rec = n;
	return 0;
}

/*
 * Take over *a (its value and buffer reference) as argument i and pass it
 * to the plugin kernel (k->lock held). *a is consumed either way.
 */
static int store_arg(struct devimg_kernel *k, unsigned i,
		     struct kernel_arg *a)
{
	int err;

	err = reserve_args(k, (size_t)i + 1);
	if (err < 0) {
		kernel_arg_clear(a);
		return err;
	}
	gate_enter(k);
	kernel_arg_clear(&k->args[i]);
	k->args[i] = *a;
	err = kernel_apply_arg(k, i);
	if (err < 0)
		kernel_arg_clear(&k->args[i]);
	kernel_update_ready(k);
	gate_leave(k);
	return err;
}

/* An argument record: the value copied, the buffer referenced. */
static int make_arg(const struct devimg_kernel *k, unsigned i,
		    enum arg_kind kind, size_t size, const void *value,
		    struct devimg_buf *b, struct kernel_arg *a)
{
	*a = (struct kernel_arg){ .kind = kind, .size = size };
	if (k->nuser != UINT_MAX && i >= k->nuser)
		return backend_fail(-EINVAL, "kernel '%s' has %u arguments, no argument %u",
				    k->name, k->nuser, i);
	if (kind == ARG_VALUE) {
		a->value = malloc(size ? size : 1);
		if (!a->value)
			return backend_fail(-ENOMEM, "kernel '%s': out of memory",
					    k->name);
		memcpy(a->value, value, size);
	}
	a->buf = devimg_buf_ref(b);
	return 0;
}

/* Record argument i (under k->lock) and pass it to the plugin kernel. */
static int set_arg(struct devimg_kernel *k, unsigned i, enum arg_kind kind,
		   size_t size, const void *value, struct devimg_buf *b)
{
	struct kernel_arg a;
	int err;

	err = make_arg(k, i, kind, size, value, b, &a);
	if (err < 0)
		return err;
	return store_arg(k, i, &a);
}

DEVIMG_EXPORT int devimg_kernel_set_arg(struct devimg_kernel *k, unsigned i,
					size_t size, const void *value)
{
	int err;

	if (!k || !value || !size)
		return backend_fail(-EINVAL, "devimg_kernel_set_arg: NULL argument or size 0");
	pthread_mutex_lock(&k->lock);
	err = set_arg(k, i, ARG_VALUE, size, value, NULL);
	pthread_mutex_unlock(&k->lock);
	return err;
}

DEVIMG_EXPORT int devimg_kernel_set_arg_buf(struct devimg_kernel *k,
					    unsigned i, struct devimg_buf *b)
{
	int err;

	if (!k || !b)
		return backend_fail(-EINVAL, "devimg_kernel_set_arg_buf: NULL argument");
	if (b->dev->pctx != k->dev->pctx)
		return backend_fail(-EINVAL, "kernel '%s', argument %u: the buffer belongs to another platform",
				    k->name, i);
	pthread_mutex_lock(&k->lock);
	err = set_arg(k, i, ARG_BUF, 0, NULL, b);
	pthread_mutex_unlock(&k->lock);
	return err;
}

DEVIMG_EXPORT int devimg_kernel_set_arg_local(struct devimg_kernel *k,
					      unsigned i, size_t size)
{
	int err;

	if (!k || !size)
		return backend_fail(-EINVAL, "devimg_kernel_set_arg_local: NULL kernel or size 0");
	pthread_mutex_lock(&k->lock);
	err = set_arg(k, i, ARG_LOCAL, size, NULL, NULL);
	pthread_mutex_unlock(&k->lock);
	return err;
}

/* ---- argument tables (kernel_param_desc_t) ---- */

static const char *param_kind_name(int kind)
{
	switch (kind) {
	case DEVIMG_PARAM_ACCESSOR:
		return "accessor";
	case DEVIMG_PARAM_STD_LAYOUT:
		return "std_layout";
	case DEVIMG_PARAM_SAMPLER:
		return "sampler";
	case DEVIMG_PARAM_POINTER:
		return "pointer";
	case DEVIMG_PARAM_SPEC_CONST_BUFFER:
		return "specialization_constants_buffer";
	case DEVIMG_PARAM_STREAM:
		return "stream";
	case DEVIMG_PARAM_WORK_GROUP_MEMORY:
		return "work_group_memory";
	default:
		return "unknown";
	}
}

/* Bytes [offset, offset + size) of the object, or -EINVAL. */
static int param_bytes(const struct devimg_kernel *k, size_t i,
		       const struct devimg_param_desc *d, size_t size,
		       size_t obj_size)
{
	if (d->offset < 0 || (size_t)d->offset > obj_size ||
	    size > obj_size - (size_t)d->offset)
		return backend_fail(-EINVAL, "kernel '%s', parameter %zu (%s): %zu bytes at offset %d leave the captured object of %zu bytes",
				    k->name, i, param_kind_name(d->kind),
				    size, d->offset, obj_size);
	return 0;
}

/* The struct devimg_buf * the object holds at the entry's offset. */
static int param_buf(const struct devimg_kernel *k, size_t i,
		     const struct devimg_param_desc *d, const void *obj,
		     size_t obj_size, struct kernel_arg *a)
{
	struct devimg_buf *b;
	int err;

	err = param_bytes(k, i, d, sizeof(b), obj_size);
	if (err < 0)
		return err;
	memcpy(&b, (const char *)obj + d->offset, sizeof(b));
	if (!b)
		return backend_fail(-EINVAL, "kernel '%s', parameter %zu (%s): NULL buffer at offset %d",
				    k->name, i, param_kind_name(d->kind),
				    d->offset);
	if (b->dev->pctx != k->dev->pctx)
		return backend_fail(-EINVAL, "kernel '%s', parameter %zu: the buffer belongs to another platform",
				    k->name, i);
	return make_arg(k, (unsigned)i, ARG_BUF, 0, NULL, b, a);
}

/* The size_t byte count of local memory the object holds at offset. */
static int param_local(const struct devimg_kernel *k, size_t i,
		       const struct devimg_param_desc *d, const void *obj,
		       size_t obj_size, struct kernel_arg *a)
{
	size_t size;
	int err;

	err = param_bytes(k, i, d, sizeof(size), obj_size);
	if (err < 0)
		return err;
	memcpy(&size, (const char *)obj + d->offset, sizeof(size));
	if (!size)
		return backend_fail(-EINVAL, "kernel '%s', parameter %zu (%s): 0 bytes of local memory",
				    k->name, i, param_kind_name(d->kind));
	return make_arg(k, (unsigned)i, ARG_LOCAL, size, NULL, NULL, a);
}

/*
 * The record entry i of the table asks for; a->kind ARG_UNSET for the
 * spec-constant buffer, which the loader passes itself.
 */
static int param_arg(struct devimg_kernel *k, size_t i, size_t n,
		     const struct devimg_param_desc *d, const void *obj,
		     size_t obj_size, struct kernel_arg *a)
{
	int target = d->info & DEVIMG_PARAM_TARGET_MASK;
	int err;

	*a = (struct kernel_arg){ .kind = ARG_UNSET };
	switch (d->kind) {
	case DEVIMG_PARAM_STD_LAYOUT:
		if (d->info <= 0)
			return backend_fail(-EINVAL, "kernel '%s', parameter %zu (std_layout): size %d",
					    k->name, i, d->info);
		err = param_bytes(k, i, d, (size_t)d->info, obj_size);
		if (err < 0)
			return err;
		return make_arg(k, (unsigned)i, ARG_VALUE, (size_t)d->info,
				(const char *)obj + d->offset, NULL, a);
	case DEVIMG_PARAM_POINTER:
		return param_buf(k, i, d, obj, obj_size, a);
	case DEVIMG_PARAM_WORK_GROUP_MEMORY:
		return param_local(k, i, d, obj, obj_size, a);
	case DEVIMG_PARAM_ACCESSOR:
		if (target == DEVIMG_ACCESS_GLOBAL_BUFFER ||
		    target == DEVIMG_ACCESS_CONSTANT_BUFFER)
			return param_buf(k, i, d, obj, obj_size, a);
		if (target == DEVIMG_ACCESS_LOCAL)
			return param_local(k, i, d, obj, obj_size, a);
		return backend_fail(-ENOTSUP, "kernel '%s', parameter %zu (accessor): target %d is not supported (2014 global_buffer, 2015 constant_buffer, 2016 local are)",
				    k->name, i, target);
	case DEVIMG_PARAM_SPEC_CONST_BUFFER:
		if (i + 1 != n)
			return backend_fail(-EINVAL, "kernel '%s', parameter %zu of %zu: the spec-constant buffer can only be the last",
					    k->name, i, n);
		return 0;
	default:
		return backend_fail(-ENOTSUP, "kernel '%s', parameter %zu: kind %d (%s) is not supported",
				    k->name, i, d->kind,
				    param_kind_name(d->kind));
	}
}

DEVIMG_EXPORT int devimg_kernel_set_args(struct devimg_kernel *k,
					 const struct devimg_param_desc *params,
					 size_t n, const void *obj,
					 size_t obj_size)
{
	struct kernel_arg *a;
	size_t i, done = 0;
	int err = 0;

	if (!k || (n && !params) || (obj_size && !obj))
		return backend_fail(-EINVAL, "devimg_kernel_set_args: NULL argument");
	if (n > UINT_MAX)
		return backend_fail(-EINVAL, "devimg_kernel_set_args: %zu parameters",
				    n);
	a = calloc(n ? n : 1, sizeof(*a));
	if (!a)
		return backend_fail(-ENOMEM, "kernel '%s': out of memory",
				    k->name);
	for (i = 0; i < n && err == 0; i++)
		err = param_arg(k, i, n, &params[i], obj, obj_size, &a[i]);
	if (err < 0)
		goto out;
	pthread_mutex_lock(&k->lock);
	err = reserve_args(k, n && a[n - 1].kind == ARG_UNSET ? n - 1 : n);
	for (; err == 0 && done < n; done++)
		if (a[done].kind != ARG_UNSET)
			err = store_arg(k, (unsigned)done, &a[done]);
	pthread_mutex_unlock(&k->lock);
out:
	for (i = done; i < n; i++)
		kernel_arg_clear(&a[i]);
	free(a);
	return err;
}
