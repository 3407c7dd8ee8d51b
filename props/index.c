// SPDX-License-Identifier: MIT
/*
 * A hash index over the names of a model: sets by name, and properties by
 * (set, name). It holds indices, not pointers, so the model's arrays may
 * move while it is in use.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static uint64_t name_hash(size_t set, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)set * 0x9e3779b97f4a7c15ull;

	for (; *name; name++) {
		h ^= (unsigned char)*name;
		h *= 0x100000001b3ull;
	}
	return h ^ h >> 29;
}

static const char *ent_name(const struct props *p,
			    const struct props_index_ent *e)
{
	if (e->set == PROPS_INDEX_SETS)
		return p->sets[e->idx].name;
	return p->sets[e->set].props[e->idx].name;
}

/* The slot of (set, name), or the empty slot where it would go. */
static size_t slot_of(const struct props_index *ix, const struct props *p,
		      size_t set, const char *name)
{
	size_t mask = ix->cap - 1, i = (size_t)name_hash(set, name) & mask;
	const struct props_index_ent *e;

	for (;; i = (i + 1) & mask) {
		e = &ix->e[i];
		if (!e->used)
			return i;
		if (e->set == set && !strcmp(ent_name(p, e), name))
			return i;
	}
}

int props_index_get(const struct props_index *ix, const struct props *p,
		    size_t set, const char *name, size_t *idx)
{
	size_t i;

	if (!ix->cap)
		return 0;
	i = slot_of(ix, p, set, name);
	if (!ix->e[i].used)
		return 0;
	*idx = ix->e[i].idx;
	return 1;
}

static int grow(struct props_index *ix, const struct props *p)
{
	struct props_index old = *ix;
	size_t ncap = ix->cap ? ix->cap * 2 : 64, i;

	if (ncap > SIZE_MAX / 2 / sizeof(*ix->e))
		return -ENOMEM;
	ix->e = calloc(ncap, sizeof(*ix->e));
	if (!ix->e) {
		*ix = old;
		return -ENOMEM;
	}
	ix->cap = ncap;
	for (i = 0; i < old.cap; i++)
		if (old.e[i].used)
			ix->e[slot_of(ix, p, old.e[i].set,
				      ent_name(p, &old.e[i]))] = old.e[i];
	free(old.e);
	return 0;
}

int props_index_put(struct props_index *ix, const struct props *p, size_t set,
		    size_t idx)
{
	struct props_index_ent e = { .set = set, .idx = idx, .used = 1 };
	int r;

	if (ix->n >= ix->cap / 2) {
		r = grow(ix, p);
		if (r < 0)
			return r;
	}
	ix->e[slot_of(ix, p, set, ent_name(p, &e))] = e;
	ix->n++;
	return 0;
}

void props_index_fini(struct props_index *ix)
{
	free(ix->e);
	memset(ix, 0, sizeof(*ix));
}
