/* SPDX-License-Identifier: MIT */
/*
 * The backend wing (loader/backend/): the bound plugins and the traced
 * calls into them (plugins.h), the account of discovery (account.h), the
 * device selector (device-selector.h), and what this header declares:
 * a device as the wings above hold it, and the one way their failures
 * are recorded with the plugin's message. Below it: the registry.
 */
#ifndef DEVIMG_LOADER_BACKEND_H
#define DEVIMG_LOADER_BACKEND_H

#include <pthread.h>
#include <stdatomic.h>

#include <devimg/devimg.h>

#include "loader/registry/registry.h"
#include "loader/backend/plugins.h"

struct devimg_ctx;
struct progcache_entry;
struct global_mem;

/* One device of a context, as the plugin reported it. */
struct devimg_device {
	struct devimg_ctx *ctx;			/* borrowed: ctx owns us */
	atomic_uint *builds;			/* ctx's count of builds */
	struct devimg_plugin *plugin;
	struct devimg_plugin_device *pdev;
	struct devimg_plugin_context *pctx;
	const struct devimg_plugin_device_info *info;
	struct devimg_device_caps caps;
	struct devimg_device_features features;
	pthread_mutex_t cache_lock;		/* guards cache, serialises builds */
	struct progcache_entry *cache;
	struct global_mem *globals;		/* device-global-memory.c; under cache_lock */
};

/* ---- device.c ---- */

/* Fill dev->caps and dev->features from dev->info. */
void device_init_caps(struct devimg_device *dev);

/* ---- plugin-error.c ---- */

/*
 * Record the calling thread's detailed message (devimg_last_error()) and
 * return err, so that callers can write "return backend_fail(...)".
 */
int backend_fail(int err, const char *format, ...) DEVIMG_PRINTF(2, 3);
/* Put "<format>: " before the calling thread's message; returns err. */
int backend_fail_prefix(int err, const char *format, ...)
	DEVIMG_PRINTF(2, 3);

#endif
