// SPDX-License-Identifier: MIT
/* SYCLBIN files: reader of the three forms and writer (syclbin.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "internal.h"
#include "syclbin.h"

#define FILE_HDR 56u	/* magic, version, 3 counts, pad, 4 x u64 */
#define TABLE_HDR 32u	/* each abstract-module, IR and native header */

static const char *fname_or(const char *fname)
{
	return fname ? fname : "<SYCLBIN>";
}

static void image_fini(struct syclbin_image *img)
{
	props_free(img->meta);
	free(img->target);
	free(img->arch);
}

void syclbin_free(struct syclbin *sb)
{
	size_t i, j;

	if (!sb)
		return;
	for (i = 0; i < sb->nmodules; i++) {
		struct syclbin_module *m = &sb->modules[i];

		props_free(m->meta);
		for (j = 0; j < m->nir; j++)
			image_fini(&m->ir[j]);
		for (j = 0; j < m->nnative; j++)
			image_fini(&m->native[j]);
		free(m->ir);
		free(m->native);
	}
	free(sb->modules);
	props_free(sb->global);
	offload_binary_free(sb->ob);
	free(sb);
}

int syclbin_is(const void *buf, size_t len)
{
	const unsigned char *b = buf;
	uint64_t eoff;

	if (!buf || len < 4)
		return 0;
	if (props_le32(b) == SYCLBIN_MAGIC)
		return 1;
	if (!offload_binary_is(b, len) || len < 32)
		return 0;
	eoff = props_le64(b + 16);
	return eoff <= len - 2 && (b[eoff] | b[eoff + 1] << 8) ==
				   (int)OFFLOAD_IMAGE_SYCLBIN;
}

/* ---- metadata ---- */

static int parse_meta(const unsigned char *text, size_t len, const char *fname,
		      const char *what, struct props **out,
		      struct props_error *err)
{
	struct props_error perr = { { 0 } };
	int rc;

	rc = props_parse((const char *)text, len, fname, out, &perr);
	if (rc)
		props_errf(err, "%s: SYCLBIN %s: %s", fname_or(fname), what,
			   perr.msg);
	/* a number out of range (-ERANGE) is a malformed file too */
	return rc && rc != -ENOMEM ? -EINVAL : rc;
}

/* A byte-array (or string) property of set as a NUL-terminated copy. */
static char *meta_string(const struct props *p, const char *set,
			 const char *name)
{
	const struct props_set *s = props_find_set(p, set);
	const struct props_prop *pr = s ? props_set_find(s, name) : NULL;

	if (pr && pr->type == PROPS_BYTE_ARRAY && pr->size >= PROPS_BYTES_HEADER)
		return props_strndup((const char *)pr->data + PROPS_BYTES_HEADER,
				     pr->size - PROPS_BYTES_HEADER);
	if (pr && pr->type == PROPS_STRING)
		return props_strndup((const char *)pr->data, pr->size);
	return props_strndup("", 0);
}

static int image_fill(struct syclbin_image *img, const unsigned char *meta,
		      size_t mlen, const unsigned char *data, size_t size,
		      int native, const char *fname, const char *what,
		      struct props_error *err)
{
	const struct props_set *s;
	const struct props_prop *pr;
	const char *set = native ? SYCLBIN_SET_NATIVE : SYCLBIN_SET_IR;
	int rc;

	img->data = data;
	img->size = size;
	img->meta_text = (const char *)meta;
	img->meta_len = mlen;
	img->ir_type = UINT32_MAX;
	rc = parse_meta(meta, mlen, fname, what, &img->meta, err);
	if (rc)
		return rc;
	s = props_find_set(img->meta, SYCLBIN_SET_IR);
	pr = s ? props_set_find(s, "type") : NULL;
	if (pr && pr->type == PROPS_UINT32)
		img->ir_type = pr->u32;
	img->target = meta_string(img->meta, set, "target");
	img->arch = meta_string(img->meta, SYCLBIN_SET_NATIVE, "arch");
	if (!img->target || !img->arch)
		return -ENOMEM;
	return 0;
}

static int read_state(struct syclbin *sb, const char *fname,
		      struct props_error *err)
{
	const struct props_set *s = props_find_set(sb->global,
						   SYCLBIN_SET_GLOBAL);
	const struct props_prop *pr = s ? props_set_find(s, "state") : NULL;

