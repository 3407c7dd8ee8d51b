// SPDX-License-Identifier: MIT
/*
 * Introspection of image records: the fields copied at registration, the
 * bytes borrowed from the loaded file, and the property sets, copied from
 * the descriptor (or parsed from an OffloadBinary's strings) on first use
 * into one allocation owned by the record;
 * the launch metadata decoded from those sets on each request (eliminated
 * arguments, required work-group sizes, device requirements).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/registry/registry.h"
#include "util/checked.h"
#include "util/devimg_limits.h"
#include "props/offload-binary.h"
#include "props/props.h"
#include "util/errmsg.h"

DEVIMG_EXPORT int devimg_image_is_registered(const struct devimg_image *img)
{
	return image_is_registered(img);
}

DEVIMG_EXPORT uint64_t devimg_image_id(const struct devimg_image *img)
{
	return img->id;
}

DEVIMG_EXPORT unsigned devimg_image_index(const struct devimg_image *img)
{
	return img->index;
}

DEVIMG_EXPORT const struct devimg_device_binaries *
devimg_image_descriptor(const struct devimg_image *img)
{
	return img->desc;
}

DEVIMG_EXPORT unsigned devimg_image_version(const struct devimg_image *img)
{
	return img->version;
}

DEVIMG_EXPORT enum devimg_offload_kind
devimg_image_kind(const struct devimg_image *img)
{
	return (enum devimg_offload_kind)img->kind;
}

DEVIMG_EXPORT enum devimg_image_format
devimg_image_format(const struct devimg_image *img)
{
	return (enum devimg_image_format)img->format;
}

DEVIMG_EXPORT const char *devimg_image_target(const struct devimg_image *img)
{
	return img->target;
}

DEVIMG_EXPORT const char *
devimg_image_compile_opts(const struct devimg_image *img)
{
	return img->compile_opts;
}

DEVIMG_EXPORT const char *devimg_image_link_opts(const struct devimg_image *img)
{
	return img->link_opts;
}

DEVIMG_EXPORT size_t devimg_image_bin_size(const struct devimg_image *img)
{
	return img->bin_size;
}

DEVIMG_EXPORT size_t devimg_image_manifest_size(const struct devimg_image *img)
{
	return img->manifest_size;
}

DEVIMG_EXPORT int devimg_image_bin(const struct devimg_image *img,
				   const void **bytes, size_t *size)
{
	if (!img || !bytes || !size)
		return fail_null("devimg_image_bin");
	if (!devimg_image_is_registered(img))
		return image_stale(img->id, img->index);
	/* A compressed image is expanded once; the record is its cache. */
	return image_bytes((struct devimg_image *)img,
			   (const unsigned char **)bytes, size);
}

DEVIMG_EXPORT int devimg_image_bin_copy(struct devimg_image *img,
					void **bytes, size_t *size)
{
	const unsigned char *src;
	void *copy;
	size_t n;
	int r = 0;

	if (!img || !bytes || !size)
		return fail_null("devimg_image_bin_copy");
	/* Expanded first (once), then copied as the file's own bytes are. */
	r = image_bytes(img, &src, &n);
	if (r < 0)
		return r;
	copy = malloc(n ? n : 1);
	if (!copy)
		return fail_dbg(-ENOMEM, "image %llu (index %u): no memory for a copy of its %zu bytes",
				(unsigned long long)img->id, img->index, n);
	registry_read_lock();
	if (devimg_image_is_registered(img))
		memcpy(copy, src, n);
	else
		r = -ESTALE;
	registry_read_unlock();
	if (r < 0) {
		free(copy);
		return image_stale(img->id, img->index);
	}
	*bytes = copy;
	*size = n;
	return 0;
}

DEVIMG_EXPORT int devimg_image_manifest(const struct devimg_image *img,
					const void **bytes, size_t *size)
{
	if (!img || !bytes || !size)
		return fail_null("devimg_image_manifest");
	if (!devimg_image_is_registered(img))
		return image_stale(img->id, img->index);
	*bytes = img->manifest;
	*size = img->manifest_size;
	return 0;
}

DEVIMG_EXPORT size_t devimg_image_entry_count(const struct devimg_image *img)
{
	return img->nentries;
}

