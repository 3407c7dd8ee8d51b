// SPDX-License-Identifier: MIT
/*
 * devimg-wrap's ELF writer.
 *
 * Everything but the image bytes (code, index blob, descriptor, symbols,
 * relocations, string tables) is built in memory and written by libelf with
 * ELF_F_LAYOUT: we place every section ourselves. Image sections get no
 * Elf_Data, so libelf writes nothing into their ranges (they stay holes of
 * the file it extends to its full size); each image file is then copied into
 * its range with copy_file_range(2), or pread/pwrite where the kernel or
 * file system cannot. Memory use follows the metadata, never the images.
 *
 * File order: ELF header, small sections, images (16-aligned), section
 * header table. Section indices are fixed (enum below) so that symbols and
 * relocations can be written before any section exists.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devimg/descriptor.h"
#include "index.h"
#include "object-writer.h"
#include "util/errmsg.h"
#include "util/input.h"

/* Section header indices, in creation order. */
enum {
	SEC_TEXT = 1,
	SEC_RELA_TEXT,
	SEC_INDEX,
	SEC_RELA_INDEX,
	SEC_DESC,
	SEC_RELA_DESC,
	SEC_INIT,
	SEC_RELA_INIT,
	SEC_FINI,
	SEC_RELA_FINI,
	SEC_NOTE_STACK,
	SEC_SYMTAB,
	SEC_STRTAB,
	SEC_SHSTRTAB,
	SEC_IMAGE0,	/* image N's section is SEC_IMAGE0 + N */
	/* then .tgtimg and .rela.tgtimg, when the object has them */
};

/*
 * Symbol indices: null, section symbols (index, descriptor, images, then
 * text when there is code), the named locals, then the globals. Only those
 * that depend on the image count are computed.
 */
enum {
	SYM_INDEX = 1,
	SYM_DESC,
	SYM_IMAGE0,
};

enum {
	NAMED_INDEX,
	NAMED_DESC,
	NAMED_REGISTER,
	NAMED_UNREGISTER,
	NAMED_IMAGE0,
};

/*
 * The descriptor as an LP64 target lays it out (include/devimg/descriptor.h);
 * spelled out so that the writer does not depend on the build host's ABI.
 */
#define BINS_SIZE 32u
#define BINS_VERSION 0u
#define BINS_COUNT 2u
#define BINS_IMAGES 8u
#define IMG_SIZE 96u
#define IMG_V3_SIZE 80u	/* version 3: no manifest pointers */
#define IMG_VERSION 0u
#define IMG_KIND 2u
#define IMG_FORMAT 3u
#define IMG_TARGET 8u
#define IMG_COMPILE_OPTS 16u
#define IMG_LINK_OPTS 24u
#define IMG_MANIFEST_BEGIN 32u
#define IMG_MANIFEST_END 40u
#define IMG_BIN_BEGIN 48u
#define IMG_BIN_END 56u
#define IMG_ENTRIES_BEGIN 64u
#define IMG_ENTRIES_END 72u
#define IMG_PROPS_BEGIN 80u
#define IMG_PROPS_END 88u
#define ENTRY_SIZE 32u
#define ENTRY_NAME 8u
#define PSET_SIZE 24u
#define PSET_NAME 0u
#define PSET_BEGIN 8u
#define PSET_END 16u
#define PROP_SIZE 32u
#define PROP_NAME 0u
#define PROP_VALUE 8u
#define PROP_TYPE 16u
#define PROP_VALSIZE 24u

/*
 * libomptarget's __tgt_bin_desc {int32 count; images; entries begin, end}
 * and __tgt_device_image {image begin, end; entries begin, end}, LP64.
 */
#define TGT_DESC_SIZE 32u
#define TGT_DESC_IMAGES 8u
#define TGT_DESC_ENTRIES 16u
#define TGT_IMG_SIZE 32u
#define TGT_IMG_ENTRIES 16u
#define TGT_ALIGN 16u	/* what LLVM gives a global over 16 bytes */
#define TGT_MAX_PACKS 2	/* openmp, hip */
#define TGT_ENTRIES_SECTION "omp_offloading_entries"

#if defined(__LP64__)
_Static_assert(sizeof(struct devimg_device_binaries) == BINS_SIZE, "bins");
_Static_assert(offsetof(struct devimg_device_binaries, images) == BINS_IMAGES,
	       "bins.images");
_Static_assert(sizeof(struct devimg_device_image) == IMG_SIZE, "image");
_Static_assert(offsetof(struct devimg_device_image, link_opts) ==
	       IMG_LINK_OPTS, "image.link_opts");
_Static_assert(offsetof(struct devimg_device_image, props_end) ==
	       IMG_PROPS_END, "image.props_end");
_Static_assert(sizeof(struct devimg_offload_entry) == ENTRY_SIZE, "entry");
_Static_assert(sizeof(struct devimg_property_set) == PSET_SIZE, "pset");
_Static_assert(sizeof(struct devimg_property) == PROP_SIZE, "prop");
_Static_assert(offsetof(struct devimg_property, size) == PROP_VALSIZE,
	       "prop.size");
#endif

/* Field offsets of the index structures (wrapper/index.h). */
#define XHDR(f) offsetof(struct devimg_index_header, f)
#define XIMG(f) offsetof(struct devimg_index_image, f)
#define XSET(f) offsetof(struct devimg_index_propset, f)
#define XPROP(f) offsetof(struct devimg_index_prop, f)

#define COPY_BUF_SIZE (1u << 20)

struct buf {
	unsigned char *p;
	size_t len;
	size_t cap;
};

struct rel {
	uint64_t offset;
	uint32_t type;
	uint32_t sym;
	int64_t addend;
};

struct rels {
	struct rel *r;
	size_t n;
	size_t cap;
};

struct sec {
	const char *name;
	uint32_t name_off;
	uint32_t type;
	uint64_t flags;
	uint64_t align;
	uint64_t entsize;
	uint32_t link;
	uint32_t info;
	uint64_t offset;
	uint64_t size;
	const void *data;	/* NULL: no Elf_Data */
	Elf_Type dtype;
};

/* The object, but for the image bytes. */
struct layout {
	const struct wrap_set *set;
	const struct wrap_machine *mach;
	uint16_t img_version;	/* 2 or 3 */
	size_t img_size;	/* IMG_SIZE or IMG_V3_SIZE */
	size_t ndesc;		/* SYCL images: those in the descriptor */
	int reg;		/* SYCL constructor and destructor */
	int tgtimg;		/* a .tgtimg section */
	/*
	 * Non-SYCL images (OpenMP, HIP), one libomptarget descriptor per
	 * kind after the SYCL one in the descriptor section, registered
	 * through __tgt_register_lib as DPC++'s wrapper does.
	 */
	struct tgt_pack {
		uint8_t kind;
		size_t n;
		size_t desc_off;	/* its __tgt_bin_desc */
		size_t reg_off;		/* its constructor's offset */
		uint32_t name;		/* strtab: .<kind>_offloading.NAME */
	} packs[TGT_MAX_PACKS];
	size_t npacks;
	int tgt_reg;		/* constructors for the packs */
	size_t sycl_desc_len;	/* the SYCL descriptor's part */
	size_t sycl_reg_off;
	uint32_t tgt_names[5];	/* strtab: the five tgt globals */
	size_t *phys;		/* section index as written; 0: left out */
	size_t nphys;
	struct buf text;
	struct buf index;
	struct buf desc;
	struct buf tgt;		/* .tgtimg: {address, size} per image */
	struct buf strtab;
	struct buf shstrtab;
	struct rels text_rels;
	struct rels index_rels;
	struct rels desc_rels;
	struct rels init_rels;
	struct rels fini_rels;
	struct rels tgt_rels;
	/* .init_array.1 and .fini_array.1: zeros, relocated */
	uint64_t init_words[1 + TGT_MAX_PACKS];
	uint64_t fini_words[1 + TGT_MAX_PACKS];
	size_t nctors;
	uint32_t *sym_name;	/* strtab offsets of the named symbols */
	size_t nsyms;
	struct sec *secs;	/* [SEC_IMAGE0 + nimages (+ 2)] */
	size_t nsecs;
	uint64_t shoff;
	uint64_t total;
};

