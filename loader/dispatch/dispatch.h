/* SPDX-License-Identifier: MIT */
/*
 * The dispatch wing (loader/dispatch/): contexts, queues, buffers,
 * kernels and launches, bundles; what its files share. Below it: the
 * program wing (loader/program/program.h), the backend
 * (loader/backend/backend.h), the registry.
 *
 * Lifetimes: devices belong to their context and live as long as it;
 * queues, buffers and kernels each hold a reference to the context. The
 * plugins are bound once per process and never unbound.
 */
#ifndef DEVIMG_LOADER_DISPATCH_H
#define DEVIMG_LOADER_DISPATCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <devimg/devimg.h>

#include "loader/program/program.h"

/* One plugin context: the kept devices of one platform. */
struct dispatch_platform {
	struct devimg_plugin *plugin;
	struct devimg_plugin_context *pctx;
	struct devimg_device *devs;	/* the platform's, one allocation */
};

/*
 * The devices are enumerated lazily, a plugin at a time in plugin order,
 * as far as the device asked for (context.c); a device, once there, stays
 * where it is.
 */
/*
 * Something a context owns and frees with itself, such as the SYCLBIN
 * files its bundles registered: embedded first in its owner, release()
 * frees the whole owner. The context calls back through release() and so
 * calls into no file above its own (tools/call-loops.sh).
 */
struct ctx_owned {
	struct ctx_owned *next;
	void (*release)(struct ctx_owned *own);
};

struct devimg_ctx {
	atomic_uint refcount;
	atomic_uint builds;
	/* Set once every plugin's devices are in: devs is final. */
	atomic_bool enumerated;
	/* Guards the rest of enumeration: what follows up to owned. */
	pthread_mutex_t enum_lock;
	struct devimg_selector *sel;
	unsigned next_plugin;
	unsigned ndevs;
	struct devimg_device **devs;
	unsigned nplats;
	struct dispatch_platform *plats;
	/* What each platform reported and the selector kept (account.h). */
	struct account account;
	/* What the context owns and frees with itself (ctx_own()). */
	_Atomic(struct ctx_owned *) owned;
};

struct devimg_queue {
	atomic_uint refcount;
	struct devimg_ctx *ctx;
	struct devimg_device *dev;
	struct devimg_plugin_queue *pq;
	/* The plugin's queue_finish when untraced, else NULL (plugins.h). */
	int (*finish)(struct devimg_plugin_queue *q);
};

struct devimg_buf {
	atomic_uint refcount;
	struct devimg_ctx *ctx;
	struct devimg_device *dev;
	struct devimg_plugin_mem *mem;
	size_t size;
};

/* ---- context.c ---- */

/*
 * Put own on ctx's release list (any thread): ctx_free() calls its
 * release(), the newest first, once the context's programs are freed.
 */
void ctx_own(struct devimg_ctx *ctx, struct ctx_owned *own);

/*
 * Enumerate the rest of ctx's devices: ctx->devs and ctx->ndevs are final
 * afterwards. 0, or -ENOMEM (with the message).
 */
int ctx_enumerate_all(struct devimg_ctx *ctx);

/* ---- bundle.c ---- */

/*
 * The caller's filter (NULL: none) as the library's *f. -EINVAL (the
 * message names both sizes) when its size is below the DEVIMG_0.1 size.
 */
int bundle_filter_read(const struct devimg_bundle_filter *filter,
		       struct devimg_bundle_filter *f);

/* ---- context.c ---- */

/* The process-wide plugin set, bound on first use; NULL when -ENOMEM. */
struct devimg_plugins *dispatch_plugins(void);

/* ---- kernel.c ---- */

/*
 * The ND-range of a launch as devimg_launch() checks it before a backend
 * sees it: 0, or -EINVAL (devimg_last_error() names the dimension).
 */
int launch_range_check(unsigned dims, const size_t *global_offset,
		       const size_t *global_size, const size_t *local_size);

/* Where a kernel comes from when not from the registry: a bundle. */
struct kernel_source {
	struct devimg_image *img;	/* the image */
	struct devimg_plugin_program *prog;	/* built (or linked) from it */
	struct devimg_spec_values *spec;	/* its values; NULL: defaults */
};

/*
 * devimg_kernel_new(), or with src the kernel of src->prog, whose spec
 * constants are then src->spec's and fixed.
 */
int kernel_new_from(struct devimg_device *dev, const char *name,
		    const struct kernel_source *src,
		    struct devimg_kernel **out);

#endif
