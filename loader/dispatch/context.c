// SPDX-License-Identifier: MIT
/*
 * Contexts: the process-wide plugin set, device enumeration through the
 * device selector, one plugin context per platform.
 *
 * Enumeration is lazy: a context goes through the plugins in their order
 * only as far as the device asked for. devimg_ctx_new() enumerates up to
 * the first device, the default one (the first plugin that keeps a device,
 * the plugins after it not even started); devimg_device_get(ctx, i) goes
 * on up to device i; devimg_device_count() and bundles over the whole
 * context, to the end (the plugins left starting side by side). Devices
 * and their numbers are those a full enumeration gives.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/dispatch/dispatch.h"
#include "loader/backend/device-selector.h"

static pthread_once_t plugins_once = PTHREAD_ONCE_INIT;
static struct devimg_plugins *plugins;

static void plugins_load_once(void)
{
	struct devimg_plugins_config cfg;

	devimg_plugins_config_env(&cfg);
	if (devimg_plugins_load(&cfg, &plugins) < 0)
		plugins = NULL;
	else
		devimg_plugins_keep_loader();
}

struct devimg_plugins *dispatch_plugins(void)
{
	pthread_once(&plugins_once, plugins_load_once);
	return plugins;
}

void ctx_own(struct devimg_ctx *ctx, struct ctx_owned *own)
{
	struct ctx_owned *head = atomic_load(&ctx->owned);

	do
		own->next = head;
	while (!atomic_compare_exchange_weak(&ctx->owned, &head, own));
}

static void ctx_free(struct devimg_ctx *ctx)
{
	struct ctx_owned *own, *next;
	unsigned i;

	for (i = 0; i < ctx->ndevs; i++) {
		global_mem_free(ctx->devs[i]);
		progcache_free(ctx->devs[i]);
		pthread_mutex_destroy(&ctx->devs[i]->cache_lock);
	}
	for (i = 0; i < ctx->nplats; i++) {
		devimg_plugin_context_release(ctx->plats[i].plugin,
					      ctx->plats[i].pctx);
		free(ctx->plats[i].devs);
	}
	for (own = atomic_load(&ctx->owned); own; own = next) {
		next = own->next;
		own->release(own);
	}
	devimg_selector_free(ctx->sel);
	pthread_mutex_destroy(&ctx->enum_lock);
	free(ctx->devs);
	free(ctx->plats);
	free(ctx);
}

/*
 * Make the devices of a platform's plugin context, append them to ctx.
 * Returns 0 or -ENOMEM, with the context released.
 */
static int ctx_add_devices(struct devimg_ctx *ctx, struct devimg_plugin *p,
			   struct devimg_plugin_context *pctx,
			   struct devimg_plugin_device **kept, unsigned nkept)
{
	struct dispatch_platform *plats;
	struct devimg_device **ptrs, *devs;
	unsigned i;

	plats = realloc(ctx->plats, (ctx->nplats + 1) * sizeof(*plats));
	if (plats)
		ctx->plats = plats;
	ptrs = plats ? realloc(ctx->devs, (ctx->ndevs + nkept) *
						  sizeof(*ptrs)) : NULL;
	if (ptrs)
		ctx->devs = ptrs;
	devs = ptrs ? calloc(nkept, sizeof(*devs)) : NULL;
	if (!devs) {
		devimg_plugin_context_release(p, pctx);
		return -ENOMEM;
	}
	plats[ctx->nplats].plugin = p;
	plats[ctx->nplats].pctx = pctx;
	plats[ctx->nplats].devs = devs;
	ctx->nplats++;
	for (i = 0; i < nkept; i++) {
		struct devimg_device *dev = &devs[i];

		dev->ctx = ctx;
		dev->builds = &ctx->builds;
		dev->plugin = p;
		dev->pdev = kept[i];
		dev->pctx = pctx;
		dev->info = devimg_plugin_device_info(p, kept[i]);
		device_init_caps(dev);
		pthread_mutex_init(&dev->cache_lock, NULL);
		ptrs[ctx->ndevs + i] = dev;
	}
	ctx->ndevs += nkept;
	return 0;
}

/*
 * A platform's devices in the account: "opencl: platform "X": 2 devices
 * (cpu, gpu)", and what the selector kept of them when it left some out.
 * types: a bit per enum devimg_plugin_device_type.
 */
