// SPDX-License-Identifier: MIT
/*
 * devimg-dump: binary descriptors found by their structure
 * (dump-descriptor.h).
 *
 * The rule. A descriptor is found at an 8-byte aligned address D of an
 * allocated, non-executable SHT_PROGBITS section (SHF_ALLOC set,
 * SHF_EXECINSTR clear) when all of this holds:
 *
 *  1. its 32 bytes lie in the section; version (u16 at D) is 1; count
 *     (u16 at D+2) is 1 to DEVIMG_LIMIT_IMAGES; the 4 padding bytes at
 *     D+4 are 0; host_begin and host_end (D+16, D+24) are NULL;
 *  2. images (D+8) resolves to an 8-byte aligned address, and the count
 *     images, each 80 bytes when its version is 3 and 96 when it is 1 or
 *     2, lie one after the other inside the section it points into;
 *  3. every image checks out: version 1, 2 or 3; kind 4 (SYCL), or 8
 *     (LLVM's) in version 3; format 0 to 4 with kind 4, LLVM's image
 *     kind 0 to 6 with kind 8; its 4 padding bytes 0; target a string;
 *     compile and link options NULL or strings; the manifest (versions 1
 *     and 2) and the property sets NULL, NULL or ranges; bin_begin and
 *     bin_end a range; entries NULL, NULL or a range of whole entries: of
 *     LLVM's 56-byte layout when the first has reserved 0, version 1, kind
 *     8 and flags 0 (then every one must), else of 32 bytes; at most
 *     DEVIMG_LIMIT_ENTRIES, each name a string that is not empty;
 *  4. property sets: whole 24-byte sets, at most DEVIMG_LIMIT_PROPS, each
 *     with a name string and NULL, NULL or a range of whole 32-byte
 *     properties (at most DEVIMG_LIMIT_PROPS), each with a name string and
 *     type 1 (the value in size, at most 2^32 - 1), 2 (value pointing to
 *     size bytes, 8 <= size <= DEVIMG_LIMIT_BYTE_ARRAY) or 3 (value a
 *     string).
 *
 * A pointer field's value is, in an executable or shared library, the
 * addend of the R_X86_64_RELATIVE (R_AARCH64_RELATIVE) dynamic relocation
 * at its address, else the value in place (0 is NULL); in a relocatable
 * object, symbol + addend of the R_X86_64_64 (R_AARCH64_ABS64) relocation
 * at it in the .rela section of the section that holds the field, else
 * NULL when the field holds 0. Any other relocation at a field, or two,
 * and a value that no allocated section with file bytes holds, fail the
 * rule. A range is begin <= end in one such section (end may be its end);
 * a string is NUL-terminated inside its section.
 *
 * Cost: each 8-byte position is read once; each position that passes step
 * 1's byte checks, each image, entry, property set and property checked,
 * and each 64 bytes of a string, manifest, byte array or image spent, is
 * one check, and a file gets one check per 4 bytes of it plus 4096. The
 * budget is checked before the work it pays for; a file that needs more
 * (a structure repeated, shared or overlapping on purpose) is refused
 * with -E2BIG. Relocations are found by binary search.
 *
 * Walk the section headers once to collect usable sections and pointer
 * relocations, scan the candidate sections, then leave out images listed
 * already and decode the property sets of the rest.
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "devimg/descriptor.h"
#include "util/devimg_limits.h"
#include "wrapper/dump-descriptor.h"
#include "util/errmsg.h"
#include "props/props.h"
#include "wrapper/index-reader.h"

#define DESC_SIZE 32u
#define IMAGE_V2_SIZE 96u
#define IMAGE_V3_SIZE 80u
#define ENTRY_SIZE 32u
#define LLVM_ENTRY_SIZE 56u
#define PROPSET_SIZE 24u
#define PROP_SIZE 32u
#define RELA_SIZE 24u
#define SYM_SIZE 24u
#define PTR_ALIGN 8u
#define BYTES_PER_CHECK 64u
#define BUDGET_BASE 4096u

/* What a pointer field holds. */
enum ptr_kind {
	PTR_BAD,	/* nothing this rule accepts */
	PTR_NULL,
	PTR_SET,
};

/* A place in the file: a usable section and an offset in it. */
struct loc {
	size_t sec;
	uint64_t off;
};

/* A relocation at a place where a pointer field may be. */
struct dreloc {
	size_t sec;		/* relocatable: the section it applies to */
	uint64_t at;		/* relocatable: offset there; else the address */
	int ok;			/* of the one type the rule resolves */
	struct loc to;		/* relocatable: symbol + addend */
	uint64_t value;		/* linked: the RELATIVE relocation's addend */
};

/* An image found, before images listed already are left out. */
struct dimg {
	struct reader_image img;
	struct loc props_b, props_e;	/* its property set fields */
	size_t desc_sec;
	uint64_t desc_off;
};

/* A usable section at its address, for look-ups by address. */
struct sec_addr {
	uint64_t addr;
	size_t sec;
};

