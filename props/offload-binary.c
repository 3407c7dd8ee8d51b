// SPDX-License-Identifier: MIT
/* LLVM's OffloadBinary container: reader and writer (offload-binary.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "internal.h"
#include "devimg_limits.h"
#include "offload-binary.h"
#include "offload-inflate.h"

#define HDR_V1_SIZE 32u		/* versions 1 and 2 */
#define HDR_V3_SIZE 40u		/* version 3 adds InflatedSize */
#define ENTRY_SIZE 40u
#define STR_V1_SIZE 16u		/* key offset, value offset */
#define STR_SIZE 24u		/* key offset, value offset, value size */

int offload_binary_is(const void *buf, size_t len)
{
	return buf && len >= OFFLOAD_BINARY_MAGIC_LEN &&
	       !memcmp(buf, OFFLOAD_BINARY_MAGIC, OFFLOAD_BINARY_MAGIC_LEN);
}


static const char *fname_or(const char *fname)
{
	return fname ? fname : "<OffloadBinary>";
}

void offload_binary_free(struct offload_binary *ob)
{
	size_t i, j;

	if (!ob)
		return;
	for (i = 0; i < ob->nentries; i++) {
		struct offload_entry *e = &ob->entries[i];

		for (j = 0; j < e->nstrings; j++) {
			free((char *)e->strings[j].key);
			free((char *)e->strings[j].value);
		}
		free(e->strings);
	}
	free(ob->entries);
	free(ob->owned);
	free(ob);
}

/* A NUL-terminated key at koff inside the blob of size bsz. */
static int read_key(const unsigned char *b, uint64_t bsz, uint64_t koff,
		    const char *where, const char **key, struct props_error *err)
{
	const unsigned char *nul;

	if (koff >= bsz) {
		props_errf(err, "%s: key offset %" PRIu64
			   " past the blob's end (%" PRIu64 " bytes)",
			   where, koff, bsz);
		return -EINVAL;
	}
	nul = memchr(b + koff, 0, (size_t)(bsz - koff));
	if (!nul) {
		props_errf(err, "%s: key at offset %" PRIu64
			   " has no NUL before the blob's end", where, koff);
		return -EINVAL;
	}
	*key = (const char *)(b + koff);
	return 0;
}

static int add_string(struct offload_entry *e, const char *key,
		      const unsigned char *val, size_t vlen)
{
	struct offload_string *s;
	char *v;
	size_t i;

	if (vlen == SIZE_MAX)
		return -EOVERFLOW;
	v = malloc(vlen + 1);
	if (!v)
		return -ENOMEM;
	if (vlen)
		memcpy(v, val, vlen);
	v[vlen] = '\0';
	/* LLVM keeps a map: a repeated key takes the later value. */
	for (i = 0; i < e->nstrings; i++) {
		if (!strcmp(e->strings[i].key, key)) {
			free((char *)e->strings[i].value);
			e->strings[i].value = v;
			e->strings[i].value_len = vlen;
			return 0;
		}
	}
	s = &e->strings[e->nstrings];
	s->key = strdup(key);
	if (!s->key) {
		free(v);
		return -ENOMEM;
	}
	s->value = v;
	s->value_len = vlen;
	e->nstrings++;
	return 0;
}

static int parse_entry(const unsigned char *b, uint64_t bsz, uint32_t version,
		       const unsigned char *raw, size_t idx, const char *fname,
		       struct offload_entry *e, struct props_error *err)
{
	uint64_t soff, nstr, ioff, isz, esz, i;
	char where[300];
	int rc;

	snprintf(where, sizeof(where), "%s: OffloadBinary entry %zu",
		 fname_or(fname), idx);
	e->image_kind = props_le16(raw);
	e->offload_kind = props_le16(raw + 2);
	e->flags = props_le32(raw + 4);
	soff = props_le64(raw + 8);
	nstr = props_le64(raw + 16);
	ioff = props_le64(raw + 24);
	isz = props_le64(raw + 32);

