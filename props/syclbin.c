// SPDX-License-Identifier: MIT
/* SYCLBIN files: reader of the three forms and writer (syclbin.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/devimg_limits.h"
#include "props/internal.h"
#include "props/syclbin.h"

#define FILE_HDR 56u	/* magic, version, 3 counts, pad, 4 x u64 */
#define TABLE_HDR 32u	/* each abstract-module, IR and native header */
/* am_index: the digits of UINT64_MAX; more is refused, not scanned */
#define AM_INDEX_MAX_LEN 20u

static const char *fname_or(const char *fname)
{
	return fname ? fname : "<SYCLBIN>";
}

void syclbin_free(struct syclbin *sb)
{
	size_t i;

	if (!sb)
		return;
	for (i = 0; i < sb->nmetas; i++) {
		struct syclbin_meta *m = &sb->metas[i];

		props_free(m->props);
		free(m->target[0]);	/* one buffer each: target_first, arch */
		free(m->target[1]);
	}
	free(sb->metas);
	free(sb->images);
	free(sb->modules);
	offload_binary_free(sb->ob);
	free(sb);
}

int syclbin_is(const void *buf, size_t len)
{
	const unsigned char *b = buf;
	uint64_t eoff;

	if (!buf || len < 4)
		return 0;
	if (get_le32(b) == SYCLBIN_MAGIC)
		return 1;
	if (!offload_binary_is(b, len) || len < 32)
		return 0;
	eoff = get_le64(b + 16);
	return eoff <= len - 2 && (b[eoff] | b[eoff + 1] << 8) ==
				   (int)OFFLOAD_IMAGE_SYCLBIN;
}

/* ---- metadata: each range parsed once ---- */

/* Who names a metadata range, for messages. */
enum ref_kind {
	REF_GLOBAL,
	REF_MODULE,	/* abstract module a */
	REF_IR,		/* abstract module a, IR module b */
	REF_NATIVE,	/* abstract module a, native image b */
	REF_ENTRY,	/* version 2: entry a */
};

struct mref {
	const unsigned char *p;
	size_t len;
	enum ref_kind kind;
	size_t a, b;
	size_t *id;		/* where the range's metas index goes */
};

static void ref_name(char *buf, size_t n, const struct mref *r)
{
	switch (r->kind) {
	case REF_GLOBAL:
		snprintf(buf, n, "global metadata");
		break;
	case REF_MODULE:
		snprintf(buf, n, "abstract module %zu metadata", r->a);
		break;
	case REF_IR:
		snprintf(buf, n, "abstract module %zu IR module %zu metadata",
			 r->a, r->b);
		break;
	case REF_NATIVE:
		snprintf(buf, n,
			 "abstract module %zu native image %zu metadata",
			 r->a, r->b);
		break;
	case REF_ENTRY:
		snprintf(buf, n, "entry %zu metadata", r->a);
		break;
	}
}

struct mkey {
	uintptr_t p;
	size_t len;
	size_t ref;
};

static int mkey_cmp(const void *x, const void *y)
{
	const struct mkey *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return a->ref < b->ref ? -1 : a->ref > b->ref;
}

static int parse_meta(const struct mref *r, const char *fname,
		      struct props **out, struct errmsg *err)
{
	struct errmsg perr = { 0 };
	char what[96];
	int rc;

	rc = props_parse((const char *)r->p, r->len, fname, out, &perr);
	if (rc) {
		ref_name(what, sizeof(what), r);
		errmsg_set(err, "%s: SYCLBIN %s: %s", fname_or(fname), what,
			   perr.msg);
	}
	/* a number out of range (-ERANGE) is a malformed file too */
	return rc && rc != -ENOMEM ? -EINVAL : rc;
}

static int read_state(struct syclbin *sb, const char *fname,
		      struct errmsg *err)
{
	const struct props_set *s = props_find_set(sb->global,
						   SYCLBIN_SET_GLOBAL);
	const struct props_prop *pr = s ? props_set_find(s, "state") : NULL;

	if (!pr)
		return 0;
	if (pr->type != PROPS_UINT32 || pr->u32 > 2) {
		errmsg_set(err, "%s: SYCLBIN global metadata: state is not a "
			   "UINT32 of 0, 1 or 2 (type %d, value %" PRIu32 ")",
			   fname_or(fname), (int)pr->type,
			   pr->type == PROPS_UINT32 ? pr->u32 : 0);
		return -EINVAL;
	}
	sb->state = pr->u32;
	sb->has_state = 1;
	return 0;
}

/*
 * Give every reference the index of its range in sb->metas, parsing each
 * distinct range once, in the order of its first reference (so that an
 * error names the first header or entry that names it). Ranges are sorted
 * by start: equal ones are one range; a range that starts inside an
 * earlier one is refused. The global metadata, refs[0], is read first and
 * its state checked before anything else is parsed.
 */
