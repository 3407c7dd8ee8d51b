// SPDX-License-Identifier: MIT
/*
 * Contexts: the process-wide plugin set, device enumeration through the
 * device selector, one plugin context per platform.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "selector.h"

static pthread_once_t plugins_once = PTHREAD_ONCE_INIT;
static struct devimg_plugins *plugins;

static void plugins_load_once(void)
{
	struct devimg_plugins_config cfg;

	devimg_plugins_config_env(&cfg);
	if (devimg_plugins_load(&cfg, &plugins) < 0)
		plugins = NULL;
}

struct devimg_plugins *dispatch_plugins(void)
{
	pthread_once(&plugins_once, plugins_load_once);
	return plugins;
}

static void ctx_free(struct devimg_ctx *ctx)
{
	unsigned i;

	for (i = 0; i < ctx->ndevs; i++) {
		global_mem_free(&ctx->devs[i]);
		progcache_free(&ctx->devs[i]);
		pthread_mutex_destroy(&ctx->devs[i].cache_lock);
	}
	for (i = 0; i < ctx->nplats; i++)
		devimg_plugin_context_release(ctx->plats[i].plugin,
					      ctx->plats[i].pctx);
	bundle_syclbin_release(ctx);
	free(ctx->devs);
	free(ctx->plats);
	free(ctx);
}

/* Append the kept devices of one platform and create its context. */
static int ctx_add_platform(struct devimg_ctx *ctx, struct devimg_plugin *p,
			    struct devimg_plugin_platform *plat,
			    const struct devimg_selector *sel,
			    unsigned *backend_index)
{
	struct devimg_plugin_device **pdevs = NULL, **kept = NULL;
	struct devimg_plugin_context *pctx;
	struct dispatch_platform *plats;
	struct devimg_device *devs;
	const char *backend = devimg_plugin_backend(p);
	unsigned n, nkept = 0, i;
	int err;

	err = devimg_plugin_device_list(p, plat, 0, NULL, &n);
	if (err < 0 || n == 0)
		return 0;	/* a platform without devices is no error */
	pdevs = calloc(n, sizeof(*pdevs));
	kept = calloc(n, sizeof(*kept));
	if (!pdevs || !kept) {
		err = -ENOMEM;
		goto out;
	}
	err = devimg_plugin_device_list(p, plat, n, pdevs, &n);
	if (err < 0) {
		err = 0;
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct devimg_plugin_device_info *info =
			devimg_plugin_device_info(p, pdevs[i]);

		if (devimg_selector_keep(sel, backend, (*backend_index)++,
					 info->type))
			kept[nkept++] = pdevs[i];
	}
	if (nkept == 0)
		goto out;
	err = devimg_plugin_context_create(p, nkept, kept, &pctx);
	if (err < 0) {
		log_warn("%s: no context for a platform, its devices are left out: %s",
			 backend, devimg_plugin_last_error(p));
		err = 0;
		goto out;
	}
	plats = realloc(ctx->plats, (ctx->nplats + 1) * sizeof(*plats));
	devs = plats ? realloc(ctx->devs,
			       (ctx->ndevs + nkept) * sizeof(*devs)) : NULL;
	if (plats)
		ctx->plats = plats;
	if (devs)
		ctx->devs = devs;
	if (!plats || !devs) {
		devimg_plugin_context_release(p, pctx);
		err = -ENOMEM;
		goto out;
	}
	plats[ctx->nplats].plugin = p;
	plats[ctx->nplats].pctx = pctx;
	ctx->nplats++;
	for (i = 0; i < nkept; i++) {
		struct devimg_device *dev = &devs[ctx->ndevs + i];

		memset(dev, 0, sizeof(*dev));
		dev->plugin = p;
		dev->pdev = kept[i];
		dev->pctx = pctx;
		dev->info = devimg_plugin_device_info(p, kept[i]);
		device_init_caps(dev);
		pthread_mutex_init(&dev->cache_lock, NULL);
	}
	ctx->ndevs += nkept;
out:
	free(pdevs);
	free(kept);
	return err;
}

DEVIMG_EXPORT int devimg_ctx_new(struct devimg_ctx **out)
{
	struct devimg_selector_error serr;
	struct devimg_selector *sel;
	struct devimg_plugins *ps;
	struct devimg_ctx *ctx;
	unsigned i, j;
	int err;

	if (!out)
		return dispatch_error(-EINVAL, "devimg_ctx_new: NULL out");
	ps = dispatch_plugins();
	if (!ps)
		return dispatch_error(-ENOMEM, "cannot load the plugins: out of memory");
	err = devimg_selector_parse(devimg_env(DEVIMG_ENV_DEVICE_SELECTOR),
				    &sel, &serr);
	if (err < 0)
		return dispatch_error(err, "DEVIMG_DEVICE_SELECTOR: %s",
				      err == -EINVAL ? serr.msg : "out of memory");
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		devimg_selector_free(sel);
		return dispatch_error(-ENOMEM, "devimg_ctx_new: out of memory");
	}
	atomic_init(&ctx->refcount, 1);
	atomic_init(&ctx->builds, 0);
	atomic_init(&ctx->syclbins, NULL);
	for (i = 0; i < devimg_plugins_count(ps); i++) {
		struct devimg_plugin *p = devimg_plugins_get(ps, i);
		struct devimg_plugin_platform **plats;
		unsigned nplats, backend_index = 0;

		if (devimg_plugin_platform_list(p, 0, NULL, &nplats) < 0 ||
		    nplats == 0)
			continue;
		plats = calloc(nplats, sizeof(*plats));
		if (!plats) {
			err = -ENOMEM;
			break;
		}
		if (devimg_plugin_platform_list(p, nplats, plats, &nplats) < 0)
			nplats = 0;
		for (j = 0; j < nplats && err == 0; j++)
			err = ctx_add_platform(ctx, p, plats[j], sel,
					       &backend_index);
		free(plats);
		if (err < 0)
			break;
	}
	devimg_selector_free(sel);
	if (err < 0) {
		ctx_free(ctx);
		return dispatch_error(err, "devimg_ctx_new: %s",
				      devimg_strerror(err));
	}
	for (i = 0; i < ctx->ndevs; i++)
		ctx->devs[i].ctx = ctx;
	*out = ctx;
	return 0;
}

DEVIMG_EXPORT struct devimg_ctx *devimg_ctx_ref(struct devimg_ctx *ctx)
{
	if (ctx)
		atomic_fetch_add(&ctx->refcount, 1);
	return ctx;
}

DEVIMG_EXPORT struct devimg_ctx *devimg_ctx_unref(struct devimg_ctx *ctx)
{
	if (!ctx)
		return NULL;
	if (atomic_fetch_sub(&ctx->refcount, 1) > 1)
		return ctx;
	ctx_free(ctx);
	return NULL;
}

DEVIMG_EXPORT unsigned devimg_ctx_stat_builds(const struct devimg_ctx *ctx)
{
	return ctx ? atomic_load(&((struct devimg_ctx *)ctx)->builds) : 0;
}

DEVIMG_EXPORT unsigned devimg_device_count(struct devimg_ctx *ctx)
{
	return ctx ? ctx->ndevs : 0;
}

DEVIMG_EXPORT struct devimg_device *devimg_device_get(struct devimg_ctx *ctx,
						      unsigned i)
{
	if (ctx && i < ctx->ndevs)
		return &ctx->devs[i];
	if (!ctx)
		fail_null("devimg_device_get");
	else
		dispatch_error(-ERANGE, "no device %u in the context, it has %u",
			       i, ctx->ndevs);
	return NULL;
}