	if (ioff > bsz || isz > bsz - ioff) {
		props_errf(err, "%s: image (offset %" PRIu64 ", size %" PRIu64
			   ") past the blob's end (%" PRIu64 " bytes)",
			   where, ioff, isz, bsz);
		return -EINVAL;
	}
	esz = version == 1 ? STR_V1_SIZE : STR_SIZE;
	if (soff > bsz || nstr > (bsz - soff) / esz) {
		props_errf(err, "%s: string map (offset %" PRIu64 ", %" PRIu64
			   " entries) past the blob's end (%" PRIu64 " bytes)",
			   where, soff, nstr, bsz);
		return -EINVAL;
	}
	e->image = b + ioff;
	e->image_size = (size_t)isz;
	if (!nstr)
		return 0;
	e->strings = calloc((size_t)nstr, sizeof(*e->strings));
	if (!e->strings)
		return -ENOMEM;
	for (i = 0; i < nstr; i++) {
		const unsigned char *se = b + soff + i * esz;
		uint64_t koff = props_le64(se), voff = props_le64(se + 8);
		const unsigned char *nul;
		const char *key;
		uint64_t vlen;
		char swhere[360];

		snprintf(swhere, sizeof(swhere), "%s string %" PRIu64,
			 where, i);
		rc = read_key(b, bsz, koff, swhere, &key, err);
		if (rc)
			return rc;
		if (voff > bsz) {
			props_errf(err, "%s: value offset %" PRIu64
				   " past the blob's end (%" PRIu64 " bytes)",
				   swhere, voff, bsz);
			return -EINVAL;
		}
		if (version == 1) {
			nul = memchr(b + voff, 0, (size_t)(bsz - voff));
			if (!nul) {
				props_errf(err, "%s: value at offset %" PRIu64
					   " has no NUL before the blob's end",
					   swhere, voff);
				return -EINVAL;
			}
			vlen = (uint64_t)(nul - (b + voff));
		} else {
			vlen = props_le64(se + 16);
			if (vlen > bsz - voff) {
				props_errf(err, "%s: value (offset %" PRIu64
					   ", size %" PRIu64 ") past the blob's end (%"
					   PRIu64 " bytes)", swhere, voff, vlen, bsz);
				return -EINVAL;
			}
		}
		rc = add_string(e, key, b + voff, (size_t)vlen);
		if (rc)
			return rc;
	}
	return 0;
}

static int parse_blob(const unsigned char *b, uint64_t bsz, const char *fname,
		      struct offload_binary *ob, struct props_error *err)
{
	uint32_t version = props_le32(b + 4);
	uint64_t eoff = props_le64(b + 16);
	uint64_t count = props_le64(b + 24);
	size_t i;
	int rc;

	if (version == 1)
		count = 1;	/* the field held the entry size then */
	if (eoff > bsz || count > (bsz - eoff) / ENTRY_SIZE) {
		props_errf(err, "%s: OffloadBinary EntriesOffset %" PRIu64
			   " with %" PRIu64 " entries of %u bytes past the "
			   "blob's end (%" PRIu64 " bytes)", fname_or(fname),
			   eoff, count, ENTRY_SIZE, bsz);
		return -EINVAL;
	}
	if (!count) {
		props_errf(err, "%s: OffloadBinary EntriesCount is 0, expected "
			   "at least one entry", fname_or(fname));
		return -EINVAL;
	}
	ob->entries = calloc((size_t)count, sizeof(*ob->entries));
	if (!ob->entries)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		rc = parse_entry(b, bsz, version, b + eoff + i * ENTRY_SIZE, i,
				 fname, &ob->entries[i], err);
		ob->nentries = i + 1;
		if (rc)
			return rc;
	}
	return 0;
}


/*
 * A compressed blob (version 3, InflatedSize != 0): its header, with Size
 * = InflatedSize and InflatedSize = 0, then the body after EntriesOffset
 * inflated, in ob->owned, which the entries then point into.
 */
static int inflate_blob(const unsigned char *b, uint64_t bsz,
			uint64_t inflated, const char *fname,
			struct offload_binary *ob, struct props_error *err)
{
	uint64_t eoff = props_le64(b + 16);
	const char *what = "";
	int rc;

