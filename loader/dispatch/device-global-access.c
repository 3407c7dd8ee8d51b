// SPDX-License-Identifier: MIT
/*
 * Reads and writes of device globals (devimg_global_read/write), as
 * DPC++ does them:
 *  - with device_image_scope, the variable lives in the program built
 *    from the one image that defines it for the queue's device (built
 *    through the program cache as devimg_kernel_new() builds it: default
 *    options, default spec constants, linked when the image imports);
 *    the plugin copies to or from it on the queue;
 *  - without, the variable holds a pointer to memory made once per
 *    device of a context (device-global-memory.c); reads and writes copy to or
 *    from that memory.
 * Host access (SPIR-V's HostAccessINTEL) is checked first.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "props/device-global.h"
#include "loader/dispatch/dispatch.h"
#include "loader/registry/device-globals.h"
#include "loader/program/program.h"

/* "image 3 (index 0, target spir64)" */
#define IMG_FMT "image %" PRIu64 " (index %u, target %s)"
#define IMG_ARGS(img) devimg_image_id(img), devimg_image_index(img), \
	devimg_image_target(img)

static const char *access_name(enum devglobal_access a)
{
	switch (a) {
	case DEVGLOBAL_ACCESS_NONE:
		return "none";
	case DEVGLOBAL_ACCESS_READ:
		return "read";
	case DEVGLOBAL_ACCESS_WRITE:
		return "write";
	default:
		return "read_write";
	}
}

/* The images of ds (n) that qualify for dev, in *ok (count *nok). */
static int compatible(struct devimg_device *dev, const struct devimg_global *g,
		      struct devimg_image **ds, size_t n,
		      struct devimg_image **ok, size_t *nok)
{
	char (*why)[DEVIMG_REASON_MAX];
	char msg[2048];
	size_t i, k = 0, len, chosen;

	why = calloc(n, sizeof(*why));
	if (!why)
		return backend_fail(-ENOMEM, "device global '%s': out of memory",
				    devimg_global_id(g));
	for (i = 0; i < n; i++)
		if (devimg_select_image_with(&dev->caps, &dev->features, &ds[i],
					     1, &chosen, NULL) == 0)
			ok[k++] = ds[i];
	*nok = k;
	if (k) {
		free(why);
		return 0;
	}
	/* The reasons, each naming the image by its place among ds. */
	devimg_select_image_with(&dev->caps, &dev->features, ds, n, &chosen,
				 why);
	len = (size_t)snprintf(msg, sizeof(msg),
			       "no image compatible with device %s (%s) defines device global '%s'",
			       devimg_device_name(dev),
			       devimg_device_backend(dev), devimg_global_id(g));
	for (i = 0; i < n && len < sizeof(msg); i++)
		len += (size_t)snprintf(msg + len, sizeof(msg) - len, "; %s",
					why[i]);
	free(why);
	return backend_fail(-ENOENT, "%s", msg);
}

/*
 * The HostAccessINTEL decoration of img's module for g: -1 when none
 * names it (or img is no SPIR-V). Read once per record and image.
 */
static int image_access(const struct devimg_global *g,
			struct devimg_image *img, int *access)
{
	enum devimg_image_format fmt;
	enum devglobal_access acc;
	const unsigned char *bytes;
	char msg[200];
	size_t size;
	int r;

	if (globals_access_known(g, img, access))
		return 0;
	*access = -1;
	if (devimg_image_guess_format(img, &fmt) < 0 ||
	    fmt != DEVIMG_FORMAT_SPIRV)
		return 0;
	r = image_bytes(img, &bytes, &size);
	if (r < 0)
		return backend_fail(r, IMG_FMT ": %s", IMG_ARGS(img),
				    devimg_strerror(r));
	r = devglobal_spirv_access(bytes, size, devimg_global_id(g), &acc,
				   msg, sizeof(msg));
	if (r < 0 && r != -ENOENT)
		return backend_fail(r, IMG_FMT ": %s", IMG_ARGS(img), msg);
	if (r == 0)
		*access = (int)acc;
	globals_access_keep(g, img, *access);
	return 0;
}

/*
 * What the SPIR-V images of imgs let the host do with g: the first
 * HostAccessINTEL decoration found; read_write when none says.
 */
static int host_access(const struct devimg_global *g,
		       struct devimg_image **imgs, size_t n,
		       enum devglobal_access *acc)
{
	size_t i;
	int r, access;

	*acc = DEVGLOBAL_ACCESS_READ_WRITE;
	for (i = 0; i < n; i++) {
		r = image_access(g, imgs[i], &access);
		if (r < 0)
			return r;
		if (access >= 0) {
			*acc = (enum devglobal_access)access;
			return 0;
		}
	}
	return 0;
}

/* The program of img on dev, as devimg_kernel_new() would build it. */
static int image_program(struct devimg_device *dev, struct devimg_image *img,
			 struct devimg_plugin_program **prog)
{
	struct link_plan plan = { 0 };
	enum devimg_image_format fmt;
	char *options;
	int err;

	err = devimg_image_guess_format(img, &fmt);
	if (err < 0)
		return backend_fail(err, IMG_FMT ": %s", IMG_ARGS(img),
				    devimg_strerror(err));
	err = link_plan_make(dev, img, NULL, 0, &plan);
	if (err < 0)
		return err;
	if (plan.n > 1) {
		err = link_program(dev, &plan, "", "", NULL, NULL, 0, prog);
	} else {
		options = link_build_options(img, "", "");
		err = options ? progcache_get(dev, img, fmt, options, NULL, NULL,
					      0, prog) :
				backend_fail(-ENOMEM, "out of memory");
		free(options);
	}
	link_plan_fini(&plan);
	return err;
}

