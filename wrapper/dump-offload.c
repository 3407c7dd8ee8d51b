// SPDX-License-Identifier: MIT
/* devimg-dump: SYCLBIN and OffloadBinary containers (dump-offload.h). */
#include <errno.h>
#include <gelf.h>
#include <stdarg.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "devimg/descriptor.h"
#include "util/devimg_limits.h"
#include "wrapper/dump-descriptor.h"
#include "wrapper/dump-offload.h"
#include "util/escape.h"
#include "props/offload-binary.h"
#include "props/offload-symbols.h"
#include "wrapper/index-reader.h"
#include "props/syclbin.h"
#include "util/errmsg.h"

#define SHT_LLVM_OFFLOADING_TYPE 0x6fff4c0bu
#define SHF_EXCLUDE_FLAG 0x80000000u

/* What the images of modules with one metadata range share. */
struct module_view {
	int built;
	struct devimg_propset *sets;
	size_t nsets;
	const char **entries;
	size_t nentries;
};

/* Where a blob of an ELF file lies. */
struct blob_place {
	size_t sec;
	char *sec_name;
	uint64_t off;		/* in the section */
	int registered;		/* allocated, not SHF_EXCLUDE: a constructor's */
};

/*
 * The property sets of a registered image of a blob, read from its
 * strings as libdevimg reads them (loader/registry/introspect.c): the
 * model the view borrows from, and the view.
 */
struct entry_sets {
	struct props *model;
	struct devimg_propset *sets;
	size_t nsets;
};

/* The "symbols" string of an entry, decoded. */
struct entry_symbols {
	int present;
	struct offload_symbols sy;
	char *error;		/* the string does not decode: why */
};

struct dump_container {
	const char *fname;
	void *map;
	size_t size;
	struct syclbin *sb;
	struct offload_binary **obs;
	struct blob_place *places;	/* per blob, ELF files only */
	size_t nobs;
	struct entry_symbols *syms;	/* per entry, numbered across blobs */
	size_t nsyms;
	char **problems;	/* listed, but these did not read */
	size_t nproblems;
	struct module_view *mods;
	struct devimg_file images;
	struct devimg_file entries;
	struct devimg_file registered;
	struct entry_sets *regsets;	/* per registered image */
	char *entries_fname;
};

void dump_container_close(struct dump_container *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; c->sb && c->mods && i < c->sb->nmetas; i++) {
		devimg_propsets_free(c->mods[i].sets, c->mods[i].nsets);
		free(c->mods[i].entries);
	}
	free(c->mods);
	free(c->images.images);
	for (i = 0; i < c->entries.nimages; i++)
		free((char *)c->entries.images[i].target);
	free(c->entries.images);
	free(c->entries_fname);
	for (i = 0; c->regsets && i < c->registered.nimages; i++) {
		devimg_propsets_free(c->regsets[i].sets, c->regsets[i].nsets);
		props_free(c->regsets[i].model);
	}
	free(c->regsets);
	free(c->registered.images);
	for (i = 0; i < c->nsyms; i++) {
		offload_symbols_fini(&c->syms[i].sy);
		free(c->syms[i].error);
	}
	free(c->syms);
	for (i = 0; i < c->nproblems; i++)
		free(c->problems[i]);
	free(c->problems);
	for (i = 0; i < c->nobs; i++) {
		offload_binary_free(c->obs[i]);
		if (c->places)
			free(c->places[i].sec_name);
	}
	free(c->obs);
	free(c->places);
	syclbin_free(c->sb);
	if (c->map)
		munmap(c->map, c->size);
	free(c);
}

static int nomem(const char *path, struct errmsg *err)
{
	return errmsg_esc(err, -ENOMEM, "%s: %s", path, strerror(ENOMEM));
}

/* Targets are borrowed from the SYCLBIN: images share them. */
static void add_image(struct dump_container *c, const struct module_view *v,
		      const struct syclbin_image *si, int native)
{
	struct reader_image *img = &c->images.images[c->images.nimages];

	memset(img, 0, sizeof(*img));
	img->index = (unsigned)c->images.nimages;
	img->version = DEVIMG_IMAGE_VERSION;
	img->kind = DEVIMG_KIND_SYCL;
	img->format = native ? DEVIMG_FORMAT_NATIVE : DEVIMG_FORMAT_SPIRV;
	img->target = native ? si->target_first : "spir64";
	img->compile_opts = "";
	img->link_opts = "";
	img->bin = si->data;
	img->bin_size = si->size;
	img->bin_offset = (uint64_t)(si->data - (const unsigned char *)c->map);
	img->entries = v->entries;
	img->nentries = v->nentries;
	img->propsets = v->sets;
	img->npropsets = v->nsets;
	c->images.nimages++;
}

