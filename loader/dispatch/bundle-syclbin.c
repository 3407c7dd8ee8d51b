// SPDX-License-Identifier: MIT
/*
 * Kernel bundles from SYCLBIN files (devimg_bundle_new_from_syclbin()).
 *
 * As DPC++'s runtime does, the file is turned into a binary descriptor:
 * one image per IR module (SPIR-V, target spir64) then per native image
 * (target the first component of its triple), module by module, each with
 * its module's kernel names as entries and its module's metadata as
 * property sets. The descriptor is registered like a wrapped object's, so
 * that the bundle's images compile, link and build like any other; it and
 * a copy of the file belong to the context and are unregistered and freed
 * with it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/dispatch/dispatch.h"
#include "util/devimg_limits.h"
#include "props/syclbin.h"
#include "util/errmsg.h"

struct syclbin_owned {
	struct ctx_owned own;	/* first: on the context's release list */
	unsigned char *copy;
	struct syclbin *sb;
	struct devimg_device_binaries desc;
	struct devimg_device_image *imgs;
	/* per metadata range of the file (sb->metas), for the modules' */
	struct devimg_offload_entry **entries;
	struct devimg_property_set **sets;
	int registered;
};

static void owned_free(struct syclbin_owned *o)
{
	size_t i;

	if (!o)
		return;
	if (o->registered)
		registry_remove(&o->desc);
	for (i = 0; o->sb && i < o->sb->nmetas; i++) {
		if (o->sets && o->sets[i]) {
			size_t j, n = o->sb->metas[i].props->nsets;

			for (j = 0; j < n; j++)
				free(o->sets[i][j].begin);
			free(o->sets[i]);
		}
		if (o->entries)
			free(o->entries[i]);
	}
	free(o->sets);
	free(o->entries);
	free(o->imgs);
	syclbin_free(o->sb);
	free(o->copy);
	free(o);
}

/* Its release, when the context is freed (ctx_own()). */
static void owned_release(struct ctx_owned *own)
{
	owned_free((struct syclbin_owned *)own);
}

/* A module's metadata as descriptor property sets (borrowing its names). */
static struct devimg_property_set *module_sets(const struct props *p)
{
	struct devimg_property_set *sets = calloc(p->nsets + 1, sizeof(*sets));
	size_t i, j;

	for (i = 0; sets && i < p->nsets; i++) {
		const struct props_set *s = &p->sets[i];
		struct devimg_property *v = calloc(s->nprops + 1, sizeof(*v));

		if (!v) {
			while (i-- > 0)
				free(sets[i].begin);
			free(sets);
			return NULL;
		}
		sets[i] = (struct devimg_property_set){ s->name, v, v + s->nprops };
		for (j = 0; j < s->nprops; j++) {
			const struct props_prop *pr = &s->props[j];

			v[j].name = pr->name;
			v[j].type = pr->type;
			if (pr->type == PROPS_UINT32) {
				v[j].size = pr->u32;
			} else {
				v[j].value = pr->data;
				v[j].size = pr->size;
			}
		}
	}
	return sets;
}

static struct devimg_offload_entry *
module_entries(const struct syclbin_module *m)
{
	size_t i, n = syclbin_module_kernel_count(m);
	struct devimg_offload_entry *e = calloc(n + 1, sizeof(*e));

	for (i = 0; e && i < n; i++)
		e[i].name = (char *)syclbin_module_kernel(m, i);
	return e;
}

static void fill_image(struct syclbin_owned *o, size_t k,
		       const struct syclbin_module *mod,
		       const struct syclbin_image *si, int native)
{
	size_t nk = syclbin_module_kernel_count(mod), id = mod->meta_id;

	o->imgs[k] = (struct devimg_device_image){
		.version = DEVIMG_IMAGE_VERSION,
		.kind = DEVIMG_KIND_SYCL,
		.format = native ? DEVIMG_FORMAT_NATIVE : DEVIMG_FORMAT_SPIRV,
		.target = native ? si->target_first : "spir64",
		.compile_opts = "",
		.link_opts = "",
		.bin_begin = si->data,
		.bin_end = si->data + si->size,
		.entries_begin = nk ? o->entries[id] : NULL,
		.entries_end = nk ? o->entries[id] + nk : NULL,
		.props_begin = mod->meta->nsets ? o->sets[id] : NULL,
		.props_end = mod->meta->nsets ? o->sets[id] + mod->meta->nsets :
						 NULL,
	};
}

