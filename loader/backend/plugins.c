// SPDX-License-Identifier: MIT
/*
 * The plugin set's API (plugins.h): its configuration from the
 * environment, loading and freeing it, and going through what discovery
 * noted, to open, start and bind, only as far as a caller asks (count,
 * get, find, account). Discovery, start and binding are files of their
 * own (plugin-private.h); the traced calls are plugin-calls.c's.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "loader/backend/account.h"
#include "loader/libdevimg-internal.h"
#include "paths.h"
#include "loader/backend/plugin-private.h"
#include "loader/backend/plugins.h"

/* The trace level the log priority asks for (DEVIMG_TRACE, log.c). */
static int trace_level(void)
{
	int priority = devimg_get_log_priority();

	if (priority >= DEVIMG_LOG_DEBUG)
		return 2;
	return priority >= DEVIMG_LOG_INFO ? 1 : 0;
}

void devimg_plugins_config_env(struct devimg_plugins_config *cfg)
{
	const char *only = devimg_env(DEVIMG_ENV_PLUGIN_PATH_ONLY);

	cfg->search_path = devimg_env(DEVIMG_ENV_PLUGIN_PATH);
	/* "1" (any value but "" and "0"): the installed folder left out */
	cfg->plugindir = only && *only && strcmp(only, "0") ? NULL : PLUGINDIR;
	cfg->selector = devimg_env(DEVIMG_ENV_DEVICE_SELECTOR);
	cfg->trace = trace_level();
}

/* Free the notes, and the plugins left in them (out of memory). */
static void notes_free(struct devimg_plugins *ps)
{
	unsigned i;

	for (i = 0; i < ps->nnotes; i++) {
		struct plugin_note *n = &ps->notes[i];

		free(n->text);
		free(n->file);
		if (n->p)
			plugin_free(n->p,
				    n->rc == 0 && plugin_can_fini(&n->p->ops));
	}
	free(ps->notes);
	ps->notes = NULL;
	ps->nnotes = 0;
}

/*
 * Open, start and bind the files of notes [ps->next, to), under ps->lock;
 * the last time, say how many are bound. Out of memory, the plugins not
 * bound yet are left out.
 */
static void advance(struct devimg_plugins *ps, unsigned to)
{
	unsigned i;
	int rc = 0;

	for (i = ps->next; i < to && rc == 0; i++)
		if (ps->notes[i].file)
			rc = plugin_open(ps, &ps->notes[i]);
	if (rc == 0) {
		plugin_start_range(ps, ps->next, to);
		rc = plugin_bind_range(ps, ps->next, to);
	}
	if (rc < 0) {
		plugin_trace(ps->trace, 1, "plugins: out of memory, %u bound, the rest left out",
		      ps->count);
		to = ps->nnotes;
	}
	if (ps->next < to && to == ps->nnotes && rc == 0)
		plugin_trace(ps->trace, 1, "plugins: %u bound", ps->count);
	ps->next = to;
}

int devimg_plugins_load(const struct devimg_plugins_config *cfg,
			struct devimg_plugins **out)
{
	struct devimg_plugins *ps;
	int rc;

	ps = calloc(1, sizeof(*ps));
	if (!ps)
		return -ENOMEM;
	pthread_mutex_init(&ps->lock, NULL);
	ps->trace = cfg->trace;
	rc = plugin_discover(ps, cfg);
	if (rc < 0) {
		devimg_plugins_free(ps);
		return rc;
	}
	*out = ps;
	return 0;
}

void devimg_plugins_free(struct devimg_plugins *ps)
{
	unsigned i;

	if (!ps)
		return;
	notes_free(ps);
	for (i = ps->count; i-- > 0;)
		plugin_free(ps->list[i], true);
	for (i = 0; i < ps->nseen; i++)
		free(ps->seen[i]);
	free(ps->seen);
	free(ps->list);
	pthread_mutex_destroy(&ps->lock);
	free(ps);
}

unsigned devimg_plugins_count(struct devimg_plugins *ps)
{
	unsigned n;

	if (!ps)
		return 0;
	pthread_mutex_lock(&ps->lock);
	advance(ps, ps->nnotes);
	n = ps->count;
	pthread_mutex_unlock(&ps->lock);
	return n;
}

struct devimg_plugin *devimg_plugins_get(struct devimg_plugins *ps,
					 unsigned i)
{
	struct devimg_plugin *p;

	if (!ps)
		return NULL;
	pthread_mutex_lock(&ps->lock);
	while (ps->count <= i && ps->next < ps->nnotes)
		advance(ps, ps->next + 1);
	p = i < ps->count ? ps->list[i] : NULL;
	pthread_mutex_unlock(&ps->lock);
	return p;
}

struct devimg_plugin *devimg_plugins_find(struct devimg_plugins *ps,
					  const char *backend)
{
	struct devimg_plugin *p;
	unsigned i;

	for (i = 0; (p = devimg_plugins_get(ps, i)); i++)
		if (!strcmp(p->ops.backend, backend))
			return p;
	return NULL;
}

void devimg_plugins_account(struct devimg_plugins *ps, struct account *out)
{
	if (!ps) {
		out->len = 0;
		out->text[0] = '\0';
		return;
	}
	pthread_mutex_lock(&ps->lock);
	advance(ps, ps->nnotes);
	*out = ps->account;
	if (ps->count == 0)
		account_add(out, "no plugin bound");
	pthread_mutex_unlock(&ps->lock);
}

const char *devimg_plugin_backend(const struct devimg_plugin *p)
{
	return p->ops.backend;
}

const char *devimg_plugin_file(const struct devimg_plugin *p)
{
	return p->file;
}
