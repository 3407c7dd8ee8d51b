// SPDX-License-Identifier: MIT
/*
 * Kernels: image lookup and selection, program from the device's cache,
 * recorded arguments, specialization constants (native: a program built
 * with the values, looked up in the cache at the next launch; emulated:
 * the kernel's last argument, a buffer refreshed before the next launch)
 * and launches. Launch metadata from the image's property sets: arguments
 * the optimizer eliminated are accepted in the original numbering and
 * dropped, the others renumbered for the backend; a required work-group
 * size is the default local size and the only one accepted.
 *
 * A kernel's argument state and spec constants are guarded by its lock,
 * so threads may launch one kernel object on their own queues. The
 * plugin kernel is also guarded by the kernel's launch gate, a flag that
 * state changes hold with the lock and that a launch takes alone: what a
 * launch needs is resolved when the kernel is made or its state changes
 * (k->ready), so a launch of a ready kernel takes the gate, calls the
 * plugin and leaves; any other launch takes the lock and the gate and
 * brings the state up to date first. A changed emulated value is written
 * through the launching queue; a launch still running on another queue
 * may then see it: finish that queue first.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "loader/dispatch/dispatch.h"
#include "loader/program/program.h"
#include "loader/dispatch/kernel-private.h"
#include "props/props.h"

static int pick_image(struct devimg_device *dev, const char *name,
		      struct devimg_image **out)
{
	char (*reasons)[DEVIMG_REASON_MAX] = NULL;
	struct devimg_image **imgs = NULL;
	size_t n = 0, chosen, i, len;
	char msg[3072];
	int err;

	err = images_collect(name, &imgs, &n);
	if (err == -ENOENT) {
		registry_suggest(name, msg, sizeof(msg));
		return backend_fail(err, "no registered image defines kernel '%s'%s%s",
				    name, msg[0] ? ": " : "", msg);
	}
	if (err < 0)
		return backend_fail(err, "looking up kernel '%s': %s", name,
				    devimg_strerror(err));
	reasons = calloc(n, sizeof(*reasons));
	if (!reasons) {
		err = backend_fail(-ENOMEM, "kernel '%s': out of memory",
				   name);
		goto out;
	}
	err = devimg_select_image_with(&dev->caps, &dev->features, imgs, n,
				       &chosen, reasons);
	if (err == 0) {
		*out = devimg_image_ref(imgs[chosen]);
		goto out;
	}
	len = (size_t)snprintf(msg, sizeof(msg),
			       "no image of kernel '%s' is compatible with device %s (%s)",
			       name, devimg_device_name(dev),
			       devimg_device_backend(dev));
	for (i = 0; i < n && len < sizeof(msg); i++)
		len += (size_t)snprintf(msg + len, sizeof(msg) - len, "; %s",
					reasons[i]);
	err = backend_fail(err, "%s", msg);
out:
	images_drop(imgs, n);
	free(reasons);
	return err;
}

/* A plugin kernel of prog, with the spec buffer and recorded arguments. */
static int kernel_bind(struct devimg_kernel *k,
		       struct devimg_plugin_program *prog)
{
	struct devimg_plugin *p = k->dev->plugin;
	struct devimg_plugin_kernel *pk, *old = k->pk;
	unsigned i;
	int err;

	err = devimg_plugin_kernel_create(p, prog, k->name, &pk);
	if (err < 0)
		return backend_fail(err, "no kernel '%s' in the program built from image %u (target %s): %s",
				    k->name, devimg_image_index(k->img),
				    devimg_image_target(k->img),
				    devimg_plugin_last_error(p));
	k->pk = pk;
	for (i = 0; i < k->nargs_rec; i++) {
		err = kernel_apply_arg(k, i);
		if (err < 0)
			break;
	}
	if (err == 0 && k->spec_mem) {
		err = devimg_plugin_kernel_set_arg_mem(p, pk, k->spec_index,
						       k->spec_mem);
		if (err < 0)
			err = backend_fail(err, "kernel '%s': cannot pass the spec-constant buffer as argument %u: %s",
					   k->name, k->spec_index,
					   devimg_plugin_last_error(p));
	}
	if (err < 0) {
		k->pk = old;
		devimg_plugin_kernel_release(p, pk);
		return err;
	}
	if (old)
		devimg_plugin_kernel_release(p, old);
	return 0;
}

