/* SPDX-License-Identifier: MIT */
/*
 * Internal helpers of libdevimg-props shared by its modules: byte-array
 * header validation, the name index and the model's ownership-taking
 * adder; and the generic helpers (util/) every module uses.
 * Nothing here is part of the library's API.
 */
#ifndef DEVIMG_PROPS_INTERNAL_H
#define DEVIMG_PROPS_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "props/props.h"
#include "util/errmsg.h"
#include "util/le.h"
#include "util/lines.h"
#include "util/input.h"

/* ---- byte arrays (bytes.c) ---- */

/*
 * Check the 8-byte bit-count header against the payload. On failure,
 * detail (may be NULL) gets "what: saw ..., expected ..." without a place.
 */
int props_bytes_check(const unsigned char *buf, uint64_t size, uint64_t *nbits,
		      struct errmsg *detail);

/* ---- model (model.c) ---- */

/* Replace pr's value with one the caller owns (data may be NULL). */
void props_prop_replace(struct props_prop *pr, enum props_type type,
			uint32_t u32, unsigned char *data, size_t size);

/* ---- name index (index.c) ---- */

struct props_index_ent {
	uint64_t hash;		/* keyed: hashkey.h */
	size_t set;		/* PROPS_INDEX_SETS for a set's own name */
	size_t idx;
	int used;
};

struct props_index {
	struct props_index_ent *e;
	size_t cap;
	size_t n;
};

#define PROPS_INDEX_SETS SIZE_MAX

/*
 * Look up a set (set == PROPS_INDEX_SETS) or a property of set number set
 * by name: 1 and *idx when present, 0 when not.
 */
int props_index_get(const struct props_index *ix, const struct props *p,
		    size_t set, const char *name, size_t *idx);
/* Add the set or property at idx (already in p); 0 or -ENOMEM. */
int props_index_put(struct props_index *ix, const struct props *p, size_t set,
		    size_t idx);
void props_index_fini(struct props_index *ix);

/* Append a BYTE_ARRAY property taking ownership of buf (header included). */
int props_add_bytes_owned(struct props_set *s, const char *name,
			  unsigned char *buf, size_t size);
char *props_strndup(const char *s, size_t n);

#endif