DEVIMG_EXPORT const char *
devimg_image_entry_name(const struct devimg_image *img, size_t i)
{
	if (i < img->nentries)
		return img->entries[i].name;
	fail_dbg(-ERANGE, "image %llu (index %u): no entry %zu, it has %zu",
		 (unsigned long long)img->id, img->index, i, img->nentries);
	return NULL;
}

/* ---- property sets ---- */

static size_t set_count(const struct devimg_device_image *di)
{
	return di->props_begin ? (size_t)(di->props_end - di->props_begin) : 0;
}

static size_t prop_count(const struct devimg_property_set *s)
{
	return s->begin ? (size_t)(s->end - s->begin) : 0;
}

/*
 * The value bytes a property's copy holds (a string's NUL included), or
 * true when they do not fit a size_t.
 */
static bool value_size(const struct devimg_property *p, size_t *n)
{
	switch (p->type) {
	case DEVIMG_PROPERTY_BYTE_ARRAY:
		return size_from_u64(p->size, n);
	case DEVIMG_PROPERTY_STRING:
		return size_add(p->size ? strnlen(p->value, (size_t)p->size) :
					  strlen(p->value), 1, n);
	default:
		*n = 0;
		return false;
	}
}

/* *total += sizeof(info) + strlen(name) + 1 + extra, false when it wraps. */
static bool add_record(size_t *total, size_t info, const char *name,
		       size_t extra)
{
	size_t n;

	return !size_add3(info, strlen(name), 1, &n) &&
	       !size_add(n, extra, &n) && !size_accumulate(total, n) &&
	       *total <= PTRDIFF_MAX;
}

/*
 * Bytes of the whole copy, or -EOVERFLOW. Registration bounds each count
 * and each byte array, not their sum: 2^20 sets sharing one array of 2^12
 * properties of 4 GiB each reach 2^64 bytes. No allocation exceeds
 * PTRDIFF_MAX, so the count stops there (half-way to a wrap at most).
 */
static int props_bytes(const struct devimg_device_image *di, size_t *out)
{
	size_t total = sizeof(struct image_props), n, i, j;

	for (i = 0; i < set_count(di); i++) {
		const struct devimg_property_set *s = &di->props_begin[i];

		if (!add_record(&total, sizeof(struct devimg_propset_info),
				s->name, 0))
			return -EOVERFLOW;
		for (j = 0; j < prop_count(s); j++)
			if (value_size(&s->begin[j], &n) ||
			    !add_record(&total,
					sizeof(struct devimg_property_info),
					s->begin[j].name, n))
				return -EOVERFLOW;
	}
	*out = total;
	return 0;
}

struct copier {
	struct devimg_property_info *infos;
	char *pos;
};

static const char *copy_bytes(struct copier *c, const void *src, size_t n)
{
	char *dst = c->pos;

	memcpy(dst, src, n);
	c->pos += n;
	return dst;
}

static void copy_prop(struct copier *c, const struct devimg_property *p,
		      struct devimg_property_info *info)
{
	size_t n;

	value_size(p, &n);	/* fits: props_bytes() added it up */

	info->name = copy_bytes(c, p->name, strlen(p->name) + 1);
	info->type = (enum devimg_property_type)p->type;
	info->u32 = p->type == DEVIMG_PROPERTY_UINT32 ? (uint32_t)p->size : 0;
	info->data = NULL;
	info->size = 0;
	if (p->type == DEVIMG_PROPERTY_BYTE_ARRAY) {
		info->data = (const unsigned char *)copy_bytes(c, p->value, n);
		info->size = n;
	} else if (p->type == DEVIMG_PROPERTY_STRING) {
		char *s = (char *)copy_bytes(c, p->value, n - 1);

		*c->pos++ = '\0';
		info->data = (const unsigned char *)s;
		info->size = n - 1;
	}
}

static void copy_set(struct copier *c, const struct devimg_property_set *s,
		     struct devimg_propset_info *set)
{
	struct devimg_property_info *props = c->infos;
	size_t j;

	set->nprops = prop_count(s);
	c->infos += set->nprops;
	for (j = 0; j < set->nprops; j++)
		copy_prop(c, &s->begin[j], &props[j]);
	set->props = props;
	set->name = copy_bytes(c, s->name, strlen(s->name) + 1);
}

static size_t total_props(const struct devimg_device_image *di)
{
	size_t i, n = 0;

	for (i = 0; i < set_count(di); i++)
		n += prop_count(&di->props_begin[i]);
	return n;
}

