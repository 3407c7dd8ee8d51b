// SPDX-License-Identifier: MIT
/* The "symbols" string of an OffloadBinary entry (offload-symbols.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/checked.h"
#include "util/devimg_limits.h"
#include "props/internal.h"
#include "props/offload-symbols.h"

#define COUNT_SIZE 4u	/* u32 count */
#define SLOT_SIZE 8u	/* u32 offset, u32 length */

/* What a table check found wrong, without the place. */
struct why {
	char s[200];
};

/* A table's name: its bytes are [off, end), the NUL at end. */
struct span {
	size_t off;
	size_t end;
	size_t idx;
};

static bool all_nul(const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i])
			return false;
	}
	return true;
}

static size_t slot_off(const unsigned char *p, size_t i)
{
	return get_le32(p + COUNT_SIZE + i * SLOT_SIZE);
}

static size_t slot_len(const unsigned char *p, size_t i)
{
	return get_le32(p + COUNT_SIZE + i * SLOT_SIZE + 4);
}

/* The count fits the limit and its header fits the string. */
static int table_header(const unsigned char *p, size_t len, size_t *count,
			size_t *hdr, struct why *why)
{
	uint32_t c;

	if (len < COUNT_SIZE) {
		snprintf(why->s, sizeof(why->s),
			 "count: the string has %zu bytes, fewer than the %u of a count",
			 len, COUNT_SIZE);
		return -EINVAL;
	}
	c = get_le32(p);
	if (c > DEVIMG_LIMIT_ENTRIES) {
		snprintf(why->s, sizeof(why->s),
			 "count %u, more than the limit of %u names",
			 c, DEVIMG_LIMIT_ENTRIES);
		return -EINVAL;
	}
	if (size_mul(c, SLOT_SIZE, hdr) || size_add(*hdr, COUNT_SIZE, hdr) ||
	    *hdr > len) {
		snprintf(why->s, sizeof(why->s),
			 "count %u needs a header of 4 + 8 * %u bytes, but the string has %zu",
			 c, c, len);
		return -EINVAL;
	}
	*count = c;
	return 0;
}

/* Name i lies after the header, inside the string, and a NUL ends it. */
static int table_slot(const unsigned char *p, size_t len, size_t hdr,
		      size_t i, struct span *sp, struct why *why)
{
	size_t off = slot_off(p, i), n = slot_len(p, i), end;

	if (off < hdr) {
		snprintf(why->s, sizeof(why->s),
			 "name %zu's offset %zu lies inside the %zu-byte header, expected %zu or more",
			 i, off, hdr, hdr);
		return -EINVAL;
	}
	if (off >= len) {
		snprintf(why->s, sizeof(why->s),
			 "name %zu's offset %zu lies past the end of the %zu-byte string, expected below %zu",
			 i, off, len, len);
		return -EINVAL;
	}
	if (!n) {
		snprintf(why->s, sizeof(why->s),
			 "name %zu's length 0, expected 1 or more", i);
		return -EINVAL;
	}
	/* off < len, so len - off - 1 is the room before the NUL. */
	if (size_add(off, n, &end) || end >= len) {
		snprintf(why->s, sizeof(why->s),
			 "name %zu's length %zu at offset %zu runs past the end of the %zu-byte string with its NUL, expected at most %zu",
			 i, n, off, len, len - off - 1);
		return -EINVAL;
	}
	if (p[end]) {
		snprintf(why->s, sizeof(why->s),
			 "name %zu's length %zu: byte %zu after it is 0x%02x, expected the NUL ending the name",
			 i, n, end, p[end]);
		return -EINVAL;
	}
	*sp = (struct span){ off, end, i };
	return 0;
}

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Whether sp[0..n) is in span_cmp's order (writers lay names out so). */
static bool spans_sorted(const struct span *sp, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (sp[i - 1].off > sp[i].off)
			return false;
	return true;
}

/*
 * No name holds a NUL before its end: the first NUL at or after each
 * offset is that name's end. With the offsets sorted the NUL searched for
 * only moves forward, so the string is read once however the names
 * overlap. The name of lowest index that fails is reported.
 */
static int table_nul_free(const unsigned char *p, size_t len,
			  struct span *sp, size_t n, struct why *why)
{
	size_t i, nul = 0, bad = SIZE_MAX, at = 0;
	bool found = false;

