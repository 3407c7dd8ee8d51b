// SPDX-License-Identifier: MIT
/*
 * A hash index over the names of a model: sets by name, and properties by
 * (set, name). It holds indices, not pointers, so the model's arrays may
 * move while it is in use. Names come from files: they are hashed under
 * the process's key (hashkey.h), so no one can choose names that share a
 * probe sequence, and each entry keeps its hash, so a probe compares
 * names only where the 64-bit hashes agree.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/hashkey.h"
#include "props/internal.h"

static uint64_t name_hash(size_t set, const char *name)
{
	/* the set number moves the hash by an odd multiple: still keyed */
	return siphash13(name, strlen(name)) ^
	       (uint64_t)set * 0x9e3779b97f4a7c15ull;
}

static const char *ent_name(const struct props *p,
			    const struct props_index_ent *e)
{
	if (e->set == PROPS_INDEX_SETS)
		return p->sets[e->idx].name;
	return p->sets[e->set].props[e->idx].name;
}

/* The slot of (set, name) of hash h, or the empty slot where it would go. */
static size_t slot_of(const struct props_index *ix, const struct props *p,
		      size_t set, const char *name, uint64_t h)
{
	size_t mask = ix->cap - 1, i = (size_t)h & mask;
	const struct props_index_ent *e;

	for (;; i = (i + 1) & mask) {
		e = &ix->e[i];
		if (!e->used)
			return i;
		if (e->hash == h && e->set == set &&
		    !strcmp(ent_name(p, e), name))
			return i;
	}
}

/* The empty slot for an entry known to be absent: no name compared. */
static size_t free_slot(const struct props_index *ix, uint64_t h)
{
	size_t mask = ix->cap - 1, i = (size_t)h & mask;

	while (ix->e[i].used)
		i = (i + 1) & mask;
	return i;
}

int props_index_get(const struct props_index *ix, const struct props *p,
		    size_t set, const char *name, size_t *idx)
{
	size_t i;

	if (!ix->cap)
		return 0;
	i = slot_of(ix, p, set, name, name_hash(set, name));
	if (!ix->e[i].used)
		return 0;
	*idx = ix->e[i].idx;
	return 1;
}

static int grow(struct props_index *ix)
{
	struct props_index old = *ix;
	size_t ncap = ix->cap ? ix->cap * 2 : 8, i;

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
			ix->e[free_slot(ix, old.e[i].hash)] = old.e[i];
	free(old.e);
	return 0;
}

int props_index_put(struct props_index *ix, const struct props *p, size_t set,
		    size_t idx)
{
	struct props_index_ent e = { .set = set, .idx = idx, .used = 1 };
	int r;

	if (ix->n >= ix->cap / 2) {
		r = grow(ix);
		if (r < 0)
			return r;
	}
	e.hash = name_hash(set, ent_name(p, &e));
	ix->e[slot_of(ix, p, set, ent_name(p, &e), e.hash)] = e;
	ix->n++;
	return 0;
}

void props_index_fini(struct props_index *ix)
{
	free(ix->e);
	memset(ix, 0, sizeof(*ix));
}
