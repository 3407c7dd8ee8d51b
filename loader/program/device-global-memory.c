// SPDX-License-Identifier: MIT
/*
 * The memory of device globals without image scope: made once per device
 * of a context (zero-filled, through the plugin's buffers), its device
 * address written into the variable of every program built on that
 * device from an image defining the global (the program cache calls
 * global_program_built() after each build), freed with the context. The
 * list is the device's, guarded by its cache lock. Nothing here builds a
 * program: the program cache calls in, never the other way round.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "loader/program/program.h"
#include "loader/registry/device-globals.h"

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
		err = backend_fail(-ENOMEM, "device global '%s': out of memory",
				   devimg_global_id(g));
		goto fail;
	}
	err = devimg_plugin_mem_create(dev->plugin, dev->pctx, 0, size,
				       &m->mem);
	if (err < 0) {
		err = backend_fail(err, "device global '%s': cannot create its %zu bytes on %s: %s",
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
		err = backend_fail(err, "device global '%s' on %s: %s",
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

int global_mem_get_locked(struct devimg_device *dev,
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
			 struct devimg_image *img, const struct global_mem *m)
{
	unsigned char bytes[8];
	size_t n = dev->info->address_bits == 32 ? 4 : 8, i;
	char *sym;
	int err;

	for (i = 0; i < n; i++)
		bytes[i] = (unsigned char)(m->addr >> (8 * i));
	err = globals_symbol(img, m->g, global_mapped(dev), &sym);
	if (err < 0)
		return err;
	err = devimg_plugin_global_write(dev->plugin, pq, prog, sym, 0, n,
					 bytes, 1);
	free(sym);
	if (err < 0)
		return backend_fail(err, "device global '%s': cannot write its address into a program on %s: %s",
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
		return backend_fail(err, IMG_FMT ": its device globals: %s",
				    IMG_ARGS(img), devimg_strerror(err));
	for (i = 0; i < n && err == 0; i++) {
		if (devimg_global_image_scope(gs[i]))
			continue;
		if (!*pq) {
			err = devimg_plugin_queue_create(dev->plugin, dev->pctx,
							 dev->pdev, pq);
			if (err < 0) {
				err = backend_fail(err, "device globals: no queue on %s: %s",
						   devimg_device_name(dev),
						   devimg_plugin_last_error(dev->plugin));
				break;
			}
		}
		err = global_mem_get_locked(dev, *pq, gs[i], &m);
		if (err == 0)
			err = pointer_write(dev, *pq, prog, img, m);
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

	/*
	 * The program stays usable by kernels that do not reach the
	 * global, so the call that built it succeeds and keeps the thread's
	 * message; reading or writing the global fails with the reason
	 * (logged here at debug priority with the details).
	 */
	error_hold();
	for (i = 0; i < n && err == 0; i++)
		err = program_pointers(dev, &pq, imgs[i], prog);
	error_release();
	if (pq)
		devimg_plugin_queue_release(dev->plugin, pq);
	if (err < 0)
		log_warn("device globals of a program built on %s: their address cannot be written: %s",
			 devimg_device_name(dev), devimg_strerror(err));
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

struct devimg_plugin_mem *global_mem_buffer(const struct global_mem *m)
{
	return m->mem;
}