/*
 * Published in place of a copy whose size does not fit: every later
 * request fails alike without adding up the sizes again.
 */
static struct image_props props_too_large;

/* The message of an image whose property sets do not fit; -EOVERFLOW. */
static int props_overflow(const struct devimg_image *img, int priority)
{
	return devimg_fail(-EOVERFLOW, priority,
			   "image %llu (index %u): its property sets take more than %zu bytes to copy",
			   (unsigned long long)img->id, img->index,
			   (size_t)PTRDIFF_MAX);
}

/*
 * ---- property sets of an OffloadBinary's image ----
 *
 * Its strings whose key holds a '/' (LLVM's own, "triple", "arch",
 * "symbols", hold none; docs/formats.md, section 1), each a set of that
 * name holding the set's properties as .props text without the "[name]"
 * line, as devimg-wrap -form=blob writes them. Parsed here, on the first
 * read of the image's sets, under the registry read lock, into sets of
 * the descriptor's layout that props_copy() then copies as it copies a
 * descriptor's: registration does not read them (blob.c keeps the image's
 * entry only). The parse is linear in the texts, which the blob's Size
 * bounds; a text that does not parse, or a set of more properties than a
 * descriptor may have, fails this and every later read (-EINVAL).
 */

/* Sets and properties of the descriptor's layout, with the models. */
struct blob_props {
	struct devimg_property_set *sets;
	size_t nsets;
	struct devimg_property *props;
	struct props **models;
};

static bool is_set_key(const char *key)
{
	return strchr(key, '/') != NULL;
}

static void blob_props_fini(struct blob_props *bp)
{
	size_t i;

	for (i = 0; bp->models && i < bp->nsets; i++)
		props_free(bp->models[i]);
	free(bp->models);
	free(bp->sets);
	free(bp->props);
	memset(bp, 0, sizeof(*bp));
}

/* Set j of bp from the model m (one set), its properties from *next on. */
static void point_set(struct blob_props *bp, size_t j, struct props *m,
		      size_t *next)
{
	const struct props_set *ps = &m->sets[0];
	struct devimg_property *dp = bp->props + *next;
	size_t k;

	for (k = 0; k < ps->nprops; k++) {
		const struct props_prop *p = &ps->props[k];

		dp[k] = (struct devimg_property){
			.name = p->name,
			.type = p->type,
			.value = p->type == PROPS_BYTE_ARRAY ? p->data : NULL,
			.size = p->type == PROPS_BYTE_ARRAY ? p->size : p->u32,
		};
	}
	bp->sets[j] = (struct devimg_property_set){
		.name = ps->name,
		.begin = ps->nprops ? dp : NULL,
		.end = ps->nprops ? dp + ps->nprops : NULL,
	};
	*next += ps->nprops;
}

/* The text of string s parsed into bp->models[j]; *nprops counts. */
static int parse_set(const char *where, const struct offload_string *s,
		     struct blob_props *bp, size_t j, size_t *nprops,
		     struct errmsg *msg)
{
	struct errmsg err = { 0 };
	char fname[200];
	struct quote q;
	size_t n;
	int r;

	snprintf(fname, sizeof(fname), "%s: set '%s'", where,
		 quote_text(&q, s->key, strlen(s->key)));
	r = props_parse_set_text(s->value, s->value_len, fname, s->key,
				 &bp->models[j], &err);
	if (r < 0) {
		errmsg_esc(msg, r, "%s", err.msg);
		return r;
	}
	n = bp->models[j]->sets[0].nprops;
	if (n > DEVIMG_LIMIT_PROPS) {
		errmsg_esc(msg, -EINVAL, "%s: %zu properties, more than %u",
			   fname, n, DEVIMG_LIMIT_PROPS);
		return -EINVAL;
	}
	*nprops += n;
	return 0;
}

/* Image index of sh's sets into *out; where names it in msg. */
static int blob_props(const struct shadow *sh, unsigned index,
		      const char *where, struct blob_props *out,
		      struct errmsg *msg)
{
	const struct offload_entry *e;
	struct blob_props bp = { 0 };
	size_t i, j = 0, nprops = 0, next = 0;
	int r = 0;