static void account_devices(struct devimg_ctx *ctx, const char *backend,
			    const char *name, unsigned n, unsigned types,
			    unsigned nkept)
{
	static const enum devimg_plugin_device_type all[] = {
		DEVIMG_PLUGIN_DEVICE_CPU, DEVIMG_PLUGIN_DEVICE_GPU,
		DEVIMG_PLUGIN_DEVICE_ACCELERATOR, DEVIMG_PLUGIN_DEVICE_OTHER,
	};
	char kinds[64] = "";
	size_t i, len = 0;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (types & (1u << (all[i] & 7)) && len < sizeof(kinds))
			len += (size_t)snprintf(kinds + len, sizeof(kinds) - len,
						"%s%s", len ? ", " : "",
						devimg_plugin_type_name(all[i]));
	if (nkept == n)
		account_add(&ctx->account, "%s: platform \"%s\": %u device%s (%s)",
			    backend, name, n, n == 1 ? "" : "s", kinds);
	else
		account_add(&ctx->account, "%s: platform \"%s\": %u device%s (%s), DEVIMG_DEVICE_SELECTOR kept %u",
			    backend, name, n, n == 1 ? "" : "s", kinds, nkept);
}

/* Append the kept devices of one platform and create its context. */
static int ctx_add_platform(struct devimg_ctx *ctx, struct devimg_plugin *p,
			    struct devimg_plugin_platform *plat,
			    unsigned *backend_index)
{
	struct devimg_plugin_device **pdevs = NULL, **kept = NULL;
	struct devimg_plugin_context *pctx;
	const char *backend = devimg_plugin_backend(p);
	const char *name = devimg_plugin_platform_info(p, plat)->name;
	unsigned n, nkept = 0, i, types = 0;
	int err;

	err = devimg_plugin_device_list(p, plat, 0, NULL, &n);
	/* A platform without devices is no error: the account says. */
	if (err < 0) {
		account_add(&ctx->account, "%s: platform \"%s\": cannot list devices: %s",
			    backend, name, devimg_plugin_last_error(p));
		return 0;
	}
	if (n == 0) {
		/* PoCL's usual reason, which it does not tell (README). */
		account_add(&ctx->account, "%s: platform \"%s\": no device%s",
			    backend, name,
			    strstr(name, "Portable Computing Language") ?
			    " (PoCL lists none when it cannot make its cache folder: POCL_CACHE_DIR, XDG_CACHE_HOME or ~/.cache)" :
			    "");
		return 0;
	}
	pdevs = calloc(n, sizeof(*pdevs));
	kept = calloc(n, sizeof(*kept));
	if (!pdevs || !kept) {
		err = -ENOMEM;
		goto out;
	}
	err = devimg_plugin_device_list(p, plat, n, pdevs, &n);
	if (err < 0) {
		account_add(&ctx->account, "%s: platform \"%s\": cannot list devices: %s",
			    backend, name, devimg_plugin_last_error(p));
		err = 0;
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct devimg_plugin_device_info *info =
			devimg_plugin_device_info(p, pdevs[i]);

		types |= 1u << (info->type & 7);
		if (devimg_selector_keep(ctx->sel, backend, (*backend_index)++,
					 info->type))
			kept[nkept++] = pdevs[i];
	}
	account_devices(ctx, backend, name, n, types, nkept);
	if (nkept == 0)
		goto out;
	err = devimg_plugin_context_create(p, nkept, kept, &pctx);
	if (err < 0) {
		log_warn("%s: no context for a platform, its devices are left out: %s",
			 backend, devimg_plugin_last_error(p));
		account_add(&ctx->account, "%s: platform \"%s\": no context: %s",
			    backend, name, devimg_plugin_last_error(p));
		err = 0;
		goto out;
	}
	err = ctx_add_devices(ctx, p, pctx, kept, nkept);
out:
	free(pdevs);
	free(kept);
	return err;
}

/* Append the kept devices of every platform of p. 0 or -ENOMEM. */
static int ctx_add_plugin(struct devimg_ctx *ctx, struct devimg_plugin *p)
{
	struct devimg_plugin_platform **plats;
	unsigned nplats, backend_index = 0, j;
	int err = 0;

	if (devimg_plugin_platform_list(p, 0, NULL, &nplats) < 0 ||
	    nplats == 0)
		return 0;	/* the plugins' account says why */
	plats = calloc(nplats, sizeof(*plats));
	if (!plats)
		return -ENOMEM;
	if (devimg_plugin_platform_list(p, nplats, plats, &nplats) < 0)
		nplats = 0;
	for (j = 0; j < nplats && err == 0; j++)
		err = ctx_add_platform(ctx, p, plats[j], &backend_index);
	free(plats);
	return err;
}

/*
 * Enumerate the plugins' devices in plugin order until ctx has more than
 * want, or all of them (want UINT_MAX): a plugin not reached yet is not
 * even started (devimg_plugins_get()). 0 or -ENOMEM, with the message.
 */
