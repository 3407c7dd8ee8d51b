/* SPDX-License-Identifier: MIT */
/*
 * What every backend plugin needs besides its vendor API: the per-thread
 * message behind the last_error() operation, and the devimg_plugin_init()
 * handshake with the counted start and end of the vendor state. Linked into each plugin (a convenience library), so each
 * plugin has its own message buffers; nothing here is exported.
 */
#ifndef DEVIMG_PLUGIN_SUPPORT_H
#define DEVIMG_PLUGIN_SUPPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "plugins/devimg_plugin.h"

/* Long enough for a useful build log; longer ones are cut with a note. */
#define PLUGIN_MSG_SIZE 16384

/* Set the calling thread's message to the formatted text; return errnum. */
int plugin_error(int errnum, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int plugin_verror(int errnum, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Append text (e.g. a build log) to the message, truncating if needed. */
void plugin_error_append(const char *text);
/* Append formatted text, e.g. the vendor's ": NAME (code)". */
void plugin_error_appendf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* The calling thread's message, "" when none. */
const char *plugin_last_error(void);

/*
 * The listing behind platform_list and device_list (listing.h): -EINVAL
 * with a message naming op when count is NULL or out is NULL with a
 * capacity; otherwise put(items, i, out) for each i below both n and
 * capacity, and n in *count. 0.
 */
int plugin_list(const char *op, void *items, unsigned n, unsigned capacity,
		void *out, unsigned *count,
		void (*put)(void *items, unsigned i, void *out));

/* Record in info whether the device has DPC++ aspect n (< 64). */
void plugin_set_aspect(struct devimg_plugin_device_info *info, unsigned n,
		       bool has);

/*
 * The first half of devimg_plugin_init(): -EPROTO, touching nothing, when
 * the loader speaks another ABI or offers a table too small to hold even
 * the header fields; otherwise copy table (size bytes) into ops, at most
 * ops->size bytes, and set ops->size to what was copied. 0.
 */
int plugin_install_ops(unsigned abi_version, struct devimg_plugin_ops *ops,
		       const struct devimg_plugin_ops *table);

/*
 * The whole devimg_plugin_init(): plugin_install_ops(), then up() (the
 * vendor library and its platforms) on the first successful init; later
 * inits only count. 0, -EPROTO, or up()'s error.
 */
int plugin_init(unsigned abi_version, struct devimg_plugin_ops *ops,
		const struct devimg_plugin_ops *table, int (*up)(void));
/* The fini() operation: down() once every successful init is undone. */
void plugin_fini(void (*down)(void));

#endif
