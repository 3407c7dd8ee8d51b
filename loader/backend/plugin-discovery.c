// SPDX-License-Identifier: MIT
/*
 * Plugin discovery: search DEVIMG_PLUGIN_PATH's folders, then the
 * installed one, for plugin files, in name order, and note each file to
 * open (or why it is left unopened: shadowed, or the selector names no
 * device of its backend); nothing is opened here.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/backend/account.h"
#include "paths.h"
#include "loader/backend/plugin-private.h"
#include "loader/backend/plugins.h"
#include "loader/backend/device-selector.h"

static bool seen_before(struct devimg_plugins *ps, const char *name)
{
	unsigned i;

	for (i = 0; i < ps->nseen; i++)
		if (!strcmp(ps->seen[i], name))
			return true;
	return false;
}

static int remember(struct devimg_plugins *ps, const char *name)
{
	char **seen = realloc(ps->seen, (ps->nseen + 1) * sizeof(*seen));

	if (!seen)
		return -ENOMEM;
	ps->seen = seen;
	seen[ps->nseen] = strdup(name);
	if (!seen[ps->nseen])
		return -ENOMEM;
	ps->nseen++;
	return 0;
}

static int is_plugin_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	size_t pre = strlen(DEVIMG_PLUGIN_PREFIX);
	size_t suf = strlen(DEVIMG_PLUGIN_SUFFIX);

	return n > pre + suf &&
	       !strncmp(d->d_name, DEVIMG_PLUGIN_PREFIX, pre) &&
	       !strcmp(d->d_name + n - suf, DEVIMG_PLUGIN_SUFFIX);
}

/* Note the file name of folder dir: to open, or why not. */
static int note_entry(struct devimg_plugins *ps, const char *dir,
		      const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char backend[256];
	char *file;
	int rc;

	file = malloc(n);
	if (!file)
		return -ENOMEM;
	snprintf(file, n, "%s/%s", dir, name);
	if (seen_before(ps, name)) {
		plugin_note_text(ps, "plugins: skipping %s: shadowed by a %s found earlier",
				 file, name);
		account_add(&ps->account, "%s in %s shadowed", name, dir);
		free(file);
		return 0;
	}
	rc = remember(ps, name);
	plugin_backend_of_name(name, backend, sizeof(backend));
	if (rc == 0 && !devimg_selector_may_keep_backend(ps->sel, backend)) {
		plugin_note_text(ps, "plugins: skipping %s: DEVIMG_DEVICE_SELECTOR names no %s device",
				 file, backend);
		account_add(&ps->account, "%s not opened: DEVIMG_DEVICE_SELECTOR names no %s device",
			    name, backend);
	} else if (rc == 0) {
		rc = plugin_note_file(ps, file);
	}
	free(file);
	return rc;
}

static int search_dir(struct devimg_plugins *ps, const char *dir)
{
	struct dirent **names;
	int i, n, rc = 0;

	n = scandir(dir, &names, is_plugin_name, alphasort);
	if (n < 0) {
		rc = errno;
		plugin_note_text(ps, "plugins: cannot search %s: %s", dir,
				 strerror(rc));
		account_add(&ps->account, "cannot search %s: %s", dir,
			    strerror(rc));
		return rc == ENOMEM ? -ENOMEM : 0;
	}
	plugin_note_text(ps, "plugins: searching %s: %d candidate(s)", dir, n);
	account_add(&ps->account, "searched %s: %d plugin file%s", dir, n,
		    n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		if (rc == 0)
			rc = note_entry(ps, dir, names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return rc;
}

static int search_path(struct devimg_plugins *ps, const char *path)
{
	char *copy, *dir, *save = NULL;
	int rc = 0;

	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	for (dir = strtok_r(copy, ":", &save); dir && rc == 0;
	     dir = strtok_r(NULL, ":", &save))
		rc = search_dir(ps, dir);
	free(copy);
	return rc;
}

int plugin_discover(struct devimg_plugins *ps,
		    const struct devimg_plugins_config *cfg)
{
	int rc = 0;

	/* A selector outside the grammar opens all: devimg_ctx_new() says. */
	if (cfg->selector &&
	    devimg_selector_parse(cfg->selector, &ps->sel, NULL) == -ENOMEM)
		rc = -ENOMEM;
	if (rc == 0 && cfg->search_path && cfg->search_path[0])
		rc = search_path(ps, cfg->search_path);
	if (rc == 0 && cfg->plugindir && cfg->plugindir[0]) {
		rc = search_dir(ps, cfg->plugindir);
	} else if (rc == 0) {
		plugin_note_text(ps, "plugins: the installed folder %s left out "
				 "(DEVIMG_PLUGIN_PATH_ONLY)", PLUGINDIR);
		account_add(&ps->account, "the installed folder %s left out (DEVIMG_PLUGIN_PATH_ONLY)",
			    PLUGINDIR);
	}
	devimg_selector_free(ps->sel);
	ps->sel = NULL;
	return rc;
}