	if (eoff < HDR_V3_SIZE || eoff > bsz || inflated < eoff ||
	    inflated > DEVIMG_LIMIT_IMAGE_FILE || inflated > SIZE_MAX / 2) {
		props_errf(err, "%s: compressed OffloadBinary: EntriesOffset %"
			   PRIu64 ", Size %" PRIu64 ", InflatedSize %" PRIu64
			   ": expected %u <= EntriesOffset <= Size and "
			   "EntriesOffset <= InflatedSize <= %" PRIu64,
			   fname_or(fname), eoff, bsz, inflated, HDR_V3_SIZE,
			   (uint64_t)DEVIMG_LIMIT_IMAGE_FILE);
		return -EINVAL;
	}
	rc = offload_inflate(b + eoff, (size_t)(bsz - eoff), (size_t)eoff,
			     (size_t)(inflated - eoff), &ob->owned, &what);
	if (rc) {
		props_errf(err, "%s: compressed OffloadBinary (InflatedSize %"
			   PRIu64 "): %s", fname_or(fname), inflated, what);
		return rc;
	}
	memcpy(ob->owned, b, (size_t)eoff);
	props_put_le64(ob->owned + 8, inflated);
	props_put_le64(ob->owned + 32, 0);
	return 0;
}

int offload_binary_parse_at(const void *buf, size_t len, size_t *off,
			    const char *fname, struct offload_binary **out,
			    struct props_error *err)
{
	const unsigned char *b;
	struct offload_binary *ob;
	uint64_t bsz, avail, inflated = 0;
	uint32_t version;
	size_t next;
	int rc;

	*out = NULL;
	if (!buf || *off > len) {
		props_errf(err, "%s: OffloadBinary offset %zu past the end (%zu "
			   "bytes)", fname_or(fname), *off, len);
		return -EINVAL;
	}
	b = (const unsigned char *)buf + *off;
	avail = len - *off;
	if (!offload_binary_is(b, (size_t)avail)) {
		props_errf(err, "%s: at offset %zu: not an OffloadBinary (magic "
			   "10 ff 10 ad expected)", fname_or(fname), *off);
		return -EINVAL;
	}
	if (avail < HDR_V1_SIZE) {
		props_errf(err, "%s: OffloadBinary header truncated: %" PRIu64
			   " bytes, expected at least %u", fname_or(fname),
			   avail, HDR_V1_SIZE);
		return -EINVAL;
	}
	version = props_le32(b + 4);
	if (version == 0 || version > OFFLOAD_BINARY_VERSION) {
		props_errf(err, "%s: OffloadBinary version %" PRIu32
			   " not supported (expected 1 to %u)", fname_or(fname),
			   version, OFFLOAD_BINARY_VERSION);
		return -EINVAL;
	}
	if (version >= 3 && avail < HDR_V3_SIZE) {
		props_errf(err, "%s: OffloadBinary version 3 header truncated: "
			   "%" PRIu64 " bytes, expected %u", fname_or(fname),
			   avail, HDR_V3_SIZE);
		return -EINVAL;
	}
	bsz = props_le64(b + 8);
	if (bsz > avail || bsz < (version >= 3 ? HDR_V3_SIZE : HDR_V1_SIZE)) {
		props_errf(err, "%s: OffloadBinary Size %" PRIu64 ": expected "
			   "%u (the header) to %" PRIu64 " (the bytes present)",
			   fname_or(fname), bsz,
			   version >= 3 ? HDR_V3_SIZE : HDR_V1_SIZE, avail);
		return -EINVAL;
	}
	if (version >= 3)
		inflated = props_le64(b + 32);
	ob = calloc(1, sizeof(*ob));
	if (!ob)
		return -ENOMEM;
	ob->version = version;
	ob->size = (size_t)bsz;
	if (inflated) {
		rc = inflate_blob(b, bsz, inflated, fname, ob, err);
		if (!rc)
			rc = parse_blob(ob->owned, inflated, fname, ob, err);
	} else {
		rc = parse_blob(b, bsz, fname, ob, err);
	}
	if (rc) {
		offload_binary_free(ob);
		if (rc == -ENOMEM)
			props_errf(err, "%s: out of memory", fname_or(fname));
		return rc;
	}
	/* The next blob starts 8-aligned from the section's start. */
	next = *off + (size_t)bsz;
	if (next % OFFLOAD_BINARY_ALIGN) {
		size_t pad = OFFLOAD_BINARY_ALIGN - next % OFFLOAD_BINARY_ALIGN;

		next = pad > len - next ? len : next + pad;
	}
	*off = next;
	*out = ob;
	return 0;
}

int offload_binary_parse(const void *buf, size_t len, const char *fname,
			 struct offload_binary **out, struct props_error *err)
{
	size_t off = 0;