	if (!pr)
		return 0;
	if (pr->type != PROPS_UINT32 || pr->u32 > 2) {
		props_errf(err, "%s: SYCLBIN global metadata: state is not a "
			   "UINT32 of 0, 1 or 2 (type %d, value %" PRIu32 ")",
			   fname_or(fname), (int)pr->type,
			   pr->type == PROPS_UINT32 ? pr->u32 : 0);
		return -EINVAL;
	}
	sb->state = pr->u32;
	sb->has_state = 1;
	return 0;
}

/* ---- bare (SYBI) ---- */

struct table {
	const unsigned char *p;
	uint64_t size;
	const char *name;
};

static int table_get(const struct table *t, uint64_t off, uint64_t size,
		     const char *fname, const char *what,
		     const unsigned char **out, struct props_error *err)
{
	if (off > t->size || size > t->size - off) {
		props_errf(err, "%s: SYCLBIN %s (offset %" PRIu64 ", size %"
			   PRIu64 ") outside the %s (%" PRIu64 " bytes)",
			   fname_or(fname), what, off, size, t->name, t->size);
		return -EINVAL;
	}
	*out = t->p + off;
	return 0;
}

static int bare_image(const unsigned char *hdr, const struct table *meta,
		      const struct table *bin, int native, const char *fname,
		      const char *what, struct syclbin_image *img,
		      struct props_error *err)
{
	const unsigned char *m, *d;
	uint64_t msz = props_le64(hdr + 8), dsz = props_le64(hdr + 24);
	char w[128];
	int rc;

	snprintf(w, sizeof(w), "%s metadata", what);
	rc = table_get(meta, props_le64(hdr), msz, fname, w, &m, err);
	if (rc)
		return rc;
	snprintf(w, sizeof(w), "%s bytes", what);
	rc = table_get(bin, props_le64(hdr + 16), dsz, fname, w, &d, err);
	if (rc)
		return rc;
	snprintf(w, sizeof(w), "%s metadata", what);
	return image_fill(img, m, (size_t)msz, d, (size_t)dsz, native, fname,
			  w, err);
}

static int bare_module(const unsigned char *b, uint32_t i, uint32_t amc,
		       uint32_t irc, uint32_t ndc, const struct table *meta,
		       const struct table *bin, const char *fname,
		       struct syclbin_module *m, struct props_error *err)
{
	const unsigned char *h = b + FILE_HDR + (uint64_t)TABLE_HDR * i, *mt;
	uint32_t nir = props_le32(h + 16), iroff = props_le32(h + 20);
	uint32_t nnat = props_le32(h + 24), natoff = props_le32(h + 28);
	uint64_t irbase = FILE_HDR + (uint64_t)TABLE_HDR * amc;
	uint64_t natbase = irbase + (uint64_t)TABLE_HDR * irc;
	char what[96];
	uint32_t j;
	int rc;

	snprintf(what, sizeof(what), "abstract module %" PRIu32 " metadata", i);
	rc = table_get(meta, props_le64(h), props_le64(h + 8), fname, what,
		       &mt, err);
	if (rc)
		return rc;
	m->meta_text = (const char *)mt;
	m->meta_len = (size_t)props_le64(h + 8);
	rc = parse_meta(mt, m->meta_len, fname, what, &m->meta, err);
	if (rc)
		return rc;
	if ((uint64_t)iroff + nir > irc || (uint64_t)natoff + nnat > ndc) {
		props_errf(err, "%s: SYCLBIN abstract module %" PRIu32
			   ": IR modules %" PRIu32 "+%" PRIu32 " of %" PRIu32
			   ", native images %" PRIu32 "+%" PRIu32 " of %" PRIu32
			   ": past the header tables", fname_or(fname), i,
			   iroff, nir, irc, natoff, nnat, ndc);
		return -EINVAL;
	}
	m->ir = calloc(nir ? nir : 1, sizeof(*m->ir));
	m->native = calloc(nnat ? nnat : 1, sizeof(*m->native));
	if (!m->ir || !m->native)
		return -ENOMEM;
	for (j = 0; j < nir; j++, m->nir++) {
		snprintf(what, sizeof(what),
			 "abstract module %" PRIu32 " IR module %" PRIu32, i, j);
		rc = bare_image(b + irbase + (uint64_t)TABLE_HDR * (iroff + j),
				meta, bin, 0, fname, what, &m->ir[j], err);
		if (rc) {
			m->nir++;
			return rc;
		}
	}
	for (j = 0; j < nnat; j++, m->nnative++) {
		snprintf(what, sizeof(what),
			 "abstract module %" PRIu32 " native image %" PRIu32,
			 i, j);
		rc = bare_image(b + natbase +
				(uint64_t)TABLE_HDR * (natoff + j), meta, bin, 1,
				fname, what, &m->native[j], err);
		if (rc) {
			m->nnative++;
			return rc;
		}
	}
	return 0;
}