static int build_desc(struct syclbin_owned *o)
{
	const struct syclbin *sb = o->sb;
	size_t i, j, n = sb->nimages, k = 0;

	/* the reader refused more before it made any */
	if (n > DEVIMG_LIMIT_IMAGES)
		return backend_fail(-EINVAL, "devimg_bundle_new_from_syclbin: %zu images, more than the %u of a descriptor",
				    n, DEVIMG_LIMIT_IMAGES);
	o->imgs = calloc(n + 1, sizeof(*o->imgs));
	o->entries = calloc(sb->nmetas + 1, sizeof(*o->entries));
	o->sets = calloc(sb->nmetas + 1, sizeof(*o->sets));
	if (!o->imgs || !o->entries || !o->sets)
		return -ENOMEM;
	o->desc.version = DEVIMG_BINARIES_VERSION;
	o->desc.images = o->imgs;
	for (i = 0; i < sb->nmodules; i++) {
		const struct syclbin_module *m = &sb->modules[i];

		if (!o->entries[m->meta_id]) {
			o->entries[m->meta_id] = module_entries(m);
			o->sets[m->meta_id] = module_sets(m->meta);
			if (!o->entries[m->meta_id] || !o->sets[m->meta_id])
				return -ENOMEM;
		}
		for (j = 0; j < m->nir; j++)
			fill_image(o, k++, m, &m->ir[j], 0);
		for (j = 0; j < m->nnative; j++)
			fill_image(o, k++, m, &m->native[j], 1);
	}
	o->desc.count = (uint16_t)k;
	return 0;
}

static int owned_new(const void *data, size_t size,
		     struct syclbin_owned **out)
{
	struct errmsg perr = { 0 };
	struct errmsg msg;
	struct syclbin_owned *o;
	int err;

	o = calloc(1, sizeof(*o));
	if (!o || !(o->copy = malloc(size ? size : 1))) {
		free(o);
		return backend_fail(-ENOMEM, "devimg_bundle_new_from_syclbin: out of memory");
	}
	memcpy(o->copy, data, size);
	err = syclbin_parse(o->copy, size, "SYCLBIN", &o->sb, &perr);
	if (err < 0) {
		owned_free(o);
		return backend_fail(err, "devimg_bundle_new_from_syclbin: %s",
				    perr.msg);
	}
	err = build_desc(o);
	if (err == -ENOMEM)
		err = backend_fail(err, "devimg_bundle_new_from_syclbin: out of memory");
	if (err == 0) {
		err = descriptor_validate(&o->desc, &msg);
		if (err < 0)
			err = backend_fail(err, "devimg_bundle_new_from_syclbin: %s",
					   msg.msg);
	}
	if (err == 0) {
		err = registry_add(&o->desc, &o->desc, NULL);
		if (err < 0)
			err = backend_fail(err, "devimg_bundle_new_from_syclbin: the registry: %s",
					   devimg_strerror(err));
	}
	if (err < 0) {
		owned_free(o);
		return err;
	}
	o->registered = 1;
	*out = o;
	return 0;
}

DEVIMG_EXPORT int
devimg_bundle_new_from_syclbin(struct devimg_ctx *ctx, const void *data,
			       size_t size,
			       const struct devimg_bundle_filter *filter,
			       struct devimg_bundle **out)
{
	struct devimg_bundle_filter f = { 0 };
	struct syclbin_owned *o;
	int err;

	if (!ctx || !data || !out)
		return backend_fail(-EINVAL, "devimg_bundle_new_from_syclbin: NULL argument");
	err = bundle_filter_read(filter, &f);
	if (err < 0)
		return backend_fail_prefix(err, "devimg_bundle_new_from_syclbin");
	err = owned_new(data, size, &o);
	if (err < 0)
		return err;
	f.desc = &o->desc;
	err = devimg_bundle_new(ctx, (enum devimg_bundle_state)o->sb->state,
				&f, out);
	if (err < 0) {
		owned_free(o);
		return err;
	}
	o->own.release = owned_release;
	ctx_own(ctx, &o->own);
	return 0;
}
