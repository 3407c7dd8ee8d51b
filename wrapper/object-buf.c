// SPDX-License-Identifier: MIT
/*
 * The object writer's growable buffers, in which the sections are built
 * (bytes, strings, aligned zeroed space), and its lists of relocations.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wrapper/object-private.h"

/* Reserve size zeroed bytes at the next multiple of align; *off gets it. */
int obj_buf_alloc(struct buf *b, size_t size, size_t align, size_t *off)
{
	size_t start = align_up(b->len, align);
	size_t need;

	if (start < b->len || size > SIZE_MAX - start)
		return -ENOMEM;
	need = start + size;
	if (need > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		unsigned char *p;

		while (cap < need)
			cap = cap > SIZE_MAX / 2 ? need : cap * 2;
		p = realloc(b->p, cap);
		if (!p)
			return -ENOMEM;
		b->p = p;
		b->cap = cap;
	}
	memset(b->p + b->len, 0, need - b->len);
	b->len = need;
	*off = start;
	return 0;
}

int obj_buf_add(struct buf *b, const void *data, size_t size, size_t align,
		size_t *off)
{
	int r = obj_buf_alloc(b, size, align, off);

	if (r == 0 && size)
		memcpy(b->p + *off, data, size);
	return r;
}

/* A NUL-terminated string; *off may be NULL. */
int obj_buf_str(struct buf *b, const char *s, size_t *off)
{
	size_t o;
	int r = obj_buf_add(b, s, strlen(s) + 1, 1, &o);

	if (r == 0 && off)
		*off = o;
	return r;
}

int obj_rels_add(struct rels *rs, uint64_t offset, uint32_t type, uint32_t sym,
		 int64_t addend)
{
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 64;
		struct rel *r = realloc(rs->r, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		rs->r = r;
		rs->cap = cap;
	}
	rs->r[rs->n++] = (struct rel){ offset, type, sym, addend };
	return 0;
}