/*
 * Map the original argument numbers to the backend's when the image says
 * arguments were eliminated. The mask may or may not count the emulated
 * spec-constant buffer (DPC++'s counts it, as its last parameter); when the
 * backend tells its argument count, the arguments kept must match it.
 */
static int kernel_setup_elimination(struct devimg_kernel *k)
{
	const unsigned char *mask;
	size_t nbits, kept = 0, i;
	unsigned nuser = k->nuser, next = 0;
	bool emulated = k->spec && !k->native_spec;
	int err;

	error_hold();
	err = devimg_image_kernel_arg_mask(k->img, k->name, &mask, &nbits);
	error_release();
	if (err == -ENOENT)
		return 0;
	if (err < 0)
		return backend_fail(err, "kernel '%s': '%s' of image %u (target %s): %s",
				    k->name, "SYCL/kernel param opt",
				    devimg_image_index(k->img),
				    devimg_image_target(k->img),
				    devimg_strerror(err));
	if (nbits >= UINT_MAX)
		return backend_fail(-EINVAL, "kernel '%s': 'SYCL/kernel param opt' counts %zu arguments",
				    k->name, nbits);
	for (i = 0; i < nbits; i++)
		kept += !props_arg_eliminated(mask, i);
	/* DPC++'s mask counts the spec-constant buffer, its last parameter. */
	if (emulated && nbits && !props_arg_eliminated(mask, nbits - 1) &&
	    kept == (size_t)nuser + 1) {
		nbits--;
		kept--;
	}
	if (nuser != UINT_MAX && kept != nuser)
		return backend_fail(-EINVAL, "kernel '%s': 'SYCL/kernel param opt' of image %u keeps %zu of %zu arguments, the built kernel has %u",
				    k->name, devimg_image_index(k->img), kept,
				    nbits, nuser);
	k->backend = calloc(nbits ? nbits : 1, sizeof(*k->backend));
	if (!k->backend)
		return backend_fail(-ENOMEM, "kernel '%s': out of memory",
				    k->name);
	for (i = 0; i < nbits; i++)
		k->backend[i] = props_arg_eliminated(mask, i) ? ELIMINATED :
								next++;
	k->nuser = (unsigned)nbits;
	return 0;
}

/* Eliminated arguments and the required work-group size. */
static int kernel_setup_metadata(struct devimg_kernel *k)
{
	int err;

	err = kernel_setup_elimination(k);
	if (err < 0)
		return err;
	error_hold();
	err = devimg_image_reqd_work_group_size(k->img, k->name,
						&k->reqd_dims, k->reqd);
	error_release();
	if (err == -ENOENT) {
		k->reqd_dims = 0;
		return 0;
	}
	if (err < 0)
		return backend_fail(err, "kernel '%s': '%s%s' of image %u (target %s): %s",
				    k->name, k->name, "@reqd_work_group_size",
				    devimg_image_index(k->img),
				    devimg_image_target(k->img),
				    devimg_strerror(err));
	return 0;
}

/*
 * The program of k's image from the cache: built alone, or linked with the
 * images it imports from. spec: the native values (NULL: defaults).
 */
static int kernel_program(struct devimg_kernel *k,
			  struct devimg_spec_values *spec, const void *key,
			  size_t key_size,
			  struct devimg_plugin_program **prog)
{
	if (k->plan.n > 1)
		return link_program(k->dev, &k->plan, "", "", spec, key,
				    key_size, prog);
	return progcache_get(k->dev, k->img, k->fmt, k->options, spec, key,
			     key_size, prog);
}

/* The value buffer of k's spec constants, or the error, said. */
static int spec_blob(struct devimg_kernel *k, const void **blob, size_t *size)
{
	int err = devimg_spec_values_buffer(k->spec, blob, size);

	return err < 0 ? backend_fail(err, "kernel '%s': spec constants: %s",
				      k->name, devimg_strerror(err)) : 0;
}

/* The program of k: the bundle's, or from the cache (built or linked). */
static int kernel_source_program(struct devimg_kernel *k,
				 const struct kernel_source *src,
				 struct devimg_plugin_program **prog)
{
	int err;