static int ctx_enumerate(struct devimg_ctx *ctx, unsigned want)
{
	struct devimg_plugins *ps = dispatch_plugins();
	struct devimg_plugin *p;
	int err = 0;

	if (atomic_load_explicit(&ctx->enumerated, memory_order_acquire))
		return 0;
	pthread_mutex_lock(&ctx->enum_lock);
	/* All of them at once: the plugins left start side by side. */
	if (want == UINT_MAX)
		devimg_plugins_count(ps);
	while (err == 0 && (want == UINT_MAX || ctx->ndevs <= want) &&
	       !atomic_load_explicit(&ctx->enumerated, memory_order_relaxed)) {
		p = devimg_plugins_get(ps, ctx->next_plugin);
		if (!p) {
			devimg_selector_free(ctx->sel);
			ctx->sel = NULL;
			atomic_store_explicit(&ctx->enumerated, true,
					      memory_order_release);
			break;
		}
		err = ctx_add_plugin(ctx, p);
		/* Out of memory, the plugin's devices are left out. */
		ctx->next_plugin++;
	}
	pthread_mutex_unlock(&ctx->enum_lock);
	if (err < 0)
		return backend_fail(err, "enumerating devices: %s",
				    devimg_strerror(err));
	return 0;
}

int ctx_enumerate_all(struct devimg_ctx *ctx)
{
	return ctx_enumerate(ctx, UINT_MAX);
}

DEVIMG_EXPORT int devimg_ctx_new(struct devimg_ctx **out)
{
	struct devimg_selector_error serr;
	struct devimg_selector *sel;
	struct devimg_ctx *ctx;
	int err;

	if (!out)
		return backend_fail(-EINVAL, "devimg_ctx_new: NULL out");
	if (!dispatch_plugins())
		return backend_fail(-ENOMEM, "cannot load the plugins: out of memory");
	err = devimg_selector_parse(devimg_env(DEVIMG_ENV_DEVICE_SELECTOR),
				    &sel, &serr);
	if (err < 0)
		return backend_fail(err, "DEVIMG_DEVICE_SELECTOR: %s",
				    err == -EINVAL ? serr.msg : "out of memory");
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		devimg_selector_free(sel);
		return backend_fail(-ENOMEM, "devimg_ctx_new: out of memory");
	}
	atomic_init(&ctx->refcount, 1);
	atomic_init(&ctx->builds, 0);
	atomic_init(&ctx->enumerated, false);
	atomic_init(&ctx->owned, NULL);
	pthread_mutex_init(&ctx->enum_lock, NULL);
	ctx->sel = sel;
	/* The first device, the default one, is there at once. */
	err = ctx_enumerate(ctx, 0);
	if (err < 0) {
		ctx_free(ctx);
		return err;
	}
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
	unsigned n;

	if (!ctx)
		return 0;
	/* Out of memory, the devices so far: read them under the lock. */
	ctx_enumerate_all(ctx);
	pthread_mutex_lock(&ctx->enum_lock);
	n = ctx->ndevs;
	pthread_mutex_unlock(&ctx->enum_lock);
	return n;
}

/*
 * The error of a context without devices, under its enum_lock: why,
 * in a line (account.h): what the plugins' discovery found, what each
 * platform reported and the selector kept.
 */
static void no_device_error(struct devimg_ctx *ctx, unsigned i)
{
	const char *selector = devimg_env(DEVIMG_ENV_DEVICE_SELECTOR);
	struct account *found = malloc(sizeof(*found));

	if (!found) {
		backend_fail(-ERANGE, "no device %u in the context, it has 0",
			     i);
		return;
	}
	devimg_plugins_account(dispatch_plugins(), found);
	backend_fail(-ERANGE, "no device %u in the context, it has 0: %s%s%s%s%s%s",
		     i, found->text, found->len && ctx->account.len ? "; " : "",
		     ctx->account.text, selector && *selector ?
		     "; DEVIMG_DEVICE_SELECTOR=" : "",
		     selector && *selector ? selector : "",
		     found->len || ctx->account.len ? "" : "nothing searched");
	free(found);
}

DEVIMG_EXPORT struct devimg_device *devimg_device_get(struct devimg_ctx *ctx,
						      unsigned i)
{
	struct devimg_device *dev = NULL;
	unsigned n;

	if (!ctx) {
		fail_null("devimg_device_get");
		return NULL;
	}
	if (ctx_enumerate(ctx, i) < 0)
		return NULL;
	pthread_mutex_lock(&ctx->enum_lock);
	n = ctx->ndevs;
	if (i < n)
		dev = ctx->devs[i];
	if (!dev && n == 0)
		no_device_error(ctx, i);
	pthread_mutex_unlock(&ctx->enum_lock);
	if (!dev && n)
		backend_fail(-ERANGE, "no device %u in the context, it has %u",
			     i, n);
	return dev;
}