static int resolve_metas(struct syclbin *sb, struct mref *refs, size_t n,
			 const char *fname, struct errmsg *err)
{
	struct mkey *k = calloc(n ? n : 1, sizeof(*k));
	size_t *rep = calloc(n ? n : 1, sizeof(*rep));
	size_t i, g, far = 0, far_ref = 0, nlead = 0;
	uintptr_t far_end = 0;
	char w1[96], w2[96];
	int rc = -ENOMEM;

	if (!k || !rep)
		goto out;
	for (i = 0; i < n; i++)
		k[i] = (struct mkey){ refs[i].len ? (uintptr_t)refs[i].p : 0,
				      refs[i].len, i };
	qsort(k, n, sizeof(*k), mkey_cmp);
	for (g = 0; g < n; g = i) {
		for (i = g; i < n && k[i].p == k[g].p && k[i].len == k[g].len;
		     i++)
			rep[k[i].ref] = k[g].ref;
		nlead++;
		if (!k[g].len)
			continue;
		if (far && k[g].p < far_end) {
			const struct mref *a = &refs[far_ref], *b = &refs[k[g].ref];

			if (far_ref > k[g].ref) {
				a = b;
				b = &refs[far_ref];
			}
			ref_name(w1, sizeof(w1), a);
			ref_name(w2, sizeof(w2), b);
			errmsg_set(err, "%s: SYCLBIN %s (%zu bytes) and %s (%zu "
				   "bytes) overlap without being the same "
				   "range", fname_or(fname), w1, a->len, w2,
				   b->len);
			rc = -EINVAL;
			goto out;
		}
		if (!far || k[g].p + k[g].len > far_end) {
			far = 1;
			far_end = k[g].p + k[g].len;
			far_ref = k[g].ref;
		}
	}
	free(k);
	k = NULL;
	sb->metas = calloc(nlead ? nlead : 1, sizeof(*sb->metas));
	if (!sb->metas)
		goto out;
	for (i = 0; i < n; i++) {
		struct syclbin_meta *m;

		if (rep[i] != i) {
			rep[i] = rep[rep[i]];	/* its leader's index, set */
			*refs[i].id = rep[i];
			continue;
		}
		m = &sb->metas[sb->nmetas];
		m->text = (const char *)refs[i].p;
		m->len = refs[i].len;
		m->ir_type = UINT32_MAX;
		rc = parse_meta(&refs[i], fname, &m->props, err);
		if (rc)
			goto out;
		m->kernels = props_find_set(m->props, SYCLBIN_SET_KERNEL_NAMES);
		rep[i] = sb->nmetas++;
		*refs[i].id = rep[i];
		if (i == 0 && refs[0].kind == REF_GLOBAL) {
			sb->global = m->props;
			rc = read_state(sb, fname, err);
			if (rc)
				goto out;
		}
	}
	rc = 0;
out:
	free(k);
	free(rep);
	return rc;
}

/* A byte-array (or string) property of set: its bytes, "" when absent. */
static const char *meta_bytes(const struct props *p, const char *set,
			      const char *name, size_t *len)
{
	const struct props_set *s = props_find_set(p, set);
	const struct props_prop *pr = s ? props_set_find(s, name) : NULL;

	if (pr && pr->type == PROPS_BYTE_ARRAY && pr->size >= PROPS_BYTES_HEADER) {
		*len = pr->size - PROPS_BYTES_HEADER;
		return (const char *)pr->data + PROPS_BYTES_HEADER;
	}
	if (pr && pr->type == PROPS_STRING) {
		*len = pr->size;
		return (const char *)pr->data;
	}
	*len = 0;
	return "";
}

/*
 * What an image reads of its metadata, derived once per range and kind
 * (IR or native: the target comes from that kind's set) into one buffer:
 * target, its first component and arch, each NUL-terminated. A byte array
 * is cut at its first NUL, as a C string of it reads.
 */
static int meta_derive(struct syclbin_meta *m, int native)
{
	const struct props_set *s;
	const struct props_prop *pr;
	const char *t, *a, *dash;
	size_t tl, al, fl;
	char *b;

	if (m->target[native])
		return 0;
	s = props_find_set(m->props, SYCLBIN_SET_IR);
	pr = s ? props_set_find(s, "type") : NULL;
	if (pr && pr->type == PROPS_UINT32)
		m->ir_type = pr->u32;
	t = meta_bytes(m->props, native ? SYCLBIN_SET_NATIVE : SYCLBIN_SET_IR,
		       "target", &tl);
	a = meta_bytes(m->props, SYCLBIN_SET_NATIVE, "arch", &al);
	tl = strnlen(t, tl);
	al = strnlen(a, al);
	dash = memchr(t, '-', tl);
	fl = dash ? (size_t)(dash - t) : tl;
	b = malloc(tl + fl + al + 3);
	if (!b)
		return -ENOMEM;
	m->target[native] = b;
	memcpy(b, t, tl);
	b[tl] = '\0';
	m->target_first[native] = b + tl + 1;
	memcpy(b + tl + 1, t, fl);
	b[tl + 1 + fl] = '\0';
	m->arch[native] = b + tl + fl + 2;
	memcpy(b + tl + fl + 2, a, al);
	b[tl + fl + 2 + al] = '\0';
	return 0;
}

/* Point modules and images at their parsed metadata. */
static int link_metas(struct syclbin *sb)
{
	size_t i, j;
	int rc;

	for (i = 0; i < sb->nmodules; i++) {
		struct syclbin_module *m = &sb->modules[i];

		m->meta = sb->metas[m->meta_id].props;
		m->kernels = sb->metas[m->meta_id].kernels;
	}
	for (i = 0; i < sb->nmodules; i++) {
		struct syclbin_module *m = &sb->modules[i];

		for (j = 0; j < m->nir + m->nnative; j++) {
			int native = j >= m->nir;
			struct syclbin_image *img = native ?
				&m->native[j - m->nir] : &m->ir[j];
			struct syclbin_meta *mt = &sb->metas[img->meta_id];

			rc = meta_derive(mt, native);
			if (rc)
				return rc;
			img->meta = mt->props;
			img->ir_type = mt->ir_type;
			img->target = mt->target[native];
			img->arch = mt->arch[native];
			img->target_first = mt->target_first[native];
		}
	}
	return 0;
}

/* The images counted before any is made. */
static int check_count(uint64_t n, size_t max, const char *fname,
		       struct errmsg *err)
{
	if (n <= max)
		return 0;
	errmsg_set(err, "%s: SYCLBIN of %" PRIu64 " images (IR modules and "
		   "native images of its abstract modules), more than the %zu "
		   "of a descriptor", fname_or(fname), n, max);
	return -EINVAL;
}

/* Room for the modules, the images and the references to metadata. */
static int alloc_model(struct syclbin *sb, size_t nmod, size_t nimg,
		       struct mref **refs)
{
	sb->modules = calloc(nmod ? nmod : 1, sizeof(*sb->modules));
	sb->images = calloc(nimg ? nimg : 1, sizeof(*sb->images));
	*refs = calloc(1 + nmod + nimg, sizeof(**refs));
	if (!sb->modules || !sb->images || !*refs)
		return -ENOMEM;
	sb->nmodules = nmod;
	sb->nimages = nimg;
	return 0;
}