	*out = bp;
	e = sh->entries && index < sh->desc.count ? sh->entries[index] : NULL;
	for (i = 0; e && i < e->nstrings; i++)
		bp.nsets += is_set_key(e->strings[i].key);
	if (!bp.nsets)
		return 0;
	if (bp.nsets > DEVIMG_LIMIT_PROPS) {
		errmsg_esc(msg, -EINVAL, "%s: %zu property sets, more than %u",
			   where, bp.nsets, DEVIMG_LIMIT_PROPS);
		return -EINVAL;
	}
	bp.models = calloc(bp.nsets, sizeof(*bp.models));
	bp.sets = calloc(bp.nsets, sizeof(*bp.sets));
	if (!bp.models || !bp.sets)
		r = -ENOMEM;
	for (i = 0; !r && i < e->nstrings; i++)
		if (is_set_key(e->strings[i].key))
			r = parse_set(where, &e->strings[i], &bp, j++,
				      &nprops, msg);
	if (!r) {
		bp.props = calloc(nprops ? nprops : 1, sizeof(*bp.props));
		if (!bp.props)
			r = -ENOMEM;
	}
	for (j = 0; !r && j < bp.nsets; j++)
		point_set(&bp, j, bp.models[j], &next);
	if (r == -ENOMEM)
		errmsg_esc(msg, r, "%s: property sets: out of memory",
			   where);
	if (r) {
		blob_props_fini(&bp);
		return r;
	}
	*out = bp;
	return 0;
}

/*
 * Copy the sets of a registered image (the registry read lock is held)
 * into *out: -EOVERFLOW when their bytes do not fit a size_t. Those of an
 * OffloadBinary's image are text in the blob: parsed now, on the first
 * read, into sets of the descriptor's layout, copied as a descriptor's
 * are (above; -EINVAL with the reason in msg when a text is wrong).
 */
static int props_copy(const struct devimg_image *img,
		      struct image_props **out, struct errmsg *msg)
{
	const struct devimg_device_image *di = img->dimg;
	struct blob_props bp = { 0 };
	struct devimg_device_image view;
	struct image_props *p;
	struct copier c;
	size_t nsets, size, i;
	char where[64];
	int r;

	if (img->shadow && img->shadow->entries) {
		snprintf(where, sizeof(where), "image %llu (index %u)",
			 (unsigned long long)img->id, img->index);
		r = blob_props(img->shadow, img->index, where, &bp, msg);
		if (r < 0)
			return r;
		view = *di;
		view.props_begin = bp.nsets ? bp.sets : NULL;
		view.props_end = bp.nsets ? bp.sets + bp.nsets : NULL;
		di = &view;
	}
	nsets = set_count(di);
	if (props_bytes(di, &size) < 0) {
		blob_props_fini(&bp);
		*out = &props_too_large;
		return -EOVERFLOW;
	}
	p = malloc(size);
	if (!p) {
		blob_props_fini(&bp);
		return -ENOMEM;
	}
	p->nsets = nsets;
	p->sets = (struct devimg_propset_info *)(p + 1);
	c.infos = (struct devimg_property_info *)(p->sets + nsets);
	c.pos = (char *)(c.infos + total_props(di));
	for (i = 0; i < nsets; i++)
		copy_set(&c, &di->props_begin[i], &p->sets[i]);
	blob_props_fini(&bp);
	*out = p;
	return 0;
}

int image_get_props(struct devimg_image *img, const struct image_props **out)
{
	struct image_props *p = atomic_load(&img->props);
	struct image_props *expected = NULL;
	struct errmsg msg = { 0 };
	int r = 0;

	if (p == &props_too_large)
		return props_overflow(img, DEVIMG_LOG_QUIET);
	if (p) {
		*out = p;
		return 0;
	}
	registry_read_lock();
	if (!devimg_image_is_registered(img))
		r = -ESTALE;
	else
		r = props_copy(img, &p, &msg);
	registry_read_unlock();
	if (r == -ESTALE)
		return image_stale(img->id, img->index);
	if (r == -EOVERFLOW)
		props_overflow(img, DEVIMG_LOG_ERR);
	else if (r < 0 && msg.msg[0])
		return fail_dbg(r, "%s", msg.msg);
	else if (r < 0)
		return fail_dbg(r, "image %llu (index %u): property sets: out of memory",
				(unsigned long long)img->id, img->index);
	/* Another thread may have published first: keep one copy. */
	if (!atomic_compare_exchange_strong(&img->props, &expected, p)) {
		image_props_free(p);
		p = expected;
	}
	if (p == &props_too_large)
		return -EOVERFLOW;
	*out = p;
	return 0;
}

