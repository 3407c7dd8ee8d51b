// SPDX-License-Identifier: MIT
/*
 * Specialization constants of an image: the model (symbolic id -> leaves,
 * blob offsets, default blob) decoded from the copied property sets on
 * first use and cached on the image record, and the user's values turned
 * into what each path needs: (SpecId, size, bytes) for the native path, the
 * filled buffer for the emulated one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libdevimg-internal.h"
#include "props.h"

struct image_spec {
	struct devimg_spec_const_info *consts;	/* in SpecId order */
	size_t n;
	unsigned char *defaults;
	uint32_t total;
};

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
	log_err("image %llu: set '%s' property '%s': type %u, expected 2 (byte array)",
		(unsigned long long)id, set, p->name, p->type);
	return -EINVAL;
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
	struct props_error perr;
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
			log_err("image %llu: %s", (unsigned long long)id,
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
	struct props_error perr;
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
		log_err("image %llu: %s", (unsigned long long)id, perr.msg);
	if (r == 0)
		r = build_info(s, pc);
	if (r == 0)
		r = copy_defaults(s, all);
	fini_consts(pc, s->n);
	return r;
}

static int image_get_spec(struct devimg_image *img,
			  const struct image_spec **out)
{
	struct image_spec *s = atomic_load(&img->spec);
	struct image_spec *expected = NULL;
	const struct image_props *p;
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
		return -ENOMEM;
	r = spec_decode(s, p, img->id);
	if (r < 0) {
		image_spec_free(s);
		return r;
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
		return -EINVAL;
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

/* ---- values ---- */

struct devimg_spec_values {
	atomic_uint refcount;
	struct devimg_image *img;
	const struct image_spec *spec;
	unsigned char *buf;		/* the emulated buffer */
	bool *set;			/* per constant */
	struct devimg_spec_native *native;
	size_t nnative;
	bool native_valid;
};

DEVIMG_EXPORT int devimg_spec_values_new(struct devimg_image *img,
					 struct devimg_spec_values **out)
{
	struct devimg_spec_values *v;
	const struct image_spec *s;
	int r;

	if (!img || !out)
		return -EINVAL;
	r = image_get_spec(img, &s);
	if (r < 0)
		return r;
	v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	atomic_init(&v->refcount, 1);
	v->spec = s;
	v->buf = malloc(s->total ? s->total : 1);
	v->set = calloc(s->n ? s->n : 1, sizeof(*v->set));
	if (!v->buf || !v->set) {
		free(v->buf);
		free(v->set);
		free(v);
		return -ENOMEM;
	}
	memcpy(v->buf, s->defaults, s->total);
	v->img = devimg_image_ref(img);
	*out = v;
	return 0;
}

DEVIMG_EXPORT struct devimg_spec_values *
devimg_spec_values_ref(struct devimg_spec_values *v)
{
	if (v)
		atomic_fetch_add_explicit(&v->refcount, 1,
					  memory_order_relaxed);
	return v;
}

DEVIMG_EXPORT struct devimg_spec_values *
devimg_spec_values_unref(struct devimg_spec_values *v)
{
	if (!v)
		return NULL;
	if (atomic_fetch_sub_explicit(&v->refcount, 1,
				      memory_order_acq_rel) > 1)
		return v;
	free(v->native);
	free(v->set);
	free(v->buf);
	devimg_image_unref(v->img);
	free(v);
	return NULL;
}

int spec_values_copy(struct devimg_spec_values *dst,
		     const struct devimg_spec_values *src)
{
	if (dst->spec != src->spec)
		return -EINVAL;
	memcpy(dst->buf, src->buf, src->spec->total);
	memcpy(dst->set, src->set, src->spec->n * sizeof(*dst->set));
	dst->native_valid = false;
	return 0;
}

static const struct devimg_spec_const_info *
find_const(const struct image_spec *s, const char *name, size_t *idx)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (strcmp(s->consts[i].name, name) == 0) {
			*idx = i;
			return &s->consts[i];
		}
	}
	return NULL;
}

DEVIMG_EXPORT int devimg_spec_values_set(struct devimg_spec_values *v,
					 const char *symbolic_id, size_t size,
					 const void *value)
{
	const struct devimg_spec_const_info *c;
	size_t i, idx;

	if (!v || !symbolic_id || (size && !value))
		return -EINVAL;
	c = find_const(v->spec, symbolic_id, &idx);
	if (!c) {
		log_err("image %llu has no spec constant '%s'",
			(unsigned long long)v->img->id, symbolic_id);
		return -ENOENT;
	}
	if (size != c->size) {
		log_err("spec constant '%s' of image %llu: value of %zu bytes, the constant has %u bytes",
			symbolic_id, (unsigned long long)v->img->id, size,
			c->size);
		return -EINVAL;
	}
	/*
	 * Leaf by leaf, as the emulated buffer lays them out. Padding keeps
	 * the defaults' bytes: a caller's struct often has garbage there,
	 * which would otherwise key (and miss) the program cache.
	 */
	for (i = 0; i < c->nleaves; i++)
		if (c->leaves[i].id != UINT32_MAX)
			memcpy(v->buf + c->blob_offset + c->leaves[i].offset,
			       (const unsigned char *)value +
				       c->leaves[i].offset,
			       c->leaves[i].size);
	v->set[idx] = true;
	v->native_valid = false;
	return 0;
}

static size_t count_native(const struct devimg_spec_values *v)
{
	size_t i, j, n = 0;

	for (i = 0; i < v->spec->n; i++) {
		const struct devimg_spec_const_info *c = &v->spec->consts[i];

		for (j = 0; v->set[i] && j < c->nleaves; j++)
			n += c->leaves[j].id != PROPS_SPEC_PADDING_ID;
	}
	return n;
}

static int build_native(struct devimg_spec_values *v)
{
	size_t i, j, k = 0, n = count_native(v);
	struct devimg_spec_native *list = NULL;

	if (n) {
		list = calloc(n, sizeof(*list));
		if (!list)
			return -ENOMEM;
	}
	for (i = 0; i < v->spec->n; i++) {
		const struct devimg_spec_const_info *c = &v->spec->consts[i];

		for (j = 0; v->set[i] && j < c->nleaves; j++) {
			const struct devimg_spec_leaf *l = &c->leaves[j];

			if (l->id == PROPS_SPEC_PADDING_ID)
				continue;
			list[k].id = l->id;
			list[k].size = l->size;
			list[k].value = v->buf + c->blob_offset + l->offset;
			k++;
		}
	}
	free(v->native);
	v->native = list;
	v->nnative = n;
	v->native_valid = true;
	return 0;
}

DEVIMG_EXPORT int
devimg_spec_values_native(struct devimg_spec_values *v,
			  const struct devimg_spec_native **list, size_t *n)
{
	int r;

	if (!v || !list || !n)
		return -EINVAL;
	if (!v->native_valid) {
		r = build_native(v);
		if (r < 0)
			return r;
	}
	*list = v->native;
	*n = v->nnative;
	return 0;
}

DEVIMG_EXPORT int devimg_spec_values_buffer(struct devimg_spec_values *v,
					    const void **buf, size_t *size)
{
	if (!v || !buf || !size)
		return -EINVAL;
	*buf = v->spec->total ? v->buf : NULL;
	*size = v->spec->total;
	return 0;
}
