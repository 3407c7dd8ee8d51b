// SPDX-License-Identifier: MIT
/*
 * Values of an image's specialization constants (the model is
 * specconst.c's): the user's values turned into what each path needs:
 * (SpecId, size, bytes) for the native path, the filled buffer for the
 * emulated one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/registry/registry.h"
#include "props/props.h"

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

static int values_nomem(const struct devimg_image *img)
{
	return fail_dbg(-ENOMEM, "spec constant values of image %llu: out of memory",
			(unsigned long long)img->id);
}

DEVIMG_EXPORT int devimg_spec_values_new(struct devimg_image *img,
					 struct devimg_spec_values **out)
{
	struct devimg_spec_values *v;
	const struct image_spec *s;
	int r;

	if (!img || !out)
		return fail_null("devimg_spec_values_new");
	r = image_get_spec(img, &s);
	if (r < 0)
		return r;
	v = calloc(1, sizeof(*v));
	if (!v)
		return values_nomem(img);
	atomic_init(&v->refcount, 1);
	v->spec = s;
	v->buf = malloc(s->total ? s->total : 1);
	v->set = calloc(s->n ? s->n : 1, sizeof(*v->set));
	if (!v->buf || !v->set) {
		free(v->buf);
		free(v->set);
		free(v);
		return values_nomem(img);
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
		return fail_null("devimg_spec_values_set");
	c = find_const(v->spec, symbolic_id, &idx);
	if (!c)
		return fail_dbg(-ENOENT, "image %llu has no spec constant '%s'",
				(unsigned long long)v->img->id, symbolic_id);
	if (size != c->size)
		return fail_dbg(-EINVAL, "spec constant '%s' of image %llu: value of %zu bytes, the constant has %u bytes",
				symbolic_id, (unsigned long long)v->img->id,
				size, c->size);
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
		return fail_null("devimg_spec_values_native");
	if (!v->native_valid) {
		r = build_native(v);
		if (r < 0)
			return values_nomem(v->img);
	}
	*list = v->native;
	*n = v->nnative;
	return 0;
}

DEVIMG_EXPORT int devimg_spec_values_buffer(struct devimg_spec_values *v,
					    const void **buf, size_t *size)
{
	if (!v || !buf || !size)
		return fail_null("devimg_spec_values_buffer");
	*buf = v->spec->total ? v->buf : NULL;
	*size = v->spec->total;
	return 0;
}