	if (src && src->prog) {
		k->spec_fixed = true;
		*prog = src->prog;
		if (!k->spec || !src->spec)
			return 0;
		err = spec_values_copy(k->spec, src->spec);
		return err < 0 ? backend_fail(err, "kernel '%s': the bundle's spec constants are not its image's",
					      k->name) : 0;
	}
	err = link_plan_make(k->dev, k->img, NULL, 0, &k->plan);
	if (err == 0)
		err = kernel_program(k, NULL, NULL, 0, prog);
	if (err < 0 && k->plan.n != 1)
		return backend_fail_prefix(err, "kernel '%s'", k->name);
	return err;
}

static int kernel_setup(struct devimg_kernel *k,
			const struct kernel_source *src)
{
	struct devimg_device *dev = k->dev;
	struct devimg_plugin_program *prog;
	const struct devimg_spec_const_info *consts;
	size_t nconsts = 0, spec_size;
	const void *blob;
	unsigned count;
	int err;

	if (src && src->img)
		k->img = devimg_image_ref(src->img);
	else if ((err = pick_image(dev, k->name, &k->img)) < 0)
		return err;
	err = devimg_image_guess_format(k->img, &k->fmt);
	if (err < 0)
		return backend_fail(err, "image %u of kernel '%s': %s",
				    devimg_image_index(k->img), k->name,
				    devimg_strerror(err));
	k->options = link_build_options(k->img, "", "");
	if (!k->options)
		return backend_fail(-ENOMEM, "kernel '%s': out of memory",
				    k->name);
	err = devimg_image_spec_consts(k->img, &consts, &nconsts,
				       &k->spec_defaults, &k->spec_defaults_size);
	if (err < 0)
		return backend_fail(err, "spec constants of image %u (target %s) of kernel '%s': %s",
				    devimg_image_index(k->img),
				    devimg_image_target(k->img), k->name,
				    devimg_strerror(err));
	if (nconsts) {
		err = devimg_spec_values_new(k->img, &k->spec);
		if (err < 0)
			return backend_fail(err, "kernel '%s': spec constants: %s",
					    k->name, devimg_strerror(err));
		k->native_spec = k->fmt == DEVIMG_FORMAT_SPIRV &&
			(dev->info->caps & DEVIMG_PLUGIN_CAP_SPEC_CONSTANTS);
	}
	err = kernel_source_program(k, src, &prog);
	if (err < 0)
		return err;
	err = devimg_plugin_kernel_create(dev->plugin, prog, k->name, &k->pk);
	if (err < 0)
		return backend_fail(err, "no kernel '%s' in the program built from image %u (target %s): %s",
				    k->name, devimg_image_index(k->img),
				    devimg_image_target(k->img),
				    devimg_plugin_last_error(dev->plugin));
	err = devimg_plugin_kernel_arg_count(dev->plugin, k->pk, &count);
	if (err == -ENOTSUP)
		count = UINT_MAX;
	else if (err < 0)
		return backend_fail(err, "kernel '%s': argument count: %s",
				    k->name,
				    devimg_plugin_last_error(dev->plugin));
	k->nuser = count;
	if (k->spec && !k->native_spec) {
		/* Emulated: the last argument is the buffer of all values. */
		if (count == UINT_MAX || count == 0)
			return backend_fail(-ENOTSUP, "kernel '%s' uses spec constants but its backend cannot tell its argument count, or it has no argument for their buffer",
					    k->name);
		k->spec_index = count - 1;
		k->nuser = count - 1;
	}
	err = kernel_setup_metadata(k);
	if (err < 0 || !k->spec || k->native_spec)
		return err;
	err = spec_blob(k, &blob, &spec_size);
	if (err < 0)
		return err;
	err = devimg_plugin_mem_create(dev->plugin, dev->pctx,
				       DEVIMG_PLUGIN_MEM_READ_ONLY,
				       spec_size ? spec_size : 1, &k->spec_mem);
	if (err < 0)
		return backend_fail(err, "kernel '%s': spec-constant buffer: %s",
				    k->name,
				    devimg_plugin_last_error(dev->plugin));
	err = devimg_plugin_kernel_set_arg_mem(dev->plugin, k->pk,
					       k->spec_index, k->spec_mem);
	if (err < 0)
		return backend_fail(err, "kernel '%s': cannot pass the spec-constant buffer as argument %u: %s",
				    k->name, k->spec_index,
				    devimg_plugin_last_error(dev->plugin));
	k->spec_dirty = true;
	return 0;
}

