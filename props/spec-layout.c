// SPDX-License-Identifier: MIT
/*
 * Specialization-constant descriptors: each constant's byte array holds
 * little-endian {id, offset, size} uint32 tuples, one per scalar leaf (id
 * PROPS_SPEC_PADDING_ID for padding); the defaults blob packs the values of
 * all constants in the order of their properties, with no padding between
 * constants, as DPC++'s runtime lays them out.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/devimg_limits.h"
#include "props/internal.h"

#define TUPLE_BYTES 12u

struct leaf_span {
	uint32_t offset;
	uint32_t end;
	size_t idx;
};

static int span_cmp(const void *pa, const void *pb)
{
	const struct leaf_span *a = pa, *b = pb;

	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static void overlap_error(const char *where, const struct props_spec_desc *d,
			  size_t i, size_t j, struct errmsg *err)
{
	size_t a = i < j ? i : j, b = i < j ? j : i;

	errmsg_set(err,
		   "%s: leaves overlap: saw leaf %zu {id %" PRIu32 ", offset %" PRIu32
		   ", size %" PRIu32 "} and leaf %zu {id %" PRIu32 ", offset %" PRIu32
		   ", size %" PRIu32 "} sharing bytes, expected disjoint byte ranges",
		   where, a, d[a].id, d[a].offset, d[a].size, b, d[b].id,
		   d[b].offset, d[b].size);
}

/* Leaves must not share bytes: sort by offset, compare with the furthest end. */
static int check_overlap(const char *where, const struct props_spec_desc *d,
			 size_t n, struct errmsg *err)
{
	struct leaf_span *spans;
	size_t i, far = 0;
	int r = 0;

	spans = calloc(n, sizeof(*spans));
	if (!spans)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		spans[i].offset = d[i].offset;
		spans[i].end = d[i].offset + d[i].size;
		spans[i].idx = i;
	}
	qsort(spans, n, sizeof(*spans), span_cmp);
	for (i = 1; i < n; i++) {
		if (spans[i].offset < spans[far].end) {
			overlap_error(where, d, spans[far].idx, spans[i].idx,
				      err);
			r = -EINVAL;
			break;
		}
		if (spans[i].end > spans[far].end)
			far = i;
	}
	free(spans);
	return r;
}

static int check_leaf(const char *where, const struct props_spec_desc *d,
		      size_t i, struct errmsg *err)
{
	if (d->size == 0) {
		errmsg_set(err,
			   "%s: leaf %zu {id %" PRIu32 ", offset %" PRIu32
			   "} has no bytes: saw size 0, expected at least 1",
			   where, i, d->id, d->offset);
		return -EINVAL;
	}
	if (d->offset > UINT32_MAX - d->size) {
		errmsg_set(err,
			   "%s: leaf %zu {id %" PRIu32 "} ends past 4 GiB: saw offset %"
			   PRIu32 " + size %" PRIu32 ", expected a sum of at most %" PRIu32,
			   where, i, d->id, d->offset, d->size, UINT32_MAX);
		return -EINVAL;
	}
	return 0;
}

static int check_tuples(const char *where, uint64_t plen, uint64_t nbits,
			struct errmsg *err)
{
	if (plen % TUPLE_BYTES || plen == 0) {
		errmsg_set(err,
			   "%s: payload is not whole {id, offset, size} tuples: saw %"
			   PRIu64 " bytes, expected a non-zero multiple of 12",
			   where, plen);
		return -EINVAL;
	}
	if (nbits != plen * 8) {
		errmsg_set(err,
			   "%s: bit count does not cover the tuples: saw %" PRIu64
			   " bits, expected %" PRIu64,
			   where, nbits, plen * 8);
		return -EINVAL;
	}
	return 0;
}

static int decode_leaves(const char *where, const unsigned char *payload,
			 struct props_spec_const *c, struct errmsg *err)
{
	struct props_spec_desc *d;
	uint32_t end;
	size_t i;
	int r;

	for (i = 0; i < c->ndescs; i++) {
		d = &c->descs[i];
		d->id = get_le32(payload + i * TUPLE_BYTES);
		d->offset = get_le32(payload + i * TUPLE_BYTES + 4);
		d->size = get_le32(payload + i * TUPLE_BYTES + 8);
		r = check_leaf(where, d, i, err);
		if (r < 0)
			return r;
		end = d->offset + d->size;
		if (end > c->size)
			c->size = end;
		if (d->id != PROPS_SPEC_PADDING_ID && d->id < c->first_id)
			c->first_id = d->id;
	}
	return check_overlap(where, c->descs, c->ndescs, err);
}

int props_spec_decode(const char *name, const void *buf, uint64_t size,
		      struct props_spec_const *out, struct errmsg *err)
{
	struct props_spec_const c = { .name = name };
	const unsigned char *payload;
	char where[384];
	uint64_t nbits;
	int r;