static int parse_bare(const unsigned char *b, size_t len, const char *fname,
		      struct syclbin *sb, struct props_error *err)
{
	uint32_t version, amc, irc, ndc, i;
	uint64_t msize, bsize, hblock, ameta;
	struct table meta = { .name = "metadata byte table" };
	struct table bin = { .name = "binary byte table" };
	const unsigned char *g;
	int rc;

	if (len < FILE_HDR) {
		props_errf(err, "%s: SYCLBIN file header truncated: %zu bytes, "
			   "expected %u", fname_or(fname), len, FILE_HDR);
		return -EINVAL;
	}
	if (props_le32(b) != SYCLBIN_MAGIC) {
		props_errf(err, "%s: SYCLBIN magic 0x%08" PRIx32 ", expected "
			   "0x%08x (\"IBYS\")", fname_or(fname), props_le32(b),
			   SYCLBIN_MAGIC);
		return -EINVAL;
	}
	version = props_le32(b + 4);
	if (version > SYCLBIN_BARE_VERSION) {
		props_errf(err, "%s: SYCLBIN version %" PRIu32 " not supported "
			   "(expected %u)", fname_or(fname), version,
			   SYCLBIN_BARE_VERSION);
		return -EINVAL;
	}
	amc = props_le32(b + 8);
	irc = props_le32(b + 12);
	ndc = props_le32(b + 16);
	msize = props_le64(b + 24);
	bsize = props_le64(b + 32);
	hblock = FILE_HDR + (uint64_t)TABLE_HDR * ((uint64_t)amc + irc + ndc);
	if (msize > UINT64_MAX - 7 || hblock > len) {
		props_errf(err, "%s: SYCLBIN header tables (%" PRIu32
			   " abstract modules, %" PRIu32 " IR modules, %" PRIu32
			   " native images) past the end (%zu bytes)",
			   fname_or(fname), amc, irc, ndc, len);
		return -EINVAL;
	}
	ameta = (msize + 7) & ~(uint64_t)7;
	if (ameta > len - hblock || bsize > len - hblock - ameta) {
		props_errf(err, "%s: SYCLBIN byte tables (metadata %" PRIu64
			   ", binary %" PRIu64 " bytes) past the end (%zu bytes)",
			   fname_or(fname), msize, bsize, len);
		return -EINVAL;
	}
	meta.p = b + hblock;
	meta.size = msize;
	bin.p = b + hblock + ameta;
	bin.size = bsize;
	sb->version = 1;
	rc = table_get(&meta, props_le64(b + 40), props_le64(b + 48), fname,
		       "global metadata", &g, err);
	if (rc)
		return rc;
	rc = parse_meta(g, (size_t)props_le64(b + 48), fname, "global metadata",
			&sb->global, err);
	if (rc)
		return rc;
	rc = read_state(sb, fname, err);
	if (rc)
		return rc;
	sb->modules = calloc(amc ? amc : 1, sizeof(*sb->modules));
	if (!sb->modules)
		return -ENOMEM;
	for (i = 0; i < amc; i++) {
		sb->nmodules = i + 1;
		rc = bare_module(b, i, amc, irc, ndc, &meta, &bin, fname,
				 &sb->modules[i], err);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- version 2: roles in a multi-entry OffloadBinary ---- */

static int am_index(const struct offload_entry *e, size_t i, size_t max,
		    const char *fname, size_t *out, struct props_error *err)
{
	size_t len = 0;
	const char *s = offload_entry_string(e, "am_index", &len);
	struct props_quote q;
	uint64_t v = 0;
	const char *p;

	for (p = s; p && *p >= '0' && *p <= '9' && v <= max; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (!s || !*s || *p || v >= max) {
		props_errf(err, "%s: SYCLBIN entry %zu: am_index '%s' is not a "
			   "decimal below the entry count %zu", fname_or(fname),
			   i, s ? props_quote(&q, s, len) : "(absent)", max);
		return -EINVAL;
	}
	*out = (size_t)v;
	return 0;
}

static int v2_append(struct syclbin_image **v, size_t *n)
{
	struct syclbin_image *nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -ENOMEM;
	memset(&nv[*n], 0, sizeof(**v));
	*v = nv;
	return 0;
}

static int v2_entry(struct syclbin *sb, const struct offload_entry *e,
		    size_t i, size_t idx, int native, const char *fname,
		    struct props_error *err)
{
	struct syclbin_module *m = &sb->modules[idx];
	struct syclbin_image **v = native ? &m->native : &m->ir;
	size_t *n = native ? &m->nnative : &m->nir;
	uint64_t msz;
	char what[96];
	int rc;

	if (e->image_size < 8 || (msz = props_le64(e->image)) >
				 e->image_size - 8) {
		props_errf(err, "%s: SYCLBIN entry %zu: image of %zu bytes "
			   "shorter than its metadata size field and metadata",
			   fname_or(fname), i, e->image_size);
		return -EINVAL;
	}
	rc = v2_append(v, n);
	if (rc)
		return rc;
	(*n)++;
	snprintf(what, sizeof(what), "entry %zu metadata", i);
	return image_fill(&(*v)[*n - 1], e->image + 8, (size_t)msz,
			  e->image + 8 + msz, e->image_size - 8 - (size_t)msz,
			  native, fname, what, err);
}

static int parse_v2(const struct offload_binary *ob, const char *fname,
		    struct syclbin *sb, struct props_error *err)
{
	const struct offload_entry *global = NULL;
	size_t i, idx, nmod = 0, len = 0;
	struct props_quote q;
	const char *role, *ver;
	int rc;

	for (i = 0; i < ob->nentries; i++) {
		const struct offload_entry *e = &ob->entries[i];

		if (e->image_kind != OFFLOAD_IMAGE_SYCLBIN) {
			props_errf(err, "%s: SYCLBIN entry %zu: image kind %u, "
				   "expected %u", fname_or(fname), i,
				   e->image_kind, OFFLOAD_IMAGE_SYCLBIN);
			return -EINVAL;
		}
		role = offload_entry_string(e, "role", &len);
		if (role && !strcmp(role, "global_metadata")) {
			if (global) {
				props_errf(err, "%s: SYCLBIN entry %zu: a second "
					   "global_metadata", fname_or(fname), i);
				return -EINVAL;
			}
			global = e;
			continue;
		}
		if (!role || (strcmp(role, "am_metadata") &&
			      strcmp(role, "ir") && strcmp(role, "native"))) {
			props_errf(err, "%s: SYCLBIN entry %zu: role '%s', "
				   "expected global_metadata, am_metadata, ir or "
				   "native", fname_or(fname), i,
				   role ? props_quote(&q, role, len) : "(absent)");
			return -EINVAL;
		}
		rc = am_index(e, i, ob->nentries, fname, &idx, err);
		if (rc)
			return rc;
		if (idx + 1 > nmod)
			nmod = idx + 1;
	}
	if (!global) {
		props_errf(err, "%s: SYCLBIN: no global_metadata entry",
			   fname_or(fname));
		return -EINVAL;
	}
	ver = offload_entry_string(global, "sycl_format_version", &len);
	if (ver && *ver && strcmp(ver, "2")) {
		props_errf(err, "%s: SYCLBIN sycl_format_version '%s', expected "
			   "2", fname_or(fname), props_quote(&q, ver, len));
		return -EINVAL;
	}
	sb->version = 2;
	rc = parse_meta(global->image, global->image_size, fname,
			"global metadata", &sb->global, err);
	if (rc || (rc = read_state(sb, fname, err)))
		return rc;
	sb->modules = calloc(nmod ? nmod : 1, sizeof(*sb->modules));
	if (!sb->modules)
		return -ENOMEM;
	sb->nmodules = nmod;
	for (i = 0; i < ob->nentries; i++) {
		const struct offload_entry *e = &ob->entries[i];
		struct syclbin_module *m;
		char what[64];

		role = offload_entry_string(e, "role", NULL);
		if (e == global)
			continue;
		am_index(e, i, ob->nentries, fname, &idx, err);
		m = &sb->modules[idx];
		if (!strcmp(role, "am_metadata")) {
			if (m->meta) {
				props_errf(err, "%s: SYCLBIN entry %zu: a second "
					   "am_metadata for am_index %zu",
					   fname_or(fname), i, idx);
				return -EINVAL;
			}
			snprintf(what, sizeof(what),
				 "abstract module %zu metadata", idx);
			m->meta_text = (const char *)e->image;
			m->meta_len = e->image_size;
			rc = parse_meta(e->image, e->image_size, fname, what,
					&m->meta, err);
		} else {
			rc = v2_entry(sb, e, i, idx, !strcmp(role, "native"),
				      fname, err);
		}
		if (rc)
			return rc;
	}
	for (i = 0; i < nmod; i++) {
		if (!sb->modules[i].meta) {
			props_errf(err, "%s: SYCLBIN: no am_metadata for "
				   "am_index %zu", fname_or(fname), i);
			return -EINVAL;
		}
	}
	return 0;
}

static int bare_magic(const unsigned char *p, size_t n)
{
	return n >= 4 && props_le32(p) == SYCLBIN_MAGIC;
}

int syclbin_parse(const void *buf, size_t len, const char *fname,
		  struct syclbin **out, struct props_error *err)
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
		props_errf(err, "%s: not a SYCLBIN (magic \"IBYS\" or an "
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
		props_errf(err, "%s: out of memory", fname_or(fname));
	syclbin_free(sb);
	return rc;
}

size_t syclbin_module_kernel_count(const struct syclbin_module *m)
{
	const struct props_set *s = m && m->meta ?
		props_find_set(m->meta, SYCLBIN_SET_KERNEL_NAMES) : NULL;

	return s ? s->nprops : 0;
}

const char *syclbin_module_kernel(const struct syclbin_module *m, size_t i)
{
	const struct props_set *s = m && m->meta ?
		props_find_set(m->meta, SYCLBIN_SET_KERNEL_NAMES) : NULL;

	return s && i < s->nprops ? s->props[i].name : NULL;
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
		props_put_le64(h, *moff);
		props_put_le64(h + 8, wi->meta.n);
		props_put_le64(h + 16, *boff);
		props_put_le64(h + 24, wi->in->size);
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
	props_put_le32(b, SYCLBIN_MAGIC);
	props_put_le32(b + 4, SYCLBIN_BARE_VERSION);
	props_put_le32(b + 8, (uint32_t)w->n);
	props_put_le32(b + 12, (uint32_t)nir);
	props_put_le32(b + 16, (uint32_t)nnat);
	props_put_le64(b + 24, msize);
	props_put_le64(b + 32, bsize);
	props_put_le64(b + 40, 0);
	props_put_le64(b + 48, w->global.n);

	mt = b + hblock;
	bt = mt + align8(msize);
	memcpy(mt, w->global.p, w->global.n);
	moff = w->global.n;
	h = b + FILE_HDR;
	for (i = 0; i < w->n; i++, h += TABLE_HDR) {
		const struct wmodule *m = &w->m[i];

		props_put_le64(h, moff);
		props_put_le64(h + 8, m->meta.n);
		props_put_le32(h + 16, (uint32_t)m->nir);
		props_put_le32(h + 20, (uint32_t)irx);
		props_put_le32(h + 24, (uint32_t)m->nnative);
		props_put_le32(h + 28, (uint32_t)natx);
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
	props_put_le64(p, wi->meta.n);
	memcpy(p + 8, wi->meta.p, wi->meta.n);
	if (wi->in->size)
		memcpy(p + 8 + wi->meta.n, wi->in->data, wi->in->size);
	return p;
}

static int write_v2(const struct wfile *w, unsigned char **out, size_t *size,
		    struct props_error *err)
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
		  size_t *size, struct props_error *err)
{
	struct offload_image_in env = { 0 };
	unsigned char *bare = NULL;
	struct wfile w;
	size_t bsz = 0;
	int rc;

	*out = NULL;
	*size = 0;
	if (state > 2 || form < SYCLBIN_FORM_BARE || form > SYCLBIN_FORM_V2) {
		props_errf(err, "SYCLBIN writer: state %" PRIu32 " or form %d "
			   "out of range", state, (int)form);
		return -EINVAL;
	}
	rc = wfile_init(&w, state, mods, n);
	if (rc) {
		props_errf(err, "SYCLBIN writer: %s", rc == -EINVAL ?
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
		props_errf(err, "SYCLBIN writer: %s", rc == -EOVERFLOW ?
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