void image_props_free(struct image_props *p)
{
	if (p != &props_too_large)
		free(p);
}

DEVIMG_EXPORT int devimg_image_propsets(struct devimg_image *img,
					const struct devimg_propset_info **sets,
					size_t *n)
{
	const struct image_props *p;
	int r;

	if (!img || !sets || !n)
		return fail_null("devimg_image_propsets");
	r = image_get_props(img, &p);
	if (r < 0)
		return r;
	*sets = p->nsets ? p->sets : NULL;
	*n = p->nsets;
	return 0;
}

DEVIMG_EXPORT int
devimg_image_find_property(struct devimg_image *img, const char *set,
			   const char *name,
			   const struct devimg_property_info **prop)
{
	const struct image_props *p;
	size_t i, j;
	int r;

	if (!img || !set || !name || !prop)
		return fail_null("devimg_image_find_property");
	r = image_get_props(img, &p);
	if (r < 0)
		return r;
	for (i = 0; i < p->nsets; i++) {
		const struct devimg_propset_info *s = &p->sets[i];

		if (strcmp(s->name, set) != 0)
			continue;
		for (j = 0; j < s->nprops; j++) {
			if (strcmp(s->props[j].name, name) == 0) {
				*prop = &s->props[j];
				return 0;
			}
		}
		return fail_dbg(-ENOENT, "image %llu (index %u): set '%s' has no property '%s'",
				(unsigned long long)img->id, img->index, set,
				name);
	}
	return fail_dbg(-ENOENT, "image %llu (index %u): no property set '%s' (property '%s')",
			(unsigned long long)img->id, img->index, set, name);
}

/* ---- launch metadata (docs/launch-metadata.md) ---- */

DEVIMG_EXPORT const char *devimg_aspect_name(uint32_t aspect)
{
	return props_aspect_name(aspect);
}

static const struct devimg_propset_info *
props_set(const struct image_props *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nsets; i++)
		if (strcmp(p->sets[i].name, name) == 0)
			return &p->sets[i];
	return NULL;
}

static const struct devimg_property_info *
set_prop(const struct devimg_propset_info *s, const char *name)
{
	size_t i;

	for (i = 0; s && i < s->nprops; i++)
		if (strcmp(s->props[i].name, name) == 0)
			return &s->props[i];
	return NULL;
}

/* A property of a byte array's type, or -EINVAL logged. */
static int need_byte_array(const struct devimg_image *img, const char *set,
			   const struct devimg_property_info *p)
{
	if (p->type == DEVIMG_PROPERTY_BYTE_ARRAY)
		return 0;
	return fail_dbg(-EINVAL, "image %llu (index %u): set '%s' property '%s': type %u, expected 2 (byte array)",
			(unsigned long long)img->id, img->index, set, p->name,
			p->type);
}

static int decode_failed(const struct devimg_image *img,
			 const struct errmsg *perr)
{
	return fail_dbg(-EINVAL, "image %llu (index %u): %s",
			(unsigned long long)img->id, img->index, perr->msg);
}

DEVIMG_EXPORT int devimg_image_kernel_arg_mask(struct devimg_image *img,
					       const char *kernel,
					       const unsigned char **mask,
					       size_t *nargs)
{
	const struct devimg_property_info *prop;
	struct errmsg perr = { 0 };
	const unsigned char *bits;
	char where[256];
	uint64_t n;
	int r;

	if (!img || !kernel || !mask || !nargs)
		return fail_null("devimg_image_kernel_arg_mask");
	r = devimg_image_find_property(img, PROPS_SET_KERNEL_PARAM_OPT, kernel,
				       &prop);
	if (r < 0)
		return r;
	r = need_byte_array(img, PROPS_SET_KERNEL_PARAM_OPT, prop);
	if (r < 0)
		return r;
	snprintf(where, sizeof(where), "set '%s' property '%.160s'",
		 PROPS_SET_KERNEL_PARAM_OPT, kernel);
	r = props_param_opt_decode(prop->data, prop->size, where, &bits, &n,
				   &perr);
	if (r < 0)
		return decode_failed(img, &perr);
	*mask = bits;
	*nargs = (size_t)n;
	return 0;
}

