/* SPDX-License-Identifier: MIT */
/*
 * The internal objects above the registry: devices (loader/backend/),
 * contexts, queues, buffers and kernels (loader/dispatch/), with the
 * declarations of the program cache and linking (loader/program/) and of
 * bundles, which the devices and contexts hold. One header for the three
 * wings for now; what each file may call is the stack of docs/design.md.
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

#include "loader/registry/registry-internal.h"
#include "loader/backend/plugins.h"

struct progcache_entry;
struct global_mem;

/* One plugin context: the kept devices of one platform. */
struct dispatch_platform {
	struct devimg_plugin *plugin;
	struct devimg_plugin_context *pctx;
	struct devimg_device *devs;	/* the platform's, one allocation */
};

struct devimg_device {
	struct devimg_ctx *ctx;			/* borrowed: ctx owns us */
	struct devimg_plugin *plugin;
	struct devimg_plugin_device *pdev;
	struct devimg_plugin_context *pctx;
	const struct devimg_plugin_device_info *info;
	struct devimg_device_caps caps;
	struct devimg_device_features features;
	pthread_mutex_t cache_lock;		/* guards cache, serialises builds */
	struct progcache_entry *cache;
	struct global_mem *globals;		/* device-global-access.c; under cache_lock */
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


/* ---- device-global-memory.c: memory of device globals without image scope ---- */

/*
 * prog was just built on dev from imgs (n; dev->cache_lock held): the
 * memory of their globals without image scope, made if needed, has its
 * address written into prog's variables. A failure is logged; reading or
 * writing such a global then fails with the reason.
 */
void global_program_built(struct devimg_device *dev,
			  struct devimg_image *const *imgs, size_t n,
			  struct devimg_plugin_program *prog);
/* Free the memory of dev's globals (its context is freed). */
void global_mem_free(struct devimg_device *dev);
/*
 * The memory of g (a global without image scope) on dev, made now if
 * needed, zero-filled through pq (dev->cache_lock held). -ENOTSUP when the
 * backend cannot tell its address (the message names the plugin and the
 * operation), -ENOMEM, the plugin's error.
 */
int global_mem_get_locked(struct devimg_device *dev,
			  struct devimg_plugin_queue *pq,
			  const struct devimg_global *g,
			  struct global_mem **out);
/* The plugin buffer of a global's memory. */
struct devimg_plugin_mem *global_mem_buffer(const struct global_mem *m);
/*
 * Whether dev's backend finds a global by the name its image's
 * "<id>@global_id_mapping" gives (CUDA, as DPC++'s CUDA adapter does)
 * rather than by the unique id (the SPIR-V backends: HostAccessINTEL's
 * name is the id).
 */
static inline bool global_mapped(const struct devimg_device *dev)
{
	return dev->caps.backend == DEVIMG_BACKEND_CUDA;
}

/* ---- plugin-error.c ---- */

/*
 * Record the calling thread's detailed message (devimg_last_error()) and
 * return err, so that callers can write "return dispatch_error(...)".
 */
int dispatch_error(int err, const char *format, ...) DEVIMG_PRINTF(2, 3);
/* Put "<format>: " before the calling thread's message; returns err. */
int dispatch_error_prefix(int err, const char *format, ...)
	DEVIMG_PRINTF(2, 3);

/* ---- context.c ---- */

/*
 * Put own on ctx's release list (any thread): ctx_free() calls its
 * release(), the newest first, once the context's programs are freed.
 */
void ctx_own(struct devimg_ctx *ctx, struct ctx_owned *own);

/* The process-wide plugin set, bound on first use; NULL when -ENOMEM. */
struct devimg_plugins *dispatch_plugins(void);

/* ---- device.c ---- */

/* Fill dev->caps and dev->features from dev->info. */
void device_init_caps(struct devimg_device *dev);

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

/* ---- progcache.c ---- */

enum progcache_kind {
	PROGCACHE_BUILT,	/* built from one image */
	PROGCACHE_OBJECT,	/* compiled from one image, for linking */
	PROGCACHE_LINKED,	/* linked from the objects of several */
};

/* One image of a link: how its object is compiled. */
struct progcache_unit {
	struct devimg_image *img;
	enum devimg_image_format fmt;
	const char *options;		/* compile options */
	struct devimg_spec_values *spec;	/* as for progcache_get() */
	const void *spec_key;
	size_t key_size;
};

/*
 * The built program of img for dev, with the given options and, for the
 * native spec-constant path, the values in spec (NULL: the module's
 * defaults; key is spec_key/key_size, the full value blob). Built on the
 * first request (counted in ctx->builds), then cached for the context's
 * life. The program is borrowed from the cache. -ENOEXEC on a build
 * failure (the message holds the plugin's error and build log), -ENOMEM,
 * -ESTALE when the image was unregistered, or the plugin's error.
 */
int progcache_get(struct devimg_device *dev, struct devimg_image *img,
		  enum devimg_image_format fmt, const char *options,
		  struct devimg_spec_values *spec, const void *spec_key,
		  size_t key_size, struct devimg_plugin_program **out);
/*
 * As progcache_get(), the object compiled from img for linking (counted in
 * ctx->builds too). -ENOTSUP when the plugin cannot compile separately
 * (the message says why).
 */
int progcache_get_object(struct devimg_device *dev, struct devimg_image *img,
			 enum devimg_image_format fmt, const char *options,
			 struct devimg_spec_values *spec, const void *spec_key,
			 size_t key_size, struct devimg_plugin_program **out);
/*
 * The program linked from the objects of u[0] to u[n - 1] (n >= 1; u[0]
 * the image whose kernels are wanted; its spec key keys the link) with
 * link options; each object from the cache or compiled, the link cached.
 * -ENOEXEC on a compile or link failure, -ENOTSUP when the backend
 * cannot link, -ENOMEM, -ESTALE.
 */
int progcache_get_linked(struct devimg_device *dev,
			 const struct progcache_unit *u, size_t n,
			 const char *options,
			 struct devimg_plugin_program **out);
void progcache_free(struct devimg_device *dev);

#endif