/*
 * The sets and kernel names of a module's metadata, made once per
 * metadata range however many modules name it.
 */
static int module_view(struct dump_container *c, const struct syclbin_module *m,
		       const char *path, struct errmsg *err)
{
	struct module_view *v = &c->mods[m->meta_id];
	size_t j, k = syclbin_module_kernel_count(m);
	int ret;

	if (v->built)
		return 0;
	ret = devimg_propsets_from_props(m->meta, path, &v->sets, &v->nsets,
					 err);
	if (ret < 0)
		return ret;
	v->entries = calloc(k + 1, sizeof(*v->entries));
	if (!v->entries)
		return nomem(path, err);
	for (j = 0; j < k; j++)
		v->entries[j] = syclbin_module_kernel(m, j);
	v->nentries = k;
	v->built = 1;
	return 0;
}

/* The images DPC++'s runtime makes of the SYCLBIN, in its order. */
static int syclbin_view(struct dump_container *c, const char *path,
			struct errmsg *err)
{
	const struct syclbin *sb = c->sb;
	size_t i, j;
	int ret;

	c->images.fname = path;
	c->mods = calloc(sb->nmetas + 1, sizeof(*c->mods));
	c->images.images = calloc(sb->nimages + 1, sizeof(*c->images.images));
	if (!c->mods || !c->images.images)
		return nomem(path, err);
	for (i = 0; i < sb->nmodules; i++) {
		const struct syclbin_module *m = &sb->modules[i];

		ret = module_view(c, m, path, err);
		if (ret < 0)
			return ret;
		for (j = 0; j < m->nir; j++)
			add_image(c, &c->mods[m->meta_id], &m->ir[j], 0);
		for (j = 0; j < m->nnative; j++)
			add_image(c, &c->mods[m->meta_id], &m->native[j], 1);
	}
	return 0;
}

static uint8_t entry_format(unsigned image_kind)
{
	switch (image_kind) {
	case OFFLOAD_IMAGE_SPIRV:
		return DEVIMG_FORMAT_SPIRV;
	case OFFLOAD_IMAGE_BITCODE:
		return DEVIMG_FORMAT_LLVMBC;
	default:
		return DEVIMG_FORMAT_NATIVE;
	}
}

/* The OffloadBinary entries as images: named PATH.offload.I.TRIPLE-ARCH. */
static int entries_view(struct dump_container *c, const char *path,
			struct errmsg *err)
{
	size_t i, j, n = 0;

	for (i = 0; i < c->nobs; i++)
		n += c->obs[i]->nentries;
	c->entries_fname = malloc(strlen(path) + sizeof(".offload"));
	c->entries.images = calloc(n + 1, sizeof(*c->entries.images));
	if (!c->entries_fname || !c->entries.images)
		return nomem(path, err);
	sprintf(c->entries_fname, "%s.offload", path);
	c->entries.fname = c->entries_fname;
	for (i = 0; i < c->nobs; i++) {
		for (j = 0; j < c->obs[i]->nentries; j++) {
			const struct offload_entry *e = &c->obs[i]->entries[j];
			struct reader_image *img =
				&c->entries.images[c->entries.nimages];
			const char *t = offload_entry_string(e, "triple", NULL);
			const char *a = offload_entry_string(e, "arch", NULL);
			size_t tl = t ? strlen(t) : 0, al = a ? strlen(a) : 0;
			char *target = malloc(tl + al + 2);

			if (!target)
				return nomem(path, err);
			snprintf(target, tl + al + 2, "%s%s%s", t ? t : "",
				 al ? "-" : "", a ? a : "");
			img->index = (unsigned)c->entries.nimages;
			img->format = entry_format(e->image_kind);
			img->target = target;
			img->compile_opts = "";
			img->link_opts = "";
			img->bin = e->image;
			img->bin_size = e->image_size;
			c->entries.nimages++;
		}
	}
	return 0;
}