int kernel_new_from(struct devimg_device *dev, const char *name,
		    const struct kernel_source *src, struct devimg_kernel **out)
{
	const struct devimg_plugin_ops *ops;
	struct devimg_kernel *k;
	int err;

	k = calloc(1, sizeof(*k));
	if (!k || !(k->name = strdup(name))) {
		free(k);
		return backend_fail(-ENOMEM, "devimg_kernel_new: out of memory");
	}
	atomic_init(&k->refcount, 1);
	k->ctx = devimg_ctx_ref(dev->ctx);
	k->dev = dev;
	pthread_mutex_init(&k->lock, NULL);
	atomic_init(&k->gate, false);
	atomic_init(&k->waiting, 0);
	err = kernel_setup(k, src);
	if (err < 0) {
		devimg_kernel_unref(k);
		return err;
	}
	k->offset_ok = dev->info->caps & DEVIMG_PLUGIN_CAP_GLOBAL_OFFSET;
	ops = devimg_plugin_untraced_ops(dev->plugin);
	k->launch = ops ? ops->launch : NULL;
	kernel_update_ready(k);
	*out = k;
	return 0;
}

DEVIMG_EXPORT int devimg_kernel_new(struct devimg_device *dev, const char *name,
				    struct devimg_kernel **out)
{
	if (!dev || !name || !out)
		return backend_fail(-EINVAL, "devimg_kernel_new: NULL argument");
	return kernel_new_from(dev, name, NULL, out);
}

DEVIMG_EXPORT struct devimg_kernel *devimg_kernel_ref(struct devimg_kernel *k)
{
	if (k)
		atomic_fetch_add(&k->refcount, 1);
	return k;
}

DEVIMG_EXPORT struct devimg_kernel *
devimg_kernel_unref(struct devimg_kernel *k)
{
	size_t i;

	if (!k)
		return NULL;
	if (atomic_fetch_sub(&k->refcount, 1) > 1)
		return k;
	for (i = 0; i < k->nargs_rec; i++)
		kernel_arg_clear(&k->args[i]);
	free(k->args);
	if (k->pk)
		devimg_plugin_kernel_release(k->dev->plugin, k->pk);
	if (k->spec_mem)
		devimg_plugin_mem_release(k->dev->plugin, k->spec_mem);
	devimg_spec_values_unref(k->spec);
	free(k->backend);
	link_plan_fini(&k->plan);
	devimg_image_unref(k->img);
	pthread_mutex_destroy(&k->lock);
	devimg_ctx_unref(k->ctx);
	free(k->options);
	free(k->name);
	free(k);
	return NULL;
}

DEVIMG_EXPORT unsigned devimg_kernel_arg_count(const struct devimg_kernel *k)
{
	return k ? k->nuser : 0;
}

DEVIMG_EXPORT struct devimg_image *
devimg_kernel_image(const struct devimg_kernel *k)
{
	return k ? k->img : NULL;
}

DEVIMG_EXPORT int devimg_kernel_set_spec_const(struct devimg_kernel *k,
					       const char *symbolic_id,
					       size_t size, const void *value)
{
	int err;

	if (!k || !symbolic_id || !value)
		return backend_fail(-EINVAL, "devimg_kernel_set_spec_const: NULL argument");
	if (!k->spec)
		return backend_fail(-ENOENT, "kernel '%s': its image has no spec constant '%s' (none at all)",
				    k->name, symbolic_id);
	if (k->spec_fixed)
		return backend_fail(-EINVAL, "kernel '%s' comes from an executable bundle, whose spec constants are fixed: set '%s' on the input bundle",
				    k->name, symbolic_id);
	pthread_mutex_lock(&k->lock);
	err = devimg_spec_values_set(k->spec, symbolic_id, size, value);
	if (err == 0) {
		gate_enter(k);
		k->spec_dirty = true;
		k->ready = false;
		gate_leave(k);
	}
	pthread_mutex_unlock(&k->lock);
	if (err == -ENOENT)
		return backend_fail(err, "kernel '%s': its image has no spec constant '%s'",
				    k->name, symbolic_id);
	if (err < 0)
		return backend_fail(err, "kernel '%s': spec constant '%s' (%zu bytes given): %s",
				    k->name, symbolic_id, size,
				    devimg_strerror(err));
	return 0;
}

