// SPDX-License-Identifier: MIT
/* LLVM's OffloadBinary container: reader and writer (offload-binary.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "props/internal.h"
#include "util/devimg_limits.h"
#include "util/hashkey.h"
#include "props/offload-binary.h"
#include "props/offload-inflate.h"

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
	if (!ob)
		return;
	free(ob->entries);
	free(ob->pool);
	free(ob->copies);
	free(ob->owned);
	free(ob);
}

/*
 * ---- Reading in time and memory linear in the blob ----
 *
 * Strings are borrowed from the blob, never copied per entry: a key is
 * NUL-terminated where it lies, a version 1 value too, and a version 2 or
 * 3 value is borrowed when a NUL follows it (LLVM's string table ends
 * every string with one), else copied, the copies together at most the
 * blob's Size. Entries whose string maps are the same (offset and count)
 * share one parsed map; the string entries of the different maps together
 * must fit in Size, so overlapping maps cannot make the reader read a
 * string entry twice per byte of input. What the entries reference, each
 * image and map counted once per entry naming it, stays within
 * DEVIMG_LIMIT_REFERENCE_RATIO times Size: whoever registers, prints or
 * extracts the entries pays per reference, not per byte stored. Every key and version 1 value is
 * measured once, in one pass over the blob (a table by offset), and keys
 * of equal content are found by sorting on a hash, told apart by their
 * bytes with at most Size bytes compared. Sorting is a heapsort: no
 * memory of its own and O(n log n) whatever the input. Heap at its peak:
 * 64 bytes an entry, 80 bytes a string entry read (120 in version 1,
 * whose values are measured too), and the copies.
 */

#define HASH_MUL 0x100000001b3ull	/* odd: every byte of a key counts */
#define MEMO_SLOTS 64u
#define NOT_KEY SIZE_MAX

/* A map's keys by hash, for offload_entry_string(). */
struct offload_key {
	uint64_t hash;
	size_t pos;		/* in the entry's strings */
};

/* A NUL-terminated string (a key, a version 1 value) of the blob. */
struct cstr {
	uint64_t off;
	uint64_t len;
	uint64_t hash;		/* sum of byte i * HASH_MUL^i */
	size_t cls;		/* a key's class: first key of equal bytes */
};

/* What two strings ending at the NULs na < nb share at their ends. */
struct memo {
	uint64_t na, nb;
	uint64_t known;		/* this many last bytes are equal */
	int differ;		/* and the one before them differs */
};

struct reader {
	const unsigned char *b;
	uint64_t bsz;
	uint32_t version;
	unsigned esz;		/* bytes of a string entry */
	const char *fname;
	struct errmsg *err;
	uint64_t nul_end;	/* offsets below it have a NUL after them */
	struct cstr *tab;	/* by offset */
	size_t ntab;
	uint64_t cmp_left;	/* work left for telling keys apart */
	uint64_t copy_left;	/* bytes left for copies of values */
	uint64_t ref_left;	/* bytes left that entries may reference */
	struct memo memo[MEMO_SLOTS];
};

typedef int (*cmp_fn)(const void *a, const void *b, const void *ctx);

/* Elements of at most 32 bytes. */
static void swap_elem(unsigned char *a, unsigned char *b, size_t size)
{
	unsigned char t[32];

	memcpy(t, a, size);
	memcpy(a, b, size);
	memcpy(b, t, size);
}

static void heap_sort(void *base, size_t n, size_t size, cmp_fn cmp,
		      const void *ctx)
{
	unsigned char *v = base;
	size_t start = n / 2, end = n, root, child;

	while (end > 1) {
		if (start > 0) {
			start--;
		} else {
			end--;
			swap_elem(v, v + end * size, size);
		}
		for (root = start; (child = 2 * root + 1) < end; root = child) {
			unsigned char *c = v + child * size;

			if (child + 1 < end && cmp(c, c + size, ctx) < 0)
				child++;
			if (cmp(v + root * size, v + child * size, ctx) >= 0)
				break;
			swap_elem(v + root * size, v + child * size, size);
		}
	}
}

#define CMP3(x, y) ((x) < (y) ? -1 : (x) > (y))

/* Entries i and j by their string map (offset, then count). */
static int cmp_map_of(const unsigned char *ents, size_t i, size_t j)
{
	const unsigned char *x = ents + i * ENTRY_SIZE;
	const unsigned char *y = ents + j * ENTRY_SIZE;
	uint64_t sx = get_le64(x + 8), sy = get_le64(y + 8);
	uint64_t nx = get_le64(x + 16), ny = get_le64(y + 16);

	if (sx != sy)
		return CMP3(sx, sy);
	return CMP3(nx, ny);
}