static int set_err(struct errmsg *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int set_err(struct errmsg *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- the model ---- */

struct wrap_image *wrap_set_add(struct wrap_set *set)
{
	struct wrap_image *img;

	if (set->nimages == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 8;

		img = realloc(set->images, cap * sizeof(*img));
		if (!img)
			return NULL;
		set->images = img;
		set->cap = cap;
	}
	img = &set->images[set->nimages++];
	memset(img, 0, sizeof(*img));
	return img;
}

static void image_fini(struct wrap_image *img)
{
	free(img->path);
	free(img->data);
	free(img->target);
	free(img->compile_opts);
	free(img->link_opts);
	free(img->manifest);
	if (img->has_entries)
		props_names_fini(&img->entries);
	props_free(img->props);
	free(img->where);
	free(img->manifest_path);
	free(img->entries_path);
}

void wrap_set_fini(struct wrap_set *set)
{
	size_t i;

	for (i = 0; i < set->nimages; i++)
		image_fini(&set->images[i]);
	free(set->images);
	set->images = NULL;
	set->nimages = 0;
	set->cap = 0;
}

/* ---- growable buffers, little-endian stores ---- */

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Reserve size zeroed bytes at the next multiple of align; *off gets it. */
static int buf_alloc(struct buf *b, size_t size, size_t align, size_t *off)
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

static int buf_add(struct buf *b, const void *data, size_t size, size_t align,
		   size_t *off)
{
	int r = buf_alloc(b, size, align, off);

	if (r == 0 && size)
		memcpy(b->p + *off, data, size);
	return r;
}

/* A NUL-terminated string; *off may be NULL. */
static int buf_str(struct buf *b, const char *s, size_t *off)
{
	size_t o;
	int r = buf_add(b, s, strlen(s) + 1, 1, &o);

	if (r == 0 && off)
		*off = o;
	return r;
}

static void put_u8(struct buf *b, size_t off, uint8_t v)
{
	b->p[off] = v;
}

static void put_u16(struct buf *b, size_t off, uint16_t v)
{
	b->p[off] = v & 0xff;
	b->p[off + 1] = v >> 8;
}

static void put_u32(struct buf *b, size_t off, uint32_t v)
{
	put_u16(b, off, v & 0xffff);
	put_u16(b, off + 2, v >> 16);
}

static void put_u64(struct buf *b, size_t off, uint64_t v)
{
	put_u32(b, off, v & 0xffffffffu);
	put_u32(b, off + 4, v >> 32);
}

static int rels_add(struct rels *rs, uint64_t offset, uint32_t type,
		    uint32_t sym, int64_t addend)
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

/* ---- symbols ---- */

/* Without a constructor and destructor, their two symbols are left out. */
static uint32_t sym_named(const struct layout *l, unsigned which)
{
	uint32_t gap = !l->reg && which >= NAMED_IMAGE0 ? 2 : 0;

	return SYM_IMAGE0 + l->set->nimages + (l->nctors ? 1 : 0) + which - gap;
}

/* The section symbol of .text.devimg, when there is code. */
static uint32_t sym_text(const struct layout *l)
{
	return SYM_IMAGE0 + l->set->nimages;
}

static uint32_t sym_first_global(const struct layout *l)
{
	return sym_named(l, NAMED_IMAGE0) + l->set->nimages;
}

static uint32_t sym_image(size_t i)
{
	return SYM_IMAGE0 + i;
}

/*
 * Undefined __sycl_register_lib, __sycl_unregister_lib; desc-name; then for
 * non-SYCL images undefined __tgt_register_lib, __tgt_unregister_lib,
 * hidden undefined __start_ and __stop_omp_offloading_entries, the hidden
 * empty __dummy.omp_offloading.entry that makes the linker define them,
 * and with desc-name one global descriptor per kind.
 */
enum {
	TGT_REGISTER,
	TGT_UNREGISTER,
	TGT_START,
	TGT_STOP,
	TGT_DUMMY,
};

static size_t nglobals(const struct layout *l)
{
	return (l->reg ? 2 : 0) + (l->set->desc_name ? 1 : 0) +
	       (l->tgt_reg ? 2 : 0) +
	       (l->npacks ? 3 + (l->set->desc_name ? l->npacks : 0) : 0);
}

static uint32_t sym_tgt(const struct layout *l, unsigned which)
{
	uint32_t g = sym_first_global(l) + (l->reg ? 2 : 0) +
		     (l->set->desc_name ? 1 : 0);

	if (which >= TGT_START && !l->tgt_reg)
		g -= 2;
	return g + which;
}

static uint32_t sym_pack_desc(const struct layout *l, size_t k)
{
	return sym_tgt(l, TGT_DUMMY) + 1 + k;
}

static uint32_t sym_desc_global(const struct layout *l)
{
	return sym_first_global(l) + (l->reg ? 2 : 0);
}

static size_t sec_tgtimg(const struct layout *l)
{
	return SEC_IMAGE0 + l->set->nimages;
}

/*
 * A field of device_image at its version-2 offset, moved to where the
 * version being written has it: version 3 drops the manifest pointers.
 */
static size_t imgf(const struct layout *l, size_t off)
{
	if (l->img_version >= 3 && off >= IMG_BIN_BEGIN)
		return off - (IMG_BIN_BEGIN - IMG_MANIFEST_BEGIN);
	return off;
}

/* ---- descriptor and index ---- */

/* An absolute pointer at desc offset at: sym + addend. */
static int desc_ptr(struct layout *l, uint64_t at, uint32_t sym,
		    uint64_t addend)
{
	return rels_add(&l->desc_rels, at, l->mach->r_abs64, sym,
			(int64_t)addend);
}

/* A string into the index blob, pointed to from the descriptor at desc_at. */
static int add_string(struct layout *l, const char *s, uint64_t desc_at,
		      size_t *index_off)
{
	int r = buf_str(&l->index, s, index_off);

	return r ? r : desc_ptr(l, desc_at, SYM_INDEX, *index_off);
}

/*
 * Property values: UINT32 inline in size; BYTE_ARRAY the whole buffer with
 * its 8-byte header, 8-aligned; STRING with its NUL, counted in size (the
 * DPC++ runtime asserts a non-zero size and reads the value as a C string).
 */
static int add_prop_value(struct layout *l, const struct props_prop *p,
			  size_t d, size_t x)
{
	size_t off = 0;
	uint64_t size = 0;
	int r = 0;

	switch (p->type) {
	case PROPS_UINT32:
		size = p->u32;
		break;
	case PROPS_BYTE_ARRAY:
		size = p->size;
		r = buf_add(&l->index, p->data, p->size, 8, &off);
		break;
	case PROPS_STRING:
		size = (uint64_t)p->size + 1;
		r = buf_add(&l->index, p->data, size, 1, &off);
		break;
	default:
		break;
	}
	if (r)
		return r;
	if (off) {
		r = desc_ptr(l, d + PROP_VALUE, SYM_INDEX, off);
		if (r)
			return r;
	}
	put_u32(&l->desc, d + PROP_TYPE, p->type);
	put_u64(&l->desc, d + PROP_VALSIZE, size);
	put_u32(&l->index, x + XPROP(type), p->type);
	put_u32(&l->index, x + XPROP(value_off), off);
	put_u64(&l->index, x + XPROP(size), size);
	return 0;
}

static int add_props(struct layout *l, const struct props_set *s, size_t d,
		     size_t x)
{
	size_t dp, xp, i, name;
	int r;

	r = buf_alloc(&l->desc, s->nprops * PROP_SIZE, 8, &dp);
	if (!r)
		r = buf_alloc(&l->index,
			      s->nprops * sizeof(struct devimg_index_prop), 8,
			      &xp);
	if (r)
		return r;
	/* DPC++ leaves both ends NULL for a set without properties. */
	if (s->nprops) {
		r = desc_ptr(l, d + PSET_BEGIN, SYM_DESC, dp);
		if (!r)
			r = desc_ptr(l, d + PSET_END, SYM_DESC,
				     dp + s->nprops * PROP_SIZE);
		if (r)
			return r;
	}
	put_u32(&l->index, x + XSET(props_off), s->nprops ? xp : 0);
	put_u32(&l->index, x + XSET(nprops), s->nprops);
	for (i = 0; i < s->nprops; i++) {
		size_t pd = dp + i * PROP_SIZE;
		size_t px = xp + i * sizeof(struct devimg_index_prop);

		r = add_string(l, s->props[i].name, pd + PROP_NAME, &name);
		if (r)
			return r;
		put_u32(&l->index, px + XPROP(name_off), name);
		r = add_prop_value(l, &s->props[i], pd, px);
		if (r)
			return r;
	}
	return 0;
}

static int add_propsets(struct layout *l, const struct props *p, size_t d,
			size_t x)
{
	size_t ds, xs, i, name;
	int r;

	if (!p || !p->nsets)
		return 0;	/* NULL, NULL as in DPC++ */
	r = buf_alloc(&l->desc, p->nsets * PSET_SIZE, 8, &ds);
	if (!r)
		r = buf_alloc(&l->index,
			      p->nsets * sizeof(struct devimg_index_propset),
			      4, &xs);
	if (!r)
		r = desc_ptr(l, d + imgf(l, IMG_PROPS_BEGIN), SYM_DESC, ds);
	if (!r)
		r = desc_ptr(l, d + imgf(l, IMG_PROPS_END), SYM_DESC,
			     ds + p->nsets * PSET_SIZE);
	if (r)
		return r;
	put_u32(&l->index, x + XIMG(propsets_off), xs);
	put_u32(&l->index, x + XIMG(npropsets), p->nsets);
	for (i = 0; i < p->nsets; i++) {
		size_t sd = ds + i * PSET_SIZE;
		size_t sx = xs + i * sizeof(struct devimg_index_propset);

		r = add_string(l, p->sets[i].name, sd + PSET_NAME, &name);
		if (r)
			return r;
		put_u32(&l->index, sx + XSET(name_off), name);
		r = add_props(l, &p->sets[i], sd, sx);
		if (r)
			return r;
	}
	return 0;
}

/*
 * Entries: NULL, NULL without an -entries file; with one, begin == end
 * (not NULL) when it names nothing, as DPC++ writes a zero-length array.
 */
static int add_entries(struct layout *l, const struct wrap_image *img,
		       size_t d, size_t x)
{
	size_t n = img->entries.n, de, xe, i, name;
	int r;

	if (!img->has_entries)
		return 0;
	r = buf_alloc(&l->desc, n * ENTRY_SIZE, 8, &de);
	if (!r)
		r = buf_alloc(&l->index, n * sizeof(uint32_t), 4, &xe);
	if (!r)
		r = desc_ptr(l, d + imgf(l, IMG_ENTRIES_BEGIN), SYM_DESC, de);
	if (!r)
		r = desc_ptr(l, d + imgf(l, IMG_ENTRIES_END), SYM_DESC,
			     de + n * ENTRY_SIZE);
	if (r)
		return r;
	put_u32(&l->index, x + XIMG(entries_off), xe);
	put_u32(&l->index, x + XIMG(nentries), n);
	for (i = 0; i < n; i++) {
		r = add_string(l, img->entries.names[i],
			       de + i * ENTRY_SIZE + ENTRY_NAME, &name);
		if (r)
			return r;
		put_u32(&l->index, xe + i * sizeof(uint32_t), name);
	}
	return 0;
}

static int add_manifest(struct layout *l, const struct wrap_image *img,
			size_t d, size_t x)
{
	size_t off;
	int r;

	if (!img->has_manifest || l->img_version >= 3)
		return 0;
	r = buf_add(&l->index, img->manifest, img->manifest_size, 1, &off);
	if (!r)
		r = desc_ptr(l, d + IMG_MANIFEST_BEGIN, SYM_INDEX, off);
	if (!r)
		r = desc_ptr(l, d + IMG_MANIFEST_END, SYM_INDEX,
			     off + img->manifest_size);
	if (r)
		return r;
	put_u32(&l->index, x + XIMG(manifest_off), off);
	put_u32(&l->index, x + XIMG(manifest_size), img->manifest_size);
	return 0;
}

static int add_options(struct layout *l, const struct wrap_image *img,
		       size_t d, size_t x)
{
	size_t off;
	int r;

	r = add_string(l, img->target, d + IMG_TARGET, &off);
	if (r)
		return r;
	put_u32(&l->index, x + XIMG(target_off), off);
	r = add_string(l, img->compile_opts, d + IMG_COMPILE_OPTS, &off);
	if (r)
		return r;
	put_u32(&l->index, x + XIMG(compile_opts_off), off);
	r = add_string(l, img->link_opts, d + IMG_LINK_OPTS, &off);
	if (r)
		return r;
	put_u32(&l->index, x + XIMG(link_opts_off), off);
	return 0;
}

/* Image i of the set, the j-th in the descriptor and the index. */
static int add_image(struct layout *l, size_t i, size_t j)
{
	const struct wrap_image *img = &l->set->images[i];
	size_t d = BINS_SIZE + j * l->img_size;
	size_t x = sizeof(struct devimg_index_header) +
		   j * sizeof(struct devimg_index_image);
	int r;

	put_u16(&l->desc, d + IMG_VERSION, l->img_version);
	put_u8(&l->desc, d + IMG_KIND, img->kind);
	put_u8(&l->desc, d + IMG_FORMAT, img->format);
	put_u64(&l->index, x + XIMG(bin_size), img->size);
	put_u16(&l->index, x + XIMG(version), l->img_version);
	put_u8(&l->index, x + XIMG(kind), img->kind);
	put_u8(&l->index, x + XIMG(format), img->format);

	r = desc_ptr(l, d + imgf(l, IMG_BIN_BEGIN), sym_image(i), 0);
	if (!r)
		r = desc_ptr(l, d + imgf(l, IMG_BIN_END), sym_image(i),
			     img->size);
	if (!r)
		r = rels_add(&l->index_rels,
			     x + XIMG(bin_rel),
			     l->mach->r_prel64, sym_image(i), 0);
	if (!r)
		r = add_options(l, img, d, x);
	if (!r)
		r = add_manifest(l, img, d, x);
	if (!r)
		r = add_entries(l, img, d, x);
	if (!r)
		r = add_propsets(l, img->props, d, x);
	return r;
}

static void put_index_header(struct layout *l)
{
	struct buf *b = &l->index;

	memcpy(b->p, DEVIMG_INDEX_MAGIC, 8);
	put_u32(b, XHDR(version), DEVIMG_INDEX_VERSION);
	put_u32(b, XHDR(header_size), sizeof(struct devimg_index_header));
	put_u64(b, XHDR(size), b->len);
	put_u16(b, XHDR(binaries_version), DEVIMG_BINARIES_VERSION);
	put_u16(b, XHDR(nimages), l->ndesc);
	put_u32(b, XHDR(images_off), sizeof(struct devimg_index_header));
	put_u32(b, XHDR(image_size), sizeof(struct devimg_index_image));
}

/*
 * The .tgtimg pair of image i, as DPC++'s wrapper writes it for
 * clang-offload-extract: the image's address (an absolute relocation) and
 * its size, 16-aligned.
 */
static int add_tgtimg(struct layout *l, size_t i)
{
	size_t off;
	int r = buf_alloc(&l->tgt, 16, 16, &off);

	if (!r)
		r = rels_add(&l->tgt_rels, off, l->mach->r_abs64, sym_image(i),
			     0);
	if (!r)
		put_u64(&l->tgt, off + 8, l->set->images[i].size);
	return r;
}

/*
 * One kind's libomptarget descriptor, as DPC++'s wrapper writes it for
 * every kind but SYCL: the image array, then the descriptor, each 16-aligned;
 * every entries range is __start_/__stop_omp_offloading_entries.
 */
static int add_pack(struct layout *l, struct tgt_pack *p)
{
	uint32_t start = sym_tgt(l, TGT_START), stop = sym_tgt(l, TGT_STOP);
	size_t imgs, d, i, j;
	int r;

	r = buf_alloc(&l->desc, p->n * TGT_IMG_SIZE, TGT_ALIGN, &imgs);
	if (!r)
		r = buf_alloc(&l->desc, TGT_DESC_SIZE, TGT_ALIGN, &d);
	if (r)
		return r;
	p->desc_off = d;
	put_u32(&l->desc, d, p->n);
	r = desc_ptr(l, d + TGT_DESC_IMAGES, SYM_DESC, imgs);
	if (!r)
		r = desc_ptr(l, d + TGT_DESC_ENTRIES, start, 0);
	if (!r)
		r = desc_ptr(l, d + TGT_DESC_ENTRIES + 8, stop, 0);
	for (i = 0, j = 0; !r && i < l->set->nimages; i++) {
		const struct wrap_image *img = &l->set->images[i];
		size_t at = imgs + j * TGT_IMG_SIZE;

		if (img->kind != p->kind)
			continue;
		j++;
		r = desc_ptr(l, at, sym_image(i), 0);
		if (!r)
			r = desc_ptr(l, at + 8, sym_image(i), img->size);
		if (!r)
			r = desc_ptr(l, at + TGT_IMG_ENTRIES, start, 0);
		if (!r)
			r = desc_ptr(l, at + TGT_IMG_ENTRIES + 8, stop, 0);
	}
	return r;
}

/*
 * DPC++'s wrapper handles its images kind by kind, in the order of its
 * hash map of kinds: openmp, sycl, host, hip; the .tgtimg pairs follow it.
 */
static int add_tgtimgs(struct layout *l)
{
	static const uint8_t order[] = { DEVIMG_KIND_OPENMP, DEVIMG_KIND_SYCL,
					 DEVIMG_KIND_HOST, DEVIMG_KIND_HIP };
	size_t k, i;
	int r = 0;

	for (k = 0; k < sizeof(order); k++)
		for (i = 0; !r && i < l->set->nimages; i++)
			if (l->set->images[i].kind == order[k])
				r = add_tgtimg(l, i);
	return r;
}

static int build_data(struct layout *l, struct errmsg *err,
		      const char *out_name)
{
	size_t n = l->ndesc, off, i, j;
	int r;

	r = buf_alloc(&l->desc, BINS_SIZE + n * l->img_size, 8, &off);
	if (!r)
		r = buf_alloc(&l->index, sizeof(struct devimg_index_header) +
			      n * sizeof(struct devimg_index_image), 8, &off);
	if (r)
		goto oom;
	put_u16(&l->desc, BINS_VERSION, DEVIMG_BINARIES_VERSION);
	put_u16(&l->desc, BINS_COUNT, n);
	if (n)
		r = desc_ptr(l, BINS_IMAGES, SYM_DESC, BINS_SIZE);
	for (i = 0, j = 0; !r && i < l->set->nimages; i++)
		if (l->set->images[i].kind == DEVIMG_KIND_SYCL)
			r = add_image(l, i, j++);
	if (!r && l->tgtimg)
		r = add_tgtimgs(l);
	l->sycl_desc_len = l->desc.len;
	for (i = 0; !r && i < l->npacks; i++)
		r = add_pack(l, &l->packs[i]);
	/* Pad the blob so that the next one starts 8-aligned. */
	if (!r)
		r = buf_alloc(&l->index, 0, DEVIMG_INDEX_ALIGN, &off);
	if (r)
		goto oom;
	if (l->index.len > UINT32_MAX)
		return set_err(err, "%s: entries and properties too large for the index (%zu bytes, at most 4 GiB)",
			       out_name, l->index.len);
	put_index_header(l);
	return 0;
oom:
	return set_err(err, "%s: %s", out_name, strerror(-r));
}

/* ---- code and constructor tables ---- */

/*
 * A constructor and a destructor: both pass the descriptor at desc_off to
 * their callee; *off gets the constructor's offset.
 */
static int add_stubs(struct layout *l, size_t desc_off, uint32_t reg,
		     uint32_t unreg, size_t *first)
{
	const struct wrap_machine *m = l->mach;
	uint32_t callee[2] = { reg, unreg };
	size_t off, k;
	unsigned j;
	int r;

	for (k = 0; k < 2; k++) {
		size_t end = l->text.len;

		r = buf_add(&l->text, m->stub, m->stub_size, m->stub_align,
			    &off);
		if (r)
			return r;
		if (k == 0)
			*first = off;
		memset(l->text.p + end, m->text_fill, off - end);
		for (j = 0; j < m->nstub_relocs; j++) {
			const struct wrap_stub_reloc *s = &m->stub_relocs[j];
			uint32_t sym = s->target == WRAP_STUB_DESCRIPTOR ?
				       SYM_DESC : callee[k];
			int64_t addend = s->addend;

			if (s->target == WRAP_STUB_DESCRIPTOR)
				addend += (int64_t)desc_off;
			r = rels_add(&l->text_rels, off + s->offset, s->type,
				     sym, addend);
			if (r)
				return r;
		}
	}
	return 0;
}

/* One .init_array.1 and one .fini_array.1 word for the stubs at off. */
static int add_ctor(struct layout *l, size_t off)
{
	const struct wrap_machine *m = l->mach;
	uint64_t at = l->nctors * 8;
	int r;

	r = rels_add(&l->init_rels, at, m->r_abs64, sym_text(l), off);
	if (!r)
		r = rels_add(&l->fini_rels, at, m->r_abs64, sym_text(l),
			     off + m->stub_align);
	l->nctors++;
	return r;
}

/*
 * SYCL's stubs come first in the code; the constructor tables list the
 * kinds in the order DPC++'s wrapper emits them (openmp, sycl, hip), all
 * with priority 1.
 */
static int build_text(struct layout *l)
{
	size_t k;
	int r = 0;

	if (l->reg)
		r = add_stubs(l, 0, sym_first_global(l),
			      sym_first_global(l) + 1, &l->sycl_reg_off);
	for (k = 0; !r && l->tgt_reg && k < l->npacks; k++)
		r = add_stubs(l, l->packs[k].desc_off,
			      sym_tgt(l, TGT_REGISTER),
			      sym_tgt(l, TGT_UNREGISTER), &l->packs[k].reg_off);
	l->nctors = 0;
	for (k = 0; !r && l->tgt_reg && k < l->npacks; k++)
		if (l->packs[k].kind == DEVIMG_KIND_OPENMP)
			r = add_ctor(l, l->packs[k].reg_off);
	if (!r && l->reg)
		r = add_ctor(l, l->sycl_reg_off);
	for (k = 0; !r && l->tgt_reg && k < l->npacks; k++)
		if (l->packs[k].kind != DEVIMG_KIND_OPENMP)
			r = add_ctor(l, l->packs[k].reg_off);
	return r;
}

/* ---- string tables ---- */

static int strtab_add(struct layout *l, unsigned which, const char *name)
{
	size_t off;
	int r = buf_str(&l->strtab, name, &off);

	if (!r)
		l->sym_name[which] = off;
	return r;
}

static const char *kind_name(uint8_t kind)
{
	switch (kind) {
	case DEVIMG_KIND_HOST:
		return "host";
	case DEVIMG_KIND_OPENMP:
		return "openmp";
	case DEVIMG_KIND_HIP:
		return "hip";
	default:
		return "sycl";
	}
}

static int tgt_strtab(struct layout *l)
{
	static const char *const names[] = {
		[TGT_REGISTER] = "__tgt_register_lib",
		[TGT_UNREGISTER] = "__tgt_unregister_lib",
		[TGT_START] = "__start_" TGT_ENTRIES_SECTION,
		[TGT_STOP] = "__stop_" TGT_ENTRIES_SECTION,
		[TGT_DUMMY] = "__dummy.omp_offloading.entry",
	};
	size_t i, off, at;
	int r = 0;

	for (i = 0; !r && i < sizeof(names) / sizeof(names[0]); i++) {
		r = buf_str(&l->strtab, names[i], &off);
		l->tgt_names[i] = off;
	}
	for (i = 0; !r && l->set->desc_name && i < l->npacks; i++) {
		const char *kind = kind_name(l->packs[i].kind);

		r = buf_add(&l->strtab, ".", 1, 1, &off);
		if (!r)
			r = buf_add(&l->strtab, kind, strlen(kind), 1, &at);
		if (!r)
			r = buf_add(&l->strtab, "_offloading.", 12, 1, &at);
		if (!r)
			r = buf_str(&l->strtab, l->set->desc_name, NULL);
		l->packs[i].name = off;
	}
	return r;
}

static int build_strtab(struct layout *l)
{
	static const char *const fixed[] = {
		"__devimg_index", "__devimg_descriptor", "__devimg_register",
		"__devimg_unregister",
	};
	size_t n = l->set->nimages, i, off;
	char name[64];
	int r;

	l->sym_name = calloc(NAMED_IMAGE0 + n + 3, sizeof(*l->sym_name));
	if (!l->sym_name)
		return -ENOMEM;
	r = buf_add(&l->strtab, "", 1, 1, &off);
	for (i = 0; !r && i < NAMED_IMAGE0; i++)
		r = strtab_add(l, i, fixed[i]);
	for (i = 0; !r && i < n; i++) {
		snprintf(name, sizeof(name), "__devimg_image_%zu", i);
		r = strtab_add(l, NAMED_IMAGE0 + i, name);
	}
	if (!r && l->reg)
		r = strtab_add(l, NAMED_IMAGE0 + n, "__sycl_register_lib");
	if (!r && l->reg)
		r = strtab_add(l, NAMED_IMAGE0 + n + 1, "__sycl_unregister_lib");
	if (!r && l->set->desc_name) {
		r = buf_add(&l->strtab, ".sycl_offloading.", 17, 1, &off);
		if (!r) {
			l->sym_name[NAMED_IMAGE0 + n + 2] = off;
			r = buf_str(&l->strtab, l->set->desc_name, NULL);
		}
	}
	if (!r && l->npacks)
		r = tgt_strtab(l);
	return r;
}

/*
 * Where DPC++'s wrapper puts an image: "__CLANG_OFFLOAD_BUNDLE__" then the
 * offload kind and the target, so that clang-offload-bundler finds it; an
 * image without a target goes to the read-only data.
 */
static int image_section_name(struct buf *b, const struct wrap_image *img,
			      size_t *off)
{
	const char *kind = kind_name(img->kind);
	size_t at;
	int r;

	if (!*img->target)
		return buf_str(b, DEVIMG_SECTION_IMAGE_NOTARGET, off);
	r = buf_add(b, DEVIMG_SECTION_IMAGE_PREFIX,
		    strlen(DEVIMG_SECTION_IMAGE_PREFIX), 1, off);
	if (!r)
		r = buf_add(b, kind, strlen(kind), 1, &at);
	if (!r)
		r = buf_add(b, "-", 1, 1, &at);
	if (!r)
		r = buf_str(b, img->target, NULL);
	return r;
}

static int name_sections(struct layout *l)
{
	size_t i, off;
	int r;

	r = buf_add(&l->shstrtab, "", 1, 1, &off);
	for (i = 1; !r && i < l->nsecs; i++) {
		if (i >= SEC_IMAGE0 && i < sec_tgtimg(l))
			r = image_section_name(&l->shstrtab,
					       &l->set->images[i - SEC_IMAGE0],
					       &off);
		else
			r = buf_str(&l->shstrtab, l->secs[i].name, &off);
		l->secs[i].name_off = off;
	}
	return r;
}

/* ---- sections and file layout ---- */

static void sec_set(struct sec *s, const char *name, uint32_t type,
		    uint64_t flags, uint64_t align)
{
	s->name = name;
	s->type = type;
	s->flags = flags;
	s->align = align;
	s->dtype = ELF_T_BYTE;
}

static void sec_data(struct sec *s, const void *data, size_t size)
{
	s->data = size ? data : NULL;
	s->size = size;
}

static void sec_rela(struct layout *l, unsigned idx, const char *name,
		     unsigned target, const struct rels *rs)
{
	struct sec *s = &l->secs[idx];

	sec_set(s, name, SHT_RELA, SHF_INFO_LINK, 8);
	s->entsize = sizeof(Elf64_Rela);
	s->link = SEC_SYMTAB;
	s->info = target;
	s->size = rs->n * sizeof(Elf64_Rela);
	s->dtype = ELF_T_RELA;
}

static void describe_sections(struct layout *l)
{
	struct sec *s = l->secs;
	size_t i;

	sec_set(&s[SEC_TEXT], DEVIMG_SECTION_TEXT, SHT_PROGBITS,
		SHF_ALLOC | SHF_EXECINSTR, l->mach->stub_align);
	sec_data(&s[SEC_TEXT], l->text.p, l->text.len);
	sec_set(&s[SEC_INDEX], DEVIMG_SECTION_INDEX, SHT_PROGBITS, SHF_ALLOC,
		DEVIMG_INDEX_ALIGN);
	sec_data(&s[SEC_INDEX], l->index.p, l->index.len);
	sec_set(&s[SEC_DESC], DEVIMG_SECTION_DESCRIPTOR, SHT_PROGBITS,
		SHF_ALLOC | SHF_WRITE, l->npacks ? TGT_ALIGN : 8);
	sec_data(&s[SEC_DESC], l->desc.p, l->desc.len);
	sec_set(&s[SEC_INIT], ".init_array.1", SHT_INIT_ARRAY,
		SHF_ALLOC | SHF_WRITE, 8);
	sec_data(&s[SEC_INIT], l->init_words, l->nctors * 8);
	sec_set(&s[SEC_FINI], ".fini_array.1", SHT_FINI_ARRAY,
		SHF_ALLOC | SHF_WRITE, 8);
	sec_data(&s[SEC_FINI], l->fini_words, l->nctors * 8);
	s[SEC_INIT].entsize = s[SEC_FINI].entsize = 8;
	s[SEC_INIT].dtype = s[SEC_FINI].dtype = ELF_T_ADDR;
	sec_set(&s[SEC_NOTE_STACK], ".note.GNU-stack", SHT_PROGBITS, 0, 1);

	sec_rela(l, SEC_RELA_TEXT, ".rela" DEVIMG_SECTION_TEXT, SEC_TEXT,
		 &l->text_rels);
	sec_rela(l, SEC_RELA_INDEX, ".rela" DEVIMG_SECTION_INDEX, SEC_INDEX,
		 &l->index_rels);
	sec_rela(l, SEC_RELA_DESC, ".rela" DEVIMG_SECTION_DESCRIPTOR, SEC_DESC,
		 &l->desc_rels);
	sec_rela(l, SEC_RELA_INIT, ".rela.init_array.1", SEC_INIT,
		 &l->init_rels);
	sec_rela(l, SEC_RELA_FINI, ".rela.fini_array.1", SEC_FINI,
		 &l->fini_rels);

	sec_set(&s[SEC_SYMTAB], ".symtab", SHT_SYMTAB, 0, 8);
	s[SEC_SYMTAB].entsize = sizeof(Elf64_Sym);
	s[SEC_SYMTAB].link = SEC_STRTAB;
	s[SEC_SYMTAB].info = sym_first_global(l);
	s[SEC_SYMTAB].size = l->nsyms * sizeof(Elf64_Sym);
	s[SEC_SYMTAB].dtype = ELF_T_SYM;
	sec_set(&s[SEC_STRTAB], ".strtab", SHT_STRTAB, 0, 1);
	sec_set(&s[SEC_SHSTRTAB], ".shstrtab", SHT_STRTAB, 0, 1);

	/* LLVM aligns a global array to 16 only when it is over 16 bytes. */
	for (i = 0; i < l->set->nimages; i++) {
		uint64_t size = l->set->images[i].size;

		sec_set(&s[SEC_IMAGE0 + i], NULL, SHT_PROGBITS, SHF_ALLOC,
			size > DEVIMG_IMAGE_ALIGN ? DEVIMG_IMAGE_ALIGN : 1);
		s[SEC_IMAGE0 + i].size = size;
	}
	i = sec_tgtimg(l);
	if (l->tgtimg) {
		/* Writable as in DPC++'s (PIC) objects: relocated words. */
		sec_set(&s[i], DEVIMG_SECTION_TGTIMG, SHT_PROGBITS,
			SHF_ALLOC | SHF_WRITE, 16);
		sec_data(&s[i], l->tgt.p, l->tgt.len);
		sec_rela(l, i + 1, ".rela" DEVIMG_SECTION_TGTIMG, i,
			 &l->tgt_rels);
		i += 2;
	}
	/* Empty: it only makes the linker define __start_ and __stop_. */
	if (l->npacks)
		sec_set(&s[i], TGT_ENTRIES_SECTION, SHT_PROGBITS, SHF_ALLOC, 8);
}

static size_t sec_entries(const struct layout *l)
{
	return sec_tgtimg(l) + (l->tgtimg ? 2 : 0);
}

/*
 * Without code (-emit-reg-funcs=0, or nothing to register) .text.devimg and
 * the constructor tables are left out, as is every relocation section
 * without relocations: DPC++'s wrapper writes none of them then.
 */
static int number_sections(struct layout *l)
{
	size_t i;

	l->phys = calloc(l->nsecs, sizeof(*l->phys));
	if (!l->phys)
		return -ENOMEM;
	l->nphys = 1;
	for (i = 1; i < l->nsecs; i++) {
		const struct sec *s = &l->secs[i];

		if (s->type == SHT_RELA && !s->size)
			continue;
		if (!l->nctors &&
		    (i == SEC_TEXT || i == SEC_INIT || i == SEC_FINI))
			continue;
		l->phys[i] = l->nphys++;
	}
	for (i = 1; i < l->nsecs; i++) {
		struct sec *s = &l->secs[i];

		if (s->type == SHT_RELA || s->type == SHT_SYMTAB)
			s->link = l->phys[s->link];
		if (s->type == SHT_RELA)
			s->info = l->phys[s->info];
	}
	return 0;
}

/* Offsets: small sections in index order, then images, then headers. */
static int place_sections(struct layout *l)
{
	uint64_t off = sizeof(Elf64_Ehdr);
	size_t i;

	for (i = 1; i < l->nsecs; i++) {
		struct sec *s = &l->secs[i];

		if (!l->phys[i])
			continue;
		off = align_up(off, s->align);
		if (off + s->size < off)
			return -EFBIG;
		s->offset = off;
		off += s->size;
	}
	l->shoff = align_up(off, 8);
	l->total = l->shoff + l->nphys * sizeof(Elf64_Shdr);
	if (l->total < off)
		return -EFBIG;
	return 0;
}

/* ---- libelf ---- */

static int elf_fail(struct errmsg *err, const char *out_name,
		    const char *what)
{
	return set_err(err, "%s: %s: %s", out_name, what, elf_errmsg(-1));
}

static int fill_symbol(Elf_Data *data, size_t ndx, uint32_t name,
		       unsigned char bind, unsigned char type, uint16_t shndx,
		       uint64_t value, uint64_t size)
{
	GElf_Sym sym = {
		.st_name = name,
		.st_info = GELF_ST_INFO(bind, type),
		.st_other = STV_DEFAULT,
		.st_shndx = shndx,
		.st_value = value,
		.st_size = size,
	};

	return gelf_update_sym(data, ndx, &sym) ? 0 : -1;
}

static int fill_hidden(Elf_Data *data, size_t ndx, uint32_t name,
		       unsigned char type, uint16_t shndx)
{
	GElf_Sym sym;

	if (fill_symbol(data, ndx, name, STB_GLOBAL, type, shndx, 0, 0) ||
	    !gelf_getsym(data, ndx, &sym))
		return -1;
	sym.st_other = STV_HIDDEN;
	return gelf_update_sym(data, ndx, &sym) ? 0 : -1;
}

/* The globals of the non-SYCL descriptors. */
static int fill_tgt_symbols(const struct layout *l, Elf_Data *data)
{
	size_t k;
	int r = 0;

	if (l->tgt_reg) {
		r |= fill_symbol(data, sym_tgt(l, TGT_REGISTER),
				 l->tgt_names[TGT_REGISTER], STB_GLOBAL,
				 STT_NOTYPE, SHN_UNDEF, 0, 0);
		r |= fill_symbol(data, sym_tgt(l, TGT_UNREGISTER),
				 l->tgt_names[TGT_UNREGISTER], STB_GLOBAL,
				 STT_NOTYPE, SHN_UNDEF, 0, 0);
	}
	r |= fill_hidden(data, sym_tgt(l, TGT_START), l->tgt_names[TGT_START],
			 STT_NOTYPE, SHN_UNDEF);
	r |= fill_hidden(data, sym_tgt(l, TGT_STOP), l->tgt_names[TGT_STOP],
			 STT_NOTYPE, SHN_UNDEF);
	r |= fill_hidden(data, sym_tgt(l, TGT_DUMMY), l->tgt_names[TGT_DUMMY],
			 STT_OBJECT, l->phys[sec_entries(l)]);
	for (k = 0; l->set->desc_name && k < l->npacks; k++)
		r |= fill_symbol(data, sym_pack_desc(l, k), l->packs[k].name,
				 STB_GLOBAL, STT_OBJECT, l->phys[SEC_DESC],
				 l->packs[k].desc_off, TGT_DESC_SIZE);
	return r;
}

static int fill_symtab(const struct layout *l, Elf_Data *data)
{
	const struct wrap_machine *m = l->mach;
	const size_t *p = l->phys;
	size_t n = l->set->nimages, i;
	uint32_t g = sym_first_global(l);
	int r;

	r = fill_symbol(data, 0, 0, STB_LOCAL, STT_NOTYPE, SHN_UNDEF, 0, 0);
	r |= fill_symbol(data, SYM_INDEX, 0, STB_LOCAL, STT_SECTION,
			 p[SEC_INDEX], 0, 0);
	r |= fill_symbol(data, SYM_DESC, 0, STB_LOCAL, STT_SECTION,
			 p[SEC_DESC], 0, 0);
	for (i = 0; i < n; i++)
		r |= fill_symbol(data, sym_image(i), 0, STB_LOCAL, STT_SECTION,
				 p[SEC_IMAGE0 + i], 0, 0);
	if (l->nctors)
		r |= fill_symbol(data, sym_text(l), 0, STB_LOCAL, STT_SECTION,
				 p[SEC_TEXT], 0, 0);
	r |= fill_symbol(data, sym_named(l, NAMED_INDEX),
			 l->sym_name[NAMED_INDEX], STB_LOCAL, STT_OBJECT,
			 p[SEC_INDEX], 0, l->index.len);
	r |= fill_symbol(data, sym_named(l, NAMED_DESC),
			 l->sym_name[NAMED_DESC], STB_LOCAL, STT_OBJECT,
			 p[SEC_DESC], 0, l->sycl_desc_len);
	if (l->reg) {
		r |= fill_symbol(data, sym_named(l, NAMED_REGISTER),
				 l->sym_name[NAMED_REGISTER], STB_LOCAL,
				 STT_FUNC, p[SEC_TEXT], l->sycl_reg_off,
				 m->stub_size);
		r |= fill_symbol(data, sym_named(l, NAMED_UNREGISTER),
				 l->sym_name[NAMED_UNREGISTER], STB_LOCAL,
				 STT_FUNC, p[SEC_TEXT],
				 l->sycl_reg_off + m->stub_align,
				 m->stub_size);
	}
	for (i = 0; i < n; i++)
		r |= fill_symbol(data, sym_named(l, NAMED_IMAGE0 + i),
				 l->sym_name[NAMED_IMAGE0 + i], STB_LOCAL,
				 STT_OBJECT, p[SEC_IMAGE0 + i], 0,
				 l->set->images[i].size);
	if (l->reg) {
		r |= fill_symbol(data, g, l->sym_name[NAMED_IMAGE0 + n],
				 STB_GLOBAL, STT_NOTYPE, SHN_UNDEF, 0, 0);
		r |= fill_symbol(data, g + 1,
				 l->sym_name[NAMED_IMAGE0 + n + 1], STB_GLOBAL,
				 STT_NOTYPE, SHN_UNDEF, 0, 0);
	}
	if (l->set->desc_name)
		r |= fill_symbol(data, sym_desc_global(l),
				 l->sym_name[NAMED_IMAGE0 + n + 2], STB_GLOBAL,
				 STT_OBJECT, p[SEC_DESC], 0, l->sycl_desc_len);
	if (l->npacks)
		r |= fill_tgt_symbols(l, data);
	return r ? -1 : 0;
}

static int rel_cmp(const void *a, const void *b)
{
	const struct rel *x = a, *y = b;

	return (x->offset > y->offset) - (x->offset < y->offset);
}

static int fill_rela(const struct rels *rs, Elf_Data *data)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		GElf_Rela rela = {
			.r_offset = rs->r[i].offset,
			.r_info = GELF_R_INFO(rs->r[i].sym, rs->r[i].type),
			.r_addend = rs->r[i].addend,
		};

		if (!gelf_update_rela(data, i, &rela))
			return -1;
	}
	return 0;
}

