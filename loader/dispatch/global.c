// SPDX-License-Identifier: MIT
/*
 * Reads and writes of device globals (devimg_global_read/write), as
 * DPC++ does them:
 *  - with device_image_scope, the variable lives in the program built
 *    from the one image that defines it for the queue's device (built
 *    through the program cache as devimg_kernel_new() builds it: default
 *    options, default spec constants, linked when the image imports);
 *    the plugin copies to or from it on the queue;
 *  - without, the variable holds a pointer: the memory it points to is
 *    made once per device of a context, on first use, zero-filled, and
 *    its device address is written into the variable of every program
 *    built on that device from an image that defines the global (also
 *    those built before, since the memory is made when the first of them
 *    is built); reads and writes copy to or from that memory.
 * Host access (SPIR-V's HostAccessINTEL) is checked first.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devglobal.h"
#include "dispatch.h"
#include "globals.h"
#include "link.h"

/* The memory of a global without image scope, on one device. */
struct global_mem {
	struct global_mem *next;
	const struct devimg_global *g;
	struct devimg_plugin_mem *mem;
	uint64_t addr;
};

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
		return dispatch_error(-ENOMEM, "device global '%s': out of memory",
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
	return dispatch_error(-ENOENT, "%s", msg);
}

/*
 * What the SPIR-V images of imgs let the host do with g: the first
 * HostAccessINTEL decoration found; read_write when none says.
 */
static int host_access(const struct devimg_global *g,
		       struct devimg_image **imgs, size_t n,
		       enum devglobal_access *acc)
{
	enum devimg_image_format fmt;
	const unsigned char *bytes;
	char msg[200];
	size_t size, i;
	int r;

	*acc = DEVGLOBAL_ACCESS_READ_WRITE;
	for (i = 0; i < n; i++) {
		if (devimg_image_guess_format(imgs[i], &fmt) < 0 ||
		    fmt != DEVIMG_FORMAT_SPIRV)
			continue;
		r = image_bytes(imgs[i], &bytes, &size);
		if (r < 0)
			return dispatch_error(r, IMG_FMT ": %s", IMG_ARGS(imgs[i]),
					      devimg_strerror(r));
		r = devglobal_spirv_access(bytes, size, devimg_global_id(g),
					   acc, msg, sizeof(msg));
		if (r == -ENOENT)
			continue;
		if (r < 0)
			return dispatch_error(r, IMG_FMT ": %s", IMG_ARGS(imgs[i]),
					      msg);
		return 0;
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
		return dispatch_error(err, IMG_FMT ": %s", IMG_ARGS(img),
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
				dispatch_error(-ENOMEM, "out of memory");
		free(options);
	}
	link_plan_fini(&plan);
	return err;
}

/* ---- globals without image scope: their memory on a device ---- */

/*
 * Make g's memory on dev, zero-filled through pq (dev->cache_lock held).
 * -ENOTSUP when the backend cannot tell its address.
 */
static int mem_make(struct devimg_device *dev, struct devimg_plugin_queue *pq,
		    const struct devimg_global *g, struct global_mem **out)
{
	size_t size = devimg_global_size(g) ? devimg_global_size(g) : 1;
	struct global_mem *m = calloc(1, sizeof(*m));
	void *zeros = calloc(1, size);
	int err;

	if (!m || !zeros) {
		err = dispatch_error(-ENOMEM, "device global '%s': out of memory",
				     devimg_global_id(g));
		goto fail;
	}
	err = devimg_plugin_mem_create(dev->plugin, dev->pctx, 0, size,
				       &m->mem);
	if (err < 0) {
		err = dispatch_error(err, "device global '%s': cannot create its %zu bytes on %s: %s",
				     devimg_global_id(g), size,
				     devimg_device_name(dev),
				     devimg_plugin_last_error(dev->plugin));
		goto fail;
	}
	err = devimg_plugin_mem_address(dev->plugin, m->mem, &m->addr);
	if (err == 0)
		err = devimg_plugin_mem_write(dev->plugin, pq, m->mem, 1, 0,
					      size, zeros);
	if (err < 0) {
		err = dispatch_error(err, "device global '%s' on %s: %s",
				     devimg_global_id(g),
				     devimg_device_name(dev),
				     devimg_plugin_last_error(dev->plugin));
		devimg_plugin_mem_release(dev->plugin, m->mem);
		goto fail;
	}
	free(zeros);
	m->g = g;
	m->next = dev->globals;
	dev->globals = m;
	*out = m;
	return 0;
fail:
	free(zeros);
	free(m);
	return err;
}

/* g's memory on dev, made now if needed (dev->cache_lock held). */
static int mem_get_locked(struct devimg_device *dev,
			  struct devimg_plugin_queue *pq,
			  const struct devimg_global *g,
			  struct global_mem **out)
{
	struct global_mem *m;