	/* Slots come in index order: equal offsets are in order already. */
	if (!spans_sorted(sp, n))
		qsort(sp, n, sizeof(*sp), span_cmp);
	for (i = 0; i < n; i++) {
		if (!found || nul < sp[i].off) {
			const unsigned char *z;

			z = memchr(p + sp[i].off, 0, len - sp[i].off);
			nul = (size_t)(z - p);	/* found: p[end] is a NUL */
			found = true;
		}
		if (nul != sp[i].end && sp[i].idx < bad) {
			bad = sp[i].idx;
			at = nul;
		}
	}
	if (bad == SIZE_MAX)
		return 0;
	for (i = 0; sp[i].idx != bad; i++)
		;
	snprintf(why->s, sizeof(why->s),
		 "name %zu's length %zu: a NUL at byte %zu inside the name, expected none before byte %zu",
		 bad, sp[i].end - sp[i].off, at, sp[i].end);
	return -EINVAL;
}

/*
 * Names may share bytes (one may end another), but whoever copies or
 * prints them pays for each: their lengths together stay within twice
 * the string, so that a table cannot make its reader's work quadratic
 * (one long name given to every entry).
 */
static int table_shared_bytes(size_t len, const struct span *sp, size_t n,
			      struct why *why)
{
	size_t i, sum = 0;

