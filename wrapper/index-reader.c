/* SPDX-License-Identifier: MIT */
/*
 * ELF and index reader of devimg-dump; see reader.h and index.h.
 *
 * Walk the section headers once to collect them, then each ".devimg"
 * section blob by blob. Nothing read from the file is used before it is
 * checked: integers are decoded byte by byte in the file's byte order, every
 * offset and count is checked against the blob, and image bytes against the
 * section (or segment) that holds them and against the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devimg/descriptor.h"
#include "util/devimg_limits.h"
#include "wrapper/index.h"
#include "wrapper/index-reader.h"
#include "util/errmsg.h"
#include "util/input.h"

/* Sizes of the index records as stored, whatever the host's padding. */
#define HEADER_SIZE 40u
#define IMAGE_SIZE 56u
#define PROPSET_SIZE 16u
#define PROP_SIZE 24u
#define MAGIC_LEN 8u
#define WHERE_LEN 256

struct devimg_elf {
	Elf *elf;
	void *map;
	size_t map_size;
};

/* Relocations that apply to one .devimg section of a relocatable object. */
struct relocs {
	GElf_Rela *rela;	/* sorted by r_offset */
	size_t n;
	size_t symtab;		/* section index of their symbol table */
	Elf_Data *syms;
	Elf_Data *shndx;	/* SHT_SYMTAB_SHNDX of symtab, or NULL */
	size_t nsyms;
};

/* One index blob being read. */
struct blob {
	size_t sec;		/* section index */
	const GElf_Shdr *shdr;
	uint64_t sec_off;	/* offset of the blob in its section */
	const unsigned char *p;
	uint64_t size;
	uint64_t header_size;
	char where[WHERE_LEN];
};

struct reader {
	const char *fname;
	struct errmsg *err;
	Elf *elf;
	const unsigned char *buf;
	size_t size;
	GElf_Ehdr ehdr;
	int msb;
	size_t shnum;
	size_t shstrndx;
	GElf_Shdr *shdrs;
	struct devimg_file *file;
	size_t cap;		/* of file->images */
};

/*
 * "<fname>: " and the message, all of it escaped; a file name that leaves
 * no room for the rest is left out.
 */
__attribute__((format(printf, 3, 4)))
static int fail(struct reader *r, int ret, const char *fmt, ...)
{
	struct errmsg msg = { 0 };
	va_list ap;

	va_start(ap, fmt);
	errmsg_vset(&msg, fmt, ap);
	va_end(ap);
	if (strlen(r->fname) + 2 < sizeof(msg.msg))
		errmsg_prefix(&msg, "%s", r->fname);
	return errmsg_esc(r->err, ret, "%s", msg.msg);
}

/* Location strings for errors; truncation only shortens a message. */
__attribute__((format(printf, 3, 4)))
static void where_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static int fail_elf(struct reader *r, const char *what)
{
	return fail(r, -EINVAL, "%s: %s", what, elf_errmsg(-1));
}

/* ---- integers in the file's byte order ---- */

static uint64_t rd(const struct reader *r, const unsigned char *p,
		   unsigned n)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		unsigned k = r->msb ? i : n - 1 - i;

		v = v << 8 | p[k];
	}
	return v;
}

static uint16_t rd16(const struct reader *r, const unsigned char *p)
{
	return (uint16_t)rd(r, p, 2);
}

static uint32_t rd32(const struct reader *r, const unsigned char *p)
{
	return (uint32_t)rd(r, p, 4);
}

static uint64_t rd64(const struct reader *r, const unsigned char *p)
{
	return rd(r, p, 8);
}

/* ---- the blob: ranges and strings ---- */

/* count elements of elsize bytes at off lie inside the blob. */
static int blob_range(struct reader *r, const struct blob *b,
		      const char *where, const char *field, uint64_t off,
		      uint64_t count, uint64_t elsize)
{
	if (off > b->size || (elsize && count > (b->size - off) / elsize))
		return fail(r, -EINVAL,
			    "%s: %s: 0x%" PRIx64 " + %" PRIu64 " * %" PRIu64
			    " bytes exceeds the blob's size 0x%" PRIx64,
			    where, field, off, count, elsize, b->size);
	return 0;
}

static int blob_string(struct reader *r, const struct blob *b,
		       const char *where, const char *field, uint32_t off,
		       const char **out)
{
	if (off < b->header_size || off >= b->size)
		return fail(r, -EINVAL,
			    "%s: %s: 0x%" PRIx32
			    " is outside the blob's data (0x%" PRIx64
			    "..0x%" PRIx64 ")",
			    where, field, off, b->header_size, b->size);
	if (!memchr(b->p + off, 0, b->size - off))
		return fail(r, -EINVAL,
			    "%s: %s: string at 0x%" PRIx32
			    " is not NUL-terminated inside the blob",
			    where, field, off);
	*out = (const char *)b->p + off;
	return 0;
}

/* ---- property values (shared by the ELF and .props paths) ---- */

