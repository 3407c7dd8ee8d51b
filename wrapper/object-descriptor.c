// SPDX-License-Identifier: MIT
/*
 * The data of the descriptor section and of the index blob: the DPC++
 * descriptor (device_binaries, its images, entries, property sets and
 * properties, at the offsets an LP64 target has them) and the index that
 * mirrors it for devimg's readers (wrapper/index.h), the .tgtimg pairs,
 * and one libomptarget descriptor per non-SYCL kind. Each pointer is a
 * relocation against a section symbol.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "devimg/descriptor.h"
#include "wrapper/index.h"
#include "wrapper/object-private.h"

/*
 * The descriptor as an LP64 target lays it out (include/devimg/descriptor.h);
 * spelled out so that the writer does not depend on the build host's ABI.
 */
#define BINS_SIZE 32u
#define BINS_VERSION 0u
#define BINS_COUNT 2u
#define BINS_IMAGES 8u
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
/* IMG_SIZE and IMG_V3_SIZE: object-private.h */

/*
 * libomptarget's __tgt_bin_desc {int32 count; images; entries begin, end}
 * and __tgt_device_image {image begin, end; entries begin, end}, LP64.
 */
#define TGT_DESC_IMAGES 8u
#define TGT_DESC_ENTRIES 16u
#define TGT_IMG_SIZE 32u
#define TGT_IMG_ENTRIES 16u
/* TGT_DESC_SIZE and TGT_ALIGN: object-private.h */

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

/* Little-endian stores into space a buffer has reserved. */

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

/* An absolute pointer at desc offset at: sym + addend. */
static int desc_ptr(struct layout *l, uint64_t at, uint32_t sym,
		    uint64_t addend)
{
	return obj_rels_add(&l->desc_rels, at, l->mach->r_abs64, sym,
			    (int64_t)addend);
}

/* A string into the index blob, pointed to from the descriptor at desc_at. */
static int add_string(struct layout *l, const char *s, uint64_t desc_at,
		      size_t *index_off)
{
	int r = obj_buf_str(&l->index, s, index_off);

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
		r = obj_buf_add(&l->index, p->data, p->size, 8, &off);
		break;
	case PROPS_STRING:
		size = (uint64_t)p->size + 1;
		r = obj_buf_add(&l->index, p->data, size, 1, &off);
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

	r = obj_buf_alloc(&l->desc, s->nprops * PROP_SIZE, 8, &dp);
	if (!r)
		r = obj_buf_alloc(&l->index,
				  s->nprops * sizeof(struct devimg_index_prop),
				  8, &xp);
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
	r = obj_buf_alloc(&l->desc, p->nsets * PSET_SIZE, 8, &ds);
	if (!r)
		r = obj_buf_alloc(&l->index, p->nsets *
				  sizeof(struct devimg_index_propset), 4, &xs);
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
	r = obj_buf_alloc(&l->desc, n * ENTRY_SIZE, 8, &de);
	if (!r)
		r = obj_buf_alloc(&l->index, n * sizeof(uint32_t), 4, &xe);
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
	r = obj_buf_add(&l->index, img->manifest, img->manifest_size, 1, &off);
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
		r = obj_rels_add(&l->index_rels, x + XIMG(bin_rel),
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
	int r = obj_buf_alloc(&l->tgt, 16, 16, &off);

	if (!r)
		r = obj_rels_add(&l->tgt_rels, off, l->mach->r_abs64,
				 sym_image(i), 0);
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

	r = obj_buf_alloc(&l->desc, p->n * TGT_IMG_SIZE, TGT_ALIGN, &imgs);
	if (!r)
		r = obj_buf_alloc(&l->desc, TGT_DESC_SIZE, TGT_ALIGN, &d);
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

int obj_build_data(struct layout *l, struct errmsg *err,
		   const char *out_name)
{
	size_t n = l->ndesc, off, i, j;
	int r;

	r = obj_buf_alloc(&l->desc, BINS_SIZE + n * l->img_size, 8, &off);
	if (!r)
		r = obj_buf_alloc(&l->index,
				  sizeof(struct devimg_index_header) +
				  n * sizeof(struct devimg_index_image),
				  8, &off);
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
		r = obj_buf_alloc(&l->index, 0, DEVIMG_INDEX_ALIGN, &off);
	if (r)
		goto oom;
	if (l->index.len > UINT32_MAX)
		return obj_set_err(err, "%s: entries and properties too large for the index (%zu bytes, at most 4 GiB)",
				   out_name, l->index.len);
	put_index_header(l);
	return 0;
oom:
	return obj_set_err(err, "%s: %s", out_name, strerror(-r));
}