	memset(out, 0, sizeof(*out));
	snprintf(where, sizeof(where), "set '%s' property '%s'",
		 PROPS_SET_SPEC_CONSTS, name);
	r = props_bytes_payload(buf, size, where, &payload, &nbits, err);
	if (r < 0)
		return r;
	r = check_tuples(where, size - PROPS_BYTES_HEADER, nbits, err);
	if (r < 0)
		return r;
	c.ndescs = (size - PROPS_BYTES_HEADER) / TUPLE_BYTES;
	c.first_id = PROPS_SPEC_PADDING_ID;
	c.descs = calloc(c.ndescs, sizeof(*c.descs));
	if (!c.descs)
		return -ENOMEM;
	r = decode_leaves(where, payload, &c, err);
	if (r < 0) {
		free(c.descs);
		return r;
	}
	*out = c;
	return 0;
}

void props_spec_const_fini(struct props_spec_const *c)
{
	free(c->descs);
	c->descs = NULL;
	c->ndescs = 0;
}

/* The sum of the sizes, bounded by DEVIMG_LIMIT_SPEC_CONSTS. */
static int sum_sizes(struct props_spec_const *c, size_t n,
		     uint32_t *total, struct errmsg *err)
{
	uint32_t off = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (c[i].size > DEVIMG_LIMIT_SPEC_CONSTS - off) {
			errmsg_set(err,
				   "set '%s': constants too large: saw constant '%s' of %"
				   PRIu32 " bytes at offset %" PRIu32
				   ", expected a total of at most %" PRIu32 " bytes",
				   PROPS_SET_SPEC_CONSTS, c[i].name, c[i].size, off,
				   (uint32_t)DEVIMG_LIMIT_SPEC_CONSTS);
			return -EINVAL;
		}
		off += c[i].size;
	}
	*total = off;
	return 0;
}

static int check_defaults(const void *defaults, uint64_t defaults_size,
			  uint32_t total, struct errmsg *err)
{
	static const char where[] = "set '" PROPS_SET_SPEC_DEFAULTS
				    "' property '" PROPS_SPEC_DEFAULTS_PROP "'";
	uint64_t nbits, have;
	int r;

	if (!defaults)
		return 0;
	r = props_bytes_payload(defaults, defaults_size, where, NULL, &nbits,
				err);
	if (r < 0)
		return r;
	have = defaults_size - PROPS_BYTES_HEADER;
	if (have != total) {
		errmsg_set(err,
			   "%s: defaults blob has %" PRIu64 " bytes, the constants need %"
			   PRIu32 ": saw %" PRIu64 " bytes, expected %" PRIu32,
			   where, have, total, have, total);
		return -EINVAL;
	}
	return 0;
}

static int name_cmp(const void *pa, const void *pb)
{
	const struct props_spec_const *a = *(const struct props_spec_const *
					       const *)pa;
	const struct props_spec_const *b = *(const struct props_spec_const *
					       const *)pb;
	int c = strcmp(a->name, b->name);

	/* ties by place, so the message names the first two */
	return c ? c : (a > b) - (a < b);
}

/*
 * Each constant's name once: values are set by name, so a second
 * constant of one name could never be set. Sorted, O(n log n).
 */
static int check_names(const struct props_spec_const *c, size_t n,
		       struct errmsg *err)
{
	const struct props_spec_const **by, *x = NULL, *y = NULL;
	size_t i;

	if (n < 2)
		return 0;
	by = malloc(n * sizeof(*by));
	if (!by) {
		errmsg_set(err, "set '%s': out of memory", PROPS_SET_SPEC_CONSTS);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		by[i] = &c[i];
	qsort(by, n, sizeof(*by), name_cmp);
	for (i = 1; i < n && !x; i++) {
		if (strcmp(by[i - 1]->name, by[i]->name))
			continue;
		x = by[i - 1];
		y = by[i];
	}
	free(by);
	if (!x)
		return 0;
	errmsg_set(err, "set '%s': constant '%s' twice: saw properties %zu "
		   "and %zu of that name, expected one", PROPS_SET_SPEC_CONSTS,
		   x->name, (size_t)(x - c), (size_t)(y - c));
	return -EINVAL;
}

int props_spec_layout(struct props_spec_const *consts, size_t n,
		      const void *defaults, uint64_t defaults_size,
		      uint32_t *total, struct errmsg *err)
{
	uint32_t sum = 0, off = 0;
	size_t i;
	int r;

	r = check_names(consts, n, err);
	if (r == 0)
		r = sum_sizes(consts, n, &sum, err);
	if (r == 0)
		r = check_defaults(defaults, defaults_size, sum, err);
	if (r < 0)
		return r;
	for (i = 0; i < n; i++) {
		consts[i].blob_offset = off;
		off += consts[i].size;
	}
	*total = sum;
	return 0;
}