/* Entries (indices) by their string map, then by index. */
static int cmp_map(const void *a, const void *b, const void *ctx)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = cmp_map_of(ctx, i, j);

	return c ? c : CMP3(i, j);
}

static int cmp_off(const void *a, const void *b, const void *ctx)
{
	const struct cstr *x = a, *y = b;

	if (x->off != y->off)
		return CMP3(x->off, y->off);
	return CMP3(x->cls, y->cls);
}

/* Keys (indices into the table) by hash, length, offset. */
static int cmp_content(const void *a, const void *b, const void *ctx)
{
	const struct cstr *t = ctx;
	const struct cstr *x = &t[*(const size_t *)a];
	const struct cstr *y = &t[*(const size_t *)b];

	if (x->hash != y->hash)
		return CMP3(x->hash, y->hash);
	if (x->len != y->len)
		return CMP3(x->len, y->len);
	return CMP3(x->off, y->off);
}

static int cmp_key(const void *a, const void *b, const void *ctx)
{
	const struct offload_key *x = a, *y = b;

	if (x->hash != y->hash)
		return CMP3(x->hash, y->hash);
	return CMP3(x->pos, y->pos);
}

/*
 * lead[i]: the first entry whose string map is entry i's (the same offset
 * and count), so that a map is read once whatever shares it.
 */
static int map_leaders(const unsigned char *ents, size_t count, size_t **out)
{
	size_t *perm, *lead, k, g, bytes;

	*out = NULL;
	if (size_mul(count, sizeof(*perm), &bytes))
		return -ENOMEM;
	perm = malloc(bytes);
	lead = malloc(bytes);
	if (!perm || !lead) {
		free(perm);
		free(lead);
		return -ENOMEM;
	}
	for (k = 0; k < count; k++)
		perm[k] = k;
	heap_sort(perm, count, sizeof(*perm), cmp_map, ents);
	for (k = 0; k < count; k = g) {
		lead[perm[k]] = perm[k];
		for (g = k + 1; g < count &&
		     !cmp_map_of(ents, perm[g], perm[k]); g++)
			lead[perm[g]] = perm[k];
	}
	free(perm);
	*out = lead;
	return 0;
}

/* 1 when a NUL lies at or after off (off < bsz), found once per byte. */
static int has_nul(struct reader *r, uint64_t off)
{
	const unsigned char *nul;

	if (off < r->nul_end)
		return 1;
	nul = memchr(r->b + off, 0, (size_t)(r->bsz - off));
	if (!nul)
		return 0;
	r->nul_end = (uint64_t)(nul - r->b) + 1;
	return 1;
}