struct scan {
	const char *fname;
	const unsigned char *buf;
	size_t size;
	Elf *elf;
	int rel;		/* ET_REL */
	unsigned abs64, relative;
	size_t shnum, shstrndx;
	GElf_Shdr *shdrs;
	unsigned char *usable;	/* allocated, file bytes, inside the file */
	struct sec_addr *by_addr;	/* usable sections by address */
	size_t naddr;
	struct dreloc *relocs;
	size_t nrelocs;
	uint64_t budget;
	int charging;		/* 0 when rereading what was checked */
	struct loc cur;		/* the descriptor being checked */
	struct dimg *found;
	size_t nfound, capfound;
	struct errmsg *err;
};

struct dump_descriptors {
	struct devimg_file file;
	Elf *elf;		/* owns the section names of found_section */
	void *map;
	size_t map_size;
};

/*
 * "<fname>: " and the message, all of it escaped; a file name that leaves
 * no room for the rest is left out.
 */
__attribute__((format(printf, 3, 4)))
static int fail(struct scan *s, int ret, const char *fmt, ...)
{
	struct errmsg msg = { 0 };
	va_list ap;

	va_start(ap, fmt);
	errmsg_vset(&msg, fmt, ap);
	va_end(ap);
	if (strlen(s->fname) + 2 < sizeof(msg.msg))
		errmsg_prefix(&msg, "%s", s->fname);
	return errmsg_esc(s->err, ret, "%s", msg.msg);
}

