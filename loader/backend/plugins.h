/* SPDX-License-Identifier: MIT */
/*
 * Plugin discovery and binding, and the loader's way of calling plugins.
 *
 * devimg_plugins_load() looks in each folder of a colon-separated search
 * path (DEVIMG_PLUGIN_PATH), then in the installed plugin folder
 * (PLUGINDIR), for files named devimg-*.so, in name order within a folder,
 * and opens none of them yet. A file is opened with dlopen(RTLD_NOW |
 * RTLD_LOCAL) and bound through its devimg_plugin_init() when a plugin
 * past those bound is asked for: devimg_plugins_get() goes one file at a
 * time, in order, so that a program that wants the first device starts
 * the first backend only; devimg_plugins_count() and _find() go on to
 * the end. A file that cannot be opened (its vendor library is
 * missing, say), has no entry point, speaks another ABI, fails to
 * initialise, or brings a backend already bound is skipped, never an
 * error; with tracing on, a line on stderr says which file and why. A file
 * name seen in an earlier folder shadows the same name in later ones.
 * Bound plugins stay mapped until the process exits (their vendor
 * libraries are not safe to unload); devimg_plugins_free() calls fini().
 *
 * Under a selector (cfg->selector), a file named for a backend of the
 * selector grammar of which no term can keep a device is not opened
 * (devimg_selector_may_keep_backend()). The files opened together are
 * dlopen'ed in order, then their inits run at once, one thread each (a
 * file named outside the grammar, or a second one for a backend, alone
 * afterwards); traces and the bound plugins keep the order of the files.
 * The functions below are safe to call from several threads.
 *
 * Tracing (DEVIMG_TRACE): level 1 prints discovery and binding, level 2
 * also every plugin call made through the devimg_plugin_<op>() functions
 * below with its arguments and result (and the plugin's message when it
 * fails). Lines start with "libdevimg: " and go to stderr; names and
 * messages in them are escaped (escape.h), newlines included: one line
 * per record.
 *
 * The loader calls plugins only through devimg_plugin_<op>(p, ...), one per
 * operation of struct devimg_plugin_ops and with the same contract (see
 * devimg_plugin.h); they add the level-2 trace, so plugins never trace.
 * plugin-discovery.c finds, plugin-start.c starts, plugin-binding.c
 * binds, plugins.c holds the set; plugin-calls.c holds the calls
 * (plugin-private.h is what they share).
 */
#ifndef DEVIMG_LOADER_PLUGINS_H
#define DEVIMG_LOADER_PLUGINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/backend/account.h"
#include "plugins/devimg_plugin.h"
#include "loader/backend/plugin-ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One bound plugin. */
struct devimg_plugin;
/* The plugins bound by one devimg_plugins_load(), in discovery order. */
struct devimg_plugins;

struct devimg_plugins_config {
	/* Colon-separated folders searched first; NULL or "" for none. */
	const char *search_path;
	/* The installed plugin folder, searched last; NULL for none. */
	const char *plugindir;
	/* 0: quiet; 1: discovery and binding; 2: and every plugin call. */
	int trace;
	/*
	 * The device selector (device-selector.h); a file named for a backend of
	 * which it can keep no device is not opened. NULL or "", or text
	 * outside the grammar: every file is.
	 */
	const char *selector;
};

/*
 * Fill cfg from the environment (env.c): DEVIMG_PLUGIN_PATH (ignored in
 * setuid programs), the PLUGINDIR the build was configured with (paths.h,
 * generated from the configured prefix) unless DEVIMG_PLUGIN_PATH_ONLY is
 * set to anything but "" or "0", and the
 * trace level of the log priority (DEVIMG_TRACE: 1 for DEVIMG_LOG_INFO,
 * 2 for DEVIMG_LOG_DEBUG). The strings stay valid until exit.
 */
void devimg_plugins_config_env(struct devimg_plugins_config *cfg);