static int decode_value(struct reader *r, const char *where,
			const char *set, struct devimg_prop *p)
{
	struct errmsg perr = { 0 };
	char pwhere[WHERE_LEN];
	int ret;

	if (p->type != DEVIMG_PROPERTY_BYTE_ARRAY)
		return 0;
	where_fmt(pwhere, sizeof(pwhere), "set '%s' property '%s'", set,
		  p->name);
	ret = props_bytes_payload(p->value, p->size, pwhere, &p->payload,
				  &p->nbits, &perr);
	if (ret < 0)
		return fail(r, ret, "%s%s%s", where ? where : "",
			    where ? ": " : "", perr.msg);
	if (strcmp(set, PROPS_SET_SPEC_CONSTS))
		return 0;
	p->spec = calloc(1, sizeof(*p->spec));
	if (!p->spec)
		return fail(r, -ENOMEM, "%s", strerror(ENOMEM));
	ret = props_spec_decode(p->name, p->value, p->size, p->spec, &perr);
	if (ret < 0) {
		free(p->spec);
		p->spec = NULL;
		return fail(r, ret, "%s%s%s", where ? where : "",
			    where ? ": " : "", perr.msg);
	}
	return 0;
}

static void propsets_free(struct devimg_propset *sets, size_t n)
{
	size_t i, j;

	for (i = 0; sets && i < n; i++) {
		for (j = 0; sets[i].props && j < sets[i].nprops; j++) {
			if (!sets[i].props[j].spec)
				continue;
			props_spec_const_fini(sets[i].props[j].spec);
			free(sets[i].props[j].spec);
		}
		free(sets[i].props);
	}
	free(sets);
}

void devimg_propsets_free(struct devimg_propset *sets, size_t n)
{
	propsets_free(sets, n);
}

/* ---- property sets of one image ---- */

static int read_prop(struct reader *r, const struct blob *b,
		     const char *iwhere, const char *where, const char *set,
		     const unsigned char *rec, struct devimg_prop *p)
{
	uint32_t value_off = rd32(r, rec + 8);
	const char *s;
	int ret;

	ret = blob_string(r, b, where, "name_off", rd32(r, rec), &p->name);
	if (ret < 0)
		return ret;
	p->type = rd32(r, rec + 4);
	p->size = rd64(r, rec + 16);
	switch (p->type) {
	case DEVIMG_PROPERTY_UINT32:
		if (p->size > UINT32_MAX)
			return fail(r, -EINVAL,
				    "%s: property '%s': size: UINT32 value %"
				    PRIu64 " does not fit 32 bits",
				    where, p->name, p->size);
		return 0;
	case DEVIMG_PROPERTY_BYTE_ARRAY:
		ret = blob_range(r, b, where, "value_off", value_off, p->size,
				 1);
		if (ret < 0)
			return ret;
		p->value = b->p + value_off;
		return decode_value(r, iwhere, set, p);
	case DEVIMG_PROPERTY_STRING:
		ret = blob_string(r, b, where, "value_off", value_off, &s);
		if (ret < 0)
			return ret;
		ret = blob_range(r, b, where, "size", value_off, p->size, 1);
		if (ret < 0)
			return ret;
		p->value = (const unsigned char *)s;
		return 0;
	default:
		return 0;
	}
}