/* The string entries of a map, checked in order as LLVM reads them. */
static int check_strings(struct reader *r, const char *where, uint64_t soff,
			 uint64_t nstr)
{
	const unsigned char *b = r->b;
	uint64_t i, bsz = r->bsz;

	for (i = 0; i < nstr; i++) {
		const unsigned char *se = b + soff + i * r->esz;
		uint64_t koff = get_le64(se), voff = get_le64(se + 8), vlen;

		if (koff >= bsz) {
			errmsg_set(r->err, "%s string %" PRIu64 ": key offset %"
				   PRIu64 " past the blob's end (%" PRIu64
				   " bytes)", where, i, koff, bsz);
			return -EINVAL;
		}
		if (!has_nul(r, koff)) {
			errmsg_set(r->err, "%s string %" PRIu64 ": key at "
				   "offset %" PRIu64 " has no NUL before the "
				   "blob's end", where, i, koff);
			return -EINVAL;
		}
		if (voff > bsz) {
			errmsg_set(r->err, "%s string %" PRIu64 ": value "
				   "offset %" PRIu64 " past the blob's end (%"
				   PRIu64 " bytes)", where, i, voff, bsz);
			return -EINVAL;
		}
		if (r->version == 1 && (voff == bsz || !has_nul(r, voff))) {
			errmsg_set(r->err, "%s string %" PRIu64 ": value at "
				   "offset %" PRIu64 " has no NUL before the "
				   "blob's end", where, i, voff);
			return -EINVAL;
		}
		if (r->version == 1)
			continue;
		vlen = get_le64(se + 16);
		if (vlen > bsz - voff) {
			errmsg_set(r->err, "%s string %" PRIu64 ": value "
				   "(offset %" PRIu64 ", size %" PRIu64 ") past "
				   "the blob's end (%" PRIu64 " bytes)", where,
				   i, voff, vlen, bsz);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Entry idx's fields into e; its string map checked when it is the first
 * to name it (lead), counted against the string entries the blob holds.
 */
static int check_entry(struct reader *r, const unsigned char *raw, size_t idx,
		       int lead, uint64_t *nread, struct offload_entry *e)
{
	uint64_t soff, nstr, ioff, isz, bsz = r->bsz;
	char where[300];

	snprintf(where, sizeof(where), "%s: OffloadBinary entry %zu",
		 fname_or(r->fname), idx);
	e->image_kind = get_le16(raw);
	e->offload_kind = get_le16(raw + 2);
	e->flags = get_le32(raw + 4);
	soff = get_le64(raw + 8);
	nstr = get_le64(raw + 16);
	ioff = get_le64(raw + 24);
	isz = get_le64(raw + 32);

	if (ioff > bsz || isz > bsz - ioff) {
		errmsg_set(r->err, "%s: image (offset %" PRIu64 ", size %"
			   PRIu64 ") past the blob's end (%" PRIu64 " bytes)",
			   where, ioff, isz, bsz);
		return -EINVAL;
	}
	if (soff > bsz || nstr > (bsz - soff) / r->esz) {
		errmsg_set(r->err, "%s: string map (offset %" PRIu64 ", %"
			   PRIu64 " entries) past the blob's end (%" PRIu64
			   " bytes)", where, soff, nstr, bsz);
		return -EINVAL;
	}
	e->image = r->b + ioff;
	e->image_size = (size_t)isz;
	if (!lead || !nstr)
		return 0;
	if (nstr > bsz / r->esz - *nread) {
		errmsg_set(r->err, "%s: string map (offset %" PRIu64 ", %"
			   PRIu64 " entries): with the maps of the entries "
			   "before it, %" PRIu64 " string entries of %u bytes, "
			   "more than the blob's %" PRIu64 " bytes hold", where,
			   soff, nstr, *nread + nstr, r->esz, bsz);
		return -EINVAL;
	}
	*nread += nstr;
	return check_strings(r, where, soff, nstr);
}

/* The table entry of the string at off (it is there). */
static size_t tab_find(const struct reader *r, uint64_t off)
{
	size_t lo = 0, hi = r->ntab, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->tab[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The hash of the bytes [from, to) given that of the string at to. */
static uint64_t hash_back(const unsigned char *b, uint64_t from, uint64_t to,
			  uint64_t h)
{
	while (to > from)
		h = b[--to] + HASH_MUL * h;
	return h;
}

/*
 * The length and hash of every string in the table, from the last offset
 * down: each byte between the first offset and the blob's end is read at
 * most twice (the NUL sought, then hashed), whatever the strings share.
 */
static void measure(struct reader *r)
{
	uint64_t prev = r->bsz, nul = r->bsz, h = 0, o;
	const unsigned char *q;
	size_t k;

	for (k = r->ntab; k-- > 0; prev = o) {
		o = r->tab[k].off;
		q = memchr(r->b + o, 0, (size_t)(prev - o));
		if (q) {
			nul = (uint64_t)(q - r->b);
			h = hash_back(r->b, o, nul, 0);
		} else {
			h = hash_back(r->b, o, prev, h);
		}
		r->tab[k].len = nul - o;
		r->tab[k].hash = h;
	}
}

/* One unit of the work allowed for telling keys x and y apart. */
static int charge(struct reader *r, const struct cstr *x,
		  const struct cstr *y)
{
	if (r->cmp_left) {
		r->cmp_left--;
		return 0;
	}
	errmsg_set(r->err, "%s: OffloadBinary keys at offsets %" PRIu64
		   " and %" PRIu64 ": telling keys of equal hash apart would "
		   "read more than the blob's %" PRIu64 " bytes",
		   fname_or(r->fname), x->off, y->off, r->bsz);
	return -EINVAL;
}

/*
 * 1 when keys x and y (equal length and hash, other offsets) hold the same
 * bytes, 0 when not, -EINVAL past the work allowed for telling keys apart
 * (a unit a call and a unit a byte compared, Size units in all). Two keys
 * end at NULs na and nb: what the strings ending there share is
 * remembered, so a key repeated at other offsets costs once per pair of
 * NULs, not once per key.
 */
static int same_key(struct reader *r, const struct cstr *x,
		    const struct cstr *y)
{
	uint64_t na = x->off + x->len, nb = y->off + y->len, t;
	struct memo *m;

	if (charge(r, x, y))
		return -EINVAL;
	if (na > nb) {
		t = na;
		na = nb;
		nb = t;
	}
	m = &r->memo[(na * 0x9e3779b97f4a7c15ull ^ nb) % MEMO_SLOTS];
	if (m->na != na || m->nb != nb)
		*m = (struct memo){ .na = na, .nb = nb };
	while (m->known < x->len && !m->differ) {
		if (charge(r, x, y))
			return -EINVAL;
		if (r->b[na - 1 - m->known] != r->b[nb - 1 - m->known])
			m->differ = 1;
		else
			m->known++;
	}
	return m->known >= x->len;
}

/* Each key's class: the table index of the first key of equal bytes. */
static int classify(struct reader *r)
{
	size_t *perm, n = 0, k, g, q, nrep, m, bytes;
	int rc = 0;

	for (k = 0; k < r->ntab; k++)
		n += r->tab[k].cls != NOT_KEY;
	if (size_mul(n, sizeof(*perm), &bytes))
		return -ENOMEM;
	perm = malloc(bytes ? bytes : 1);
	if (!perm)
		return -ENOMEM;
	for (k = n = 0; k < r->ntab; k++)
		if (r->tab[k].cls != NOT_KEY)
			perm[n++] = k;
	heap_sort(perm, n, sizeof(*perm), cmp_content, r->tab);
	for (k = 0; k < n && !rc; k = g) {
		/* [k, g): equal hash and length; the first nrep are classes */
		for (g = k + 1; g < n &&
		     r->tab[perm[g]].hash == r->tab[perm[k]].hash &&
		     r->tab[perm[g]].len == r->tab[perm[k]].len; g++)
			;
		for (nrep = 0, m = k; m < g; m++) {
			struct cstr *x = &r->tab[perm[m]];

			for (q = 0; q < nrep; q++) {
				rc = same_key(r, &r->tab[perm[k + q]], x);
				if (rc)
					break;
			}
			if (rc < 0)
				break;
			if (rc) {
				x->cls = perm[k + q];
				rc = 0;
				continue;
			}
			x->cls = perm[m];
			q = perm[k + nrep];
			perm[k + nrep] = perm[m];
			perm[m] = q;
			nrep++;
		}
	}
	free(perm);
	return rc;
}
/*
 * The table of the strings the first entry of each map names: keys, and
 * in version 1 values; sorted by offset, measured, keys classified.
 */
static int build_table(struct reader *r, const unsigned char *ents,
		       size_t count, const size_t *lead, uint64_t nread)
{
	uint64_t per = r->version == 1 ? 2 : 1, j, nstr;
	const unsigned char *raw, *se;
	size_t i, k, n, bytes;

	if (nread > SIZE_MAX / per ||
	    size_mul((size_t)(nread * per), sizeof(*r->tab), &bytes))
		return -ENOMEM;
	r->tab = malloc(bytes);
	if (!r->tab)
		return -ENOMEM;
	for (i = n = 0; i < count; i++) {
		if (lead[i] != i)
			continue;
		raw = ents + i * ENTRY_SIZE;
		nstr = get_le64(raw + 16);
		se = r->b + get_le64(raw + 8);
		for (j = 0; j < nstr; j++, se += r->esz) {
			r->tab[n++] = (struct cstr){ .off = get_le64(se) };
			if (per == 2)
				r->tab[n++] = (struct cstr){
					.off = get_le64(se + 8),
					.cls = NOT_KEY,
				};
		}
	}
	/* by offset, a key before a value at the same offset: one of each */
	heap_sort(r->tab, n, sizeof(*r->tab), cmp_off, NULL);
	for (i = k = 0; i < n; i++)
		if (!k || r->tab[i].off != r->tab[k - 1].off)
			r->tab[k++] = r->tab[i];
	r->ntab = k;
	measure(r);
	return classify(r);
}

/* 1 when the value's bytes are followed by a NUL inside the blob. */
static int terminated(const struct reader *r, uint64_t voff, uint64_t vlen)
{
	return vlen < r->bsz - voff && !r->b[voff + vlen];
}

/* The copy of a value without a NUL after it, against the blob's Size. */
static int charge_copy(struct reader *r, size_t idx, uint64_t j,
		       uint64_t voff, uint64_t vlen)
{
	if (vlen < r->copy_left) {
		r->copy_left -= vlen + 1;
		return 0;
	}
	errmsg_set(r->err, "%s: OffloadBinary entry %zu string %" PRIu64
		   ": value (offset %" PRIu64 ", size %" PRIu64 ") has no NUL "
		   "after it, and copies of such values would take more than "
		   "the blob's %" PRIu64 " bytes", fname_or(r->fname), idx, j,
		   voff, vlen, r->bsz);
	return -EINVAL;
}

/*
 * n more bytes referenced by entry idx (an image, a map's keys and
 * values), against DEVIMG_LIMIT_REFERENCE_RATIO times the blob's Size.
 */
static int charge_refs(struct reader *r, size_t idx, uint64_t n)
{
	if (n <= r->ref_left) {
		r->ref_left -= n;
		return 0;
	}
	errmsg_set(r->err, "%s: OffloadBinary entry %zu: the entries' images "
		   "and strings, counted once for each entry naming them, "
		   "come to more than %u times the blob's %" PRIu64 " bytes",
		   fname_or(r->fname), idx, DEVIMG_LIMIT_REFERENCE_RATIO,
		   r->bsz);
	return -EINVAL;
}

/*
 * The map of entry idx (nstr string entries at soff) into out and keys:
 * each key once, at its first place, with its last value (borrowed for
 * now; copies are made once all maps are read), and the bytes of its keys
 * and values into *bytes (at most what entries may still reference).
 * slot[] is all zeros on entry and on return.
 */
static int read_map(struct reader *r, size_t idx, uint64_t soff,
		    uint64_t nstr, size_t *slot, struct offload_string *out,
		    struct offload_key *keys, size_t *nout, uint64_t *bytes)
{
	const unsigned char *b = r->b, *se;
	uint64_t j, voff, vlen, sum = 0;
	size_t n = 0, k, t, c;

	for (j = 0; j < nstr; j++) {
		se = b + soff + j * r->esz;
		t = tab_find(r, get_le64(se));
		c = r->tab[t].cls;
		if (!slot[c]) {
			slot[c] = n + 1;
			out[n].key = (const char *)b + r->tab[t].off;
			keys[n] = (struct offload_key){ r->tab[t].hash, n };
			n++;
			/* each term is under Size: no overflow */
			sum += r->tab[t].len;
			if (sum > r->ref_left)
				break;
		}
		/* the string entry of the value, for now */
		out[slot[c] - 1].value_len = (size_t)j;
	}
	for (k = 0; k < n; k++)
		slot[r->tab[tab_find(r, (uint64_t)(out[k].key -
						   (const char *)b))].cls] = 0;
	if (sum > r->ref_left)
		return charge_refs(r, idx, sum);
	heap_sort(keys, n, sizeof(*keys), cmp_key, NULL);
	for (k = 0; k < n; k++) {
		j = out[k].value_len;
		se = b + soff + j * r->esz;
		voff = get_le64(se + 8);
		if (r->version == 1) {
			vlen = r->tab[tab_find(r, voff)].len;
		} else {
			vlen = get_le64(se + 16);
			if (!terminated(r, voff, vlen) &&
			    charge_copy(r, idx, j, voff, vlen))
				return -EINVAL;
		}
		out[k].value = (const char *)b + voff;
		out[k].value_len = (size_t)vlen;
		sum += vlen;
		if (sum > r->ref_left)
			return charge_refs(r, idx, sum);
	}
	*nout = n;
	*bytes = sum;
	return charge_refs(r, idx, sum);
}

/* Values without a NUL after them into one block of copies. */
static int copy_values(struct reader *r, struct offload_binary *ob,
		       const size_t *lead)
{
	size_t i, k, total = (size_t)(r->bsz - r->copy_left);
	const char *b = (const char *)r->b;
	char *p;

	if (!total)
		return 0;
	p = ob->copies = malloc(total);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < ob->nentries; i++) {
		struct offload_entry *e = &ob->entries[i];

		for (k = 0; lead[i] == i && k < e->nstrings; k++) {
			struct offload_string *s = &e->strings[k];

			if (terminated(r, (uint64_t)(s->value - b),
				       s->value_len))
				continue;
			memcpy(p, s->value, s->value_len);
			p[s->value_len] = '\0';
			s->value = p;
			p += s->value_len + 1;
		}
	}
	return 0;
}

/*
 * Every map read once, into one pool; entries sharing a map share it, and
 * each of them is charged the map's bytes.
 */
static int read_maps(struct reader *r, struct offload_binary *ob,
		     const unsigned char *ents, const size_t *lead,
		     uint64_t nread)
{
	struct offload_string *strs;
	struct offload_key *keys;
	size_t i, used = 0, n, *slot = NULL, bytes;
	uint64_t *mapb;
	int rc;

	rc = build_table(r, ents, ob->nentries, lead, nread);
	if (rc)
		return rc;
	if (size_mul((size_t)nread, sizeof(*strs) + sizeof(*keys), &bytes))
		return -ENOMEM;
	ob->pool = malloc(bytes);
	slot = calloc(r->ntab, sizeof(*slot));
	mapb = calloc(ob->nentries, sizeof(*mapb));
	if (!ob->pool || !slot || !mapb) {
		free(slot);
		free(mapb);
		return -ENOMEM;
	}
	strs = ob->pool;
	keys = (struct offload_key *)(strs + nread);
	for (i = 0; i < ob->nentries; i++) {
		const unsigned char *raw = ents + i * ENTRY_SIZE;
		struct offload_entry *e = &ob->entries[i];
		uint64_t nstr = get_le64(raw + 16);

		if (lead[i] != i || !nstr)
			continue;
		rc = read_map(r, i, get_le64(raw + 8), nstr, slot,
			      strs + used, keys + used, &n, &mapb[i]);
		if (rc)
			break;
		e->strings = strs + used;
		e->keys = keys + used;
		e->nstrings = n;
		used += n;
	}
	free(slot);
	free(r->tab);
	r->tab = NULL;
	if (!rc)
		rc = copy_values(r, ob, lead);
	for (i = 0; !rc && i < ob->nentries; i++) {
		/* a leader's own map was charged as it was read */
		if (lead[i] == i)
			continue;
		rc = charge_refs(r, i, mapb[lead[i]]);
		ob->entries[i].strings = ob->entries[lead[i]].strings;
		ob->entries[i].keys = ob->entries[lead[i]].keys;
		ob->entries[i].nstrings = ob->entries[lead[i]].nstrings;
	}
	free(mapb);
	return rc;
}

static int parse_blob(const unsigned char *b, uint64_t bsz, const char *fname,
		      struct offload_binary *ob, struct errmsg *err)
{
	uint32_t version = get_le32(b + 4);
	uint64_t eoff = get_le64(b + 16);
	uint64_t count = get_le64(b + 24), nread = 0;
	struct reader r = {
		.b = b, .bsz = bsz, .version = version,
		.esz = version == 1 ? STR_V1_SIZE : STR_SIZE,
		.fname = fname, .err = err, .cmp_left = bsz, .copy_left = bsz,
		.ref_left = bsz > UINT64_MAX / DEVIMG_LIMIT_REFERENCE_RATIO ?
			    UINT64_MAX : bsz * DEVIMG_LIMIT_REFERENCE_RATIO,
	};
	const unsigned char *ents;
	size_t i, *lead;
	int rc;

	if (version == 1)
		count = 1;	/* the field held the entry size then */
	if (eoff > bsz || count > (bsz - eoff) / ENTRY_SIZE) {
		errmsg_set(err, "%s: OffloadBinary EntriesOffset %" PRIu64
			   " with %" PRIu64 " entries of %u bytes past the "
			   "blob's end (%" PRIu64 " bytes)", fname_or(fname),
			   eoff, count, ENTRY_SIZE, bsz);
		return -EINVAL;
	}
	if (!count) {
		errmsg_set(err, "%s: OffloadBinary EntriesCount is 0, expected "
			   "at least one entry", fname_or(fname));
		return -EINVAL;
	}
	ents = b + eoff;
	ob->entries = calloc((size_t)count, sizeof(*ob->entries));
	if (!ob->entries)
		return -ENOMEM;
	ob->nentries = (size_t)count;
	rc = map_leaders(ents, (size_t)count, &lead);
	if (rc)
		return rc;
	for (i = 0; i < count && !rc; i++) {
		rc = check_entry(&r, ents + i * ENTRY_SIZE, i, lead[i] == i,
				 &nread, &ob->entries[i]);
		if (!rc)
			rc = charge_refs(&r, i, ob->entries[i].image_size);
	}
	if (!rc && nread)
		rc = read_maps(&r, ob, ents, lead, nread);
	free(r.tab);
	free(lead);
	return rc;
}

/*
 * A compressed blob (version 3, InflatedSize != 0): its header, with Size
 * = InflatedSize and InflatedSize = 0, then the body after EntriesOffset
 * inflated, in ob->owned, which the entries then point into.
 */
static int inflate_blob(const unsigned char *b, uint64_t bsz,
			uint64_t inflated, const char *fname,
			struct offload_binary *ob, struct errmsg *err)
{
	uint64_t eoff = get_le64(b + 16);
	const char *what = "";
	int rc;

	if (eoff < HDR_V3_SIZE || eoff > bsz || inflated < eoff) {
		errmsg_set(err, "%s: compressed OffloadBinary: EntriesOffset %"
			   PRIu64 ", Size %" PRIu64 ", InflatedSize %" PRIu64
			   ": expected %u <= EntriesOffset <= Size and "
			   "EntriesOffset <= InflatedSize",
			   fname_or(fname), eoff, bsz, inflated, HDR_V3_SIZE);
		return -EINVAL;
	}
	/* The zstd expander's limit, checked before anything is allocated. */
	if (inflated - eoff > DEVIMG_LIMIT_DECOMPRESSED ||
	    inflated > SIZE_MAX / 2) {
		errmsg_set(err, "%s: compressed OffloadBinary: InflatedSize %"
			   PRIu64 " after EntriesOffset %" PRIu64 " is a body "
			   "of %" PRIu64 " bytes, more than "
			   "DEVIMG_LIMIT_DECOMPRESSED (%" PRIu64 ")",
			   fname_or(fname), inflated, eoff, inflated - eoff,
			   (uint64_t)DEVIMG_LIMIT_DECOMPRESSED);
		return -EINVAL;
	}
	rc = offload_inflate(b + eoff, (size_t)(bsz - eoff), (size_t)eoff,
			     (size_t)(inflated - eoff), &ob->owned, &what);
	if (rc) {
		errmsg_set(err, "%s: compressed OffloadBinary (InflatedSize %"
			   PRIu64 "): %s", fname_or(fname), inflated, what);
		return rc;
	}
	memcpy(ob->owned, b, (size_t)eoff);
	put_le64(ob->owned + 8, inflated);
	put_le64(ob->owned + 32, 0);
	return 0;
}

int offload_binary_parse_at(const void *buf, size_t len, size_t *off,
			    const char *fname, struct offload_binary **out,
			    struct errmsg *err)
{
	const unsigned char *b;
	struct offload_binary *ob;
	uint64_t bsz, avail, inflated = 0;
	uint32_t version;
	size_t next;
	int rc;

	*out = NULL;
	if (!buf || *off > len) {
		errmsg_set(err, "%s: OffloadBinary offset %zu past the end (%zu "
			   "bytes)", fname_or(fname), *off, len);
		return -EINVAL;
	}
	b = (const unsigned char *)buf + *off;
	avail = len - *off;
	if (!offload_binary_is(b, (size_t)avail)) {
		errmsg_set(err, "%s: at offset %zu: not an OffloadBinary (magic "
			   "10 ff 10 ad expected)", fname_or(fname), *off);
		return -EINVAL;
	}
	if (avail < HDR_V1_SIZE) {
		errmsg_set(err, "%s: OffloadBinary header truncated: %" PRIu64
			   " bytes, expected at least %u", fname_or(fname),
			   avail, HDR_V1_SIZE);
		return -EINVAL;
	}
	version = get_le32(b + 4);
	if (version == 0 || version > OFFLOAD_BINARY_VERSION) {
		errmsg_set(err, "%s: OffloadBinary version %" PRIu32
			   " not supported (expected 1 to %u)", fname_or(fname),
			   version, OFFLOAD_BINARY_VERSION);
		return -EINVAL;
	}
	if (version >= 3 && avail < HDR_V3_SIZE) {
		errmsg_set(err, "%s: OffloadBinary version 3 header truncated: "
			   "%" PRIu64 " bytes, expected %u", fname_or(fname),
			   avail, HDR_V3_SIZE);
		return -EINVAL;
	}
	bsz = get_le64(b + 8);
	if (bsz > avail || bsz < (version >= 3 ? HDR_V3_SIZE : HDR_V1_SIZE)) {
		errmsg_set(err, "%s: OffloadBinary Size %" PRIu64 ": expected "
			   "%u (the header) to %" PRIu64 " (the bytes present)",
			   fname_or(fname), bsz,
			   version >= 3 ? HDR_V3_SIZE : HDR_V1_SIZE, avail);
		return -EINVAL;
	}
	if (version >= 3)
		inflated = get_le64(b + 32);
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
			errmsg_set(err, "%s: out of memory", fname_or(fname));
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
			 struct offload_binary **out, struct errmsg *err)
{
	size_t off = 0;

	return offload_binary_parse_at(buf, len, &off, fname, out, err);
}

/* The string at i of e, when its key is key. */
static const char *string_if(const struct offload_entry *e, size_t i,
			     const char *key, size_t *len)
{
	if (strcmp(e->strings[i].key, key))
		return NULL;
	if (len)
		*len = e->strings[i].value_len;
	return e->strings[i].value;
}

const char *offload_entry_string(const struct offload_entry *e,
				 const char *key, size_t *len)
{
	const struct offload_key *keys;
	size_t i, lo, hi, n;
	const char *v;
	uint64_t h;

	if (!e || !key)
		return NULL;
	if (!e->keys) {		/* not from the reader */
		for (i = 0; i < e->nstrings; i++)
			if ((v = string_if(e, i, key, len)))
				return v;
		return NULL;
	}
	/* Keys by hash (the reader's): a binary search, then the key. */
	n = strlen(key);
	h = hash_back((const unsigned char *)key, 0, n, 0);
	keys = e->keys;
	for (lo = 0, hi = e->nstrings; lo < hi;) {
		i = lo + (hi - lo) / 2;
		if (keys[i].hash < h)
			lo = i + 1;
		else
			hi = i;
	}
	for (; lo < e->nstrings && keys[lo].hash == h; lo++)
		if ((v = string_if(e, keys[lo].pos, key, len)))
			return v;
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
/*
 * The writer's string table: equal strings stored once, found through a
 * table of slots (index + 1, 0 empty) under the keyed hash, so a blob of
 * many strings is written in time linear in their bytes.
 */
struct strtab {
	const char **s;
	size_t *len;
	size_t *off;
	uint64_t *hash;
	size_t n;
	size_t size;
	size_t *slot;
	size_t mask;
};

static int strtab_init(struct strtab *t, size_t max)
{
	size_t cap = 16;

	while (cap < 2 * max)
		cap *= 2;
	t->s = calloc(max, sizeof(*t->s));
	t->len = calloc(max, sizeof(*t->len));
	t->off = calloc(max, sizeof(*t->off));
	t->hash = calloc(max, sizeof(*t->hash));
	t->slot = calloc(cap, sizeof(*t->slot));
	t->mask = cap - 1;
	t->size = 1;
	return t->s && t->len && t->off && t->hash && t->slot ? 0 : -ENOMEM;
}

static void strtab_fini(struct strtab *t)
{
	free(t->s);
	free(t->len);
	free(t->off);
	free(t->hash);
	free(t->slot);
}

static int strtab_add(struct strtab *t, const char *s, size_t len,
		      size_t *off)
{
	uint64_t h = siphash13(s, len);
	size_t i = (size_t)h & t->mask, k;

	for (; (k = t->slot[i]); i = (i + 1) & t->mask) {
		k--;
		if (t->hash[k] == h && t->len[k] == len &&
		    !memcmp(t->s[k], s, len)) {
			*off = t->off[k];
			return 0;
		}
	}
	t->slot[i] = t->n + 1;
	t->hash[t->n] = h;
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
			struct errmsg *err)
{
	size_t i, j;

	if (!n || (version == 1 && n != 1) || version < 1 ||
	    version > OFFLOAD_BINARY_VERSION) {
		errmsg_set(err, "OffloadBinary writer: %zu entries in version %u "
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
				errmsg_set(err, "OffloadBinary writer: entry %zu "
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

/*
 * The blob of in[0..n) into a new buffer: all of it, images copied, or
 * with head_only only what comes before the first image, img_off[i]
 * then getting where entry i's image goes; *out_len is the buffer's
 * length, *size the blob's.
 */
static int write_blob(const struct offload_image_in *in, size_t n,
		      unsigned version, bool head_only, unsigned char **out,
		      size_t *out_len, uint64_t *img_off, size_t *size,
		      struct errmsg *err)
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
	if (nstr > SIZE_MAX / 8 / sizeof(*t.slot) ||
	    strtab_init(&t, 2 * nstr + 1))
		goto fail;
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
	b = calloc(1, head_only ? data : total);
	if (!b)
		goto fail;

	memcpy(b, OFFLOAD_BINARY_MAGIC, OFFLOAD_BINARY_MAGIC_LEN);
	put_le32(b + 4, version);
	put_le64(b + 8, total);
	put_le64(b + 16, hdr);
	/* Version 1 kept the entry size where later versions count them. */
	put_le64(b + 24, version == 1 ? ENTRY_SIZE : n);

	p = b + hdr;
	ioff = data;
	k = 0;
	for (i = 0; i < n; i++, p += ENTRY_SIZE) {
		put_le16(p, in[i].image_kind);
		put_le16(p + 2, in[i].offload_kind);
		put_le32(p + 4, in[i].flags);
		put_le64(p + 8, entries_end + k * strent);
		put_le64(p + 16, in[i].nstrings);
		put_le64(p + 24, ioff);
		put_le64(p + 32, in[i].image_size);
		if (head_only)
			img_off[i] = ioff;
		else if (in[i].image_size)
			memcpy(b + ioff, in[i].image, in[i].image_size);
		ioff += in[i].image_size;
		k += in[i].nstrings;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < in[i].nstrings; j++, p += strent) {
			const struct offload_string *s = &in[i].strings[j];

			strtab_add(&t, s->key, strlen(s->key), &koff);
			strtab_add(&t, s->value, s->value_len, &voff);
			put_le64(p, strmap_end + koff);
			put_le64(p + 8, strmap_end + voff);
			if (strent == STR_SIZE)
				put_le64(p + 16, s->value_len);
		}
	}
	for (i = 0; i < t.n; i++)
		memcpy(b + strmap_end + t.off[i], t.s[i], t.len[i]);

	strtab_fini(&t);
	*out = b;
	*out_len = head_only ? data : total;
	*size = total;
	return 0;

overflow:
	if (rc == -EOVERFLOW)
		errmsg_set(err, "OffloadBinary writer: sizes overflow");
fail:
	if (rc == -ENOMEM)
		errmsg_set(err, "OffloadBinary writer: out of memory");
	strtab_fini(&t);
	free(b);
	return rc;
}

int offload_binary_write(const struct offload_image_in *in, size_t n,
			 unsigned version, unsigned char **out, size_t *size,
			 struct errmsg *err)
{
	size_t len;

	return write_blob(in, n, version, false, out, &len, NULL, size, err);
}

int offload_binary_write_head(const struct offload_image_in *in, size_t n,
			      unsigned version, unsigned char **head,
			      size_t *head_size, uint64_t *img_off,
			      size_t *size, struct errmsg *err)
{
	return write_blob(in, n, version, true, head, head_size, img_off,
			  size, err);
}