static const struct rels *rels_of(const struct layout *l, size_t idx)
{
	switch (idx) {
	case SEC_RELA_TEXT:
		return &l->text_rels;
	case SEC_RELA_INDEX:
		return &l->index_rels;
	case SEC_RELA_DESC:
		return &l->desc_rels;
	case SEC_RELA_INIT:
		return &l->init_rels;
	case SEC_RELA_FINI:
		return &l->fini_rels;
	default:
		return &l->tgt_rels;
	}
}

/* Symbol and relocation tables are filled through gelf once they exist. */
static int fill_table(const struct layout *l, size_t idx, Elf_Data *data)
{
	if (idx == SEC_SYMTAB)
		return fill_symtab(l, data);
	return fill_rela(rels_of(l, idx), data);
}

static int emit_section(const struct layout *l, Elf *elf, size_t idx,
			void *table, struct errmsg *err,
			const char *out_name)
{
	const struct sec *s = &l->secs[idx];
	Elf_Scn *scn = elf_newscn(elf);
	GElf_Shdr shdr;
	Elf_Data *data;

	if (!scn || !gelf_getshdr(scn, &shdr))
		return elf_fail(err, out_name, "cannot add a section");
	if (elf_ndxscn(scn) != l->phys[idx])
		return set_err(err, "%s: section %s got index %zu, not %zu",
			       out_name, s->name, elf_ndxscn(scn),
			       l->phys[idx]);
	shdr.sh_name = s->name_off;
	shdr.sh_type = s->type;
	shdr.sh_flags = s->flags;
	shdr.sh_addralign = s->align;
	shdr.sh_entsize = s->entsize;
	shdr.sh_link = s->link;
	shdr.sh_info = s->info;
	shdr.sh_offset = s->offset;
	shdr.sh_size = s->size;
	if (!gelf_update_shdr(scn, &shdr))
		return elf_fail(err, out_name, "cannot set a section header");
	if (!s->size || (!s->data && !table))
		return 0;
	data = elf_newdata(scn);
	if (!data)
		return elf_fail(err, out_name, "cannot add section data");
	data->d_buf = s->data ? (void *)s->data : table;
	data->d_size = s->size;
	data->d_type = s->dtype;
	data->d_align = s->dtype == ELF_T_BYTE ? 1 : 8;
	data->d_off = 0;
	data->d_version = EV_CURRENT;
	if (table && fill_table(l, idx, data))
		return elf_fail(err, out_name, "cannot fill a table");
	return 0;
}