/* The property "<kernel><suffix>" of set, or NULL. */
static const struct devimg_property_info *
kernel_prop(const struct image_props *p, const char *set, const char *kernel,
	    const char *suffix, int *err)
{
	const struct devimg_property_info *prop;
	size_t kl = strlen(kernel), sl = strlen(suffix);
	char *name = malloc(kl + sl + 1);

	*err = 0;
	if (!name) {
		*err = -ENOMEM;
		return NULL;
	}
	memcpy(name, kernel, kl);
	memcpy(name + kl, suffix, sl + 1);
	prop = set_prop(props_set(p, set), name);
	free(name);
	return prop;
}

DEVIMG_EXPORT int devimg_image_reqd_work_group_size(struct devimg_image *img,
						    const char *kernel,
						    unsigned *dims,
						    size_t size[3])
{
	const struct devimg_property_info *prop;
	struct errmsg perr = { 0 };
	const struct image_props *p;
	char where[256];
	uint64_t v[3];
	unsigned d, i;
	int r;

	if (!img || !kernel || !dims || !size)
		return fail_null("devimg_image_reqd_work_group_size");
	r = image_get_props(img, &p);
	if (r < 0)
		return r;
	prop = kernel_prop(p, PROPS_SET_PROGRAM_METADATA, kernel,
			   PROPS_META_REQD_WORK_GROUP_SIZE, &r);
	if (!prop && r < 0)
		return fail_dbg(r, "image %llu (index %u): kernel '%s': out of memory",
				(unsigned long long)img->id, img->index,
				kernel);
	if (!prop)
		return fail_dbg(-ENOENT, "image %llu (index %u): kernel '%s' has no required work-group size",
				(unsigned long long)img->id, img->index,
				kernel);
	r = need_byte_array(img, PROPS_SET_PROGRAM_METADATA, prop);
	if (r < 0)
		return r;
	snprintf(where, sizeof(where), "set '%s' property '%.160s'",
		 PROPS_SET_PROGRAM_METADATA, prop->name);
	r = props_work_group_size(prop->data, prop->size, 4, where, v, &d,
				  &perr);
	if (r < 0)
		return decode_failed(img, &perr);
	for (i = 0; i < 3; i++)
		size[i] = (size_t)v[i];
	*dims = d;
	return 0;
}

static const char aspects_where[] = "set '" PROPS_SET_DEVICE_REQS
				    "' property '" PROPS_REQ_ASPECTS "'";

/* How many uint32 values "aspects" (prop, NULL: none) holds. */
static int reqs_aspect_count(const struct devimg_image *img,
			     const struct devimg_property_info *prop,
			     size_t *n)
{
	struct errmsg perr = { 0 };
	int r;

	*n = 0;
	if (!prop)
		return 0;
	r = need_byte_array(img, PROPS_SET_DEVICE_REQS, prop);
	if (r < 0)
		return r;
	r = props_uint_list(prop->data, prop->size, 4, aspects_where, NULL, 0,
			    n, &perr);
	if (r < 0)
		return decode_failed(img, &perr);
	return 0;
}