/* ---- bare (SYBI) ---- */

struct table {
	const unsigned char *p;
	uint64_t size;
	const char *name;
};

/* 1 when [off, off + size) lies inside the table, *out its first byte. */
static int table_get(const struct table *t, uint64_t off, uint64_t size,
		     const unsigned char **out)
{
	if (off > t->size || size > t->size - off)
		return 0;
	*out = t->p + off;
	return 1;
}

static int table_err(const struct table *t, uint64_t off, uint64_t size,
		     const char *fname, const char *what,
		     struct errmsg *err)
{
	errmsg_set(err, "%s: SYCLBIN %s (offset %" PRIu64 ", size %" PRIu64
		   ") outside the %s (%" PRIu64 " bytes)", fname_or(fname),
		   what, off, size, t->name, t->size);
	return -EINVAL;
}

struct bare {
	const unsigned char *b;
	uint32_t amc, irc, ndc;
	uint64_t irbase, natbase;
	struct table meta, bin;
	const char *fname;
};

static const unsigned char *am_header(const struct bare *f, uint32_t i)
{
	return f->b + FILE_HDR + (uint64_t)TABLE_HDR * i;
}

/*
 * Claim headers [first, first + n) of a table for module i: a header
 * already claimed belongs to another module, which the format does not
 * allow (each module's IR modules and native images are its own).
 */
static int claim(uint32_t *owner, uint32_t first, uint32_t n, uint32_t i,
		 const char *what, const char *fname, struct errmsg *err)
{
	uint32_t j;

	for (j = first; j < first + n; j++) {
		if (owner[j]) {
			errmsg_set(err, "%s: SYCLBIN abstract module %" PRIu32
				   ": %s header %" PRIu32 " also belongs to "
				   "abstract module %" PRIu32, fname_or(fname),
				   i, what, j, owner[j] - 1);
			return -EINVAL;
		}
		owner[j] = i + 1;
	}
	return 0;
}

/* Each module's header ranges: inside the tables, disjoint, counted. */
static int bare_ranges(const struct bare *f, uint64_t *total,
		       struct errmsg *err)
{
	uint32_t *irown = NULL, *natown = NULL, i;
	int rc = 0;

	*total = 0;
	for (i = 0; i < f->amc; i++) {
		const unsigned char *h = am_header(f, i);
		uint32_t nir = get_le32(h + 16), iroff = get_le32(h + 20);
		uint32_t nnat = get_le32(h + 24), natoff = get_le32(h + 28);

		if ((uint64_t)iroff + nir > f->irc ||
		    (uint64_t)natoff + nnat > f->ndc) {
			errmsg_set(err, "%s: SYCLBIN abstract module %" PRIu32
				   ": IR modules %" PRIu32 "+%" PRIu32 " of %"
				   PRIu32 ", native images %" PRIu32 "+%" PRIu32
				   " of %" PRIu32 ": past the header tables",
				   fname_or(f->fname), i, iroff, nir, f->irc,
				   natoff, nnat, f->ndc);
			return -EINVAL;
		}
		*total += (uint64_t)nir + nnat;
	}
	/* disjoint, at most irc + ndc: 4 bytes a header, before the count */
	irown = calloc((size_t)f->irc + 1, sizeof(*irown));
	natown = calloc((size_t)f->ndc + 1, sizeof(*natown));
	if (!irown || !natown)
		rc = -ENOMEM;
	for (i = 0; !rc && i < f->amc; i++) {
		const unsigned char *h = am_header(f, i);

		rc = claim(irown, get_le32(h + 20), get_le32(h + 16), i,
			   "IR module", f->fname, err);
		if (!rc)
			rc = claim(natown, get_le32(h + 28),
				   get_le32(h + 24), i, "native image",
				   f->fname, err);
	}
	free(irown);
	free(natown);
	return rc ? rc : check_count(*total, DEVIMG_LIMIT_IMAGES, f->fname, err);
}

static int bare_image(const struct bare *f, const unsigned char *hdr,
		      uint32_t i, uint32_t j, int native,
		      struct syclbin_image *img, struct mref *ref,
		      struct errmsg *err)
{
	const unsigned char *m, *d;
	uint64_t moff = get_le64(hdr), msz = get_le64(hdr + 8);
	uint64_t doff = get_le64(hdr + 16), dsz = get_le64(hdr + 24);
	const struct table *bad = NULL;
	char w[128];

	if (!table_get(&f->meta, moff, msz, &m))
		bad = &f->meta;
	else if (!table_get(&f->bin, doff, dsz, &d))
		bad = &f->bin;
	if (bad) {
		snprintf(w, sizeof(w), "abstract module %" PRIu32 " %s %"
			 PRIu32 " %s", i, native ? "native image" : "IR module",
			 j, bad == &f->meta ? "metadata" : "bytes");
		return bad == &f->meta ?
		       table_err(bad, moff, msz, f->fname, w, err) :
		       table_err(bad, doff, dsz, f->fname, w, err);
	}
	img->data = d;
	img->size = (size_t)dsz;
	img->meta_text = (const char *)m;
	img->meta_len = (size_t)msz;
	*ref = (struct mref){ m, (size_t)msz, native ? REF_NATIVE : REF_IR, i,
			      j, &img->meta_id };
	return 0;
}

static int bare_module(const struct bare *f, uint32_t i,
		       struct syclbin_module *m, struct syclbin_image **next,
		       struct mref **ref, struct errmsg *err)
{
	const unsigned char *h = am_header(f, i), *mt;
	uint32_t nir = get_le32(h + 16), iroff = get_le32(h + 20);
	uint32_t nnat = get_le32(h + 24), natoff = get_le32(h + 28);
	char what[96];
	uint32_t j;
	int rc;