static int emit_header(const struct layout *l, Elf *elf,
		       struct errmsg *err, const char *out_name)
{
	GElf_Ehdr ehdr;

	if (!gelf_newehdr(elf, ELFCLASS64) || !gelf_getehdr(elf, &ehdr))
		return elf_fail(err, out_name, "cannot create the ELF header");
	ehdr.e_ident[EI_DATA] = l->mach->ei_data;
	ehdr.e_ident[EI_OSABI] = ELFOSABI_NONE;
	ehdr.e_type = ET_REL;
	ehdr.e_machine = l->mach->e_machine;
	ehdr.e_version = EV_CURRENT;
	ehdr.e_shoff = l->shoff;
	ehdr.e_ehsize = sizeof(Elf64_Ehdr);
	ehdr.e_shentsize = sizeof(Elf64_Shdr);
	ehdr.e_shstrndx = l->phys[SEC_SHSTRTAB];
	if (!gelf_update_ehdr(elf, &ehdr))
		return elf_fail(err, out_name, "cannot set the ELF header");
	return 0;
}

/* The buffer of a table whose entries gelf converts; NULL for others. */
static int alloc_table(const struct layout *l, size_t idx, void **out)
{
	const struct sec *s = &l->secs[idx];

	*out = NULL;
	if (s->type != SHT_SYMTAB && s->type != SHT_RELA)
		return 0;
	*out = calloc(1, s->size ? s->size : 1);
	return *out ? 0 : -ENOMEM;
}

