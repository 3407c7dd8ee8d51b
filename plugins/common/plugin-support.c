// SPDX-License-Identifier: MIT
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "util/escape.h"
#include "plugins/common/plugin-support.h"

static _Thread_local char msg[PLUGIN_MSG_SIZE];

/*
 * The arguments of a message (names, options, driver strings) are escaped
 * (util/escape.h), so that a name cannot forge a line of the message;
 * only text appended whole by plugin_error_append(), a build log, keeps
 * its lines, as the loader shows them.
 */
int plugin_verror(int errnum, const char *fmt, va_list ap)
{
	esc_vsnprintf(msg, sizeof(msg), NULL, fmt, ap);
	return errnum;
}

int plugin_error(int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	plugin_verror(errnum, fmt, ap);
	va_end(ap);
	return errnum;
}

void plugin_error_append(const char *text)
{
	static const char cut[] = "\n[... truncated]";
	size_t len = strlen(msg), room = sizeof(msg) - len;
	size_t n = strlen(text);

	if (n < room) {
		memcpy(msg + len, text, n + 1);
		return;
	}
	memcpy(msg + len, text, room - 1);
	memcpy(msg + sizeof(msg) - sizeof(cut), cut, sizeof(cut));
}

void plugin_error_appendf(const char *fmt, ...)
{
	size_t len = strlen(msg);
	va_list ap;

	va_start(ap, fmt);
	esc_vsnprintf(msg + len, sizeof(msg) - len, NULL, fmt, ap);
	va_end(ap);
}

const char *plugin_last_error(void)
{
	return msg;
}

int plugin_install_ops(unsigned abi_version, struct devimg_plugin_ops *ops,
		       const struct devimg_plugin_ops *table)
{
	size_t n;

	if (abi_version != DEVIMG_PLUGIN_ABI_VERSION || !ops ||
	    ops->size < offsetof(struct devimg_plugin_ops, fini))
		return -EPROTO;
	n = ops->size < sizeof(*table) ? ops->size : sizeof(*table);
	memcpy(ops, table, n);
	ops->size = n;
	return 0;
}

/* Successful inits less fini()s; the vendor state lives while > 0. */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned init_count;

int plugin_init(unsigned abi_version, struct devimg_plugin_ops *ops,
		const struct devimg_plugin_ops *table, int (*up)(void))
{
	int rc = plugin_install_ops(abi_version, ops, table);

	if (rc < 0)
		return rc;
	pthread_mutex_lock(&init_lock);
	if (init_count == 0)
		rc = up();
	if (rc == 0)
		init_count++;
	pthread_mutex_unlock(&init_lock);
	return rc;
}

void plugin_fini(void (*down)(void))
{
	pthread_mutex_lock(&init_lock);
	if (init_count && --init_count == 0)
		down();
	pthread_mutex_unlock(&init_lock);
}

void plugin_set_aspect(struct devimg_plugin_device_info *info, unsigned n,
		       bool has)
{
	if (n >= 64)
		return;
	info->aspects_known |= DEVIMG_PLUGIN_ASPECT_BIT(n);
	if (has)
		info->aspects |= DEVIMG_PLUGIN_ASPECT_BIT(n);
	else
		info->aspects &= ~DEVIMG_PLUGIN_ASPECT_BIT(n);
}

int plugin_list(const char *op, void *items, unsigned n, unsigned capacity,
		void *out, unsigned *count,
		void (*put)(void *items, unsigned i, void *out))
{
	unsigned i;

	if (!count || (capacity && !out))
		return plugin_error(-EINVAL, "%s: NULL output", op);
	for (i = 0; i < n && i < capacity; i++)
		put(items, i, out);
	*count = n;
	return 0;
}