/* ob, and where it lies when place is not NULL (its name is copied). */
static int add_blob(struct dump_container *c, struct offload_binary *ob,
		    const struct blob_place *place)
{
	struct offload_binary **v = realloc(c->obs, (c->nobs + 1) * sizeof(*v));
	struct blob_place *pl;

	if (!v)
		return -ENOMEM;
	c->obs = v;
	if (place) {
		pl = realloc(c->places, (c->nobs + 1) * sizeof(*pl));
		if (!pl)
			return -ENOMEM;
		c->places = pl;
		pl[c->nobs] = *place;
		pl[c->nobs].sec_name = strdup(place->sec_name);
		if (!pl[c->nobs].sec_name)
			return -ENOMEM;
	}
	c->obs[c->nobs++] = ob;
	return 0;
}

/*
 * Every blob of a buffer holding OffloadBinary blobs back to back; place,
 * when not NULL, says where the buffer lies in an ELF file.
 */
static int read_blobs(struct dump_container *c, const unsigned char *p,
		      size_t n, const char *where,
		      const struct blob_place *place, struct errmsg *err)
{
	struct errmsg perr = { 0 };
	struct offload_binary *ob;
	struct blob_place here;
	size_t off = 0;
	int ret;

	while (off < n) {
		if (place) {
			here = *place;
			here.off = off;
		}
		ret = offload_binary_parse_at(p, n, &off, where, &ob, &perr);
		if (ret < 0)
			return errmsg_esc(err, ret, "%s", perr.msg);
		if (add_blob(c, ob, place ? &here : NULL)) {
			offload_binary_free(ob);
			return nomem(where, err);
		}
	}
	return 0;
}

