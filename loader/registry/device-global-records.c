// SPDX-License-Identifier: MIT
/*
 * The device-global records (device-globals.h): one per unique id in a hash map,
 * never freed, each listing the registered images that define it. Only
 * what the registry's unregistration needs lives here, so that it calls
 * no file that calls it: the map, its lock, and forgetting an image.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "loader/registry/device-globals.h"

/*
 * Records are also listed from newest: a large map's slots live in pages
 * of their own (hash.c), where a leak checker does not look for pointers.
 */
static struct {
	pthread_mutex_t lock;
	struct hash ids;		/* unique id -> record */
	struct devimg_global *newest;
} records = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.ids = HASH_INIT,
};

void records_lock(void)
{
	pthread_mutex_lock(&records.lock);
}

void records_unlock(void)
{
	pthread_mutex_unlock(&records.lock);
}

struct devimg_global *records_find(const char *id)
{
	struct hash_node *node = hash_find(&records.ids, id, hash_string(id));

	return node ? (struct devimg_global *)((char *)node -
					       offsetof(struct devimg_global,
							node)) :
		      NULL;
}

struct devimg_global *records_intern(const char *id)
{
	struct devimg_global *g = records_find(id);
	size_t len = strlen(id), bytes;

	if (g)
		return g;
	if (size_add3(sizeof(*g), len, 1, &bytes) ||
	    hash_reserve(&records.ids, records.ids.count + 1) < 0)
		return NULL;
	g = calloc(1, bytes);
	if (!g)
		return NULL;
	memcpy(g->id, id, len + 1);
	hash_insert(&records.ids, &g->node, g->id, hash_string(g->id));
	g->older = records.newest;
	records.newest = g;
	return g;
}

int records_add_def(struct devimg_global *g, struct devimg_image *img)
{
	if (g->ndefs == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 2;
		struct devimg_image **defs;

		defs = realloc(g->defs, cap * sizeof(*defs));
		if (!defs)
			return -ENOMEM;
		g->defs = defs;
		g->cap = cap;
	}
	g->defs[g->ndefs++] = img;
	return 0;
}

const struct devimg_propset_info *globals_set(const struct image_props *p)
{
	size_t i;

	for (i = 0; p && i < p->nsets; i++)
		if (!strcmp(p->sets[i].name, GLOBALS_SET))
			return &p->sets[i];
	return NULL;
}

void globals_image_gone(struct devimg_image *img)
{
	const struct devimg_propset_info *set;
	size_t i, j;

	/* A read image has its copy; one never read defined nothing. */
	set = globals_set(atomic_load(&img->props));
	if (!set)
		return;
	records_lock();
	for (i = 0; i < set->nprops; i++) {
		struct devimg_global *g = records_find(set->props[i].name);

		for (j = 0; g && j < g->ndefs; j++) {
			if (g->defs[j] != img)
				continue;
			memmove(&g->defs[j], &g->defs[j + 1],
				(g->ndefs - j - 1) * sizeof(*g->defs));
			g->ndefs--;
			break;
		}
	}
	records_unlock();
}