/* Bring the spec constants to the device before a launch (k->lock held). */
static int spec_refresh(struct devimg_kernel *k, struct devimg_queue *q)
{
	struct devimg_device *dev = k->dev;
	struct devimg_plugin_program *prog;
	const void *blob;
	size_t size;
	int err;

	err = spec_blob(k, &blob, &size);
	if (err < 0)
		return err;
	if (k->native_spec) {
		if (size == k->spec_defaults_size &&
		    (!size || !memcmp(blob, k->spec_defaults, size)))
			err = kernel_program(k, NULL, NULL, 0, &prog);
		else
			err = kernel_program(k, k->spec, blob, size, &prog);
		if (err == 0)
			err = kernel_bind(k, prog);
	} else if (size) {
		err = devimg_plugin_mem_write(dev->plugin, q->pq, k->spec_mem,
					      1, 0, size, blob);
		if (err < 0)
			err = backend_fail(err, "kernel '%s': writing the spec-constant buffer: %s",
					   k->name,
					   devimg_plugin_last_error(dev->plugin));
	}
	if (err == 0)
		k->spec_dirty = false;
	return err;
}

/* "8x4x1": the first dims sizes. */
static void dims_label(const size_t *size, unsigned dims, char *buf,
		       size_t bufsize)
{
	size_t len = 0;
	unsigned d;

	buf[0] = '\0';
	for (d = 0; d < dims && len < bufsize; d++)
		len += (size_t)snprintf(buf + len, bufsize - len, "%s%zu",
					d ? "x" : "", size[d]);
}

/*
 * The local size of a launch of a kernel with a required work-group size:
 * the required one (1 in dimensions it does not name), which a given
 * local size must equal.
 */
static int reqd_local_size(const struct devimg_kernel *k, unsigned dims,
			   const size_t *local_size, size_t out[3])
{
	char want[80], got[80];
	unsigned d;

	for (d = 0; d < 3; d++)
		out[d] = d < k->reqd_dims ? k->reqd[d] : 1;
	for (d = dims; d < k->reqd_dims; d++)
		if (out[d] != 1) {
			dims_label(out, k->reqd_dims, want, sizeof(want));
			return backend_fail(-EINVAL, "devimg_launch: kernel '%s' requires work-group size %s, which a %u-dimensional launch cannot have",
					    k->name, want, dims);
		}
	if (!local_size)
		return 0;
	for (d = 0; d < dims; d++)
		if (local_size[d] != out[d]) {
			dims_label(out, dims, want, sizeof(want));
			dims_label(local_size, dims, got, sizeof(got));
			return backend_fail(-EINVAL, "devimg_launch: kernel '%s' requires work-group size %s (SYCL/program metadata), the launch asks for %s",
					    k->name, want, got);
		}
	return 0;
}

/*
 * The ND-range of a launch, checked before a backend sees it: in each
 * dimension, the last work-item id (offset + global size - 1) fits a
 * size_t, a local size is at least 1 and divides the global size, and
 * the work-item count (the product of the global sizes) fits a size_t.
 * -EINVAL naming the dimension otherwise: drivers given such ranges wrap
 * them, hang or abort. A global size of 0 (nothing to run) is left to
 * the backend.
 */
int launch_range_check(unsigned dims, const size_t *global_offset,
		       const size_t *global_size, const size_t *local_size)
{
	size_t items = 1, off, last;
	unsigned d;

	for (d = 0; d < dims; d++) {
		off = global_offset ? global_offset[d] : 0;
		if (global_size[d] &&
		    size_add(off, global_size[d] - 1, &last))
			return backend_fail(-EINVAL, "devimg_launch: dimension %u: offset %zu + global size %zu pass SIZE_MAX",
					    d, off, global_size[d]);
		if (size_mul(items, global_size[d], &items))
			return backend_fail(-EINVAL, "devimg_launch: dimension %u: global size %zu makes the work-item count pass SIZE_MAX",
					    d, global_size[d]);
		if (!local_size || !global_size[d])
			continue;
		if (!local_size[d] || global_size[d] % local_size[d])
			return backend_fail(-EINVAL, "devimg_launch: dimension %u: global size %zu is not a multiple of local size %zu",
					    d, global_size[d], local_size[d]);
	}
	return 0;
}