static int read_propset(struct reader *r, const struct blob *b,
			const char *iwhere, size_t idx,
			const unsigned char *rec, struct devimg_propset *s)
{
	char pwhere[WHERE_LEN];
	uint32_t off = rd32(r, rec + 4), n = rd32(r, rec + 8);
	size_t i;
	int ret;

	where_fmt(pwhere, sizeof(pwhere), "%s: property set %zu", iwhere, idx);
	ret = blob_string(r, b, pwhere, "name_off", rd32(r, rec), &s->name);
	if (ret < 0)
		return ret;
	where_fmt(pwhere, sizeof(pwhere), "%s: set '%s'", iwhere, s->name);
	ret = blob_range(r, b, pwhere, "props_off", off, n, PROP_SIZE);
	if (ret < 0)
		return ret;
	if (n == 0)
		return 0;
	s->props = calloc(n, sizeof(*s->props));
	if (!s->props)
		return fail(r, -ENOMEM, "%s: %s", pwhere, strerror(ENOMEM));
	s->nprops = n;
	for (i = 0; i < n; i++) {
		ret = read_prop(r, b, iwhere, pwhere, s->name,
				b->p + off + i * PROP_SIZE, &s->props[i]);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int read_propsets(struct reader *r, const struct blob *b,
			 const char *where, const unsigned char *rec,
			 struct reader_image *img)
{
	uint32_t off = rd32(r, rec + 48), n = rd32(r, rec + 52);
	size_t i;
	int ret;

	ret = blob_range(r, b, where, "propsets_off", off, n, PROPSET_SIZE);
	if (ret < 0 || n == 0)
		return ret;
	img->propsets = calloc(n, sizeof(*img->propsets));
	if (!img->propsets)
		return fail(r, -ENOMEM, "%s: %s", where, strerror(ENOMEM));
	img->npropsets = n;
	for (i = 0; i < n; i++) {
		ret = read_propset(r, b, where, i,
				   b->p + off + i * PROPSET_SIZE,
				   &img->propsets[i]);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* ---- entries, strings, manifest ---- */

static int read_entries(struct reader *r, const struct blob *b,
			const char *where, const unsigned char *rec,
			struct reader_image *img)
{
	uint32_t off = rd32(r, rec + 40), n = rd32(r, rec + 44);
	char field[32];
	size_t i;
	int ret;

	ret = blob_range(r, b, where, "entries_off", off, n, 4);
	if (ret < 0 || n == 0)
		return ret;
	img->entries = calloc(n, sizeof(*img->entries));
	if (!img->entries)
		return fail(r, -ENOMEM, "%s: %s", where, strerror(ENOMEM));
	img->nentries = n;
	for (i = 0; i < n; i++) {
		where_fmt(field, sizeof(field), "entry %zu", i);
		ret = blob_string(r, b, where, field,
				  rd32(r, b->p + off + 4 * i),
				  &img->entries[i]);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int read_strings(struct reader *r, const struct blob *b,
			const char *where, const unsigned char *rec,
			struct reader_image *img)
{
	uint32_t moff = rd32(r, rec + 32), msize = rd32(r, rec + 36);
	int ret;

	ret = blob_string(r, b, where, "target_off", rd32(r, rec + 20),
			  &img->target);
	if (!ret)
		ret = blob_string(r, b, where, "compile_opts_off",
				  rd32(r, rec + 24), &img->compile_opts);
	if (!ret)
		ret = blob_string(r, b, where, "link_opts_off",
				  rd32(r, rec + 28), &img->link_opts);
	if (ret < 0)
		return ret;
	if (moff == 0 && msize == 0)
		return 0;
	if (moff < b->header_size)
		return fail(r, -EINVAL,
			    "%s: manifest_off: 0x%" PRIx32
			    " points into the header", where, moff);
	ret = blob_range(r, b, where, "manifest_off", moff, msize, 1);
	if (ret < 0)
		return ret;
	img->manifest = (const char *)b->p + moff;
	img->manifest_size = msize;
	return 0;
}

/* ---- image bytes ---- */

static int in_file(const struct reader *r, uint64_t off, uint64_t size)
{
	return off <= r->size && size <= r->size - off;
}

static int rela_cmp(const void *a, const void *b)
{
	const GElf_Rela *x = a, *y = b;

	return x->r_offset < y->r_offset ? -1 : x->r_offset > y->r_offset;
}

static const GElf_Rela *find_rela(const struct relocs *rel, uint64_t off,
				  int *dup)
{
	GElf_Rela key = { .r_offset = off };
	const GElf_Rela *hit;

	*dup = 0;
	if (!rel->n)
		return NULL;
	hit = bsearch(&key, rel->rela, rel->n, sizeof(key), rela_cmp);
	if (!hit)
		return NULL;
	if ((hit > rel->rela && hit[-1].r_offset == off) ||
	    (hit + 1 < rel->rela + rel->n && hit[1].r_offset == off))
		*dup = 1;
	return hit;
}

static const char *pc64_name(const struct reader *r, uint32_t *type)
{
	switch (r->ehdr.e_machine) {
	case EM_X86_64:
		*type = R_X86_64_PC64;
		return "R_X86_64_PC64";
	case EM_AARCH64:
		*type = R_AARCH64_PREL64;
		return "R_AARCH64_PREL64";
	default:
		return NULL;
	}
}

/* A symbol's name, or its section's for section symbols. */
static const char *sym_name(const struct reader *r, const struct relocs *rel,
			    const GElf_Sym *sym, size_t shidx)
{
	const char *s = NULL;

	if (sym->st_name)
		s = elf_strptr(r->elf, r->shdrs[rel->symtab].sh_link,
			       sym->st_name);
	if ((!s || !*s) && shidx && shidx < r->shnum)
		s = elf_strptr(r->elf, r->shstrndx, r->shdrs[shidx].sh_name);
	return s ? s : "";
}

/* The section a symbol is defined in; 0 when none. */
static size_t sym_section(const struct relocs *rel, size_t idx,
			  GElf_Sym *sym)
{
	Elf32_Word xndx = 0;

	if (!gelf_getsymshndx(rel->syms, rel->shndx, (int)idx, sym, &xndx))
		return 0;
	if (sym->st_shndx == SHN_XINDEX)
		return rel->shndx ? xndx : 0;
	if (sym->st_shndx >= SHN_LORESERVE)
		return 0;
	return sym->st_shndx;
}

/* Relocatable: image = symbol + addend of the PC-relative relocation. */
static int image_from_rela(struct reader *r, const char *where,
			   const struct relocs *rel, uint64_t field,
			   struct reader_image *img)
{
	const GElf_Shdr *sh;
	const GElf_Rela *ra;
	const char *tname;
	uint32_t want = 0;
	uint64_t pos;
	GElf_Sym sym;
	size_t sidx, shidx;
	int dup;

	tname = pc64_name(r, &want);
	if (!tname)
		return fail(r, -EINVAL,
			    "e_machine %u: relocatable objects of this machine are not supported",
			    (unsigned)r->ehdr.e_machine);
	ra = find_rela(rel, field, &dup);
	if (!ra)
		return fail(r, -EINVAL,
			    "%s: bin_rel: no relocation at section offset 0x%"
			    PRIx64, where, field);
	if (dup)
		return fail(r, -EINVAL,
			    "%s: bin_rel: several relocations at section offset 0x%"
			    PRIx64, where, field);
	if (GELF_R_TYPE(ra->r_info) != want)
		return fail(r, -EINVAL,
			    "%s: bin_rel: relocation type %" PRIu64
			    " is not supported (expected %s)", where,
			    (uint64_t)GELF_R_TYPE(ra->r_info), tname);
	sidx = GELF_R_SYM(ra->r_info);
	if (sidx == 0 || sidx >= rel->nsyms)
		return fail(r, -EINVAL,
			    "%s: bin_rel: symbol index %zu out of range (1..%zu)",
			    where, sidx, rel->nsyms ? rel->nsyms - 1 : 0);
	shidx = sym_section(rel, sidx, &sym);
	if (shidx == 0 || shidx >= r->shnum)
		return fail(r, -EINVAL,
			    "%s: bin_rel: symbol %zu '%s' is not defined in a section",
			    where, sidx, sym_name(r, rel, &sym, shidx));
	sh = &r->shdrs[shidx];
	if (sh->sh_type == SHT_NOBITS)
		return fail(r, -EINVAL,
			    "%s: bin_rel: symbol '%s' is in section [%zu] without file data",
			    where, sym_name(r, rel, &sym, shidx), shidx);
	pos = sym.st_value + (uint64_t)ra->r_addend;
	if ((ra->r_addend < 0 && (uint64_t)-(ra->r_addend + 1) >= sym.st_value) ||
	    (ra->r_addend > 0 && pos < sym.st_value) || pos > sh->sh_size ||
	    img->bin_size > sh->sh_size - pos ||
	    !in_file(r, sh->sh_offset, sh->sh_size))
		return fail(r, -EINVAL,
			    "%s: bin_rel: symbol '%s' + %" PRId64 " (%" PRIu64
			    " bytes) is outside section [%zu] (0x%" PRIx64
			    " bytes) or the file", where,
			    sym_name(r, rel, &sym, shidx), (int64_t)ra->r_addend,
			    img->bin_size, shidx, (uint64_t)sh->sh_size);
	img->bin_offset = sh->sh_offset + pos;
	return 0;
}

/* Linked: the file offset of [addr, addr + size) from sections or segments. */
static int addr_to_offset(struct reader *r, uint64_t addr, uint64_t size,
			  uint64_t *off)
{
	size_t i, nph = 0;
	GElf_Phdr ph;

	for (i = 1; i < r->shnum; i++) {
		const GElf_Shdr *sh = &r->shdrs[i];

		if (!(sh->sh_flags & SHF_ALLOC) || sh->sh_type == SHT_NOBITS ||
		    addr < sh->sh_addr || addr - sh->sh_addr > sh->sh_size ||
		    size > sh->sh_size - (addr - sh->sh_addr))
			continue;
		*off = sh->sh_offset + (addr - sh->sh_addr);
		if (*off >= sh->sh_offset)
			return 0;
	}
	if (elf_getphdrnum(r->elf, &nph) < 0)
		return -1;
	for (i = 0; i < nph; i++) {
		if (!gelf_getphdr(r->elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    addr < ph.p_vaddr || addr - ph.p_vaddr > ph.p_filesz ||
		    size > ph.p_filesz - (addr - ph.p_vaddr))
			continue;
		*off = ph.p_offset + (addr - ph.p_vaddr);
		if (*off >= ph.p_offset)
			return 0;
	}
	return -1;
}

static int image_from_addr(struct reader *r, const struct blob *b,
			   const char *where, uint64_t field, int64_t rel,
			   struct reader_image *img)
{
	uint64_t addr = b->shdr->sh_addr + field + (uint64_t)rel;

	if (addr_to_offset(r, addr, img->bin_size, &img->bin_offset) < 0)
		return fail(r, -EINVAL,
			    "%s: bin_rel: %" PRId64 " leads to address 0x%" PRIx64
			    " (%" PRIu64
			    " bytes), which no section or segment of the file holds",
			    where, rel, addr, img->bin_size);
	return 0;
}

static int read_bin(struct reader *r, const struct blob *b,
		    const char *where, const struct relocs *rel,
		    const unsigned char *rec, struct reader_image *img)
{
	uint64_t field = b->sec_off + (uint64_t)(rec - b->p);
	int ret;

	img->bin_size = rd64(r, rec + 8);
	if (img->bin_size > r->size)
		return fail(r, -EINVAL,
			    "%s: bin_size: %" PRIu64
			    " is larger than the file (%zu bytes)",
			    where, img->bin_size, r->size);
	if (r->ehdr.e_type == ET_REL)
		ret = image_from_rela(r, where, rel, field, img);
	else
		ret = image_from_addr(r, b, where, field,
				      (int64_t)rd64(r, rec), img);
	if (ret < 0)
		return ret;
	if (!in_file(r, img->bin_offset, img->bin_size))
		return fail(r, -EINVAL,
			    "%s: bin_rel: bytes at file offset 0x%" PRIx64
			    " (%" PRIu64 " bytes) are beyond the end of the file",
			    where, img->bin_offset, img->bin_size);
	img->bin = r->buf + img->bin_offset;
	return 0;
}

/* ---- images and blobs ---- */

static struct reader_image *new_image(struct reader *r)
{
	struct devimg_file *f = r->file;
	struct reader_image *imgs;
	size_t cap;

	if (f->nimages == r->cap) {
		cap = r->cap ? 2 * r->cap : 8;
		imgs = realloc(f->images, cap * sizeof(*imgs));
		if (!imgs)
			return NULL;
		f->images = imgs;
		r->cap = cap;
	}
	imgs = &f->images[f->nimages];
	memset(imgs, 0, sizeof(*imgs));
	imgs->index = (unsigned)f->nimages++;
	return imgs;
}

static int read_image(struct reader *r, const struct blob *b,
		      const struct relocs *rel, unsigned i,
		      const unsigned char *rec)
{
	char where[WHERE_LEN];
	struct reader_image *img = new_image(r);
	int ret;

	if (!img)
		return fail(r, -ENOMEM, "%s: %s", b->where, strerror(ENOMEM));
	where_fmt(where, sizeof(where), "%s: image %u (file index %u)",
		  b->where, i, img->index);
	img->version = rd16(r, rec + 16);
	img->kind = rec[18];
	img->format = rec[19];
	ret = read_strings(r, b, where, rec, img);
	if (!ret)
		ret = read_entries(r, b, where, rec, img);
	if (!ret)
		ret = read_propsets(r, b, where, rec, img);
	if (!ret)
		ret = read_bin(r, b, where, rel, rec, img);
	return ret;
}

static int read_header(struct reader *r, struct blob *b, uint64_t avail)
{
	uint32_t version, hsize;

	if (avail < HEADER_SIZE)
		return fail(r, -EINVAL,
			    "%s: header: only %" PRIu64 " of %u bytes left in the section",
			    b->where, avail, HEADER_SIZE);
	version = rd32(r, b->p + 8);
	hsize = rd32(r, b->p + 12);
	b->size = rd64(r, b->p + 16);
	if (version != DEVIMG_INDEX_VERSION)
		return fail(r, -EINVAL, "%s: version: %" PRIu32
			    ", this reader knows %d", b->where, version,
			    DEVIMG_INDEX_VERSION);
	if (b->size % DEVIMG_INDEX_ALIGN || b->size < HEADER_SIZE ||
	    b->size > avail)
		return fail(r, -EINVAL,
			    "%s: size: 0x%" PRIx64
			    ", expected a multiple of %d between 0x%x and the 0x%"
			    PRIx64 " bytes left in the section",
			    b->where, b->size, DEVIMG_INDEX_ALIGN, HEADER_SIZE,
			    avail);
	if (hsize < HEADER_SIZE || hsize > b->size)
		return fail(r, -EINVAL,
			    "%s: header_size: %" PRIu32
			    ", expected %u to the blob's size 0x%" PRIx64,
			    b->where, hsize, HEADER_SIZE, b->size);
	b->header_size = hsize;
	return 0;
}

static int read_blob(struct reader *r, struct blob *b,
		     const struct relocs *rel, uint64_t avail)
{
	uint32_t nimages, off, isize;
	unsigned i;
	int ret;

	ret = read_header(r, b, avail);
	if (ret < 0)
		return ret;
	nimages = rd16(r, b->p + 26);
	off = rd32(r, b->p + 28);
	isize = rd32(r, b->p + 32);
	if (isize < IMAGE_SIZE)
		return fail(r, -EINVAL,
			    "%s: image_size: %" PRIu32 ", expected at least %u",
			    b->where, isize, IMAGE_SIZE);
	ret = blob_range(r, b, b->where, "images_off", off, nimages, isize);
	if (ret < 0)
		return ret;
	for (i = 0; i < nimages; i++) {
		ret = read_image(r, b, rel, i,
				 b->p + off + (uint64_t)i * isize);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int all_zero(const unsigned char *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

static int walk_section(struct reader *r, size_t sec, const unsigned char *p,
			uint64_t size, const struct relocs *rel)
{
	struct blob b;
	uint64_t off = 0, n;
	int ret;

	while (off < size) {
		n = size - off < MAGIC_LEN ? size - off : MAGIC_LEN;
		/* Alignment padding between blobs. */
		if (all_zero(p + off, n)) {
			off += n;
			continue;
		}
		memset(&b, 0, sizeof(b));
		b.sec = sec;
		b.shdr = &r->shdrs[sec];
		b.sec_off = off;
		b.p = p + off;
		where_fmt(b.where, sizeof(b.where),
			  "section [%zu] '%s' blob at 0x%" PRIx64, sec,
			  DEVIMG_SECTION_INDEX, off);
		if (n < MAGIC_LEN || memcmp(b.p, DEVIMG_INDEX_MAGIC, MAGIC_LEN))
			return fail(r, -EINVAL, "%s: magic: expected \"%s\"",
				    b.where, DEVIMG_INDEX_MAGIC);
		ret = read_blob(r, &b, rel, size - off);
		if (ret < 0)
			return ret;
		off += b.size;
	}
	return 0;
}

/* ---- relocations of a .devimg section (relocatable objects) ---- */

static int check_symtab(struct reader *r, size_t rsec, size_t idx,
			struct relocs *rel)
{
	const GElf_Shdr *sh;
	size_t i;

	if (idx == 0 || idx >= r->shnum ||
	    r->shdrs[idx].sh_type != SHT_SYMTAB)
		return fail(r, -EINVAL,
			    "section [%zu]: sh_link: %zu is not a symbol table",
			    rsec, idx);
	sh = &r->shdrs[idx];
	if (sh->sh_entsize != gelf_fsize(r->elf, ELF_T_SYM, 1, EV_CURRENT) ||
	    sh->sh_size % sh->sh_entsize)
		return fail(r, -EINVAL,
			    "section [%zu]: sh_entsize: %" PRIu64
			    " does not divide sh_size %" PRIu64,
			    idx, (uint64_t)sh->sh_entsize,
			    (uint64_t)sh->sh_size);
	rel->syms = elf_getdata(elf_getscn(r->elf, idx), NULL);
	if (!rel->syms || rel->syms->d_size != sh->sh_size)
		return fail_elf(r, "symbol table data");
	rel->nsyms = sh->sh_size / sh->sh_entsize;
	rel->symtab = idx;
	for (i = 1; i < r->shnum; i++) {
		if (r->shdrs[i].sh_type != SHT_SYMTAB_SHNDX ||
		    r->shdrs[i].sh_link != idx)
			continue;
		rel->shndx = elf_getdata(elf_getscn(r->elf, i), NULL);
		if (!rel->shndx)
			return fail_elf(r, "SHT_SYMTAB_SHNDX data");
	}
	return 0;
}

static int add_relas(struct reader *r, size_t idx, struct relocs *rel)
{
	const GElf_Shdr *sh = &r->shdrs[idx];
	size_t i, n, esz = gelf_fsize(r->elf, ELF_T_RELA, 1, EV_CURRENT);
	GElf_Rela *grown;
	Elf_Data *d;
	int ret;

	if (sh->sh_entsize != esz || sh->sh_size % esz)
		return fail(r, -EINVAL,
			    "section [%zu]: sh_entsize: %" PRIu64
			    ", expected %zu dividing sh_size", idx,
			    (uint64_t)sh->sh_entsize, esz);
	if (rel->symtab && rel->symtab != sh->sh_link)
		return fail(r, -EINVAL,
			    "section [%zu]: sh_link: %" PRIu32
			    ", another relocation section uses %zu", idx,
			    sh->sh_link, rel->symtab);
	ret = check_symtab(r, idx, sh->sh_link, rel);
	if (ret < 0)
		return ret;
	d = elf_getdata(elf_getscn(r->elf, idx), NULL);
	if (!d || d->d_size != sh->sh_size)
		return fail_elf(r, "relocation data");
	n = sh->sh_size / esz;
	grown = realloc(rel->rela, (rel->n + n + 1) * sizeof(*grown));
	if (!grown)
		return fail(r, -ENOMEM, "section [%zu]: %s", idx,
			    strerror(ENOMEM));
	rel->rela = grown;
	for (i = 0; i < n; i++)
		if (!gelf_getrela(d, (int)i, &rel->rela[rel->n++]))
			return fail_elf(r, "relocation entry");
	return 0;
}

static int collect_relocs(struct reader *r, size_t sec, struct relocs *rel)
{
	size_t i;
	int ret;

	if (r->ehdr.e_type != ET_REL)
		return 0;
	for (i = 1; i < r->shnum; i++) {
		if (r->shdrs[i].sh_info != sec)
			continue;
		if (r->shdrs[i].sh_type == SHT_REL)
			return fail(r, -EINVAL,
				    "section [%zu]: SHT_REL relocations of '%s' are not supported",
				    i, DEVIMG_SECTION_INDEX);
		if (r->shdrs[i].sh_type != SHT_RELA)
			continue;
		ret = add_relas(r, i, rel);
		if (ret < 0)
			return ret;
	}
	if (rel->n)
		qsort(rel->rela, rel->n, sizeof(*rel->rela), rela_cmp);
	return 0;
}

/* ---- sections ---- */

static int read_index_section(struct reader *r, size_t sec)
{
	const GElf_Shdr *sh = &r->shdrs[sec];
	struct relocs rel = { 0 };
	Elf_Data *d;
	int ret;

	if (sh->sh_type != SHT_PROGBITS)
		return fail(r, -EINVAL,
			    "section [%zu] '%s': sh_type: %" PRIu32
			    ", expected SHT_PROGBITS (a file without data, such as a separate debug file?)",
			    sec, DEVIMG_SECTION_INDEX, sh->sh_type);
	if (sh->sh_flags & SHF_COMPRESSED)
		return fail(r, -EINVAL,
			    "section [%zu] '%s': sh_flags: compressed sections are not supported",
			    sec, DEVIMG_SECTION_INDEX);
	if (!in_file(r, sh->sh_offset, sh->sh_size))
		return fail(r, -EINVAL,
			    "section [%zu] '%s': sh_offset 0x%" PRIx64
			    " + sh_size 0x%" PRIx64
			    " is beyond the end of the file (0x%zx bytes)",
			    sec, DEVIMG_SECTION_INDEX,
			    (uint64_t)sh->sh_offset, (uint64_t)sh->sh_size,
			    r->size);
	d = elf_getdata(elf_getscn(r->elf, sec), NULL);
	if (!d || d->d_size != sh->sh_size)
		return fail_elf(r, "section '.devimg': data");
	ret = collect_relocs(r, sec, &rel);
	if (!ret && sh->sh_size)
		ret = walk_section(r, sec, d->d_buf, sh->sh_size, &rel);
	free(rel.rela);
	return ret;
}

static int read_shdrs(struct reader *r)
{
	size_t i;

	r->shdrs = calloc(r->shnum, sizeof(*r->shdrs));
	if (!r->shdrs)
		return fail(r, -ENOMEM, "section headers: %s",
			    strerror(ENOMEM));
	for (i = 0; i < r->shnum; i++)
		if (!gelf_getshdr(elf_getscn(r->elf, i), &r->shdrs[i]))
			return fail(r, -EINVAL, "section [%zu]: header: %s", i,
				    elf_errmsg(-1));
	if (r->shstrndx == 0 || r->shstrndx >= r->shnum ||
	    r->shdrs[r->shstrndx].sh_type != SHT_STRTAB)
		return fail(r, -EINVAL,
			    "e_shstrndx: %zu is not a string table section",
			    r->shstrndx);
	return 0;
}

static int read_sections(struct reader *r)
{
	const char *name;
	size_t i, n;
	int ret;

	if (elf_getshdrnum(r->elf, &r->shnum) < 0)
		return fail_elf(r, "e_shnum");
	/* libelf reports no sections for a table cut off by truncation. */
	n = r->shnum;
	if (!n)
		n = r->ehdr.e_shnum ? r->ehdr.e_shnum : 1;
	if (r->ehdr.e_shoff &&
	    (r->ehdr.e_shentsize != sizeof(Elf64_Shdr) ||
	     !in_file(r, r->ehdr.e_shoff, (uint64_t)n * sizeof(Elf64_Shdr))))
		return fail(r, -EINVAL,
			    "e_shoff: section header table at 0x%" PRIx64
			    " (%zu entries of %u bytes) is not inside the file (0x%zx bytes; truncated?)",
			    (uint64_t)r->ehdr.e_shoff, n,
			    (unsigned)r->ehdr.e_shentsize, r->size);
	if (r->shnum == 0)
		return 0;	/* no section headers: nothing to find */
	if (elf_getshdrstrndx(r->elf, &r->shstrndx) < 0)
		return fail_elf(r, "e_shstrndx");
	ret = read_shdrs(r);
	if (ret < 0)
		return ret;
	for (i = 1; i < r->shnum; i++) {
		name = elf_strptr(r->elf, r->shstrndx, r->shdrs[i].sh_name);
		if (!name)
			return fail(r, -EINVAL, "section [%zu]: sh_name: %s",
				    i, elf_errmsg(-1));
		if (strcmp(name, DEVIMG_SECTION_INDEX))
			continue;
		ret = read_index_section(r, i);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int check_phdrs(struct reader *r)
{
	size_t n = r->ehdr.e_phnum;

	/* libelf fails a table outside the file without saying why. */
	if (n == PN_XNUM && elf_getphdrnum(r->elf, &n) < 0)
		return fail_elf(r, "e_phnum");
	if (n == 0)
		return 0;
	if (r->ehdr.e_phentsize != sizeof(Elf64_Phdr) ||
	    !in_file(r, r->ehdr.e_phoff, (uint64_t)n * sizeof(Elf64_Phdr)))
		return fail(r, -EINVAL,
			    "e_phoff: program header table at 0x%" PRIx64
			    " (%zu entries of %u bytes) is not inside the file (0x%zx bytes; truncated?)",
			    (uint64_t)r->ehdr.e_phoff, n,
			    (unsigned)r->ehdr.e_phentsize, r->size);
	return 0;
}

/* ELF magic that libelf refused: say which identification byte. */
static int check_ident(struct reader *r)
{
	const unsigned char *id = r->buf;

	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return fail(r, -EINVAL, "e_ident[EI_CLASS]: %u is not valid",
			    (unsigned)id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return fail(r, -EINVAL, "e_ident[EI_DATA]: %u is not valid",
			    (unsigned)id[EI_DATA]);
	if (id[EI_VERSION] != EV_CURRENT)
		return fail(r, -EINVAL, "e_ident[EI_VERSION]: %u, expected %d",
			    (unsigned)id[EI_VERSION], EV_CURRENT);
	return fail(r, -EINVAL, "ELF header: %s", elf_errmsg(-1));
}

static int check_ehdr(struct reader *r)
{
	const char *kind = "data";

	switch (elf_kind(r->elf)) {
	case ELF_K_ELF:
		break;
	case ELF_K_AR:
		kind = "an ar archive (run on its members)";
		/* fall through */
	default:
		if (r->size >= EI_NIDENT && !memcmp(r->buf, ELFMAG, SELFMAG))
			return check_ident(r);
		return fail(r, -EINVAL, "not an ELF file: %s", kind);
	}
	if (gelf_getclass(r->elf) != ELFCLASS64)
		return fail(r, -EINVAL,
			    "e_ident[EI_CLASS]: %d, only ELFCLASS64 is supported",
			    gelf_getclass(r->elf));
	if (!gelf_getehdr(r->elf, &r->ehdr))
		return fail_elf(r, "ELF header");
	if (r->ehdr.e_ident[EI_DATA] != ELFDATA2LSB &&
	    r->ehdr.e_ident[EI_DATA] != ELFDATA2MSB)
		return fail(r, -EINVAL, "e_ident[EI_DATA]: %u is not valid",
			    (unsigned)r->ehdr.e_ident[EI_DATA]);
	r->msb = r->ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
	if (r->ehdr.e_type != ET_REL && r->ehdr.e_type != ET_EXEC &&
	    r->ehdr.e_type != ET_DYN)
		return fail(r, -EINVAL,
			    "e_type: %u, expected ET_REL, ET_EXEC or ET_DYN",
			    (unsigned)r->ehdr.e_type);
	return check_phdrs(r);
}

static void images_free(struct devimg_file *f)
{
	size_t i;

	for (i = 0; f->images && i < f->nimages; i++) {
		free(f->images[i].entries);
		propsets_free(f->images[i].propsets, f->images[i].npropsets);
	}
	free(f->images);
}

void devimg_reader_close(struct devimg_file *f)
{
	if (!f)
		return;
	images_free(f);
	if (f->elf) {
		elf_end(f->elf->elf);
		if (f->elf->map)
			munmap(f->elf->map, f->elf->map_size);
		free(f->elf);
	}
	free(f);
}

static int reader_init(struct reader *r, const void *buf, size_t size,
		       const char *fname, struct errmsg *err)
{
	memset(r, 0, sizeof(*r));
	r->fname = fname;
	r->err = err;
	if (err)
		err->msg[0] = '\0';
	r->buf = buf;
	r->size = size;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return fail_elf(r, "libelf");
	r->file = calloc(1, sizeof(*r->file));
	if (r->file)
		r->file->elf = calloc(1, sizeof(*r->file->elf));
	if (!r->file || !r->file->elf)
		return fail(r, -ENOMEM, "%s", strerror(ENOMEM));
	r->file->fname = fname;
	return 0;
}

int devimg_reader_open_mem(const void *buf, size_t size, const char *fname,
			   struct devimg_file **out, struct errmsg *err)
{
	struct reader r;
	int ret;

	ret = reader_init(&r, buf, size, fname, err);
	if (ret < 0)
		goto err_free;
	/* libelf only reads the image; the cast is libelf's API. */
	r.elf = elf_memory((char *)buf, size);
	if (!r.elf) {
		ret = fail_elf(&r, "elf_memory");
		goto err_free;
	}
	r.file->elf->elf = r.elf;
	ret = check_ehdr(&r);
	if (!ret)
		ret = read_sections(&r);
	if (ret < 0)
		goto err_free;
	free(r.shdrs);
	*out = r.file;
	return 0;
err_free:
	free(r.shdrs);
	devimg_reader_close(r.file);
	return ret;
}

int devimg_reader_map(const char *path, void **map, size_t *size,
		      struct errmsg *err)
{
	struct errmsg perr = { 0 };
	uint64_t n;
	int fd, ret = 0;

	*map = NULL;
	*size = 0;
	fd = input_open(path, DEVIMG_LIMIT_OBJECT_FILE, &n, &perr);
	if (fd < 0)
		return errmsg_esc(err, fd, "%s", perr.msg);
	if (n > SIZE_MAX) {
		ret = errmsg_esc(err, -EFBIG, "%s: mmap: %s", path,
				 strerror(EFBIG));
	} else if (n > 0) {
		*map = mmap(NULL, (size_t)n, PROT_READ, MAP_PRIVATE, fd, 0);
		if (*map == MAP_FAILED) {
			*map = NULL;
			ret = -errno;
			errmsg_esc(err, ret, "%s: mmap: %s", path,
				   strerror(-ret));
		} else {
			*size = (size_t)n;
		}
	}
	close(fd);
	return ret;
}

int devimg_reader_open(const char *path, struct devimg_file **out,
		       struct errmsg *err)
{
	size_t size = 0;
	void *map = NULL;
	int ret;

	ret = devimg_reader_map(path, &map, &size, err);
	if (ret < 0)
		return ret;
	if (!size)
		return errmsg_esc(err, -EINVAL, "%s: empty file", path);
	ret = devimg_reader_open_mem(map, size, path, out, err);
	if (ret < 0) {
		munmap(map, size);
		return ret;
	}
	(*out)->elf->map = map;
	(*out)->elf->map_size = size;
	return 0;
}

/* ---- the same view of a parsed .props file ---- */

static int view_set(struct reader *r, const struct props_set *ps,
		    struct devimg_propset *s)
{
	size_t i;
	int ret;

	s->name = ps->name;
	if (ps->nprops == 0)
		return 0;
	s->props = calloc(ps->nprops, sizeof(*s->props));
	if (!s->props)
		return fail(r, -ENOMEM, "%s", strerror(ENOMEM));
	s->nprops = ps->nprops;
	for (i = 0; i < ps->nprops; i++) {
		const struct props_prop *pp = &ps->props[i];
		struct devimg_prop *p = &s->props[i];

		p->name = pp->name;
		p->type = pp->type;
		p->size = pp->type == PROPS_UINT32 ? pp->u32 : pp->size;
		p->value = pp->data;
		ret = decode_value(r, NULL, ps->name, p);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int devimg_propsets_from_props(const struct props *p, const char *fname,
			       struct devimg_propset **out, size_t *nout,
			       struct errmsg *err)
{
	struct devimg_propset *sets = NULL;
	struct reader r;
	size_t i;
	int ret = 0;

	memset(&r, 0, sizeof(r));
	r.fname = fname;
	r.err = err;
	if (p->nsets) {
		sets = calloc(p->nsets, sizeof(*sets));
		if (!sets)
			return fail(&r, -ENOMEM, "%s", strerror(ENOMEM));
	}
	for (i = 0; i < p->nsets; i++) {
		ret = view_set(&r, &p->sets[i], &sets[i]);
		if (ret < 0) {
			propsets_free(sets, p->nsets);
			return ret;
		}
	}
	*out = sets;
	*nout = p->nsets;
	return 0;
}
