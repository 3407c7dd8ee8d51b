/* SPDX-License-Identifier: MIT */
/*
 * Device image linking (link.c): the images a program is linked from, and
 * the linked program from the device's cache.
 */
#ifndef DEVIMG_LOADER_LINK_H
#define DEVIMG_LOADER_LINK_H

#include "loader/dispatch/dispatch.h"

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