/* A launch of k failed in the plugin: the error, said. */
static __attribute__((noinline, cold)) int
launch_failed(struct devimg_kernel *k, int err)
{
	return backend_fail(err, "launching kernel '%s' on %s: %s", k->name,
			    devimg_device_name(k->dev),
			    devimg_plugin_last_error(k->dev->plugin));
}

/*
 * A launch of a kernel that is not ready, or whose gate another launch
 * holds: under k->lock and the gate, check the arguments, bring the spec
 * constants to the device, launch.
 */
static __attribute__((noinline)) int
launch_locked(struct devimg_queue *q, struct devimg_kernel *k, unsigned dims,
	      const size_t *global_offset, const size_t *global_size,
	      const size_t *local)
{
	unsigned i;
	int err = 0;

	pthread_mutex_lock(&k->lock);
	gate_enter(k);
	i = kernel_first_unset(k);
	if (i != UINT_MAX) {
		err = backend_fail(-EINVAL, "devimg_launch: argument %u of kernel '%s' is not set",
				   i, k->name);
		goto out;
	}
	if (k->spec && k->spec_dirty) {
		err = spec_refresh(k, q);
		kernel_update_ready(k);
		if (err < 0)
			goto out;
	}
	err = devimg_plugin_launch(k->dev->plugin, q->pq, k->pk, dims,
				   global_offset, global_size, local);
	if (err < 0)
		err = launch_failed(k, err);
out:
	gate_leave(k);
	pthread_mutex_unlock(&k->lock);
	return err;
}

/*
 * The call's checks come first, in the order they always had; those that
 * cannot fail are skipped (the range check of a one-dimensional launch
 * without offset or local size), and of a one-dimensional launch without
 * offset only the local size's can (tested inline; launch_range_check()
 * says what is wrong). A ready kernel whose gate is free is launched at
 * once.
 */
DEVIMG_EXPORT int devimg_launch(struct devimg_queue *q, struct devimg_kernel *k,
				unsigned dims, const size_t *global_offset,
				const size_t *global_size,
				const size_t *local_size)
{
	const size_t *local = local_size;
	size_t reqd[3];
	unsigned i;
	int err;

	if (!q || !k || !global_size)
		return backend_fail(-EINVAL, "devimg_launch: NULL argument");
	if (dims < 1 || dims > 3)
		return backend_fail(-EINVAL, "devimg_launch: %u dimensions (1 to 3)",
				    dims);
	if (q->dev != k->dev)
		return backend_fail(-EINVAL, "devimg_launch: kernel '%s' was made for %s, the queue is on another device",
				    k->name, devimg_device_name(k->dev));
	if (k->reqd_dims) {
		err = reqd_local_size(k, dims, local_size, reqd);
		if (err < 0)
			return err;
		local = reqd;
	}
	if (dims > 1 || global_offset ||
	    (local && (!local[0] || global_size[0] % local[0]))) {
		err = launch_range_check(dims, global_offset, global_size,
					 local);
		if (err < 0)
			return err;
	}
	if (global_offset && !k->offset_ok)
		for (i = 0; i < dims; i++)
			if (global_offset[i])
				return backend_fail(-ENOTSUP, "devimg_launch: %s cannot launch with a global offset",
						    devimg_device_name(k->dev));
	if (!atomic_load_explicit(&k->waiting, memory_order_relaxed) &&
	    gate_try(k)) {
		if (k->ready) {
			err = k->launch ?
				k->launch(q->pq, k->pk, dims, global_offset,
					  global_size, local) :
				devimg_plugin_launch(k->dev->plugin, q->pq,
						     k->pk, dims, global_offset,
						     global_size, local);
			gate_leave(k);
			return err < 0 ? launch_failed(k, err) : 0;
		}
		gate_leave(k);
	}
	return launch_locked(q, k, dims, global_offset, global_size, local);
}
