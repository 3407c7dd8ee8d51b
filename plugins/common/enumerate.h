/* SPDX-License-Identifier: MIT */
/*
 * The init-time enumeration every backend plugin does for its platforms
 * and for the devices of each: the vendor's two-call listing of handles
 * (count, then fill), an array of the plugin's records, and each record
 * started from its handle in the vendor's order. The backend says how
 * through the callbacks of struct plugin_enum; the array, the counting
 * and the out-of-memory message are here once.
 */
#ifndef DEVIMG_PLUGIN_ENUMERATE_H
#define DEVIMG_PLUGIN_ENUMERATE_H

#include <stddef.h>
#include <stdint.h>

#include "plugins/devimg_plugin.h"

struct plugin_enum {
	/* What the records are, plural, for "out of memory for %u %s". */
	const char *what;
	size_t item_size;	/* one record of the plugin */
	size_t id_size;		/* one vendor handle */
	size_t id_offset;	/* where a record keeps its handle */
	/*
	 * The vendor's listing: with ids NULL, the number of handles in *n
	 * (0 when there are none); otherwise at most *n handles into ids,
	 * *n lowered when the vendor gives fewer. 0 or the plugin's error.
	 */
	int (*get)(void *ctx, uint32_t *n, void *ids);
	/* Start the record of index index, its handle already in it. */
	int (*init)(void *ctx, void *item, unsigned index);
};

/*
 * The struct plugin_enum of records of type item (a struct whose member
 * id is the vendor handle), named what, listed by get, started by init.
 */
#define PLUGIN_ENUM(item, what_, get_, init_) {			\
	.what = (what_),						\
	.item_size = sizeof(item),					\
	.id_size = sizeof(((item *)0)->id),				\
	.id_offset = offsetof(item, id),				\
	.get = (get_),							\
	.init = (init_),						\
}

/*
 * Enumerate as e says: the calloc'd array of records (NULL when there are
 * none), with *n the number of records to undo, each counted before its
 * init() so that the caller's clean-up also covers a record left
 * half-made. *rc: 0, or the first error, where enumeration stopped; what
 * was made is still returned, for the caller to free.
 */
void *plugin_enumerate(const struct plugin_enum *e, void *ctx, unsigned *n,
		       int *rc);

/*
 * A device's info: its size, borrowed strings, backend name and platform
 * (the numbers, formats and aspects are the backend's own).
 */
void plugin_device_names(struct devimg_plugin_device_info *info,
			 struct devimg_plugin_platform *platform,
			 const char *backend, const char *name,
			 const char *vendor, const char *version,
			 const char *driver_version);

#endif