static int emit_elf(struct layout *l, int fd, struct errmsg *err,
		    const char *out_name)
{
	void **tables = calloc(l->nsecs, sizeof(*tables));
	Elf *elf = NULL;
	off_t written;
	size_t i;
	int r = -1;

	if (!tables) {
		set_err(err, "%s: %s", out_name, strerror(ENOMEM));
		return -1;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		elf_fail(err, out_name, "libelf is out of date");
		goto out;
	}
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!elf) {
		elf_fail(err, out_name, "cannot start the ELF file");
		goto out;
	}
	if (emit_header(l, elf, err, out_name))
		goto out;
	elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
	for (i = 1; i < l->nsecs; i++) {
		void *t;

		if (alloc_table(l, i, &t)) {
			set_err(err, "%s: %s", out_name, strerror(ENOMEM));
			goto out;
		}
		tables[i] = t;
		if (l->phys[i] && emit_section(l, elf, i, t, err, out_name))
			goto out;
	}
	written = elf_update(elf, ELF_C_WRITE);
	if (written < 0) {
		elf_fail(err, out_name, "cannot write");
		goto out;
	}
	if ((uint64_t)written != l->total) {
		set_err(err, "%s: libelf wrote %lld bytes, %llu expected",
			out_name, (long long)written,
			(unsigned long long)l->total);
		goto out;
	}
	r = 0;