/* One line for dump_container_problem(), escaped; -ENOMEM. */
__attribute__((format(printf, 2, 3)))
static int add_problem(struct dump_container *c, const char *fmt, ...)
{
	char line[1024], **v;
	va_list ap;

	va_start(ap, fmt);
	esc_vsnprintf(line, sizeof(line), NULL, fmt, ap);
	va_end(ap);
	v = realloc(c->problems, (c->nproblems + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	c->problems = v;
	v[c->nproblems] = strdup(line);
	if (!v[c->nproblems])
		return -ENOMEM;
	c->nproblems++;
	return 0;
}

/*
 * The "symbols" strings of every entry, decoded; one that does not
 * decode is a problem of its own, and the others are unharmed.
 */
static int decode_symbols(struct dump_container *c, const char *path,
			  struct errmsg *err)
{
	struct errmsg perr = { 0 };
	char where[PATH_MAX + 64];
	size_t i, j, k = 0, n = 0, len;
	const char *s;
	int ret;

	for (i = 0; i < c->nobs; i++)
		n += c->obs[i]->nentries;
	c->syms = calloc(n + 1, sizeof(*c->syms));
	if (!c->syms)
		return nomem(path, err);
	c->nsyms = n;
	for (i = 0; i < c->nobs; i++) {
		for (j = 0; j < c->obs[i]->nentries; j++, k++) {
			s = offload_entry_string(&c->obs[i]->entries[j],
						 "symbols", &len);
			if (!s)
				continue;
			c->syms[k].present = 1;
			snprintf(where, sizeof(where),
				 "%s: OFFLOADING IMAGE [%zu]", path, k);
			ret = offload_symbols_decode(s, len, where,
						     &c->syms[k].sy, &perr);
			if (ret == -ENOMEM)
				return nomem(path, err);
			if (ret == 0)
				continue;
			c->syms[k].error = strdup(perr.msg);
			if (!c->syms[k].error ||
			    add_problem(c, "%s", perr.msg) < 0)
				return nomem(path, err);
		}
	}
	return 0;
}

/* LLVM's image kind as a devimg format (docs/formats.md, section 1). */
static int registered_format(unsigned image_kind)
{
	switch (image_kind) {
	case OFFLOAD_IMAGE_NONE:
	case OFFLOAD_IMAGE_PTX:
		return DEVIMG_FORMAT_NONE;
	case OFFLOAD_IMAGE_OBJECT:
	case OFFLOAD_IMAGE_CUBIN:
	case OFFLOAD_IMAGE_FATBINARY:
		return DEVIMG_FORMAT_NATIVE;
	case OFFLOAD_IMAGE_BITCODE:
		return DEVIMG_FORMAT_LLVMBC;
	case OFFLOAD_IMAGE_SPIRV:
		return DEVIMG_FORMAT_SPIRV;
	default:
		return -1;
	}
}

static int is_registered_image(const struct offload_entry *e)
{
	return e->offload_kind == OFFLOAD_KIND_SYCL &&
	       !(e->flags & OFFLOAD_FLAG_METADATA);
}

/*
 * Why libdevimg would refuse blob b as a whole (loader/registry/blob.c),
 * in why; 0 when it would not. first: b's first entry's number.
 */
static int blob_refused(const struct dump_container *c, size_t b,
			size_t first, struct errmsg *why)
{
	const struct offload_binary *ob = c->obs[b];
	size_t j, n = 0;

	for (j = 0; j < ob->nentries; j++) {
		const struct offload_entry *e = &ob->entries[j];

		if (!is_registered_image(e))
			continue;
		n++;
		if (registered_format(e->image_kind) < 0) {
			errmsg_set(why,
				   "OFFLOADING IMAGE [%zu]: image kind %u unknown, expected 0 to 6",
				   first + j, e->image_kind);
			return 1;
		}
		if (!offload_entry_string(e, "triple", NULL)) {
			errmsg_set(why,
				   "OFFLOADING IMAGE [%zu]: no \"triple\" string",
				   first + j);
			return 1;
		}
	}
	if (n > DEVIMG_LIMIT_IMAGES) {
		errmsg_set(why, "%zu SYCL images, more than %u", n,
			   DEVIMG_LIMIT_IMAGES);
		return 1;
	}
	return 0;
}

/* Set s (its key and text) appended to m, which takes it: 0 or r. */
static int add_text_set(struct props *m, const struct offload_string *s,
			const char *where, struct errmsg *perr)
{
	struct props_set *arr;
	struct props *one;
	int r;

	r = props_parse_set_text(s->value, s->value_len, where, s->key, &one,
				 perr);
	if (r < 0)
		return r;
	arr = realloc(m->sets, (m->nsets + 1) * sizeof(*arr));
	if (!arr) {
		props_free(one);
		return -ENOMEM;
	}
	m->sets = arr;
	m->cap = m->nsets + 1;
	arr[m->nsets++] = one->sets[0];
	one->nsets = 0;
	props_free(one);
	return 0;
}

/*
 * The property sets of registered image img, entry k: its strings whose
 * key holds a '/', each a set's .props text (docs/formats.md, section 1).
 * One that does not read is a problem, as libdevimg fails reading the
 * image's sets then; the image is listed without sets. 0 or -ENOMEM.
 */
static int registered_sets(struct dump_container *c, size_t k,
			   const struct offload_entry *e,
			   struct reader_image *img)
{
	struct entry_sets *es = &c->regsets[img->index];
	struct errmsg perr = { 0 };
	char where[PATH_MAX + 64];
	struct quote q;
	size_t i;
	int r = 0;

	for (i = 0; !r && i < e->nstrings; i++) {
		const struct offload_string *s = &e->strings[i];

		if (!strchr(s->key, '/'))
			continue;
		if (!es->model && !(es->model = props_new()))
			return -ENOMEM;
		snprintf(where, sizeof(where),
			 "%s: OFFLOADING IMAGE [%zu]: set '%s'",
			 c->registered.fname, k,
			 quote_text(&q, s->key, strlen(s->key)));
		r = add_text_set(es->model, s, where, &perr);
	}
	if (!r && es->model)
		r = devimg_propsets_from_props(es->model, c->registered.fname,
					       &es->sets, &es->nsets, &perr);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		props_free(es->model);
		es->model = NULL;
		return add_problem(c, "%s: libdevimg cannot read the image's property sets",
				   perr.msg);
	}
	img->propsets = es->sets;
	img->npropsets = es->nsets;
	return 0;
}

static int add_registered(struct dump_container *c, size_t b, size_t k,
			  const struct offload_entry *e)
{
	struct reader_image *img = &c->registered.images[c->registered.nimages];
	uintptr_t map = (uintptr_t)c->map, at = (uintptr_t)e->image;

	memset(img, 0, sizeof(*img));
	img->index = (unsigned)c->registered.nimages++;
	img->version = DEVIMG_IMAGE_VERSION_NO_MANIFEST;
	img->kind = DEVIMG_KIND_SYCL;
	img->format = (uint8_t)registered_format(e->image_kind);
	img->target = offload_entry_string(e, "triple", NULL);
	img->compile_opts = "";
	img->link_opts = "";
	img->bin = e->image;
	img->bin_size = e->image_size;
	/* The image of a compressed blob lies in its inflated copy. */
	img->bin_offset = at >= map && at - map <= c->size &&
			  e->image_size <= c->size - (at - map) ?
			  (uint64_t)(at - map) : DUMP_NOT_IN_FILE;
	img->entries = c->syms[k].sy.names;
	img->nentries = c->syms[k].sy.n;
	img->found = "offload-binary";
	img->found_section = c->places[b].sec_name;
	img->found_offset = c->places[b].off;
	return registered_sets(c, k, e, img);
}

/*
 * The images a constructor registers from the blobs of allocated,
 * non-excluded sections, as libdevimg makes them of each SYCL entry that
 * is not metadata; entries whose symbols do not decode are left out, as
 * libdevimg leaves them out, and a blob that libdevimg would refuse as a
 * whole gives none (both reported and counted).
 */
static int registered_view(struct dump_container *c, const char *path,
			   struct errmsg *err)
{
	struct errmsg why = { 0 };
	size_t i, j, k = 0, n = 0;

	for (i = 0; i < c->nobs; i++)
		n += c->places[i].registered ? c->obs[i]->nentries : 0;
	if (!n)
		return 0;
	c->registered.fname = path;
	c->registered.images = calloc(n, sizeof(*c->registered.images));
	c->regsets = calloc(n, sizeof(*c->regsets));
	if (!c->registered.images || !c->regsets)
		return nomem(path, err);
	for (i = 0; i < c->nobs; k += c->obs[i]->nentries, i++) {
		if (!c->places[i].registered)
			continue;
		if (blob_refused(c, i, k, &why)) {
			if (add_problem(c, "%s: section [%zu] '%s' blob at 0x%"
					PRIx64 ": %s: a constructor registers none of its images",
					path, c->places[i].sec,
					c->places[i].sec_name, c->places[i].off,
					why.msg) < 0)
				return nomem(path, err);
			continue;
		}
		for (j = 0; j < c->obs[i]->nentries; j++) {
			const struct offload_entry *e = &c->obs[i]->entries[j];

			if (is_registered_image(e) && !c->syms[k + j].error &&
			    add_registered(c, i, k + j, e) < 0)
				return nomem(path, err);
		}
	}
	return 0;
}

int dump_container_open(const char *path, struct dump_container **out,
			struct errmsg *err)
{
	struct errmsg perr = { 0 };
	struct dump_container *c;
	int ret;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return nomem(path, err);
	c->fname = path;
	ret = devimg_reader_map(path, &c->map, &c->size, err);
	if (ret < 0)
		goto fail;
	if (syclbin_is(c->map, c->size)) {
		ret = syclbin_parse(c->map, c->size, path, &c->sb, &perr);
		if (ret < 0) {
			errmsg_esc(err, ret, "%s", perr.msg);
			goto fail;
		}
		ret = syclbin_view(c, path, err);
	} else if (offload_binary_is(c->map, c->size)) {
		ret = read_blobs(c, c->map, c->size, path, NULL, err);
		if (!ret)
			ret = entries_view(c, path, err);
		if (!ret)
			ret = decode_symbols(c, path, err);
	} else {
		dump_container_close(c);
		return 0;
	}
	if (ret < 0)
		goto fail;
	*out = c;
	return 1;
fail:
	dump_container_close(c);
	return ret;
}

/*
 * The blobs of the SHT_LLVM_OFFLOADING sections. An allocated one that
 * does not start with the magic holds raw images that a descriptor points
 * to (LLVM 22's wrapper): no blob, no error.
 */
static int scan_sections(struct dump_container *c, Elf *elf, const char *path,
			 struct errmsg *err)
{
	struct blob_place place;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx = 0;
	const char *name;
	char where[PATH_MAX + 64];
	int ret;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		shstrndx = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_LLVM_OFFLOADING_TYPE)
			continue;
		if (sh.sh_offset > c->size || sh.sh_size > c->size - sh.sh_offset)
			return errmsg_esc(err, -EINVAL,
					  "%s: section %zu (SHT_LLVM_OFFLOADING): offset %" PRIu64 " size %" PRIu64 " past the end of the file (%zu bytes)",
					  path, elf_ndxscn(scn),
					  (uint64_t)sh.sh_offset,
					  (uint64_t)sh.sh_size, c->size);
		if ((sh.sh_flags & SHF_ALLOC) &&
		    !offload_binary_is((const unsigned char *)c->map +
				       sh.sh_offset, (size_t)sh.sh_size))
			continue;
		name = shstrndx ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
		place = (struct blob_place){
			.sec = elf_ndxscn(scn),
			.sec_name = (char *)(name ? name : ""),
			.registered = (sh.sh_flags & SHF_ALLOC) &&
				      !(sh.sh_flags & SHF_EXCLUDE_FLAG),
		};
		snprintf(where, sizeof(where), "%s: section %zu", path,
			 elf_ndxscn(scn));
		ret = read_blobs(c, (const unsigned char *)c->map + sh.sh_offset,
				 (size_t)sh.sh_size, where, &place, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int dump_offloading_open(const char *path, struct dump_container **out,
			 struct errmsg *err)
{
	struct dump_container *c;
	Elf *elf = NULL;
	int ret;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return nomem(path, err);
	c->fname = path;
	ret = devimg_reader_map(path, &c->map, &c->size, err);
	if (ret < 0 || !c->map)
		goto out;
	elf_version(EV_CURRENT);
	elf = elf_memory(c->map, c->size);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		goto out;
	ret = scan_sections(c, elf, path, err);
	if (!ret && c->nobs)
		ret = entries_view(c, path, err);
	if (!ret && c->nobs)
		ret = decode_symbols(c, path, err);
	if (!ret && c->nobs)
		ret = registered_view(c, path, err);
	if (!ret && c->nobs) {
		elf_end(elf);
		*out = c;
		return 0;
	}
out:
	if (elf)
		elf_end(elf);
	dump_container_close(c);
	return ret;
}

const struct devimg_file *dump_container_images(const struct dump_container *c)
{
	return c && c->sb ? &c->images : NULL;
}

const struct devimg_file *
dump_container_entries(const struct dump_container *c)
{
	return c && c->nobs ? &c->entries : NULL;
}

const struct devimg_file *
dump_container_registered(const struct dump_container *c)
{
	return c && c->registered.nimages ? &c->registered : NULL;
}

const char *dump_container_problem(const struct dump_container *c, size_t i)
{
	return c && i < c->nproblems ? c->problems[i] : NULL;
}

static const char *const state_names[] = { "input", "object", "executable" };
static const char *const form_names[] = {
	[SYCLBIN_FORM_BARE] = "bare",
	[SYCLBIN_FORM_ENVELOPE] = "OffloadBinary envelope",
	[SYCLBIN_FORM_V2] = "OffloadBinary entries",
};

/* The names llvm-objdump --offloading prints for an image kind. */
static const char *objdump_kind(unsigned kind)
{
	switch (kind) {
	case OFFLOAD_IMAGE_OBJECT:
		return "elf";
	case OFFLOAD_IMAGE_BITCODE:
		return "llvm ir";
	case OFFLOAD_IMAGE_CUBIN:
		return "cubin";
	case OFFLOAD_IMAGE_FATBINARY:
		return "fatbinary";
	case OFFLOAD_IMAGE_PTX:
		return "ptx";
	case OFFLOAD_IMAGE_SPIRV:
		return "spir-v";
	default:
		return "<none>";
	}
}

static void text_value(FILE *f, const char *label, const char *v)
{
	fprintf(f, "%-16s", label);
	esc_fprintf(f, NULL, "%s\n", v ? v : "");
}

/* After llvm-objdump's fields: the names, or why there are none. */
static void text_symbols(FILE *f, const struct entry_symbols *es)
{
	size_t i;

	if (!es->present)
		return;
	if (es->error) {
		esc_fprintf(f, NULL, "%-16scannot decode: %s\n",
			    "symbols", es->error);
		return;
	}
	/* One name a line, the first after the label, the others under it. */
	fprintf(f, "%-16s", "symbols");
	for (i = 0; i < es->sy.n; i++)
		esc_fprintf(f, NULL, "%*s%s\n", i ? 16 : 0, "",
			    es->sy.names[i]);
	if (!es->sy.n)
		fputc('\n', f);
}

void dump_container_text(FILE *f, const struct dump_container *c)
{
	size_t i, j, k = 0;

	if (c->sb) {
		esc_fprintf(f, NULL, "%s: SYCLBIN version %u (%s), ",
			    c->fname, c->sb->version,
			    form_names[c->sb->form]);
		fprintf(f, "state %s, %zu abstract module%s\n",
			c->sb->has_state ? state_names[c->sb->state] : "none",
			c->sb->nmodules, c->sb->nmodules == 1 ? "" : "s");
		return;
	}
	for (i = 0; i < c->nobs; i++) {
		for (j = 0; j < c->obs[i]->nentries; j++, k++) {
			const struct offload_entry *e = &c->obs[i]->entries[j];

			fprintf(f, "\nOFFLOADING IMAGE [%zu]:\n", k);
			text_value(f, "kind", objdump_kind(e->image_kind));
			text_value(f, "arch", offload_entry_string(e, "arch", NULL));
			text_value(f, "triple",
				   offload_entry_string(e, "triple", NULL));
			text_value(f, "producer", offload_kind_name(e->offload_kind));
			fprintf(f, "%-16s%zu bytes\n", "image size",
				e->image_size);
			text_symbols(f, &c->syms[k]);
		}
	}
}

static void json_symbols(struct json_writer *w, const struct entry_symbols *es)
{
	size_t i;

	if (!es->present)
		return;
	json_key(w, "symbols");
	if (es->error) {
		json_null(w);
		json_key(w, "symbols_error");
		json_string(w, es->error);
		return;
	}
	json_array_begin(w);
	for (i = 0; i < es->sy.n; i++)
		json_string(w, es->sy.names[i]);
	json_array_end(w);
	json_key(w, "symbols_form");
	json_string(w, offload_symbols_form_name(es->sy.form));
}

static void json_entry(struct json_writer *w, const struct offload_entry *e,
		       const struct entry_symbols *es, size_t index)
{
	size_t i;

	json_object_begin(w);
	json_key(w, "index");
	json_uint(w, index);
	json_key(w, "kind");
	json_string(w, objdump_kind(e->image_kind));
	json_key(w, "image_kind");
	json_uint(w, e->image_kind);
	json_key(w, "producer");
	json_string(w, offload_kind_name(e->offload_kind));
	json_key(w, "offload_kind");
	json_uint(w, e->offload_kind);
	json_key(w, "flags");
	json_uint(w, e->flags);
	json_key(w, "size");
	json_uint(w, e->image_size);
	json_key(w, "strings");
	json_object_begin(w);
	for (i = 0; i < e->nstrings; i++) {
		json_key(w, e->strings[i].key);
		json_string_n(w, e->strings[i].value, e->strings[i].value_len);
	}
	json_object_end(w);
	json_symbols(w, es);
	json_object_end(w);
}

void dump_container_json(struct json_writer *w, const struct dump_container *c)
{
	size_t i, j, k = 0;

	if (c->sb) {
		json_key(w, "syclbin");
		json_object_begin(w);
		json_key(w, "version");
		json_uint(w, c->sb->version);
		json_key(w, "form");
		json_string(w, c->sb->form == SYCLBIN_FORM_BARE ? "bare" :
			    c->sb->form == SYCLBIN_FORM_ENVELOPE ? "envelope" :
			    "entries");
		json_key(w, "state");
		if (c->sb->has_state)
			json_string(w, state_names[c->sb->state]);
		else
			json_null(w);
		json_key(w, "abstract_modules");
		json_uint(w, c->sb->nmodules);
		json_object_end(w);
		return;
	}
	json_key(w, "offloading");
	json_array_begin(w);
	for (i = 0; i < c->nobs; i++)
		for (j = 0; j < c->obs[i]->nentries; j++, k++)
			json_entry(w, &c->obs[i]->entries[j], &c->syms[k], k);
	json_array_end(w);
}