	return offload_binary_parse_at(buf, len, &off, fname, out, err);
}

const char *offload_entry_string(const struct offload_entry *e,
				 const char *key, size_t *len)
{
	size_t i;

	for (i = 0; e && key && i < e->nstrings; i++) {
		if (!strcmp(e->strings[i].key, key)) {
			if (len)
				*len = e->strings[i].value_len;
			return e->strings[i].value;
		}
	}
	return NULL;
}

static const char *const image_kind_names[] = {
	[OFFLOAD_IMAGE_OBJECT] = "o",
	[OFFLOAD_IMAGE_BITCODE] = "bc",
	[OFFLOAD_IMAGE_CUBIN] = "cubin",
	[OFFLOAD_IMAGE_FATBINARY] = "fatbin",
	[OFFLOAD_IMAGE_PTX] = "s",
	[OFFLOAD_IMAGE_SPIRV] = "spv",
};

static const struct {
	unsigned kind;
	const char *name;
} offload_kind_names[] = {
	{ OFFLOAD_KIND_OPENMP, "openmp" },
	{ OFFLOAD_KIND_CUDA, "cuda" },
	{ OFFLOAD_KIND_HIP, "hip" },
	{ OFFLOAD_KIND_SYCL, "sycl" },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const char *offload_image_kind_name(unsigned kind)
{
	if (kind < NELEM(image_kind_names) && image_kind_names[kind])
		return image_kind_names[kind];
	return "";
}

const char *offload_kind_name(unsigned kind)
{
	size_t i;

	for (i = 0; i < NELEM(offload_kind_names); i++)
		if (offload_kind_names[i].kind == kind)
			return offload_kind_names[i].name;
	return "none";
}

unsigned offload_image_kind_from_name(const char *name)
{
	size_t i;

	for (i = 1; name && i < NELEM(image_kind_names); i++)
		if (!strcmp(image_kind_names[i], name))
			return (unsigned)i;
	return OFFLOAD_IMAGE_NONE;
}

unsigned offload_kind_from_name(const char *name)
{
	size_t i;

	for (i = 0; name && i < NELEM(offload_kind_names); i++)
		if (!strcmp(offload_kind_names[i].name, name))
			return offload_kind_names[i].kind;
	return OFFLOAD_KIND_NONE;
}

/* ---- writer ---- */




static bool align8(size_t v, size_t *r)
{
	return size_add(v, (OFFLOAD_BINARY_ALIGN - v % OFFLOAD_BINARY_ALIGN) %
			OFFLOAD_BINARY_ALIGN, r);
}

/* The string table: a NUL, then each distinct string once with a NUL. */
struct strtab {
	const char **s;
	size_t *len;
	size_t *off;
	size_t n;
	size_t size;
};

static int strtab_add(struct strtab *t, const char *s, size_t len,
		      size_t *off)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (t->len[i] == len && !memcmp(t->s[i], s, len)) {
			*off = t->off[i];
			return 0;
		}
	}
	t->s[t->n] = s;
	t->len[t->n] = len;
	t->off[t->n] = t->size;
	*off = t->size;
	t->n++;
	if (size_add3(t->size, len, 1, &t->size))
		return -EOVERFLOW;
	return 0;
}

static int check_inputs(const struct offload_image_in *in, size_t n,
			unsigned version, size_t *nstr, size_t *imgsz,
			struct props_error *err)
{
	size_t i, j;

	if (!n || (version == 1 && n != 1) || version < 1 ||
	    version > OFFLOAD_BINARY_VERSION) {
		props_errf(err, "OffloadBinary writer: %zu entries in version %u "
			   "(expected version 1 to %u, one entry in version 1, "
			   "at least one otherwise)", n, version,
			   OFFLOAD_BINARY_VERSION);
		return -EINVAL;
	}
	*nstr = 0;
	*imgsz = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < in[i].nstrings; j++) {
			const struct offload_string *s = &in[i].strings[j];

			if (!s->key || !s->value ||
			    (version == 1 &&
			     memchr(s->value, 0, s->value_len))) {
				props_errf(err, "OffloadBinary writer: entry %zu "
					   "string %zu: missing key or value, or a "
					   "NUL inside a version 1 value", i, j);
				return -EINVAL;
			}
		}
		if (size_accumulate(nstr, in[i].nstrings) ||
		    size_accumulate(imgsz, in[i].image_size))
			return -EOVERFLOW;
	}
	return 0;
}