out:
	if (elf)
		elf_end(elf);
	for (i = 0; i < l->nsecs; i++)
		free(tables[i]);
	free(tables);
	return r;
}

/* ---- image bytes ---- */

static int copy_fallback(int in, loff_t *in_off, int out, loff_t *out_off,
			 uint64_t len)
{
	unsigned char *buf = malloc(COPY_BUF_SIZE);
	int r = 0;

	if (!buf)
		return -ENOMEM;
	while (len) {
		size_t want = len < COPY_BUF_SIZE ? len : COPY_BUF_SIZE;
		ssize_t n = pread(in, buf, want, *in_off);
		ssize_t w;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -ENODATA;
			break;
		}
		w = pwrite(out, buf, n, *out_off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			r = w < 0 ? -errno : -EIO;
			break;
		}
		*in_off += w;
		*out_off += w;
		len -= w;
	}
	free(buf);
	return r;
}

/* Copy len bytes of in (from 0) to out at dst; -ENODATA if in is shorter. */
static int copy_range(int in, int out, uint64_t dst, uint64_t len)
{
	loff_t in_off = 0, out_off = dst;

	while (len) {
		size_t want = len < (1u << 30) ? len : (1u << 30);
		ssize_t n;

		n = copy_file_range(in, &in_off, out, &out_off, want, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EXDEV || errno == ENOSYS ||
			      errno == EINVAL || errno == EOPNOTSUPP ||
			      errno == EPERM || errno == ETXTBSY))
			return copy_fallback(in, &in_off, out, &out_off, len);
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;
		len -= n;
	}
	return 0;
}