/* The n values of "aspects" (counted before) into aspects. */
static int reqs_aspects(const struct devimg_property_info *prop, size_t n,
			uint32_t *aspects)
{
	uint64_t *v;
	size_t i;

	if (!n)
		return 0;
	v = calloc(n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	props_uint_list(prop->data, prop->size, 4, aspects_where, v, n, &n,
			NULL);
	for (i = 0; i < n; i++)
		aspects[i] = (uint32_t)v[i];
	free(v);
	return 0;
}

/* A uint32 value given as UINT32 or as a byte array of one uint32. */
static int reqs_u32(const struct devimg_image *img,
		    const struct devimg_property_info *prop, uint32_t *out)
{
	struct errmsg perr = { 0 };
	char where[256];
	uint64_t v;
	size_t n;

	if (prop->type == DEVIMG_PROPERTY_UINT32) {
		*out = prop->u32;
		return 0;
	}
	if (need_byte_array(img, PROPS_SET_DEVICE_REQS, prop) < 0)
		return -EINVAL;
	snprintf(where, sizeof(where), "set '%s' property '%.160s'",
		 PROPS_SET_DEVICE_REQS, prop->name);
	if (props_uint_list(prop->data, prop->size, 4, where, &v, 1, &n,
			    &perr) < 0)
		return decode_failed(img, &perr);
	if (n != 1)
		return fail_dbg(-EINVAL, "image %llu (index %u): %s: %zu values, expected 1",
				(unsigned long long)img->id, img->index,
				where, n);
	*out = (uint32_t)v;
	return 0;
}

static int reqs_wg_size(const struct devimg_image *img,
			const struct devimg_property_info *prop,
			unsigned elem_bytes, struct devimg_image_reqs *reqs)
{
	struct errmsg perr = { 0 };
	char where[256];

	if (need_byte_array(img, PROPS_SET_DEVICE_REQS, prop) < 0)
		return -EINVAL;
	snprintf(where, sizeof(where), "set '%s' property '%.160s'",
		 PROPS_SET_DEVICE_REQS, prop->name);
	if (props_work_group_size(prop->data, prop->size, elem_bytes, where,
				  reqs->wg_size, &reqs->wg_dims, &perr) < 0)
		return decode_failed(img, &perr);
	return 0;
}

/* The uint64 form replaced the uint32 one; take it when both exist. */
static int reqs_wg(const struct devimg_image *img,
		   const struct devimg_propset_info *set,
		   struct devimg_image_reqs *r)
{
	const struct devimg_property_info *prop;

	if ((prop = set_prop(set, PROPS_REQ_WORK_GROUP_SIZE_64)))
		return reqs_wg_size(img, prop, 8, r);
	if ((prop = set_prop(set, PROPS_REQ_WORK_GROUP_SIZE_32)))
		return reqs_wg_size(img, prop, 4, r);
	return 0;
}

/* Decode img's requirements into a new *out (to be freed). */
static int reqs_decode(struct devimg_image *img, struct image_reqs **out)
{
	const struct devimg_propset_info *set;
	const struct devimg_property_info *prop, *aspects;
	const struct image_props *p;
	struct image_reqs *q;
	struct devimg_image_reqs *r;
	size_t n, bytes;
	int err;

	err = image_get_props(img, &p);
	if (err < 0)
		return err;
	set = props_set(p, PROPS_SET_DEVICE_REQS);
	aspects = set_prop(set, PROPS_REQ_ASPECTS);
	err = reqs_aspect_count(img, aspects, &n);
	if (err < 0)
		return err;
	if (size_mul(n, sizeof(q->aspects[0]), &bytes) ||
	    size_add(bytes, sizeof(*q), &bytes) || !(q = calloc(1, bytes)))
		return fail_dbg(-ENOMEM, "image %llu (index %u): %s: out of memory",
				(unsigned long long)img->id, img->index,
				PROPS_SET_DEVICE_REQS);
	r = &q->r;
	r->size = sizeof(*r);
	r->aspects = n ? q->aspects : NULL;
	r->naspects = n;
	r->wg_size[0] = r->wg_size[1] = r->wg_size[2] = 1;
	err = reqs_aspects(aspects, n, q->aspects);
	if (err < 0)
		fail_dbg(err, "image %llu (index %u): %s: out of memory",
			 (unsigned long long)img->id, img->index,
			 PROPS_SET_DEVICE_REQS);
	if (err == 0 && (prop = set_prop(set, PROPS_REQ_SUB_GROUP_SIZE)))
		err = reqs_u32(img, prop, &r->sub_group_size);
	if (err == 0 && (prop = set_prop(set, PROPS_REQ_WORK_GROUP_NUM_DIM)))
		err = reqs_u32(img, prop, &r->work_group_num_dim);
	if (err == 0)
		err = reqs_wg(img, set, r);
	if (err < 0) {
		free(q);
		return err;
	}
	*out = q;
	return 0;
}

DEVIMG_EXPORT int devimg_image_requirements(struct devimg_image *img,
					    struct devimg_image_reqs *reqs)
{
	struct image_reqs *q, *expected = NULL;
	int err;

	if (!img || !reqs)
		return fail_null("devimg_image_requirements");
	err = api_struct_size("devimg_image_reqs", reqs->size,
			      DEVIMG_SIZE_0_1(devimg_image_reqs,
					      work_group_num_dim));
	if (err < 0)
		return err;
	q = atomic_load(&img->reqs);
	if (!q) {
		err = reqs_decode(img, &q);
		if (err < 0)
			return err;
		/* Another thread may have published first: keep one copy. */
		if (!atomic_compare_exchange_strong(&img->reqs, &expected, q)) {
			free(q);
			q = expected;
		}
	}
	api_struct_write(reqs, &q->r, sizeof(q->r));
	return 0;
}