	for (m = dev->globals; m; m = m->next)
		if (m->g == g) {
			*out = m;
			return 0;
		}
	return mem_make(dev, pq, g, out);
}

/* The device address of m into the variable g of prog, through pq. */
static int pointer_write(struct devimg_device *dev,
			 struct devimg_plugin_queue *pq,
			 struct devimg_plugin_program *prog,
			 const struct global_mem *m)
{
	unsigned char bytes[8];
	size_t n = dev->info->address_bits == 32 ? 4 : 8, i;
	int err;

	for (i = 0; i < n; i++)
		bytes[i] = (unsigned char)(m->addr >> (8 * i));
	err = devimg_plugin_global_write(dev->plugin, pq, prog,
					 devimg_global_id(m->g), 0, n, bytes,
					 1);
	if (err < 0)
		return dispatch_error(err, "device global '%s': cannot write its address into a program on %s: %s",
				      devimg_global_id(m->g),
				      devimg_device_name(dev),
				      devimg_plugin_last_error(dev->plugin));
	return 0;
}

/* The memories of img's globals without image scope into prog. */
static int program_pointers(struct devimg_device *dev,
			    struct devimg_plugin_queue **pq,
			    struct devimg_image *img,
			    struct devimg_plugin_program *prog)
{
	const struct devimg_global **gs;
	struct global_mem *m;
	size_t n, i;
	int err;

	err = globals_of_image(img, &gs, &n);
	if (err < 0)
		return dispatch_error(err, IMG_FMT ": its device globals: %s",
				      IMG_ARGS(img), devimg_strerror(err));
	for (i = 0; i < n && err == 0; i++) {
		if (devimg_global_image_scope(gs[i]))
			continue;
		if (!*pq) {
			err = devimg_plugin_queue_create(dev->plugin, dev->pctx,
							 dev->pdev, pq);
			if (err < 0) {
				err = dispatch_error(err, "device globals: no queue on %s: %s",
						     devimg_device_name(dev),
						     devimg_plugin_last_error(dev->plugin));
				break;
			}
		}
		err = mem_get_locked(dev, *pq, gs[i], &m);
		if (err == 0)
			err = pointer_write(dev, *pq, prog, m);
	}
	free(gs);
	return err;
}

void global_program_built(struct devimg_device *dev,
			  struct devimg_image *const *imgs, size_t n,
			  struct devimg_plugin_program *prog)
{
	struct devimg_plugin_queue *pq = NULL;
	size_t i;
	int err = 0;

	for (i = 0; i < n && err == 0; i++)
		err = program_pointers(dev, &pq, imgs[i], prog);
	if (pq)
		devimg_plugin_queue_release(dev->plugin, pq);
	/*
	 * The program stays usable by kernels that do not reach the
	 * global; reading or writing it fails with the same reason.
	 */
	if (err < 0)
		log_warn("%s", devimg_last_error());
}

void global_mem_free(struct devimg_device *dev)
{
	struct global_mem *m, *next;

	for (m = dev->globals; m; m = next) {
		next = m->next;
		devimg_plugin_mem_release(dev->plugin, m->mem);
		free(m);
	}
	dev->globals = NULL;
}

/* ---- the public functions ---- */

enum direction { WRITE, READ };

static int transfer_check(const char *fn, struct devimg_queue *q,
			  const struct devimg_global *g, size_t off, size_t n,
			  const void *host)
{
	size_t size;

	if (!q || !g || (!host && n))
		return dispatch_error(-EINVAL, "%s: NULL argument", fn);
	size = devimg_global_size(g);
	if (off > size || n > size - off)
		return dispatch_error(-EINVAL, "%s: device global '%s': bytes %zu..%zu outside its %zu bytes",
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
	return dispatch_error(-EACCES, "device global '%s' has host access '%s': the host may not %s it",
			      devimg_global_id(g), access_name(acc),
			      dir == READ ? "read" : "write");
}

/* The one image of ok (n) with g's variable, for image scope. */
static int scope_image(struct devimg_device *dev, const struct devimg_global *g,
		       struct devimg_image **ok, size_t n)
{
	if (n == 1)
		return 0;
	return dispatch_error(-EINVAL, "device global '%s' has device_image_scope, but " IMG_FMT " and " IMG_FMT " both define it for device %s",
			      devimg_global_id(g), IMG_ARGS(ok[0]),
			      IMG_ARGS(ok[1]), devimg_device_name(dev));
}

static int scoped_transfer(struct devimg_queue *q, const struct devimg_global *g,
			   struct devimg_image *img, size_t off, size_t n,
			   void *host, enum direction dir)
{
	struct devimg_device *dev = q->dev;
	struct devimg_plugin_program *prog;
	int err;

	err = image_program(dev, img, &prog);
	if (err < 0)
		return dispatch_error_prefix(err, "device global '%s'",
					     devimg_global_id(g));
	if (dir == WRITE)
		err = devimg_plugin_global_write(dev->plugin, q->pq, prog,
						 devimg_global_id(g), off, n,
						 host, 1);
	else
		err = devimg_plugin_global_read(dev->plugin, q->pq, prog,
						devimg_global_id(g), off, n,
						host, 1);
	if (err < 0)
		return dispatch_error(err, "device global '%s' in the program of " IMG_FMT " on %s: %s",
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
	struct global_mem *m;
	int err;

	pthread_mutex_lock(&dev->cache_lock);
	err = mem_get_locked(dev, q->pq, g, &m);
	pthread_mutex_unlock(&dev->cache_lock);
	if (err < 0)
		return err;
	if (dir == WRITE)
		err = devimg_plugin_mem_write(dev->plugin, q->pq, m->mem, 1, off,
					      n, host);
	else
		err = devimg_plugin_mem_read(dev->plugin, q->pq, m->mem, 1, off,
					     n, host);
	if (err < 0)
		return dispatch_error(err, "device global '%s' on %s: %s",
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
		err = dispatch_error(-ENOMEM, "%s: out of memory", fn);
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