	if (!table_get(&f->meta, get_le64(h), get_le64(h + 8), &mt)) {
		snprintf(what, sizeof(what),
			 "abstract module %" PRIu32 " metadata", i);
		return table_err(&f->meta, get_le64(h), get_le64(h + 8),
				 f->fname, what, err);
	}
	m->meta_text = (const char *)mt;
	m->meta_len = (size_t)get_le64(h + 8);
	*(*ref)++ = (struct mref){ mt, m->meta_len, REF_MODULE, i, 0,
				   &m->meta_id };
	m->ir = *next;
	m->nir = nir;
	m->native = *next + nir;
	m->nnative = nnat;
	*next += (size_t)nir + nnat;
	for (j = 0; j < nir; j++) {
		rc = bare_image(f, f->b + f->irbase +
				(uint64_t)TABLE_HDR * (iroff + j), i, j, 0,
				&m->ir[j], (*ref)++, err);
		if (rc)
			return rc;
	}
	for (j = 0; j < nnat; j++) {
		rc = bare_image(f, f->b + f->natbase +
				(uint64_t)TABLE_HDR * (natoff + j), i, j, 1,
				&m->native[j], (*ref)++, err);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * What the modules reference, each metadata range and image counted once
 * for each module or image naming it, against DEVIMG_LIMIT_REFERENCE_RATIO
 * times the file's len bytes: ranges may be shared, but whoever builds,
 * registers or prints the modules pays per reference. Each term is at
 * most len (the tables are inside the file): no overflow before a check.
 */
static int check_refs(const struct syclbin *sb, size_t len,
		      const char *fname, struct errmsg *err)
{
	uint64_t max = (uint64_t)len * DEVIMG_LIMIT_REFERENCE_RATIO, sum = 0;
	size_t i, j;

	for (i = 0; i < sb->nmodules; i++) {
		const struct syclbin_module *m = &sb->modules[i];

		sum += m->meta_len;
		for (j = 0; j < m->nir + m->nnative && sum <= max; j++)
			sum += m->ir[j].meta_len + m->ir[j].size;
		if (sum > max) {
			errmsg_set(err, "%s: SYCLBIN abstract module %zu: the "
				   "metadata and images of the modules up to "
				   "it, counted once for each module or image "
				   "naming them, come to more than %u times "
				   "the file's %zu bytes", fname_or(fname), i,
				   DEVIMG_LIMIT_REFERENCE_RATIO, len);
			return -EINVAL;
		}
	}
	return 0;
}

static int parse_bare(const unsigned char *b, size_t len, const char *fname,
		      struct syclbin *sb, struct errmsg *err)
{
	struct bare f = { .b = b, .fname = fname,
			  .meta = { .name = "metadata byte table" },
			  .bin = { .name = "binary byte table" } };
	uint32_t version, i;
	uint64_t msize, bsize, hblock, ameta, total;
	const unsigned char *g;
	struct syclbin_image *next;
	struct mref *refs = NULL, *ref;
	size_t gid;
	int rc;

	if (len < FILE_HDR) {
		errmsg_set(err, "%s: SYCLBIN file header truncated: %zu bytes, "
			   "expected %u", fname_or(fname), len, FILE_HDR);
		return -EINVAL;
	}
	if (get_le32(b) != SYCLBIN_MAGIC) {
		errmsg_set(err, "%s: SYCLBIN magic 0x%08" PRIx32 ", expected "
			   "0x%08x (\"IBYS\")", fname_or(fname), get_le32(b),
			   SYCLBIN_MAGIC);
		return -EINVAL;
	}
	version = get_le32(b + 4);
	if (version > SYCLBIN_BARE_VERSION) {
		errmsg_set(err, "%s: SYCLBIN version %" PRIu32 " not supported "
			   "(expected %u)", fname_or(fname), version,
			   SYCLBIN_BARE_VERSION);
		return -EINVAL;
	}
	f.amc = get_le32(b + 8);
	f.irc = get_le32(b + 12);
	f.ndc = get_le32(b + 16);
	msize = get_le64(b + 24);
	bsize = get_le64(b + 32);
	hblock = FILE_HDR + (uint64_t)TABLE_HDR *
		 ((uint64_t)f.amc + f.irc + f.ndc);
	if (msize > UINT64_MAX - 7 || hblock > len) {
		errmsg_set(err, "%s: SYCLBIN header tables (%" PRIu32
			   " abstract modules, %" PRIu32 " IR modules, %" PRIu32
			   " native images) past the end (%zu bytes)",
			   fname_or(fname), f.amc, f.irc, f.ndc, len);
		return -EINVAL;
	}
	ameta = (msize + 7) & ~(uint64_t)7;
	if (ameta > len - hblock || bsize > len - hblock - ameta) {
		errmsg_set(err, "%s: SYCLBIN byte tables (metadata %" PRIu64
			   ", binary %" PRIu64 " bytes) past the end (%zu bytes)",
			   fname_or(fname), msize, bsize, len);
		return -EINVAL;
	}
	f.meta.p = b + hblock;
	f.meta.size = msize;
	f.bin.p = b + hblock + ameta;
	f.bin.size = bsize;
	f.irbase = FILE_HDR + (uint64_t)TABLE_HDR * f.amc;
	f.natbase = f.irbase + (uint64_t)TABLE_HDR * f.irc;
	sb->version = 1;
	if (!table_get(&f.meta, get_le64(b + 40), get_le64(b + 48), &g))
		return table_err(&f.meta, get_le64(b + 40), get_le64(b + 48),
				 fname, "global metadata", err);
	/* Structure first: nothing is parsed or made per image before this. */
	rc = bare_ranges(&f, &total, err);
	if (rc)
		return rc;
	rc = alloc_model(sb, f.amc, (size_t)total, &refs);
	if (rc)
		goto out;
	/* refs in the order DPC++ reads: global, then each module, its images */
	refs[0] = (struct mref){ g, (size_t)get_le64(b + 48), REF_GLOBAL, 0,
				 0, &gid };
	ref = refs + 1;
	next = sb->images;
	for (i = 0; i < f.amc; i++) {
		rc = bare_module(&f, i, &sb->modules[i], &next, &ref, err);
		if (rc)
			goto out;
	}
	/* before any metadata is parsed */
	rc = check_refs(sb, len, fname, err);
	if (!rc)
		rc = resolve_metas(sb, refs, (size_t)(ref - refs), fname, err);
	if (!rc)
		rc = link_metas(sb);
out:
	free(refs);
	return rc;
}

/* ---- version 2: roles in a multi-entry OffloadBinary ---- */

enum role { ROLE_NONE, ROLE_GLOBAL, ROLE_AM, ROLE_IR, ROLE_NATIVE };

/* Strings compared by their length: values need no NUL. */
static int str_is(const char *s, size_t len, const char *lit)
{
	return s && len == strlen(lit) && !memcmp(s, lit, len);
}

static enum role role_of(const struct offload_entry *e, const char **s,
			 size_t *len)
{
	*len = 0;
	*s = offload_entry_string(e, "role", len);
	if (str_is(*s, *len, "global_metadata"))
		return ROLE_GLOBAL;
	if (str_is(*s, *len, "am_metadata"))
		return ROLE_AM;
	if (str_is(*s, *len, "ir"))
		return ROLE_IR;
	if (str_is(*s, *len, "native"))
		return ROLE_NATIVE;
	return ROLE_NONE;
}

static int am_index(const struct offload_entry *e, size_t i, size_t max,
		    const char *fname, size_t *out, struct errmsg *err)
{
	size_t len = 0, k = 0;
	const char *s = offload_entry_string(e, "am_index", &len);
	struct quote q;
	uint64_t v = 0;

	/* at most 20 digits are read: the work stays bounded */
	for (; s && len <= AM_INDEX_MAX_LEN && k < len && s[k] >= '0' &&
	       s[k] <= '9'; k++)
		v = v < max ? v * 10 + (uint64_t)(s[k] - '0') : max;
	if (!s || !len || k < len || v >= max) {
		errmsg_set(err, "%s: SYCLBIN entry %zu: am_index '%s' is not a "
			   "decimal of at most %u digits below the entry count "
			   "%zu", fname_or(fname), i,
			   s ? quote_text(&q, s, len) : "(absent)",
			   AM_INDEX_MAX_LEN, max);
		return -EINVAL;
	}
	*out = (size_t)v;
	return 0;
}

/* An ir or native entry's image: [u64 metadata size][metadata][bytes]. */
static int v2_image(const struct offload_entry *e, size_t i,
		    const char *fname, struct syclbin_image *img,
		    struct mref *ref, struct errmsg *err)
{
	uint64_t msz;

	if (e->image_size < 8 || (msz = get_le64(e->image)) >
				 e->image_size - 8) {
		errmsg_set(err, "%s: SYCLBIN entry %zu: image of %zu bytes "
			   "shorter than its metadata size field and metadata",
			   fname_or(fname), i, e->image_size);
		return -EINVAL;
	}
	img->meta_text = (const char *)e->image + 8;
	img->meta_len = (size_t)msz;
	img->data = e->image + 8 + msz;
	img->size = e->image_size - 8 - (size_t)msz;
	*ref = (struct mref){ e->image + 8, (size_t)msz, REF_ENTRY, i, 0,
			      &img->meta_id };
	return 0;
}

/* Each entry's role and module; the images counted before any is made. */
static int v2_roles(const struct offload_binary *ob, const char *fname,
		    unsigned char *roles, size_t *idx, size_t *global,
		    size_t *nmod, size_t *nimg, struct errmsg *err)
{
	struct quote q;
	const char *role;
	size_t i, len;
	int rc;

	*global = SIZE_MAX;
	*nmod = *nimg = 0;
	for (i = 0; i < ob->nentries; i++) {
		const struct offload_entry *e = &ob->entries[i];

		if (e->image_kind != OFFLOAD_IMAGE_SYCLBIN) {
			errmsg_set(err, "%s: SYCLBIN entry %zu: image kind %u, "
				   "expected %u", fname_or(fname), i,
				   e->image_kind, OFFLOAD_IMAGE_SYCLBIN);
			return -EINVAL;
		}
		roles[i] = (unsigned char)role_of(e, &role, &len);
		if (roles[i] == ROLE_GLOBAL) {
			if (*global != SIZE_MAX) {
				errmsg_set(err, "%s: SYCLBIN entry %zu: a second "
					   "global_metadata", fname_or(fname), i);
				return -EINVAL;
			}
			*global = i;
			continue;
		}
		if (roles[i] == ROLE_NONE) {
			errmsg_set(err, "%s: SYCLBIN entry %zu: role '%s', "
				   "expected global_metadata, am_metadata, ir or "
				   "native", fname_or(fname), i,
				   role ? quote_text(&q, role, len) : "(absent)");
			return -EINVAL;
		}
		rc = am_index(e, i, ob->nentries, fname, &idx[i], err);
		if (rc)
			return rc;
		if (idx[i] + 1 > *nmod)
			*nmod = idx[i] + 1;
		if (roles[i] != ROLE_AM)
			(*nimg)++;
	}
	if (*global == SIZE_MAX) {
		errmsg_set(err, "%s: SYCLBIN: no global_metadata entry",
			   fname_or(fname));
		return -EINVAL;
	}
	return check_count(*nimg, DEVIMG_LIMIT_IMAGES, fname, err);
}

static int parse_v2(const struct offload_binary *ob, const char *fname,
		    struct syclbin *sb, struct errmsg *err)
{
	size_t i, nmod, nimg, gi, gid, len = 0, *idx;
	unsigned char *roles;
	struct syclbin_image *next;
	struct mref *refs = NULL, *ref;
	struct quote q;
	const char *ver;
	int rc = -ENOMEM;

	idx = calloc(ob->nentries + 1, sizeof(*idx));
	roles = calloc(ob->nentries + 1, sizeof(*roles));
	if (!idx || !roles)
		goto out;
	rc = v2_roles(ob, fname, roles, idx, &gi, &nmod, &nimg, err);
	if (rc)
		goto out;
	ver = offload_entry_string(&ob->entries[gi], "sycl_format_version",
				   &len);
	if (ver && len && !str_is(ver, len, "2")) {
		errmsg_set(err, "%s: SYCLBIN sycl_format_version '%s', expected "
			   "2", fname_or(fname), quote_text(&q, ver, len));
		rc = -EINVAL;
		goto out;
	}
	sb->version = 2;
	rc = alloc_model(sb, nmod, nimg, &refs);
	if (rc)
		goto out;
	/* each module's images: a slice of one array, IR then native */
	for (i = 0; i < ob->nentries; i++) {
		if (roles[i] == ROLE_IR)
			sb->modules[idx[i]].nir++;
		else if (roles[i] == ROLE_NATIVE)
			sb->modules[idx[i]].nnative++;
	}
	next = sb->images;
	for (i = 0; i < nmod; i++) {
		struct syclbin_module *m = &sb->modules[i];

		m->ir = next;
		m->native = next + m->nir;
		next += m->nir + m->nnative;
		m->nir = m->nnative = 0;
		m->meta_id = SIZE_MAX;	/* no am_metadata yet */
	}
	refs[0] = (struct mref){ ob->entries[gi].image,
				 ob->entries[gi].image_size, REF_GLOBAL, 0, 0,
				 &gid };
	ref = refs + 1;
	for (i = 0; i < ob->nentries; i++) {
		const struct offload_entry *e = &ob->entries[i];
		struct syclbin_module *m = &sb->modules[idx[i]];

		if (roles[i] == ROLE_GLOBAL)
			continue;
		if (roles[i] == ROLE_AM) {
			if (m->meta_id != SIZE_MAX) {
				errmsg_set(err, "%s: SYCLBIN entry %zu: a second "
					   "am_metadata for am_index %zu",
					   fname_or(fname), i, idx[i]);
				rc = -EINVAL;
				goto out;
			}
			m->meta_id = 0;
			m->meta_text = (const char *)e->image;
			m->meta_len = e->image_size;
			*ref++ = (struct mref){ e->image, e->image_size,
						REF_MODULE, idx[i], 0,
						&m->meta_id };
			continue;
		}
		rc = v2_image(e, i, fname, roles[i] == ROLE_NATIVE ?
			      &m->native[m->nnative++] : &m->ir[m->nir++],
			      ref++, err);
		if (rc)
			goto out;
	}
	for (i = 0; i < nmod; i++) {
		if (sb->modules[i].meta_id == SIZE_MAX) {
			errmsg_set(err, "%s: SYCLBIN: no am_metadata for "
				   "am_index %zu", fname_or(fname), i);
			rc = -EINVAL;
			goto out;
		}
	}
	rc = resolve_metas(sb, refs, (size_t)(ref - refs), fname, err);
	if (!rc)
		rc = link_metas(sb);
out:
	free(refs);
	free(idx);
	free(roles);
	return rc;
}

static int bare_magic(const unsigned char *p, size_t n)
{
	return n >= 4 && get_le32(p) == SYCLBIN_MAGIC;
}

int syclbin_parse(const void *buf, size_t len, const char *fname,
		  struct syclbin **out, struct errmsg *err)
{
	const unsigned char *b = buf;
	struct syclbin *sb;
	int rc;

	*out = NULL;
	sb = calloc(1, sizeof(*sb));
	if (!sb)
		return -ENOMEM;
	if (bare_magic(b, len)) {
		sb->form = SYCLBIN_FORM_BARE;
		rc = parse_bare(b, len, fname, sb, err);
	} else if (offload_binary_is(b, len)) {
		rc = offload_binary_parse(b, len, fname, &sb->ob, err);
		if (rc)
			goto fail;
		if (sb->ob->entries[0].image_kind == OFFLOAD_IMAGE_SYCLBIN &&
		    bare_magic(sb->ob->entries[0].image,
			       sb->ob->entries[0].image_size)) {
			sb->form = SYCLBIN_FORM_ENVELOPE;
			rc = parse_bare(sb->ob->entries[0].image,
					sb->ob->entries[0].image_size, fname,
					sb, err);
		} else {
			sb->form = SYCLBIN_FORM_V2;
			rc = parse_v2(sb->ob, fname, sb, err);
		}
	} else {
		errmsg_set(err, "%s: not a SYCLBIN (magic \"IBYS\" or an "
			   "OffloadBinary's 10 ff 10 ad expected)",
			   fname_or(fname));
		rc = -EINVAL;
	}
	if (rc)
		goto fail;
	*out = sb;
	return 0;
fail:
	if (rc == -ENOMEM)
		errmsg_set(err, "%s: out of memory", fname_or(fname));
	syclbin_free(sb);
	return rc;
}

size_t syclbin_module_kernel_count(const struct syclbin_module *m)
{
	return m && m->kernels ? m->kernels->nprops : 0;
}

const char *syclbin_module_kernel(const struct syclbin_module *m, size_t i)
{
	return m && m->kernels && i < m->kernels->nprops ?
	       m->kernels->props[i].name : NULL;
}

/* ---- writer ---- */

struct buf {
	char *p;
	size_t n;
};

static void buf_fini(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->n = 0;
}

static int props_text(const struct props *p, struct buf *out)
{
	FILE *f;
	int rc = 0;

	out->p = NULL;
	out->n = 0;
	f = open_memstream(&out->p, &out->n);
	if (!f)
		return -ENOMEM;
	if (p)
		rc = props_write(p, f);
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (rc)
		buf_fini(out);
	return rc;
}

static int image_meta_text(const struct syclbin_image_in *in, struct buf *out)
{
	struct props *p = props_new();
	struct props_set *s;
	int rc = -ENOMEM;

	if (!p)
		return rc;
	s = props_add_set(p, in->native ? SYCLBIN_SET_NATIVE : SYCLBIN_SET_IR);
	if (!s)
		goto out;
	if (in->native)
		rc = props_add_bytes(s, "arch", in->arch ? in->arch : "",
				     (uint64_t)strlen(in->arch ? in->arch : "") * 8);
	else
		rc = props_add_u32(s, "type", 0);
	if (!rc)
		rc = props_add_bytes(s, "target", in->target ? in->target : "",
				     (uint64_t)strlen(in->target ? in->target : "") * 8);
	if (!rc)
		rc = props_text(p, out);
out:
	props_free(p);
	return rc;
}

struct wimage {
	const struct syclbin_image_in *in;
	struct buf meta;
};

struct wmodule {
	struct buf meta;
	struct wimage *ir;
	size_t nir;
	struct wimage *native;
	size_t nnative;
};

struct wfile {
	struct buf global;
	struct wmodule *m;
	size_t n;
};

static void wfile_fini(struct wfile *w)
{
	size_t i, j;

	for (i = 0; w->m && i < w->n; i++) {
		buf_fini(&w->m[i].meta);
		for (j = 0; j < w->m[i].nir; j++)
			buf_fini(&w->m[i].ir[j].meta);
		for (j = 0; j < w->m[i].nnative; j++)
			buf_fini(&w->m[i].native[j].meta);
		free(w->m[i].ir);
		free(w->m[i].native);
	}
	free(w->m);
	buf_fini(&w->global);
}

static int wfile_init(struct wfile *w, uint32_t state,
		      const struct syclbin_module_in *mods, size_t n)
{
	struct props *g = props_new();
	struct props_set *s;
	size_t i, j;
	int rc = -ENOMEM;

	memset(w, 0, sizeof(*w));
	if (!g)
		return rc;
	s = props_add_set(g, SYCLBIN_SET_GLOBAL);
	if (s && !props_add_u32(s, "state", state))
		rc = props_text(g, &w->global);
	props_free(g);
	if (rc)
		return rc;
	w->m = calloc(n ? n : 1, sizeof(*w->m));
	if (!w->m)
		return -ENOMEM;
	w->n = n;
	for (i = 0; i < n; i++) {
		struct wmodule *m = &w->m[i];

		rc = props_text(mods[i].meta, &m->meta);
		if (rc)
			return rc;
		m->ir = calloc(mods[i].nimages + 1, sizeof(*m->ir));
		m->native = calloc(mods[i].nimages + 1, sizeof(*m->native));
		if (!m->ir || !m->native)
			return -ENOMEM;
		for (j = 0; j < mods[i].nimages; j++) {
			const struct syclbin_image_in *in = &mods[i].images[j];
			struct wimage *wi = in->native ?
				&m->native[m->nnative++] : &m->ir[m->nir++];

			wi->in = in;
			rc = image_meta_text(in, &wi->meta);
			if (rc)
				return rc;
		}
	}
	return 0;
}



static size_t align8(size_t v)
{
	return (v + 7) & ~(size_t)7;
}

/* The bare file; sizes are bounded by the caller's memory, checked. */

/*
 * The table headers of n images at h, their metadata at mt + *moff and
 * their bytes at bt + *boff; returns the header after the last.
 */
static unsigned char *put_images(unsigned char *h, const struct wimage *wi,
				 size_t n, unsigned char *mt, size_t *moff,
				 unsigned char *bt, size_t *boff)
{
	size_t j;

	for (j = 0; j < n; j++, wi++, h += TABLE_HDR) {
		put_le64(h, *moff);
		put_le64(h + 8, wi->meta.n);
		put_le64(h + 16, *boff);
		put_le64(h + 24, wi->in->size);
		memcpy(mt + *moff, wi->meta.p, wi->meta.n);
		if (wi->in->size)
			memcpy(bt + *boff, wi->in->data, wi->in->size);
		*moff += wi->meta.n;
		*boff += wi->in->size;
	}
	return h;
}
static int write_bare(const struct wfile *w, unsigned char **out,
		      size_t *size)
{
	size_t i, j, nir = 0, nnat = 0, msize, bsize, hblock, total;
	size_t moff, boff, irx = 0, natx = 0;
	unsigned char *b, *h, *mt, *bt;

	msize = w->global.n;
	bsize = 0;
	for (i = 0; i < w->n; i++) {
		const struct wmodule *m = &w->m[i];

		nir += m->nir;
		nnat += m->nnative;
		if (size_accumulate(&msize, m->meta.n))
			return -EOVERFLOW;
		for (j = 0; j < m->nir; j++)
			if (size_accumulate(&msize, m->ir[j].meta.n) ||
			    size_accumulate(&bsize, m->ir[j].in->size))
				return -EOVERFLOW;
		for (j = 0; j < m->nnative; j++)
			if (size_accumulate(&msize, m->native[j].meta.n) ||
			    size_accumulate(&bsize, m->native[j].in->size))
				return -EOVERFLOW;
	}
	if (w->n > UINT32_MAX || nir > UINT32_MAX || nnat > UINT32_MAX ||
	    msize > SIZE_MAX - 8 || bsize > SIZE_MAX - 8)
		return -EOVERFLOW;
	hblock = FILE_HDR + TABLE_HDR * (w->n + nir + nnat);
	if (size_add3(hblock, align8(msize), align8(bsize), &total))
		return -EOVERFLOW;
	b = calloc(1, total);
	if (!b)
		return -ENOMEM;
	put_le32(b, SYCLBIN_MAGIC);
	put_le32(b + 4, SYCLBIN_BARE_VERSION);
	put_le32(b + 8, (uint32_t)w->n);
	put_le32(b + 12, (uint32_t)nir);
	put_le32(b + 16, (uint32_t)nnat);
	put_le64(b + 24, msize);
	put_le64(b + 32, bsize);
	put_le64(b + 40, 0);
	put_le64(b + 48, w->global.n);

	mt = b + hblock;
	bt = mt + align8(msize);
	memcpy(mt, w->global.p, w->global.n);
	moff = w->global.n;
	h = b + FILE_HDR;
	for (i = 0; i < w->n; i++, h += TABLE_HDR) {
		const struct wmodule *m = &w->m[i];

		put_le64(h, moff);
		put_le64(h + 8, m->meta.n);
		put_le32(h + 16, (uint32_t)m->nir);
		put_le32(h + 20, (uint32_t)irx);
		put_le32(h + 24, (uint32_t)m->nnative);
		put_le32(h + 28, (uint32_t)natx);
		memcpy(mt + moff, m->meta.p, m->meta.n);
		moff += m->meta.n;
		irx += m->nir;
		natx += m->nnative;
	}
	/* IR headers, then native ones; their bytes in the same order. */
	boff = 0;
	for (i = 0; i < w->n; i++)
		h = put_images(h, w->m[i].ir, w->m[i].nir, mt, &moff, bt, &boff);
	for (i = 0; i < w->n; i++)
		h = put_images(h, w->m[i].native, w->m[i].nnative, mt, &moff, bt,
			       &boff);
	*out = b;
	*size = total;
	return 0;
}

/* [u64 metadata size][metadata][bytes], as a version 2 entry's image. */
static unsigned char *v2_payload(const struct wimage *wi, size_t *n)
{
	unsigned char *p;

	if (size_add3(8, wi->meta.n, wi->in->size, n))
		return NULL;
	p = malloc(*n ? *n : 1);
	if (!p)
		return NULL;
	put_le64(p, wi->meta.n);
	memcpy(p + 8, wi->meta.p, wi->meta.n);
	if (wi->in->size)
		memcpy(p + 8 + wi->meta.n, wi->in->data, wi->in->size);
	return p;
}

static int write_v2(const struct wfile *w, unsigned char **out, size_t *size,
		    struct errmsg *err)
{
	size_t i, j, n = 1, k = 0;
	struct offload_image_in *e;
	struct offload_string *strs;
	unsigned char **payloads;
	char (*idx)[24];
	int rc = -ENOMEM;

	for (i = 0; i < w->n; i++)
		n += 1 + w->m[i].nir + w->m[i].nnative;
	e = calloc(n, sizeof(*e));
	strs = calloc(n * 5, sizeof(*strs));
	payloads = calloc(n, sizeof(*payloads));
	idx = calloc(w->n + 1, sizeof(*idx));
	if (!e || !strs || !payloads || !idx)
		goto out;
#define STR(key, val) (struct offload_string){ key, val, strlen(val) }
	for (i = 0; i < n; i++) {
		e[i].image_kind = OFFLOAD_IMAGE_SYCLBIN;
		e[i].offload_kind = OFFLOAD_KIND_SYCL;
		e[i].strings = &strs[i * 5];
		strs[i * 5] = STR("sycl_format_version", "2");
	}
	strs[1] = STR("role", "global_metadata");
	e[0].nstrings = 2;
	e[0].image = w->global.p;
	e[0].image_size = w->global.n;
	k = 1;
	for (i = 0; i < w->n; i++) {
		const struct wmodule *m = &w->m[i];
		struct offload_string *s = &strs[k * 5];

		snprintf(idx[i], sizeof(idx[i]), "%zu", i);
		s[1] = STR("role", "am_metadata");
		s[2] = STR("am_index", idx[i]);
		e[k].nstrings = 3;
		e[k].image = m->meta.p ? m->meta.p : "";
		e[k].image_size = m->meta.n;
		k++;
		for (j = 0; j < m->nir + m->nnative; j++, k++) {
			const struct wimage *wi = j < m->nir ? &m->ir[j] :
				&m->native[j - m->nir];

			s = &strs[k * 5];
			s[1] = STR("role", wi->in->native ? "native" : "ir");
			s[2] = STR("am_index", idx[i]);
			if (wi->in->native)
				s[3] = STR("arch", wi->in->arch ? wi->in->arch : "");
			else
				s[3] = STR("ir_type", "0");
			s[4] = STR("triple", wi->in->target ? wi->in->target : "");
			e[k].nstrings = 5;
			payloads[k] = v2_payload(wi, &e[k].image_size);
			if (!payloads[k])
				goto out;
			e[k].image = payloads[k];
		}
	}
#undef STR
	rc = offload_binary_write(e, n, 2, out, size, err);
out:
	for (i = 0; payloads && i < n; i++)
		free(payloads[i]);
	free(payloads);
	free(strs);
	free(e);
	free(idx);
	return rc;
}

int syclbin_write(uint32_t state, const struct syclbin_module_in *mods,
		  size_t n, enum syclbin_form form, unsigned char **out,
		  size_t *size, struct errmsg *err)
{
	struct offload_image_in env = { 0 };
	unsigned char *bare = NULL;
	struct wfile w;
	size_t bsz = 0;
	int rc;

	*out = NULL;
	*size = 0;
	if (state > 2 || form < SYCLBIN_FORM_BARE || form > SYCLBIN_FORM_V2) {
		errmsg_set(err, "SYCLBIN writer: state %" PRIu32 " or form %d "
			   "out of range", state, (int)form);
		return -EINVAL;
	}
	rc = wfile_init(&w, state, mods, n);
	if (rc) {
		errmsg_set(err, "SYCLBIN writer: %s", rc == -EINVAL ?
			   "metadata that .props text cannot hold" :
			   "out of memory");
		goto out;
	}
	if (form == SYCLBIN_FORM_V2) {
		rc = write_v2(&w, out, size, err);
		goto out;
	}
	rc = write_bare(&w, &bare, &bsz);
	if (rc) {
		errmsg_set(err, "SYCLBIN writer: %s", rc == -EOVERFLOW ?
			   "sizes overflow" : "out of memory");
		goto out;
	}
	if (form == SYCLBIN_FORM_BARE) {
		*out = bare;
		*size = bsz;
		bare = NULL;
		goto out;
	}
	env.image_kind = OFFLOAD_IMAGE_SYCLBIN;
	env.offload_kind = OFFLOAD_KIND_SYCL;
	env.image = bare;
	env.image_size = bsz;
	rc = offload_binary_write(&env, 1, 2, out, size, err);
out:
	free(bare);
	wfile_fini(&w);
	return rc;
}