/* ---- the public functions ---- */

enum direction { WRITE, READ };

static int transfer_check(const char *fn, struct devimg_queue *q,
			  const struct devimg_global *g, size_t off, size_t n,
			  const void *host)
{
	size_t size;

	if (!q || !g || (!host && n))
		return backend_fail(-EINVAL, "%s: NULL argument", fn);
	size = devimg_global_size(g);
	if (off > size || n > size - off)
		return backend_fail(-EINVAL, "%s: device global '%s': bytes %zu..%zu outside its %zu bytes",
				    fn, devimg_global_id(g), off, off + n,
				    size);
	return 0;
}

static int access_check(const struct devimg_global *g, struct devimg_image **imgs,
			size_t n, enum direction dir)
{
	enum devglobal_access acc;
	int err;

	err = host_access(g, imgs, n, &acc);
	if (err < 0)
		return err;
	if (dir == READ ? acc & DEVGLOBAL_ACCESS_READ :
			  acc & DEVGLOBAL_ACCESS_WRITE)
		return 0;
	return backend_fail(-EACCES, "device global '%s' has host access '%s': the host may not %s it",
			    devimg_global_id(g), access_name(acc),
			    dir == READ ? "read" : "write");
}

/* The one image of ok (n) with g's variable, for image scope. */
static int scope_image(struct devimg_device *dev, const struct devimg_global *g,
		       struct devimg_image **ok, size_t n)
{
	if (n == 1)
		return 0;
	return backend_fail(-EINVAL, "device global '%s' has device_image_scope, but " IMG_FMT " and " IMG_FMT " both define it for device %s",
			    devimg_global_id(g), IMG_ARGS(ok[0]),
			    IMG_ARGS(ok[1]), devimg_device_name(dev));
}

static int scoped_transfer(struct devimg_queue *q, const struct devimg_global *g,
			   struct devimg_image *img, size_t off, size_t n,
			   void *host, enum direction dir)
{
	struct devimg_device *dev = q->dev;
	struct devimg_plugin_program *prog;
	char *sym;
	int err;

	err = image_program(dev, img, &prog);
	if (err < 0)
		return backend_fail_prefix(err, "device global '%s'",
					   devimg_global_id(g));
	err = globals_symbol(img, g, global_mapped(dev), &sym);
	if (err < 0)
		return err;
	if (dir == WRITE)
		err = devimg_plugin_global_write(dev->plugin, q->pq, prog, sym,
						 off, n, host, 1);
	else
		err = devimg_plugin_global_read(dev->plugin, q->pq, prog, sym,
						off, n, host, 1);
	free(sym);
	if (err < 0)
		return backend_fail(err, "device global '%s' in the program of " IMG_FMT " on %s: %s",
				    devimg_global_id(g), IMG_ARGS(img),
				    devimg_device_name(dev),
				    devimg_plugin_last_error(dev->plugin));
	return 0;
}

static int pointed_transfer(struct devimg_queue *q,
			    const struct devimg_global *g, size_t off,
			    size_t n, void *host, enum direction dir)
{
	struct devimg_device *dev = q->dev;
	struct devimg_plugin_mem *mem;
	struct global_mem *m;
	int err;

	pthread_mutex_lock(&dev->cache_lock);
	err = global_mem_get_locked(dev, q->pq, g, &m);
	pthread_mutex_unlock(&dev->cache_lock);
	if (err < 0)
		return err;
	mem = global_mem_buffer(m);
	if (dir == WRITE)
		err = devimg_plugin_mem_write(dev->plugin, q->pq, mem, 1, off,
					      n, host);
	else
		err = devimg_plugin_mem_read(dev->plugin, q->pq, mem, 1, off, n,
					     host);
	if (err < 0)
		return backend_fail(err, "device global '%s' on %s: %s",
				    devimg_global_id(g),
				    devimg_device_name(dev),
				    devimg_plugin_last_error(dev->plugin));
	return 0;
}

static int transfer(const char *fn, struct devimg_queue *q,
		    const struct devimg_global *g, size_t off, size_t n,
		    void *host, enum direction dir)
{
	struct devimg_image **defs = NULL, **ok = NULL;
	size_t ndefs = 0, nok = 0;
	int err;

	err = transfer_check(fn, q, g, off, n, host);
	if (err < 0)
		return err;
	err = globals_defs(g, &defs, &ndefs);
	if (err < 0)
		return err;
	ok = calloc(ndefs, sizeof(*ok));
	if (!ok) {
		err = backend_fail(-ENOMEM, "%s: out of memory", fn);
		goto out;
	}
	err = compatible(q->dev, g, defs, ndefs, ok, &nok);
	if (err == 0 && devimg_global_image_scope(g))
		err = scope_image(q->dev, g, ok, nok);
	if (err == 0)
		err = access_check(g, ok, nok, dir);
	if (err < 0 || n == 0)
		goto out;
	if (devimg_global_image_scope(g))
		err = scoped_transfer(q, g, ok[0], off, n, host, dir);
	else
		err = pointed_transfer(q, g, off, n, host, dir);
out:
	free(ok);
	images_drop(defs, ndefs);
	return err;
}

DEVIMG_EXPORT int devimg_global_write(struct devimg_queue *q,
				      const struct devimg_global *g,
				      size_t off, size_t n, const void *src)
{
	return transfer(__func__, q, g, off, n, (void *)src, WRITE);
}

DEVIMG_EXPORT int devimg_global_read(struct devimg_queue *q,
				     const struct devimg_global *g,
				     size_t off, size_t n, void *dst)
{
	return transfer(__func__, q, g, off, n, dst, READ);
}