int offload_binary_write(const struct offload_image_in *in, size_t n,
			 unsigned version, unsigned char **out, size_t *size,
			 struct props_error *err)
{
	size_t nstr, imgsz, hdr, strent, entries_end, strmap_end, data, total;
	size_t i, j, k, koff, voff, ioff;
	struct strtab t = { 0 };
	unsigned char *b = NULL, *p;
	int rc;

	*out = NULL;
	*size = 0;
	rc = check_inputs(in, n, version, &nstr, &imgsz, err);
	if (rc)
		goto overflow;
	hdr = version >= 3 ? HDR_V3_SIZE : HDR_V1_SIZE;
	strent = version == 1 ? STR_V1_SIZE : STR_SIZE;
	rc = -ENOMEM;
	if (nstr > SIZE_MAX / 2 - 1)
		goto overflow;
	t.s = calloc(2 * nstr + 1, sizeof(*t.s));
	t.len = calloc(2 * nstr + 1, sizeof(*t.len));
	t.off = calloc(2 * nstr + 1, sizeof(*t.off));
	if (!t.s || !t.len || !t.off)
		goto fail;
	t.size = 1;
	for (i = 0; i < n; i++) {
		for (j = 0; j < in[i].nstrings; j++) {
			const struct offload_string *s = &in[i].strings[j];

			if (strtab_add(&t, s->key, strlen(s->key), &koff) ||
			    strtab_add(&t, s->value, s->value_len, &voff)) {
				rc = -EOVERFLOW;
				goto overflow;
			}
		}
	}
	rc = -EOVERFLOW;
	if (size_mul(n, ENTRY_SIZE, &entries_end) ||
	    size_accumulate(&entries_end, hdr) ||
	    size_mul(nstr, strent, &strmap_end) ||
	    size_accumulate(&strmap_end, entries_end) ||
	    size_add(strmap_end, t.size, &data) || align8(data, &data) ||
	    size_add(data, imgsz, &total) || align8(total, &total))
		goto overflow;
	rc = -ENOMEM;
	b = calloc(1, total);
	if (!b)
		goto fail;

	memcpy(b, OFFLOAD_BINARY_MAGIC, OFFLOAD_BINARY_MAGIC_LEN);
	props_put_le32(b + 4, version);
	props_put_le64(b + 8, total);
	props_put_le64(b + 16, hdr);
	/* Version 1 kept the entry size where later versions count them. */
	props_put_le64(b + 24, version == 1 ? ENTRY_SIZE : n);

	p = b + hdr;
	ioff = data;
	k = 0;
	for (i = 0; i < n; i++, p += ENTRY_SIZE) {
		props_put_le16(p, in[i].image_kind);
		props_put_le16(p + 2, in[i].offload_kind);
		props_put_le32(p + 4, in[i].flags);
		props_put_le64(p + 8, entries_end + k * strent);
		props_put_le64(p + 16, in[i].nstrings);
		props_put_le64(p + 24, ioff);
		props_put_le64(p + 32, in[i].image_size);
		if (in[i].image_size)
			memcpy(b + ioff, in[i].image, in[i].image_size);
		ioff += in[i].image_size;
		k += in[i].nstrings;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < in[i].nstrings; j++, p += strent) {
			const struct offload_string *s = &in[i].strings[j];

			strtab_add(&t, s->key, strlen(s->key), &koff);
			strtab_add(&t, s->value, s->value_len, &voff);
			props_put_le64(p, strmap_end + koff);
			props_put_le64(p + 8, strmap_end + voff);
			if (strent == STR_SIZE)
				props_put_le64(p + 16, s->value_len);
		}
	}
	for (i = 0; i < t.n; i++)
		memcpy(b + strmap_end + t.off[i], t.s[i], t.len[i]);

	free(t.s);
	free(t.len);
	free(t.off);
	*out = b;
	*size = total;
	return 0;

overflow:
	if (rc == -EOVERFLOW)
		props_errf(err, "OffloadBinary writer: sizes overflow");
fail:
	if (rc == -ENOMEM)
		props_errf(err, "OffloadBinary writer: out of memory");
	free(t.s);
	free(t.len);
	free(t.off);
	free(b);
	return rc;
}