/*
 * Find and bind plugins as cfg says. Returns 0 and a set in *out, possibly
 * empty; -ENOMEM is the only failure, with nothing allocated.
 */
int devimg_plugins_load(const struct devimg_plugins_config *cfg,
			struct devimg_plugins **out);

/*
 * Keep the library holding this code mapped until exit, even when it came
 * in with a library the program closes again: for the process's plugin
 * set, whose plugins stay mapped and whose state lives here.
 */
void devimg_plugins_keep_loader(void);

/* Call every plugin's fini() and free ps. NULL is ignored. */
void devimg_plugins_free(struct devimg_plugins *ps);

/*
 * How many plugins bind: every file not gone through yet is opened and
 * started first.
 */
unsigned devimg_plugins_count(struct devimg_plugins *ps);
/*
 * The i-th plugin (borrowed), NULL when i is out of range. Files are
 * opened and started one at a time, in order, until i plugins are bound.
 */
struct devimg_plugin *devimg_plugins_get(struct devimg_plugins *ps,
					 unsigned i);
/*
 * The plugin of a backend ("opencl"), NULL when none is bound; files are
 * opened, in order, until it is found.
 */
struct devimg_plugin *devimg_plugins_find(struct devimg_plugins *ps,
					  const char *backend);

/*
 * What discovery found, as account.h says: the folders searched, each file
 * skipped and why, each bound plugin that reports no platform and its
 * message. Every file not gone through yet is opened and started first.
 * An empty account for a NULL ps.
 */
void devimg_plugins_account(struct devimg_plugins *ps, struct account *out);

/* "cpu", "gpu", "accelerator", or "other", as traces name a type. */
const char *devimg_plugin_type_name(enum devimg_plugin_device_type type);

/* The backend name the plugin gave: "opencl". */
const char *devimg_plugin_backend(const struct devimg_plugin *p);
/* The file the plugin was loaded from. */
const char *devimg_plugin_file(const struct devimg_plugin *p);
/*
 * The plugin's message about the calling thread's last failed call. It may
 * hold a driver's build log, lines of its own: the messages behind
 * devimg_last_error() that take it as a %s argument keep its newlines
 * (escape.h, ESC_LINES) and escape the rest; every other argument,
 * and every argument of a trace or log line, is escaped whole.
 */
const char *devimg_plugin_last_error(const struct devimg_plugin *p);
/* What devimg_plugin_last_error() last returned on this thread; or NULL. */
const char *devimg_plugin_last_text(void);

/*
 * The operations, traced: devimg_plugin_<op>(p, ...) for each of
 * plugin-ops.h but last_error and fini, with the parameters of the
 * table's (after p) and the same contract (struct devimg_plugin_ops). An
 * optional one the plugin's table lacks answers -ENOTSUP, with the
 * loader's message naming the plugin and the operation.
 */
DEVIMG_PLUGIN_OPS(DEVIMG_PLUGIN_DECLARE, DEVIMG_PLUGIN_DECLARE)
/*
 * Separate compilation and linking; -ENOTSUP (without a plugin message)
 * when the plugin's table lacks them: ask devimg_plugin_can_link() first.
 */
bool devimg_plugin_can_link(const struct devimg_plugin *p);
/*
 * 0 when the plugin can; else -ENOTSUP, and the plugin's message names
 * the first of the two operations its table lacks, as for any absent
 * operation.
 */
int devimg_plugin_need_link(struct devimg_plugin *p);
/*
 * The one exception to calling through the functions above: p's own
 * table when its calls are not traced (NULL when they are), for the
 * steady paths, a launch and a queue's finish, to keep the function they
 * call in the kernel or queue and call it without reading the plugin
 * (kernel.c, queue.c); they call the wrapper when this is NULL.
 */
const struct devimg_plugin_ops *devimg_plugin_untraced_ops(
	const struct devimg_plugin *p);

#ifdef __cplusplus
}
#endif
#endif