static uint64_t rd(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static const char *sec_name(const struct scan *s, size_t sec)
{
	const char *name = elf_strptr(s->elf, s->shstrndx,
				      s->shdrs[sec].sh_name);

	return name ? name : "";
}

/* Pay for units of work before doing it; -E2BIG when over the budget. */
static int charge(struct scan *s, uint64_t units)
{
	if (!s->charging)
		return 0;
	if (units > s->budget)
		return fail(s, -E2BIG,
			    "descriptor search: section [%zu] '%s' offset 0x%"
			    PRIx64 ": more than %" PRIu64
			    " checks (one per 4 bytes of the file): the file's structure repeats or overlaps beyond what a program holds",
			    s->cur.sec, sec_name(s, s->cur.sec), s->cur.off,
			    (uint64_t)s->size / 4 + BUDGET_BASE);
	s->budget -= units;
	return 0;
}

/* The n bytes at l, inside its section; NULL when they are not. */
static const unsigned char *at(const struct scan *s, struct loc l, uint64_t n)
{
	const GElf_Shdr *sh = &s->shdrs[l.sec];

	if (l.off > sh->sh_size || n > sh->sh_size - l.off)
		return NULL;
	return s->buf + sh->sh_offset + l.off;
}

static struct loc loc_add(struct loc l, uint64_t n)
{
	return (struct loc){ l.sec, l.off + n };
}

/* ---- relocations ---- */

static int dreloc_cmp(const void *a, const void *b)
{
	const struct dreloc *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* The relocation at field f; *dup when there are several. */
static const struct dreloc *reloc_at(const struct scan *s, struct loc f,
				     int *dup)
{
	struct dreloc key = { 0 };
	const struct dreloc *hit;

	*dup = 0;
	if (s->rel) {
		key.sec = f.sec;
		key.at = f.off;
	} else {
		key.at = s->shdrs[f.sec].sh_addr + f.off;
	}
	if (!s->nrelocs)
		return NULL;
	hit = bsearch(&key, s->relocs, s->nrelocs, sizeof(key), dreloc_cmp);
	if (hit && ((hit > s->relocs && !dreloc_cmp(hit - 1, hit)) ||
		    (hit + 1 < s->relocs + s->nrelocs &&
		     !dreloc_cmp(hit + 1, hit))))
		*dup = 1;
	return hit;
}

/* The section a symbol is defined in, 0 when none usable. */
static size_t sym_section(const struct scan *s, const unsigned char *sym,
			  const unsigned char *xndx)
{
	size_t shndx = (size_t)rd(sym + 6, 2);

	if (shndx == SHN_XINDEX)
		shndx = xndx ? (size_t)rd(xndx, 4) : 0;
	else if (shndx >= SHN_LORESERVE)
		return 0;
	return shndx < s->shnum && s->usable[shndx] ? shndx : 0;
}

/* The SHT_SYMTAB_SHNDX table of symtab, or NULL. */
static const unsigned char *symtab_shndx(const struct scan *s, size_t symtab,
					 uint64_t nsyms)
{
	size_t i;

	for (i = 1; i < s->shnum; i++) {
		const GElf_Shdr *sh = &s->shdrs[i];

		if (sh->sh_type == SHT_SYMTAB_SHNDX && sh->sh_link == symtab &&
		    sh->sh_offset <= s->size &&
		    sh->sh_size <= s->size - sh->sh_offset &&
		    sh->sh_size / 4 >= nsyms)
			return s->buf + sh->sh_offset;
	}
	return NULL;
}

/* Relocatable: symbol + addend of an absolute 64-bit relocation. */
static void rel_target(const struct scan *s, const GElf_Shdr *rsh,
		       const unsigned char *ra, struct dreloc *d)
{
	const GElf_Shdr *st;
	const unsigned char *sym, *xndx;
	uint64_t info = rd(ra + 8, 8), idx = info >> 32, nsyms, value;
	int64_t addend = (int64_t)rd(ra + 16, 8);
	size_t sec;

	d->ok = 0;
	if ((info & 0xffffffffu) != s->abs64 || rsh->sh_link >= s->shnum)
		return;
	st = &s->shdrs[rsh->sh_link];
	if (st->sh_type != SHT_SYMTAB || st->sh_entsize != SYM_SIZE ||
	    st->sh_offset > s->size || st->sh_size > s->size - st->sh_offset)
		return;
	nsyms = st->sh_size / SYM_SIZE;
	if (idx == 0 || idx >= nsyms)
		return;
	sym = s->buf + st->sh_offset + idx * SYM_SIZE;
	xndx = symtab_shndx(s, rsh->sh_link, nsyms);
	sec = sym_section(s, sym, xndx ? xndx + 4 * idx : NULL);
	if (!sec)
		return;
	value = rd(sym + 8, 8);
	if (addend < 0) {
		/* -addend without overflow, INT64_MIN included */
		uint64_t neg = (uint64_t)-(addend + 1) + 1;

		if (neg > value)
			return;
		d->to.off = value - neg;
	} else if (__builtin_add_overflow(value, (uint64_t)addend,
					  &d->to.off)) {
		return;
	}
	if (d->to.off > s->shdrs[sec].sh_size)
		return;
	d->to.sec = sec;
	d->ok = 1;
}

static int add_relocs(struct scan *s, size_t idx)
{
	const GElf_Shdr *sh = &s->shdrs[idx];
	const unsigned char *p;
	struct dreloc *grown, *d;
	uint64_t i, n;

	if (sh->sh_entsize != RELA_SIZE || sh->sh_offset > s->size ||
	    sh->sh_size > s->size - sh->sh_offset)
		return 0;	/* then nothing it covers resolves */
	if (s->rel && (sh->sh_info == 0 || sh->sh_info >= s->shnum ||
		       !s->usable[sh->sh_info]))
		return 0;
	n = sh->sh_size / RELA_SIZE;
	if (n == 0)
		return 0;
	if (n > (SIZE_MAX / sizeof(*d)) - s->nrelocs)
		return fail(s, -ENOMEM, "section [%zu]: %s", idx,
			    strerror(ENOMEM));
	grown = realloc(s->relocs, (s->nrelocs + n) * sizeof(*d));
	if (!grown)
		return fail(s, -ENOMEM, "section [%zu]: %s", idx,
			    strerror(ENOMEM));
	s->relocs = grown;
	p = s->buf + sh->sh_offset;
	for (i = 0; i < n; i++, p += RELA_SIZE) {
		d = &s->relocs[s->nrelocs++];
		memset(d, 0, sizeof(*d));
		d->at = rd(p, 8);
		if (s->rel) {
			d->sec = sh->sh_info;
			rel_target(s, sh, p, d);
		} else {
			d->ok = (rd(p + 8, 8) & 0xffffffffu) == s->relative;
			d->value = rd(p + 16, 8);
		}
	}
	return 0;
}

static int collect_relocs(struct scan *s)
{
	size_t i;
	int ret;

	for (i = 1; i < s->shnum; i++) {
		const GElf_Shdr *sh = &s->shdrs[i];

		/* Linked files: the dynamic relocations, which are loaded. */
		if (sh->sh_type != SHT_RELA ||
		    (!s->rel && !(sh->sh_flags & SHF_ALLOC)))
			continue;
		ret = add_relocs(s, i);
		if (ret < 0)
			return ret;
	}
	if (s->nrelocs)
		qsort(s->relocs, s->nrelocs, sizeof(*s->relocs), dreloc_cmp);
	return 0;
}

/* ---- sections ---- */

static int sec_addr_cmp(const void *a, const void *b)
{
	const struct sec_addr *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->sec < y->sec ? -1 : x->sec > y->sec;
}

static int collect_sections(struct scan *s)
{
	size_t i;

	s->shdrs = calloc(s->shnum, sizeof(*s->shdrs));
	s->usable = calloc(s->shnum, 1);
	s->by_addr = calloc(s->shnum, sizeof(*s->by_addr));
	if (!s->shdrs || !s->usable || !s->by_addr)
		return fail(s, -ENOMEM, "section headers: %s", strerror(ENOMEM));
	for (i = 0; i < s->shnum; i++) {
		GElf_Shdr *sh = &s->shdrs[i];

		if (!gelf_getshdr(elf_getscn(s->elf, i), sh))
			return fail(s, -EINVAL, "section [%zu]: header: %s", i,
				    elf_errmsg(-1));
		if (i == 0 || !(sh->sh_flags & SHF_ALLOC) ||
		    sh->sh_type == SHT_NOBITS || sh->sh_size == 0 ||
		    sh->sh_offset > s->size ||
		    sh->sh_size > s->size - sh->sh_offset ||
		    sh->sh_addr + sh->sh_size < sh->sh_addr)
			continue;
		s->usable[i] = 1;
		s->by_addr[s->naddr++] = (struct sec_addr){ sh->sh_addr, i };
	}
	qsort(s->by_addr, s->naddr, sizeof(*s->by_addr), sec_addr_cmp);
	return 0;
}

/*
 * Linked: the place of address v, in section hint when it holds v (an end
 * pointer may equal its end), else in the last section starting at or
 * before v. 0 when no usable section holds it.
 */
static int addr_loc(const struct scan *s, uint64_t v, size_t hint,
		    struct loc *out)
{
	const GElf_Shdr *sh;
	size_t lo = 0, hi = s->naddr, mid;

	if (hint && v >= s->shdrs[hint].sh_addr &&
	    v - s->shdrs[hint].sh_addr <= s->shdrs[hint].sh_size) {
		*out = (struct loc){ hint, v - s->shdrs[hint].sh_addr };
		return 1;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->by_addr[mid].addr <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	sh = &s->shdrs[s->by_addr[lo - 1].sec];
	if (v - sh->sh_addr > sh->sh_size)
		return 0;
	*out = (struct loc){ s->by_addr[lo - 1].sec, v - sh->sh_addr };
	return 1;
}

/* ---- fields ---- */

/* The pointer field at f (hint: the section its range starts in). */
static enum ptr_kind read_ptr(const struct scan *s, struct loc f, size_t hint,
			      struct loc *to)
{
	const unsigned char *p = at(s, f, 8);
	const struct dreloc *rl;
	uint64_t v;
	int dup;

	if (!p)
		return PTR_BAD;
	rl = reloc_at(s, f, &dup);
	if (dup || (rl && !rl->ok))
		return PTR_BAD;
	if (!rl) {
		v = rd(p, 8);
		if (!v)
			return PTR_NULL;
		/* A relocatable object has no addresses of its own. */
		if (s->rel)
			return PTR_BAD;
		return addr_loc(s, v, hint, to) ? PTR_SET : PTR_BAD;
	}
	if (s->rel) {
		if (hint && rl->to.sec != hint)
			return PTR_BAD;
		*to = rl->to;
		return PTR_SET;
	}
	return addr_loc(s, rl->value, hint, to) ? PTR_SET : PTR_BAD;
}

/* begin and end fields: both NULL, or begin <= end in one section. */
static enum ptr_kind read_range(const struct scan *s, struct loc fb,
				struct loc fe, struct loc *b, uint64_t *span)
{
	enum ptr_kind kb, ke;
	struct loc e;

	*span = 0;
	kb = read_ptr(s, fb, 0, b);
	if (kb == PTR_BAD)
		return PTR_BAD;
	ke = read_ptr(s, fe, kb == PTR_SET ? b->sec : 0, &e);
	if (kb != ke)
		return PTR_BAD;
	if (kb == PTR_NULL)
		return PTR_NULL;
	if (e.sec != b->sec || e.off < b->off)
		return PTR_BAD;
	*span = e.off - b->off;
	return PTR_SET;
}

/*
 * The NUL-terminated string the pointer field f points to: 1 and *out,
 * 0 when there is none (NULL: *out = NULL), or a negative errno.
 */
static int read_string(struct scan *s, struct loc f, const char **out)
{
	const unsigned char *p, *nul;
	uint64_t left, look;
	struct loc l;

	*out = NULL;
	switch (read_ptr(s, f, 0, &l)) {
	case PTR_BAD:
		return 0;
	case PTR_NULL:
		return 1;
	case PTR_SET:
		break;
	}
	p = at(s, l, 0);
	left = s->shdrs[l.sec].sh_size - l.off;
	/* What the budget pays for is looked at: the cap comes first. */
	look = left;
	if (s->charging && s->budget <= left / BYTES_PER_CHECK)
		look = s->budget * BYTES_PER_CHECK;
	nul = memchr(p, 0, (size_t)look);
	if (!nul)
		return look < left ? charge(s, s->budget + 1) : 0;
	if (charge(s, 1 + (uint64_t)(nul - p) / BYTES_PER_CHECK) < 0)
		return -E2BIG;
	*out = (const char *)p;
	return 1;
}

/* A string that must be there. */
static int read_string_set(struct scan *s, struct loc f, const char **out)
{
	int r = read_string(s, f, out);

	return r > 0 && !*out ? 0 : r;
}

static int is_llvm_entry(const unsigned char *e)
{
	return rd(e, 8) == 0 && rd(e + 8, 2) == DEVIMG_LLVM_ENTRY_VERSION &&
	       rd(e + 10, 2) == DEVIMG_LLVM_OFFLOAD_KIND_SYCL &&
	       rd(e + 12, 4) == 0;
}

/* ---- images ---- */

static int read_entries(struct scan *s, struct loc fb, struct loc fe,
			struct reader_image *img)
{
	const unsigned char *first;
	const char **names;
	uint64_t span, esz, n, i;
	struct loc b, e;
	int llvm, r;

	switch (read_range(s, fb, fe, &b, &span)) {
	case PTR_BAD:
		return 0;
	case PTR_NULL:
		return 1;
	case PTR_SET:
		break;
	}
	first = at(s, b, LLVM_ENTRY_SIZE);
	llvm = span >= LLVM_ENTRY_SIZE && first && is_llvm_entry(first);
	esz = llvm ? LLVM_ENTRY_SIZE : ENTRY_SIZE;
	n = span / esz;
	if (span % esz || n > DEVIMG_LIMIT_ENTRIES)
		return 0;
	if (charge(s, n) < 0)
		return -E2BIG;
	names = calloc(n ? n : 1, sizeof(*names));
	if (!names)
		return fail(s, -ENOMEM, "%s", strerror(ENOMEM));
	img->entries = names;
	for (i = 0; i < n; i++) {
		e = loc_add(b, i * esz);
		if (llvm && !is_llvm_entry(at(s, e, esz)))
			return 0;
		r = read_string_set(s, loc_add(e, llvm ? 24 : 8), &names[i]);
		if (r <= 0 || !*names[i])
			return r < 0 ? r : 0;
		img->nentries++;
	}
	return 1;
}

/*
 * The property sets at fb..fe: checked (1 or 0) and, when out is not
 * NULL, copied into it (names and values borrowed from the file).
 */
static int read_props(struct scan *s, struct loc fb, struct loc fe,
		      struct props_set *out)
{
	const unsigned char *p;
	uint64_t span, n, i, type, size;
	struct loc b, pl, v;
	const char *str;
	int r;

	r = read_range(s, fb, fe, &b, &span);
	if (r != PTR_SET)
		return r == PTR_NULL;
	n = span / PROP_SIZE;
	if (span % PROP_SIZE || n > DEVIMG_LIMIT_PROPS)
		return 0;
	if (charge(s, n) < 0)
		return -E2BIG;
	if (out && n) {
		out->props = calloc(n, sizeof(*out->props));
		if (!out->props)
			return fail(s, -ENOMEM, "%s", strerror(ENOMEM));
	}
	for (i = 0; i < n; i++) {
		struct props_prop *pp = out && n ? &out->props[i] : NULL;

		pl = loc_add(b, i * PROP_SIZE);
		p = at(s, pl, PROP_SIZE);
		type = rd(p + 16, 4);
		size = rd(p + 24, 8);
		r = read_string_set(s, pl, &str);
		if (r <= 0)
			return r;
		if (pp) {
			pp->name = (char *)str;
			pp->type = (enum props_type)type;
			pp->size = (size_t)size;
			out->nprops++;
		}
		switch (type) {
		case DEVIMG_PROPERTY_UINT32:
			if (size > UINT32_MAX)
				return 0;
			if (pp)
				pp->u32 = (uint32_t)size;
			break;
		case DEVIMG_PROPERTY_BYTE_ARRAY:
			if (size < 8 || size > DEVIMG_LIMIT_BYTE_ARRAY ||
			    read_ptr(s, loc_add(pl, 8), 0, &v) != PTR_SET ||
			    !at(s, v, size))
				return 0;
			if (charge(s, size / BYTES_PER_CHECK) < 0)
				return -E2BIG;
			if (pp)
				pp->data = (unsigned char *)at(s, v, size);
			break;
		case DEVIMG_PROPERTY_STRING:
			r = read_string_set(s, loc_add(pl, 8), &str);
			if (r <= 0)
				return r;
			if (pp)
				pp->data = (unsigned char *)str;
			break;
		default:
			return 0;
		}
	}
	return 1;
}

static int read_propsets(struct scan *s, struct loc fb, struct loc fe,
			 struct props *out)
{
	uint64_t span, n, i;
	struct loc b, sl;
	const char *name;
	int r;

	r = read_range(s, fb, fe, &b, &span);
	if (r != PTR_SET)
		return r == PTR_NULL;
	n = span / PROPSET_SIZE;
	if (span % PROPSET_SIZE || n > DEVIMG_LIMIT_PROPS)
		return 0;
	if (charge(s, n) < 0)
		return -E2BIG;
	if (out && n) {
		out->sets = calloc(n, sizeof(*out->sets));
		if (!out->sets)
			return fail(s, -ENOMEM, "%s", strerror(ENOMEM));
	}
	for (i = 0; i < n; i++) {
		struct props_set *ps = out && n ? &out->sets[i] : NULL;

		sl = loc_add(b, i * PROPSET_SIZE);
		r = read_string_set(s, sl, &name);
		if (r > 0 && ps) {
			ps->name = (char *)name;
			out->nsets++;
		}
		if (r > 0)
			r = read_props(s, loc_add(sl, 8), loc_add(sl, 16), ps);
		if (r <= 0)
			return r;
	}
	return 1;
}

/* The devimg format of an LLVM image kind (docs/formats.md, section 1). */
static int llvm_format(unsigned image_kind)
{
	static const signed char formats[] = {
		DEVIMG_FORMAT_NONE, DEVIMG_FORMAT_NATIVE, DEVIMG_FORMAT_LLVMBC,
		DEVIMG_FORMAT_NATIVE, DEVIMG_FORMAT_NATIVE, DEVIMG_FORMAT_NONE,
		DEVIMG_FORMAT_SPIRV,
	};

	return image_kind < sizeof(formats) ? formats[image_kind] : -1;
}

/* Field offsets of an image, by layout. */
struct image_layout {
	unsigned size, manifest, bin, entries, props;
};

static const struct image_layout layout_v2 = { IMAGE_V2_SIZE, 32, 48, 64, 80 };
static const struct image_layout layout_v3 = { IMAGE_V3_SIZE, 0, 32, 48, 64 };

static int read_header(const unsigned char *p, struct reader_image *img)
{
	int format;

	img->version = (uint16_t)rd(p, 2);
	img->kind = p[2];
	img->format = p[3];
	if (rd(p + 4, 4))
		return 0;
	if (img->kind == DEVIMG_KIND_SYCL)
		return img->format <= DEVIMG_FORMAT_COMPRESSED;
	if (img->kind != DEVIMG_LLVM_OFFLOAD_KIND_SYCL ||
	    img->version != DEVIMG_IMAGE_VERSION_NO_MANIFEST)
		return 0;
	format = llvm_format(img->format);
	if (format < 0)
		return 0;
	img->kind = DEVIMG_KIND_SYCL;
	img->format = (uint8_t)format;
	return 1;
}

static int read_image(struct scan *s, struct loc rec,
		      const struct image_layout *lay, struct dimg *d)
{
	struct reader_image *img = &d->img;
	const unsigned char *p = at(s, rec, lay->size);
	uint64_t span;
	struct loc b;
	int r;

	if (charge(s, 1) < 0)
		return -E2BIG;
	if (!read_header(p, img))
		return 0;
	r = read_string_set(s, loc_add(rec, 8), &img->target);
	if (r > 0)
		r = read_string(s, loc_add(rec, 16), &img->compile_opts);
	if (r > 0)
		r = read_string(s, loc_add(rec, 24), &img->link_opts);
	if (r <= 0)
		return r;
	if (!img->compile_opts)
		img->compile_opts = "";
	if (!img->link_opts)
		img->link_opts = "";
	if (lay->manifest) {
		r = read_range(s, loc_add(rec, lay->manifest),
			       loc_add(rec, lay->manifest + 8), &b, &span);
		if (r == PTR_BAD)
			return 0;
		if (r == PTR_SET) {
			if (charge(s, span / BYTES_PER_CHECK) < 0)
				return -E2BIG;
			img->manifest = (const char *)at(s, b, span);
			img->manifest_size = (size_t)span;
		}
	}
	if (read_range(s, loc_add(rec, lay->bin), loc_add(rec, lay->bin + 8),
		       &b, &span) != PTR_SET)
		return 0;
	if (charge(s, span / BYTES_PER_CHECK) < 0)
		return -E2BIG;
	img->bin = at(s, b, span);
	img->bin_size = span;
	img->bin_offset = s->shdrs[b.sec].sh_offset + b.off;
	r = read_entries(s, loc_add(rec, lay->entries),
			 loc_add(rec, lay->entries + 8), img);
	if (r <= 0)
		return r;
	d->props_b = loc_add(rec, lay->props);
	d->props_e = loc_add(rec, lay->props + 8);
	return read_propsets(s, d->props_b, d->props_e, NULL);
}

static struct dimg *new_found(struct scan *s)
{
	struct dimg *grown;
	size_t cap;

	if (s->nfound == s->capfound) {
		cap = s->capfound ? 2 * s->capfound : 8;
		grown = realloc(s->found, cap * sizeof(*grown));
		if (!grown)
			return NULL;
		s->found = grown;
		s->capfound = cap;
	}
	grown = &s->found[s->nfound++];
	memset(grown, 0, sizeof(*grown));
	return grown;
}

static void drop_found(struct scan *s, size_t keep)
{
	while (s->nfound > keep)
		free(s->found[--s->nfound].img.entries);
}

/* The descriptor at d, whose byte checks passed: 1, 0 or -errno. */
static int read_descriptor(struct scan *s, struct loc d, unsigned count)
{
	const struct image_layout *lay;
	size_t mark = s->nfound;
	struct loc rec, unused;
	struct dimg *di;
	unsigned i;
	int r;

	s->cur = d;
	if (charge(s, 1) < 0)
		return -E2BIG;
	if (read_ptr(s, loc_add(d, 16), 0, &unused) != PTR_NULL ||
	    read_ptr(s, loc_add(d, 24), 0, &unused) != PTR_NULL ||
	    read_ptr(s, loc_add(d, 8), 0, &rec) != PTR_SET ||
	    (s->shdrs[rec.sec].sh_addr + rec.off) % PTR_ALIGN)
		return 0;
	for (i = 0; i < count; i++) {
		const unsigned char *v = at(s, rec, 2);
		uint64_t version = v ? rd(v, 2) : 0;

		if (version < 1 || version > DEVIMG_IMAGE_VERSION_NO_MANIFEST)
			goto not_one;
		lay = version == DEVIMG_IMAGE_VERSION_NO_MANIFEST ? &layout_v3 :
		      &layout_v2;
		if (!at(s, rec, lay->size))
			goto not_one;
		di = new_found(s);
		if (!di) {
			drop_found(s, mark);
			return fail(s, -ENOMEM, "%s", strerror(ENOMEM));
		}
		di->desc_sec = d.sec;
		di->desc_off = d.off;
		r = read_image(s, rec, lay, di);
		if (r < 0) {
			drop_found(s, mark);
			return r;
		}
		if (r == 0)
			goto not_one;
		rec = loc_add(rec, lay->size);
	}
	return 1;
not_one:
	drop_found(s, mark);
	return 0;
}

static int candidate(const struct scan *s, size_t i)
{
	const GElf_Shdr *sh = &s->shdrs[i];

	return s->usable[i] && sh->sh_type == SHT_PROGBITS &&
	       !(sh->sh_flags & SHF_EXECINSTR);
}

static int scan_section(struct scan *s, size_t sec)
{
	const GElf_Shdr *sh = &s->shdrs[sec];
	const unsigned char *p;
	uint64_t off, count;
	int r;

	off = (PTR_ALIGN - sh->sh_addr % PTR_ALIGN) % PTR_ALIGN;
	for (; off <= sh->sh_size && sh->sh_size - off >= DESC_SIZE;
	     off += PTR_ALIGN) {
		p = s->buf + sh->sh_offset + off;
		count = rd(p + 2, 2);
		if (rd(p, 2) != DEVIMG_BINARIES_VERSION || count == 0 ||
		    count > DEVIMG_LIMIT_IMAGES || rd(p + 4, 4))
			continue;
		r = read_descriptor(s, (struct loc){ sec, off }, (unsigned)count);
		if (r < 0)
			return r;
		if (r > 0)
			off += DESC_SIZE - PTR_ALIGN;
	}
	return 0;
}

/* ---- images listed already ---- */

struct bin_key {
	uint64_t off;
	size_t i;
};

static int bin_key_cmp(const void *a, const void *b)
{
	const struct bin_key *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int dump_images_unique(const struct reader_image *imgs, size_t n,
		       const uint64_t *known, size_t nknown,
		       unsigned char *keep)
{
	struct bin_key *keys;
	size_t i;

	keys = calloc(n ? n : 1, sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		keys[i] = (struct bin_key){ imgs[i].bin_offset, i };
		keep[i] = 1;
	}
	qsort(keys, n, sizeof(*keys), bin_key_cmp);
	for (i = 0; i < n; i++) {
		if (keys[i].off == DUMP_NOT_IN_FILE)
			continue;
		if ((i > 0 && keys[i - 1].off == keys[i].off) ||
		    (nknown && bsearch(&keys[i].off, known, nknown,
				       sizeof(*known), u64_cmp)))
			keep[keys[i].i] = 0;
	}
	free(keys);
	return 0;
}

/* ---- the result ---- */

/* The file's message without its leading "<fname>: ". */
static const char *after_fname(const struct scan *s, const char *msg)
{
	size_t n = strlen(s->fname);

	return !strncmp(msg, s->fname, n) && !strncmp(msg + n, ": ", 2) ?
	       msg + n + 2 : msg;
}

/* The property sets of a found image, read again and decoded. */
static int decode_propsets(struct scan *s, struct dimg *d, unsigned idx)
{
	struct errmsg err = { 0 };
	struct props p = { 0 };
	size_t i;
	int r;

	s->charging = 0;
	r = read_propsets(s, d->props_b, d->props_e, &p);
	if (r > 0)
		r = devimg_propsets_from_props(&p, s->fname, &d->img.propsets,
					       &d->img.npropsets, &err);
	else if (r == 0)
		r = fail(s, -EINVAL,
			 "section [%zu] '%s' descriptor at 0x%" PRIx64
			 ": image %u: property sets no longer check out",
			 d->desc_sec, d->img.found_section, d->desc_off, idx);
	if (r < 0 && r != -ENOMEM && err.msg[0])
		fail(s, r, "section [%zu] '%s' descriptor at 0x%" PRIx64
		     ": image %u: %s", d->desc_sec, d->img.found_section,
		     d->desc_off, idx, after_fname(s, err.msg));
	for (i = 0; i < p.nsets; i++)
		free(p.sets[i].props);
	free(p.sets);
	return r < 0 ? r : 0;
}

static void free_images(struct devimg_file *f)
{
	size_t i;

	for (i = 0; f->images && i < f->nimages; i++) {
		free(f->images[i].entries);
		devimg_propsets_free(f->images[i].propsets,
				     f->images[i].npropsets);
	}
	free(f->images);
}

/* Leave out images listed already, decode the property sets of the rest. */
static int finish(struct scan *s, const uint64_t *known, size_t nknown,
		  struct dump_descriptors *out)
{
	struct reader_image *imgs = NULL;
	unsigned char *keep = NULL;
	size_t i, k = 0;
	int r;

	if (!s->nfound)
		return 0;
	imgs = calloc(s->nfound, sizeof(*imgs));
	keep = calloc(s->nfound, 1);
	if (!imgs || !keep) {
		free(imgs);
		free(keep);
		return fail(s, -ENOMEM, "%s", strerror(ENOMEM));
	}
	for (i = 0; i < s->nfound; i++) {
		struct dimg *d = &s->found[i];

		d->img.found = "descriptor";
		d->img.found_section = sec_name(s, d->desc_sec);
		d->img.found_offset = d->desc_off;
		imgs[i] = d->img;
	}
	r = dump_images_unique(imgs, s->nfound, known, nknown, keep);
	if (r < 0)
		r = fail(s, r, "%s", strerror(-r));
	out->file.images = imgs;
	for (i = 0; r == 0 && i < s->nfound; i++) {
		if (!keep[i]) {
			free(s->found[i].img.entries);
			continue;
		}
		r = decode_propsets(s, &s->found[i], (unsigned)k);
		imgs[k] = s->found[i].img;
		imgs[k].index = (unsigned)k;
		k++;
		out->file.nimages = k;
	}
	for (; i < s->nfound; i++)
		free(s->found[i].img.entries);
	s->nfound = 0;
	free(keep);
	return r;
}

static int scan_file(struct scan *s)
{
	GElf_Ehdr eh;
	size_t i;
	int r;

	if (!gelf_getehdr(s->elf, &eh) || gelf_getclass(s->elf) != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return 0;
	switch (eh.e_machine) {
	case EM_X86_64:
		s->abs64 = R_X86_64_64;
		s->relative = R_X86_64_RELATIVE;
		break;
	case EM_AARCH64:
		s->abs64 = R_AARCH64_ABS64;
		s->relative = R_AARCH64_RELATIVE;
		break;
	default:
		return 0;
	}
	s->rel = eh.e_type == ET_REL;
	if (elf_getshdrnum(s->elf, &s->shnum) < 0 ||
	    elf_getshdrstrndx(s->elf, &s->shstrndx) < 0)
		return fail(s, -EINVAL, "section headers: %s", elf_errmsg(-1));
	if (s->shnum == 0)
		return 0;
	r = collect_sections(s);
	if (!r)
		r = collect_relocs(s);
	for (i = 1; !r && i < s->shnum; i++)
		if (candidate(s, i))
			r = scan_section(s, i);
	return r;
}

int dump_descriptors_open_mem(const void *buf, size_t size, const char *fname,
			      const uint64_t *known, size_t nknown,
			      struct dump_descriptors **out,
			      struct errmsg *err)
{
	struct dump_descriptors *d;
	struct scan s = {
		.fname = fname, .buf = buf, .size = size, .err = err,
		.charging = 1, .budget = (uint64_t)size / 4 + BUDGET_BASE,
	};
	int r;

	if (err)
		err->msg[0] = '\0';
	d = calloc(1, sizeof(*d));
	if (!d)
		return fail(&s, -ENOMEM, "%s", strerror(ENOMEM));
	d->file.fname = fname;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		free(d);
		return fail(&s, -EINVAL, "libelf: %s", elf_errmsg(-1));
	}
	/* libelf only reads the image; the cast is libelf's API. */
	s.elf = elf_memory((char *)buf, size);
	d->elf = s.elf;
	r = 0;
	if (s.elf && elf_kind(s.elf) == ELF_K_ELF) {
		r = scan_file(&s);
		if (!r)
			r = finish(&s, known, nknown, d);
	}
	drop_found(&s, 0);
	free(s.found);
	free(s.relocs);
	free(s.by_addr);
	free(s.usable);
	free(s.shdrs);
	if (r < 0) {
		dump_descriptors_close(d);
		return r;
	}
	*out = d;
	return 0;
}

int dump_descriptors_open(const char *path, const uint64_t *known,
			  size_t nknown, struct dump_descriptors **out,
			  struct errmsg *err)
{
	void *map = NULL;
	size_t size = 0;
	int r;

	r = devimg_reader_map(path, &map, &size, err);
	if (r < 0)
		return r;
	r = dump_descriptors_open_mem(map ? map : "", size, path, known,
				      nknown, out, err);
	if (r < 0) {
		if (map)
			munmap(map, size);
		return r;
	}
	(*out)->map = map;
	(*out)->map_size = size;
	return 0;
}

void dump_descriptors_close(struct dump_descriptors *d)
{
	if (!d)
		return;
	free_images(&d->file);
	if (d->elf)
		elf_end(d->elf);
	if (d->map)
		munmap(d->map, d->map_size);
	free(d);
}

const struct devimg_file *
dump_descriptors_images(const struct dump_descriptors *d)
{
	return d ? &d->file : NULL;
}
