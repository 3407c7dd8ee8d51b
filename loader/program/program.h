/* SPDX-License-Identifier: MIT */
/*
 * The program wing (loader/program/): the program cache of each device
 * (progcache.c), linking (link.c) and what is written into programs
 * after a build: the memory of device globals (device-global-memory.c).
 * Below it: the backend (loader/backend/backend.h) and the registry.
 */
#ifndef DEVIMG_LOADER_PROGRAM_H
#define DEVIMG_LOADER_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "loader/backend/backend.h"

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

/* ---- link.c ---- */

/* The images of one program: imgs[0] the root, then its providers. */
struct link_plan {
	struct devimg_image **imgs;	/* references */
	size_t n;
};

/* How many symbols img imports. -ESTALE, -ENOMEM. */
int link_image_imports(struct devimg_image *img, size_t *n);

/*
 * The plan of root for dev: root alone when it imports nothing. Providers
 * are taken from pool (npool images, e.g. a bundle's for dev) first, then
 * from the registry. -ENOEXEC when a symbol has no provider (the message
 * names the symbol), -ESTALE, -ENOMEM; the message is set.
 */
int link_plan_make(struct devimg_device *dev, struct devimg_image *root,
		   struct devimg_image *const *pool, size_t npool,
		   struct link_plan *plan);
void link_plan_fini(struct link_plan *plan);

/*
 * The program linked from plan's images: each compiled with its image's
 * compile options and compile_opts, linked with the root's link options
 * and link_opts; spec (and its key) are the root's native values. From
 * the cache, or made and cached. The message is set on failure.
 */
int link_program(struct devimg_device *dev, const struct link_plan *plan,
		 const char *compile_opts, const char *link_opts,
		 struct devimg_spec_values *spec, const void *spec_key,
		 size_t key_size, struct devimg_plugin_program **out);

/* "a b", or NULL when out of memory. */
char *link_join_options(const char *a, const char *b);
/*
 * The options img is built with alone: its compile options and copts,
 * then its link options and lopts (malloc'ed; NULL when out of memory).
 * devimg_kernel_new() and bundles both use it, so that they key the
 * program cache alike.
 */
char *link_build_options(struct devimg_image *img, const char *copts,
			 const char *lopts);

#endif
