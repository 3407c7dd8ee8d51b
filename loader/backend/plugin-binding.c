// SPDX-License-Identifier: MIT
/*
 * Binding started plugins: check the table init filled against the op
 * list of plugin-ops.h (ABI version, size, every required operation, a
 * backend not bound yet), skip a plugin whose init failed, and add the
 * others to the set, with the trace of their devices.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "loader/backend/account.h"
#include "loader/libdevimg-internal.h"
#include "loader/backend/plugin-ops.h"
#include "loader/backend/plugin-private.h"
#include "loader/backend/plugins.h"

/*
 * Every function pointer of the table (plugin-ops.h): X(name, ...) for the
 * required ones, to check a plugin filled them all, and for the optional
 * ones appended after them: absent when the plugin's size stops before
 * them or when NULL; the loader then answers -ENOTSUP itself
 * (absent_op()).
 */
#define SKIP_OP(...)
#define DEVIMG_PLUGIN_OP_NAMES(X) DEVIMG_PLUGIN_OPS(X, SKIP_OP)
#define DEVIMG_PLUGIN_OPTIONAL_OP_NAMES(X) DEVIMG_PLUGIN_OPS(SKIP_OP, X)

#define COUNT_OP(...) + 1
_Static_assert(offsetof(struct devimg_plugin_ops, last_error) +
		       (0 DEVIMG_PLUGIN_OP_NAMES(COUNT_OP)) *
			       sizeof(void (*)(void)) ==
		       DEVIMG_PLUGIN_OPS_MIN,
	       "DEVIMG_PLUGIN_OP_NAMES must list every required operation");
_Static_assert(DEVIMG_PLUGIN_OPS_MIN +
		       (0 DEVIMG_PLUGIN_OPTIONAL_OP_NAMES(COUNT_OP)) *
			       sizeof(void (*)(void)) ==
		       sizeof(struct devimg_plugin_ops),
	       "DEVIMG_PLUGIN_OPTIONAL_OP_NAMES must list the appended ones");
#undef COUNT_OP

static const char *missing_op(const struct devimg_plugin_ops *ops)
{
#define CHECK_OP(name, ...) \
	if (!ops->name)     \
		return #name;
	DEVIMG_PLUGIN_OP_NAMES(CHECK_OP)
#undef CHECK_OP
	return NULL;
}

static int add(struct devimg_plugins *ps, struct devimg_plugin *p)
{
	if (ps->count == ps->capacity) {
		unsigned cap = ps->capacity ? 2 * ps->capacity : 4;
		struct devimg_plugin **list;

		list = realloc(ps->list, cap * sizeof(*list));
		if (!list)
			return -ENOMEM;
		ps->list = list;
		ps->capacity = cap;
	}
	ps->list[ps->count++] = p;
	return 0;
}

const char *devimg_plugin_type_name(enum devimg_plugin_device_type type)
{
	switch (type) {
	case DEVIMG_PLUGIN_DEVICE_CPU:
		return "cpu";
	case DEVIMG_PLUGIN_DEVICE_GPU:
		return "gpu";
	case DEVIMG_PLUGIN_DEVICE_ACCELERATOR:
		return "accelerator";
	default:
		return "other";
	}
}

static void trace_device(struct devimg_plugin *p, unsigned platform,
			 unsigned index,
			 const struct devimg_plugin_device_info *di)
{
	plugin_trace(p->trace, 1,
	      "plugins: %s: platform %u device %u \"%s\" %s, formats:%s%s%s%s, native:%s%s",
	      p->ops.backend, platform, index, di->name,
	      devimg_plugin_type_name(di->type),
	      di->formats & DEVIMG_PLUGIN_FORMAT_SPIRV ? " spirv" : "",
	      di->formats & DEVIMG_PLUGIN_FORMAT_SPIR ? " spir" : "",
	      di->formats & DEVIMG_PLUGIN_FORMAT_PTX ? " ptx" : "",
	      di->formats & DEVIMG_PLUGIN_FORMAT_NATIVE ? " native" : "",
	      di->caps & DEVIMG_PLUGIN_CAP_GLOBAL_OFFSET ? " global-offset" : "",
	      di->caps & DEVIMG_PLUGIN_CAP_SPEC_CONSTANTS ? " spec-constants" : "");
}

/*
 * Level 1: what a freshly bound plugin offers; why: its message just after
 * init, which says why init found nothing (no driver...).
 */
static void trace_devices(struct devimg_plugin *p, const char *why)
{
	struct devimg_plugin_platform *pl[16];
	struct devimg_plugin_device *dev[64];
	unsigned npl = 0, ndev, i, j;

	if (p->trace < 1)
		return;
	if (p->ops.platform_list(16, pl, &npl) < 0)
		return;
	if (!npl && why[0])
		plugin_trace(p->trace, 1, "plugins: %s: 0 platforms: %s",
		      p->ops.backend, why);
	else
		plugin_trace(p->trace, 1, "plugins: %s: %u platform(s)",
		      p->ops.backend, npl);
	for (i = 0; i < npl && i < 16; i++) {
		const struct devimg_plugin_platform_info *pi =
			p->ops.platform_info(pl[i]);

		plugin_trace(p->trace, 1, "plugins: %s: platform %u \"%s\" (%s)",
		      p->ops.backend, i, pi->name, pi->version);
		if (p->ops.device_list(pl[i], 64, dev, &ndev) < 0)
			continue;
		for (j = 0; j < ndev && j < 64; j++)
			trace_device(p, i, j, p->ops.device_info(dev[j]));
	}
}

