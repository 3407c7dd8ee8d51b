// SPDX-License-Identifier: MIT
/*
 * Specialization constants of an image: the model (symbolic id -> leaves,
 * blob offsets, default blob) decoded from the copied property sets on
 * first use and cached on the image record. The user's values are
 * specvalues.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/registry/registry.h"
#include "props/props.h"
#include "util/errmsg.h"

void image_spec_free(struct image_spec *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; s->consts && i < s->n; i++)
		free((void *)s->consts[i].leaves);
	free(s->consts);
	free(s->defaults);
	free(s);
}

static const struct devimg_propset_info *
find_set(const struct image_props *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nsets; i++) {
		if (strcmp(p->sets[i].name, name) == 0)
			return &p->sets[i];
	}
	return NULL;
}

static const struct devimg_property_info *
find_prop(const struct devimg_propset_info *s, const char *name)
{
	size_t i;

	for (i = 0; s && i < s->nprops; i++) {
		if (strcmp(s->props[i].name, name) == 0)
			return &s->props[i];
	}
	return NULL;
}

static int need_bytes(const char *set, const struct devimg_property_info *p,
		      uint64_t id)
{
	if (p->type == DEVIMG_PROPERTY_BYTE_ARRAY)
		return 0;
	return fail_dbg(-EINVAL, "image %llu: set '%s' property '%s': type %u, expected 2 (byte array)",
			(unsigned long long)id, set, p->name, p->type);
}

static void fini_consts(struct props_spec_const *pc, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		props_spec_const_fini(&pc[i]);
	free(pc);
}

/* Decode every constant of the set (NULL: none), in property order. */
static int decode_consts(const struct devimg_propset_info *set, uint64_t id,
			 struct props_spec_const **out)
{
	size_t n = set ? set->nprops : 0;
	struct props_spec_const *pc;
	struct errmsg perr;
	size_t i;
	int r = 0;

	pc = calloc(n ? n : 1, sizeof(*pc));
	if (!pc)
		return -ENOMEM;
	for (i = 0; i < n && r == 0; i++) {
		const struct devimg_property_info *p = &set->props[i];

		r = need_bytes(PROPS_SET_SPEC_CONSTS, p, id);
		if (r == 0)
			r = props_spec_decode(p->name, p->data, p->size, &pc[i],
					      &perr);
		if (r == -EINVAL && p->type == DEVIMG_PROPERTY_BYTE_ARRAY)
			fail_dbg(r, "image %llu: %s", (unsigned long long)id,
				 perr.msg);
	}
	if (r < 0) {
		fini_consts(pc, i);
		return r;
	}
	*out = pc;
	return 0;
}

static int build_info(struct image_spec *s, const struct props_spec_const *pc)
{
	size_t i;

	s->consts = calloc(s->n ? s->n : 1, sizeof(*s->consts));
	if (!s->consts)
		return -ENOMEM;
	for (i = 0; i < s->n; i++) {
		struct devimg_spec_const_info *c = &s->consts[i];
		struct devimg_spec_leaf *leaves;
		size_t j;

		leaves = calloc(pc[i].ndescs, sizeof(*leaves));
		if (!leaves)
			return -ENOMEM;
		for (j = 0; j < pc[i].ndescs; j++) {
			leaves[j].id = pc[i].descs[j].id;
			leaves[j].offset = pc[i].descs[j].offset;
			leaves[j].size = pc[i].descs[j].size;
		}
		c->name = pc[i].name;
		c->size = pc[i].size;
		c->blob_offset = pc[i].blob_offset;
		c->leaves = leaves;
		c->nleaves = pc[i].ndescs;
	}
	return 0;
}

/* The payload of the defaults, or zeros when the image has none. */
static int copy_defaults(struct image_spec *s,
			 const struct devimg_property_info *all)
{
	const unsigned char *payload;
	uint64_t nbits;

	s->defaults = calloc(s->total ? s->total : 1, 1);
	if (!s->defaults)
		return -ENOMEM;
	if (!all || !s->total)
		return 0;
	if (props_bytes_payload(all->data, all->size, "defaults", &payload,
				&nbits, NULL) < 0)
		return -EINVAL;
	memcpy(s->defaults, payload, s->total);
	return 0;
}

static int spec_decode(struct image_spec *s, const struct image_props *p,
		       uint64_t id)
{
	const struct devimg_propset_info *set = find_set(p, PROPS_SET_SPEC_CONSTS);
	const struct devimg_property_info *all;
	struct props_spec_const *pc = NULL;
	struct errmsg perr;
	int r;

	all = find_prop(find_set(p, PROPS_SET_SPEC_DEFAULTS),
			PROPS_SPEC_DEFAULTS_PROP);
	if (all && need_bytes(PROPS_SET_SPEC_DEFAULTS, all, id) < 0)
		return -EINVAL;
	r = decode_consts(set, id, &pc);
	if (r < 0)
		return r;
	s->n = set ? set->nprops : 0;
	r = props_spec_layout(pc, s->n, all ? all->data : NULL,
			      all ? all->size : 0, &s->total, &perr);
	if (r == -EINVAL)
		fail_dbg(r, "image %llu: %s", (unsigned long long)id, perr.msg);
	if (r == 0)
		r = build_info(s, pc);
	if (r == 0)
		r = copy_defaults(s, all);
	fini_consts(pc, s->n);
	return r;
}

static int spec_failed(const struct devimg_image *img, int err)
{
	return fail_dbg(err, "image %llu (index %u): spec constants: %s",
			(unsigned long long)img->id, img->index,
			devimg_strerror(err));
}

int image_get_spec(struct devimg_image *img, const struct image_spec **out)
{
	struct image_spec *s = atomic_load(&img->spec);
	struct image_spec *expected = NULL;
	const struct image_props *p;
	unsigned seq;
	int r;

	if (s) {
		*out = s;
		return 0;
	}
	r = image_get_props(img, &p);
	if (r < 0)
		return r;
	s = calloc(1, sizeof(*s));
	if (!s)
		return spec_failed(img, -ENOMEM);
	seq = error_count();
	r = spec_decode(s, p, img->id);
	if (r < 0) {
		image_spec_free(s);
		/* Those that say nothing themselves: out of memory, defaults. */
		return error_count() == seq ? spec_failed(img, r) : r;
	}
	if (!atomic_compare_exchange_strong(&img->spec, &expected, s)) {
		image_spec_free(s);
		s = expected;
	}
	*out = s;
	return 0;
}

DEVIMG_EXPORT int
devimg_image_spec_consts(struct devimg_image *img,
			 const struct devimg_spec_const_info **consts,
			 size_t *n, const void **defaults, size_t *size)
{
	const struct image_spec *s;
	int r;

	if (!img)
		return fail_null("devimg_image_spec_consts");
	r = image_get_spec(img, &s);
	if (r < 0)
		return r;
	if (consts && n) {
		*consts = s->n ? s->consts : NULL;
		*n = s->n;
	}
	if (defaults && size) {
		*defaults = s->total ? s->defaults : NULL;
		*size = s->total;
	}
	return 0;
}