/* Bytes made in memory (a compressed image) go out as they are. */
static int write_data(const struct wrap_image *img, int out, uint64_t dst,
		      struct errmsg *err, const char *out_name)
{
	uint64_t done = 0;

	while (done < img->size) {
		uint64_t left = img->size - done;
		size_t want = left < (1u << 30) ? left : (1u << 30);
		ssize_t n = pwrite(out, img->data + done, want, dst + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return set_err(err, "%s: cannot copy into %s: %s",
				       img->path, out_name,
				       strerror(n < 0 ? errno : EIO));
		done += n;
	}
	return 0;
}

static int copy_image(const struct wrap_image *img, int out, uint64_t dst,
		      struct errmsg *err, const char *out_name)
{
	struct errmsg perr = { 0 };
	uint64_t size;
	int in, r;

	if (img->data)
		return write_data(img, out, dst, err, out_name);
	in = input_open(img->path, DEVIMG_LIMIT_IMAGE_FILE, &size,
			      &perr);
	if (in < 0)
		return set_err(err, "%s", perr.msg);
	if (size != img->size) {
		r = set_err(err, "%s: changed while being wrapped (%llu bytes, %llu expected)",
			    img->path, (unsigned long long)size,
			    (unsigned long long)img->size);
		goto out;
	}
	r = copy_range(in, out, dst, img->size);
	if (r == -ENODATA)
		r = set_err(err, "%s: became shorter while being wrapped",
			    img->path);
	else if (r)
		r = set_err(err, "%s: cannot copy into %s: %s", img->path,
			    out_name, strerror(-r));
out:
	close(in);
	return r;
}

/*
 * Allocate the whole file up front: a full disk fails here, before any
 * work, and a file system with delayed allocation (ext4) then has nothing
 * to flush when rename() replaces an existing output, which it otherwise
 * does synchronously.
 */
static int reserve_space(int fd, uint64_t size, struct errmsg *err,
			 const char *out_name)
{
	if (fallocate(fd, 0, 0, size) == 0)
		return 0;
	if (errno == EOPNOTSUPP || errno == ENOSYS || errno == EINTR)
		return 0;
	return set_err(err, "%s: %s", out_name, strerror(errno));
}

/* ---- summary ---- */

static const char *format_name(uint8_t f)
{
	static const char *const names[] = { "none", "native", "spirv",
					     "llvmbc", "compressed" };

	return f < 5 ? names[f] : "?";
}

static void print_summary(const struct layout *l, FILE *f,
			  const char *out_name)
{
	size_t i;

	fprintf(f, "devimg-wrap: %s: ELF64 relocatable for %s, %zu image(s), %llu bytes\n",
		out_name, l->mach->name, l->set->nimages,
		(unsigned long long)l->total);
	for (i = 0; i < l->set->nimages; i++) {
		const struct wrap_image *img = &l->set->images[i];
		const struct sec *s = &l->secs[SEC_IMAGE0 + i];

		fprintf(f, "  %s  offset 0x%llx  %llu bytes  from %s: format %s, target '%s', %zu entries%s, %zu property sets%s\n",
			(const char *)l->shstrtab.p + s->name_off,
			(unsigned long long)s->offset,
			(unsigned long long)img->size, img->path,
			format_name(img->format), img->target,
			img->has_entries ? img->entries.n : 0,
			img->has_entries ? "" : " (none given)",
			img->props ? img->props->nsets : 0,
			img->has_manifest ? ", manifest" : "");
	}
	fprintf(f, "  %s  index blob, %zu bytes\n", DEVIMG_SECTION_INDEX,
		l->index.len);
	fprintf(f, "  %s  descriptor, %zu bytes, %zu relocations\n",
		DEVIMG_SECTION_DESCRIPTOR, l->desc.len, l->desc_rels.n);
	fprintf(f, "  %s  constructor and destructor, %zu bytes\n",
		DEVIMG_SECTION_TEXT, l->text.len);
}

/* ---- entry point ---- */

static void layout_fini(struct layout *l)
{
	free(l->text.p);
	free(l->index.p);
	free(l->desc.p);
	free(l->tgt.p);
	free(l->tgt_rels.r);
	free(l->strtab.p);
	free(l->shstrtab.p);
	free(l->text_rels.r);
	free(l->index_rels.r);
	free(l->desc_rels.r);
	free(l->init_rels.r);
	free(l->fini_rels.r);
	free(l->sym_name);
	free(l->secs);
	free(l->phys);
}

static void count_packs(struct layout *l)
{
	static const uint8_t kinds[TGT_MAX_PACKS] = { DEVIMG_KIND_OPENMP,
						      DEVIMG_KIND_HIP };
	size_t k, i;

	for (k = 0; k < TGT_MAX_PACKS; k++) {
		struct tgt_pack *p = &l->packs[l->npacks];

		p->kind = kinds[k];
		for (i = 0; i < l->set->nimages; i++)
			if (l->set->images[i].kind == kinds[k])
				p->n++;
		if (p->n)
			l->npacks++;
		else
			memset(p, 0, sizeof(*p));
	}
}

static int build_layout(struct layout *l, struct errmsg *err,
			const char *out_name)
{
	size_t n = l->set->nimages, i;
	int r;

	if (n > WRAP_MAX_IMAGES)
		return set_err(err, "%s: %zu images (at most %u can be wrapped)",
			       out_name, n, WRAP_MAX_IMAGES);
	l->img_version = l->set->image_version ? l->set->image_version :
			 DEVIMG_IMAGE_VERSION;
	l->img_size = l->img_version >= 3 ? IMG_V3_SIZE : IMG_SIZE;
	for (i = 0; i < n; i++)
		if (l->set->images[i].kind == DEVIMG_KIND_SYCL)
			l->ndesc++;
	/* As DPC++: only SYCL images are registered, none when none. */
	l->reg = !l->set->no_reg_funcs && l->ndesc;
	l->tgtimg = !l->set->no_reg_funcs && n;
	count_packs(l);
	l->tgt_reg = !l->set->no_reg_funcs && l->npacks;
	/* The constructor count decides symbol numbers: count them now. */
	l->nctors = (l->reg ? 1 : 0) + (l->tgt_reg ? l->npacks : 0);
	if (build_data(l, err, out_name))
		return -1;
	l->nsyms = sym_first_global(l) + nglobals(l);
	l->nsecs = SEC_IMAGE0 + n + (l->tgtimg ? 2 : 0) + (l->npacks ? 1 : 0);
	l->secs = calloc(l->nsecs, sizeof(*l->secs));
	r = l->secs ? build_text(l) : -ENOMEM;
	if (!r)
		r = build_strtab(l);
	if (!r) {
		describe_sections(l);
		r = name_sections(l);
	}
	if (!r)
		r = number_sections(l);
	if (r)
		return set_err(err, "%s: %s", out_name, strerror(-r));
	/* In offset order, as assemblers write them; easier to read. */
	if (l->desc_rels.n)
		qsort(l->desc_rels.r, l->desc_rels.n, sizeof(struct rel),
		      rel_cmp);
	sec_data(&l->secs[SEC_STRTAB], l->strtab.p, l->strtab.len);
	sec_data(&l->secs[SEC_SHSTRTAB], l->shstrtab.p, l->shstrtab.len);
	if (place_sections(l))
		return set_err(err, "%s: %s", out_name, strerror(EFBIG));
	return 0;
}

int wrap_write_object(const struct wrap_set *set, int fd,
		      const char *out_name, FILE *verbose,
		      struct errmsg *err)
{
	struct layout l = { .set = set, .mach = set->mach };
	size_t i;
	int r = -1;

	if (set->mach->ei_data != ELFDATA2LSB) {
		set_err(err, "%s: big-endian hosts are not supported",
			out_name);
		goto out;
	}
	if (build_layout(&l, err, out_name))
		goto out;
	if (reserve_space(fd, l.total, err, out_name))
		goto out;
	if (emit_elf(&l, fd, err, out_name))
		goto out;
	for (i = 0; i < set->nimages; i++) {
		if (copy_image(&set->images[i], fd,
			       l.secs[SEC_IMAGE0 + i].offset, err, out_name))
			goto out;
	}
	if (verbose)
		print_summary(&l, verbose, out_name);
	r = 0;
out:
	layout_fini(&l);
	return r;
}