/* The name of the first required operation a table of size bytes lacks. */
static const char *first_op_beyond(size_t size)
{
#define OP_BEYOND(name, ...)                                              \
	if (offsetof(struct devimg_plugin_ops, name) +                   \
		    sizeof(((struct devimg_plugin_ops *)0)->name) > size)  \
		return #name;
	OP_BEYOND(abi_version, ) OP_BEYOND(size, ) OP_BEYOND(backend, )
	DEVIMG_PLUGIN_OP_NAMES(OP_BEYOND)
#undef OP_BEYOND
	return "program_compile";
}

/*
 * Operations past the size the plugin gave are absent, whatever the bytes
 * there hold: NULL from here on.
 */
static void clear_beyond(struct devimg_plugin_ops *ops)
{
	if (ops->size < sizeof(*ops))
		memset((char *)ops + ops->size, 0, sizeof(*ops) - ops->size);
}

bool plugin_can_fini(const struct devimg_plugin_ops *ops)
{
	return ops->abi_version == DEVIMG_PLUGIN_ABI_VERSION &&
	       ops->size >= offsetof(struct devimg_plugin_ops, fini) +
				    sizeof(ops->fini) &&
	       ops->fini;
}

/*
 * A bound plugin in the account when it reports no platform, with its
 * message after init (no driver...); the devices of the others are the
 * context's to tell.
 */
static void account_bound(struct devimg_plugins *ps, struct devimg_plugin *p,
			  const char *why)
{
	unsigned npl = 0;

	if (p->ops.platform_list(0, NULL, &npl) < 0 || npl)
		return;
	account_add(&ps->account, "%s: no platform%s%s", p->ops.backend,
		    why[0] ? ": " : "", why);
}

/* Check what init filled; a reason to skip the plugin, or NULL. */
static const char *check_ops(struct devimg_plugins *ps,
			     const struct devimg_plugin_ops *ops, char *why,
			     size_t size)
{
	const char *missing;
	unsigned i;

	if (ops->abi_version != DEVIMG_PLUGIN_ABI_VERSION) {
		snprintf(why, size, "ABI version %u, the loader speaks %u",
			 ops->abi_version, DEVIMG_PLUGIN_ABI_VERSION);
		return why;
	}
	if (ops->size < DEVIMG_PLUGIN_OPS_MIN) {
		snprintf(why, size, "operation table of %zu bytes stops before %s, at least %zu expected",
			 ops->size, first_op_beyond(ops->size),
			 (size_t)DEVIMG_PLUGIN_OPS_MIN);
		return why;
	}
	if (ops->size > sizeof(*ops)) {
		snprintf(why, size, "operation table of %zu bytes, more than the %zu offered",
			 ops->size, sizeof(*ops));
		return why;
	}
	missing = missing_op(ops);
	if (missing || !ops->backend || !ops->backend[0]) {
		snprintf(why, size, "no %s in its operation table",
			 missing ? missing : "backend name");
		return why;
	}
	for (i = 0; i < ps->count; i++) {
		if (!strcmp(ps->list[i]->ops.backend, ops->backend)) {
			snprintf(why, size, "backend %s already bound from %s",
				 ops->backend, ps->list[i]->file);
			return why;
		}
	}
	return NULL;
}

/* msg: the plugin's message, read on the thread that ran init. */
static const char *init_failure(int rc, const char *msg, char *why,
				size_t size)
{
	snprintf(why, size, "%s failed: %s (%d)%s%s", DEVIMG_PLUGIN_ENTRY,
		 strerror(-rc), rc, msg[0] ? ": " : "", msg);
	return why;
}

/*
 * The selector leaves files unopened by their names: say when a plugin's
 * backend is not the one its name says.
 */
static void check_name(struct devimg_plugin *p)
{
	char named[256];

	plugin_backend_of_file(p->file, named, sizeof(named));
	if (strcasecmp(named, p->ops.backend))
		plugin_trace(p->trace, 1, "plugins: %s gives backend %s, not the %s of its name: bound whatever DEVIMG_DEVICE_SELECTOR names",
		      p->file, p->ops.backend, named);
}

/*
 * Bind a started plugin, or skip it with its reason. Returns 0 whether
 * it was bound or skipped, -ENOMEM only.
 */
static int bind_started(struct devimg_plugins *ps, struct plugin_note *n)
{
	struct devimg_plugin *p = n->p;
	const char *skip;
	char why[sizeof(n->msg) + 128];

	n->p = NULL;
	skip = n->rc < 0 ? init_failure(n->rc, n->msg, why, sizeof(why)) :
			   check_ops(ps, &p->ops, why, sizeof(why));
	if (skip) {
		plugin_trace(ps->trace, 1, "plugins: skipping %s: %s", p->file, skip);
		account_add(&ps->account, "%s skipped: %s",
			    plugin_base_name(p->file), skip);
		plugin_free(p, n->rc == 0 && plugin_can_fini(&p->ops));
		return 0;
	}
	clear_beyond(&p->ops);
	if (add(ps, p) < 0) {
		plugin_free(p, true);
		return -ENOMEM;
	}
	plugin_keep_mapped(p->file);
	plugin_trace(ps->trace, 1, "plugins: bound %s from %s (ABI %u)",
	      p->ops.backend, p->file, p->ops.abi_version);
	check_name(p);
	trace_devices(p, n->msg);
	account_bound(ps, p, n->msg);
	return 0;
}

int plugin_bind_range(struct devimg_plugins *ps, unsigned from, unsigned to)
{
	unsigned i;
	int rc = 0;

	for (i = from; i < to && rc == 0; i++) {
		struct plugin_note *n = &ps->notes[i];

		if (n->text)
			devimg_trace_text(TRACE_PRIORITY(1), __FILE__, __LINE__,
					  __func__, n->text);
		if (n->p)
			rc = bind_started(ps, n);
	}
	return rc;
}