	for (i = 0; i < n; i++) {
		if (size_add(sum, sp[i].end - sp[i].off, &sum) ||
		    sum / 2 > len) {
			snprintf(why->s, sizeof(why->s),
				 "names 0 to %zu are more than %zu bytes together, twice the string's %zu: names share bytes beyond any writer's",
				 i, len > SIZE_MAX / 2 ? SIZE_MAX : 2 * len,
				 len);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * 0 when p is a consistent table of *count names, their spans in *spans
 * (malloc'ed); -EINVAL with the reason in why; -ENOMEM.
 */
static int table_check(const unsigned char *p, size_t len, size_t *count,
		       struct span **spans, struct why *why)
{
	struct span *sp;
	size_t hdr, n, i;
	int r;

	r = table_header(p, len, &n, &hdr, why);
	if (r)
		return r;
	sp = calloc(n ? n : 1, sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	for (i = 0; r == 0 && i < n; i++)
		r = table_slot(p, len, hdr, i, &sp[i], why);
	if (r == 0)
		r = table_shared_bytes(len, sp, n, why);
	if (r == 0)
		r = table_nul_free(p, len, sp, n, why);
	if (r) {
		free(sp);
		return r;
	}
	*count = n;
	*spans = sp;
	return 0;
}

/* names[n] then text[len + 1] in one block: the text a copy of p. */
static int alloc_result(const unsigned char *p, size_t len, size_t n,
			struct offload_symbols *sy)
{
	size_t ptrs, total;
	char *text;

	if (size_mul(n, sizeof(*sy->names), &ptrs) ||
	    size_add3(ptrs, len, 1, &total))
		return -EOVERFLOW;
	sy->mem = malloc(total);
	if (!sy->mem)
		return -ENOMEM;
	text = (char *)sy->mem + ptrs;
	memcpy(text, p, len);
	text[len] = '\0';
	sy->names = sy->mem;
	sy->n = n;
	sy->text = text;
	sy->text_size = len + 1;
	return 0;
}

static int decode_table(const unsigned char *p, size_t len,
			const struct span *sp, size_t n,
			struct offload_symbols *sy)
{
	size_t i;
	int r;

	r = alloc_result(p, len, n, sy);
	if (r)
		return r;
	sy->form = OFFLOAD_SYMBOLS_TABLE;
	for (i = 0; i < n; i++)
		sy->names[sp[i].idx] = sy->text + sp[i].off;
	return 0;
}

static bool is_sep(unsigned char c)
{
	return c == '\n' || c == '\0';
}

static int decode_text(const unsigned char *p, size_t len, const char *where,
		       struct offload_symbols *sy, struct errmsg *err)
{
	bool lines = false;
	size_t i, n = 0;
	char *text;
	int r;

	for (i = 0; i < len; i++) {
		lines |= p[i] == '\n';
		n += !is_sep(p[i]) && (i == 0 || is_sep(p[i - 1]));
	}
	if (n > DEVIMG_LIMIT_ENTRIES) {
		errmsg_set(err, "%s: \"symbols\": %zu names, more than the limit of %u",
			   where, n, DEVIMG_LIMIT_ENTRIES);
		return -EINVAL;
	}
	r = alloc_result(p, len, n, sy);
	if (r)
		return r;
	sy->form = lines ? OFFLOAD_SYMBOLS_LINES : OFFLOAD_SYMBOLS_NUL;
	text = (char *)sy->text;
	for (i = 0, n = 0; i < len; i++) {
		if (text[i] == '\n')
			text[i] = '\0';
		else if (text[i] && (i == 0 || is_sep(p[i - 1])))
			sy->names[n++] = text + i;
	}
	return 0;
}

int offload_symbols_decode(const void *s, size_t len, const char *where,
			   struct offload_symbols *out,
			   struct errmsg *err)
{
	struct offload_symbols sy = { .form = OFFLOAD_SYMBOLS_NONE };
	const unsigned char *p = s;
	struct span *sp = NULL;
	struct why why;
	size_t n;
	int r;

	where = errmsg_fname(where);
	if (!len || all_nul(p, len)) {
		*out = sy;
		return 0;
	}
	r = table_check(p, len, &n, &sp, &why);
	if (r == 0) {
		r = decode_table(p, len, sp, n, &sy);
		free(sp);
	} else if (r == -EINVAL && p[0] < 0x20) {
		errmsg_set(err, "%s: \"symbols\" table: %s", where, why.s);
		return r;
	} else if (r == -EINVAL) {
		r = decode_text(p, len, where, &sy, err);
	}
	if (r == -ENOMEM || r == -EOVERFLOW)
		errmsg_set(err, "%s: \"symbols\" of %zu bytes: %s", where, len,
			   r == -ENOMEM ? "out of memory" : "too large");
	if (r)
		return r;
	*out = sy;
	return 0;
}

int offload_symbols_encode(const char *const *names, size_t n,
			   unsigned char **out, size_t *len,
			   struct errmsg *err)
{
	size_t total, at, i, l;
	unsigned char *b;

	*out = NULL;
	*len = 0;
	if (n > DEVIMG_LIMIT_ENTRIES) {
		errmsg_set(err, "\"symbols\" table: %zu names, more than the limit of %u",
			   n, DEVIMG_LIMIT_ENTRIES);
		return -EINVAL;
	}
	/* n <= DEVIMG_LIMIT_ENTRIES: the header's size cannot wrap. */
	total = COUNT_SIZE + n * SLOT_SIZE;
	for (i = 0; i < n; i++) {
		if (!names[i][0]) {
			errmsg_set(err, "\"symbols\" table: name %zu is empty, expected at least one character",
				   i);
			return -EINVAL;
		}
		if (size_add3(total, strlen(names[i]), 1, &total))
			return -EOVERFLOW;
	}
	if (total > UINT32_MAX) {
		errmsg_set(err, "\"symbols\" table: %zu bytes, more than 32-bit offsets reach",
			   total);
		return -EOVERFLOW;
	}
	b = malloc(total);
	if (!b) {
		errmsg_set(err, "\"symbols\" table: out of memory");
		return -ENOMEM;
	}
	put_le32(b, (uint32_t)n);
	at = COUNT_SIZE + n * SLOT_SIZE;
	for (i = 0; i < n; i++) {
		l = strlen(names[i]);
		put_le32(b + COUNT_SIZE + i * SLOT_SIZE, (uint32_t)at);
		put_le32(b + COUNT_SIZE + i * SLOT_SIZE + 4, (uint32_t)l);
		memcpy(b + at, names[i], l + 1);
		at += l + 1;
	}
	*out = b;
	*len = total;
	return 0;
}

void offload_symbols_fini(struct offload_symbols *sy)
{
	if (!sy)
		return;
	free(sy->mem);
	memset(sy, 0, sizeof(*sy));
}

void *offload_symbols_release(struct offload_symbols *sy)
{
	void *mem = sy->mem;

	memset(sy, 0, sizeof(*sy));
	return mem;
}

const char *offload_symbols_form_name(enum offload_symbols_form f)
{
	switch (f) {
	case OFFLOAD_SYMBOLS_TABLE:
		return "table";
	case OFFLOAD_SYMBOLS_LINES:
		return "lines";
	case OFFLOAD_SYMBOLS_NUL:
		return "nul";
	case OFFLOAD_SYMBOLS_NONE:
		break;
	}
	return "none";
}
