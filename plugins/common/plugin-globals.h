/* SPDX-License-Identifier: MIT */
/*
 * What the plugins' device-global operations (devimg_plugin.h) share: the
 * prototypes, the check of a copy against the variable's size (one
 * message for every backend), global_write and global_read written once
 * over a plugin's own transfer function, and mem_address's checks.
 */
#ifndef DEVIMG_PLUGIN_GLOBALS_H
#define DEVIMG_PLUGIN_GLOBALS_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "plugins/devimg_plugin.h"
#include "plugins/common/plugin-support.h"

/* PREFIX_global_info, _global_write, _global_read and _mem_address. */
#define PLUGIN_GLOBAL_OPS(prefix)					\
	int prefix##_global_info(struct devimg_plugin_program *prog,	\
				 const char *name, size_t *size);	\
	int prefix##_global_write(struct devimg_plugin_queue *q,	\
				  struct devimg_plugin_program *prog,	\
				  const char *name, size_t off, size_t n, \
				  const void *src, int blocking);	\
	int prefix##_global_read(struct devimg_plugin_queue *q,		\
				 struct devimg_plugin_program *prog,	\
				 const char *name, size_t off, size_t n, \
				 void *dst, int blocking);		\
	int prefix##_mem_address(struct devimg_plugin_mem *mem,		\
				 uint64_t *addr)

/*
 * PREFIX_global_write and PREFIX_global_read over the plugin's
 *
 *   static int transfer(struct devimg_plugin_queue *q,
 *                       struct devimg_plugin_program *prog,
 *                       const char *name, size_t off, size_t n,
 *                       void *dst, const void *src, int blocking,
 *                       const char *op);
 *
 * which copies into dst, or from src when dst is NULL; op names the
 * operation in its messages.
 */
#define PLUGIN_GLOBAL_COPIES(prefix, transfer)				\
	int prefix##_global_write(struct devimg_plugin_queue *q,	\
				  struct devimg_plugin_program *prog,	\
				  const char *name, size_t off, size_t n, \
				  const void *src, int blocking)	\
	{								\
		return transfer(q, prog, name, off, n, NULL, src,	\
				blocking, "global_write");		\
	}								\
	int prefix##_global_read(struct devimg_plugin_queue *q,		\
				 struct devimg_plugin_program *prog,	\
				 const char *name, size_t off, size_t n, \
				 void *dst, int blocking)		\
	{								\
		return transfer(q, prog, name, off, n, dst, NULL,	\
				blocking, "global_read");		\
	}

/*
 * 0 when bytes off..off+n lie within the size bytes of the variable
 * name; else -EINVAL, the message naming op and the variable.
 */
static inline int plugin_global_range(const char *op, const char *name,
				      size_t off, size_t n, size_t size)
{
	if (off <= size && n <= size - off)
		return 0;
	return plugin_error(-EINVAL, "%s(\"%s\"): bytes %zu..%zu outside the %zu-byte variable",
			    op, name, off, off + n, size);
}

/* mem_address: *out = addr, the buffer's device address; -EINVAL: NULL. */
static inline int plugin_mem_address(const void *mem, uint64_t addr,
				     uint64_t *out)
{
	if (!mem || !out)
		return plugin_error(-EINVAL, "mem_address: NULL argument");
	*out = addr;
	return 0;
}

#endif
