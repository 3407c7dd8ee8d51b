// SPDX-License-Identifier: MIT
/*
 * The .props reader, rule for rule as DPC++'s PropertySetRegistry::read
 * (llvm/lib/Support/PropertySetIO.cpp) reads what sycl-post-link writes:
 * "[Set name]" lines open a set (a name seen before reopens that set),
 * "Name=Type|Value" lines add a property to it (split at the first '=',
 * then the first '|'; a name seen before in the set takes the new value
 * in its old place). What that reader takes but changes or drops is read
 * the same way here and reported to the caller's note function.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "props/internal.h"

struct reader {
	const char *fname;
	struct props *p;
	size_t cur;		/* index of the open set; SIZE_MAX before one */
	struct props_index ix;
	struct errmsg *err;
	props_note_fn note;
	void *ctx;
};

/* A parsed "Name=Type|Value" line; pointers into the line. */
struct prop_line {
	const struct text_line *ln;
	const char *name;
	size_t name_len;
	const char *type;
	size_t type_len;
	const char *val;
	size_t val_len;
};

/* A decimal number as DPC++ reads it: its value modulo 2^32. */
struct decimal {
	uint32_t low;
	int wide;		/* the value does not fit 32 bits */
	int zeros;		/* written with leading zeros */
};

static size_t col_of(const struct text_line *ln, const char *at)
{
	return (size_t)(at - ln->s) + 1;
}

static void note(struct reader *rd, size_t line, const char *fmt, ...)
	DEVIMG_PRINTF(3, 4);

static void note(struct reader *rd, size_t line, const char *fmt, ...)
{
	char msg[sizeof(((struct errmsg *)0)->msg)];
	va_list ap;

	if (!rd->note)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rd->note(rd->ctx, line, msg);
}

/* '_' is the tombstone key of the map DPC++'s reader keeps names in. */
static void note_reserved(struct reader *rd, size_t line, const char *what,
			  const char *name)
{
	if (!strcmp(name, "_"))
		note(rd, line,
		     "%s name '_': DPC++'s tools keep names in a map that reserves '_', where a second '_' may stay apart instead of merging",
		     what);
}

static int parse_set(struct reader *rd, const struct text_line *ln)
{
	const char *end = NULL, *s;
	struct quote q;
	struct props_set *set;
	size_t idx, n;
	char *name;

	for (s = ln->s + ln->len; s > ln->s; s--)
		if (s[-1] == ']') {
			end = s - 1;
			break;
		}
	if (!end) {
		errmsg_at(rd->err, rd->fname, ln->lineno, ln->len + 1,
			  "unterminated set name: saw '%s', expected ']' to close it",
			  quote_text(&q, ln->s, ln->len));
		return -EINVAL;
	}
	n = (size_t)(end - ln->s) - 1;
	if (n == 0) {
		errmsg_at(rd->err, rd->fname, ln->lineno, 2,
			  "empty set name: saw '%s', expected a name between '[' and ']'",
			  quote_text(&q, ln->s, ln->len));
		return -EINVAL;
	}
	if (end + 1 < ln->s + ln->len)
		note(rd, ln->lineno, "text after the set name's ']' is ignored: '%s'",
		     quote_text(&q, end + 1,
				(size_t)(ln->s + ln->len - end - 1)));
	name = props_strndup(ln->s + 1, n);
	if (!name)
		return -ENOMEM;
	if (props_index_get(&rd->ix, rd->p, PROPS_INDEX_SETS, name, &idx)) {
		note(rd, ln->lineno,
		     "set '%s' opened again: its properties join the set of that name above",
		     quote_text(&q, name, n));
		rd->cur = idx;
		free(name);
		return 0;
	}
	note_reserved(rd, ln->lineno, "set", name);
	set = props_add_set(rd->p, name);
	free(name);
	if (!set)
		return -ENOMEM;
	rd->cur = rd->p->nsets - 1;
	return props_index_put(&rd->ix, rd->p, PROPS_INDEX_SETS, rd->cur);
}

static int split_prop(struct reader *rd, const struct text_line *ln,
		      struct prop_line *pl)
{
	const char *end = ln->s + ln->len, *eq, *bar;
	struct quote q;

	eq = memchr(ln->s, '=', ln->len);
	if (!eq) {
		errmsg_at(rd->err, rd->fname, ln->lineno, 1,
			  "missing '=' in property: saw '%s', expected Name=Type|Value",
			  quote_text(&q, ln->s, ln->len));
		return -EINVAL;
	}
	if (eq == ln->s) {
		errmsg_at(rd->err, rd->fname, ln->lineno, 1,
			  "empty property name: saw '%s', expected a name before '='",
			  quote_text(&q, ln->s, ln->len));
		return -EINVAL;
	}
	bar = memchr(eq + 1, '|', (size_t)(end - eq - 1));
	if (!bar) {
		errmsg_at(rd->err, rd->fname, ln->lineno, col_of(ln, eq + 1),
			  "missing '|' after the property type: saw '%s', expected Type|Value",
			  quote_text(&q, eq + 1, (size_t)(end - eq - 1)));
		return -EINVAL;
	}
	if (bar == eq + 1) {
		errmsg_at(rd->err, rd->fname, ln->lineno, col_of(ln, bar),
			  "empty property type: saw '%s', expected Type|Value",
			  quote_text(&q, eq + 1, (size_t)(end - eq - 1)));
		return -EINVAL;
	}
	if (bar + 1 == end) {
		errmsg_at(rd->err, rd->fname, ln->lineno, col_of(ln, end),
			  "empty property value: saw '%s', expected a value after '|'",
			  quote_text(&q, eq + 1, (size_t)(end - eq - 1)));
		return -EINVAL;
	}
	pl->ln = ln;
	pl->name = ln->s;
	pl->name_len = (size_t)(eq - ln->s);
	pl->type = eq + 1;
	pl->type_len = (size_t)(bar - eq - 1);
	pl->val = bar + 1;
	pl->val_len = (size_t)(end - bar - 1);
	return 0;
}

/*
 * Digits only, any number of them; the value is kept modulo 2^32 as
 * DPC++'s reader keeps it (an arbitrary-precision integer cut to 32 bits).
 * Returns the index of the first non-digit, or len.
 */
static size_t scan_decimal(const char *s, size_t len, struct decimal *d)
{
	uint64_t v = 0;
	size_t i;

	memset(d, 0, sizeof(*d));
	d->zeros = len > 1 && s[0] == '0';
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return i;
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > UINT32_MAX)
			d->wide = 1;
		v &= UINT32_MAX;
	}
	d->low = (uint32_t)v;
	return len;
}

static int parse_type(struct reader *rd, const struct prop_line *pl,
		      enum props_type *type)
{
	struct quote q;
	struct decimal d;

	if (scan_decimal(pl->type, pl->type_len, &d) == pl->type_len &&
	    (d.low == PROPS_UINT32 || d.low == PROPS_BYTE_ARRAY)) {
		*type = (enum props_type)d.low;
		if (d.wide || d.zeros)
			note(rd, pl->ln->lineno, "property type '%s' is read as %u",
			     quote_text(&q, pl->type, pl->type_len),
			     (unsigned)d.low);
		return 0;
	}
	errmsg_at(rd->err, rd->fname, pl->ln->lineno, col_of(pl->ln, pl->type),
		  "bad property type: saw '%s', expected 1 (UINT32) or 2 (BYTE_ARRAY)",
		  quote_text(&q, pl->type, pl->type_len));
	return -EINVAL;
}

static int parse_u32(struct reader *rd, const struct prop_line *pl,
		     uint32_t *out)
{
	size_t col = col_of(pl->ln, pl->val), i;
	struct quote q;
	struct decimal d;

	i = scan_decimal(pl->val, pl->val_len, &d);
	if (i < pl->val_len) {
		errmsg_at(rd->err, rd->fname, pl->ln->lineno, col + i,
			  "bad decimal number: saw '%s', expected digits 0-9 only",
			  quote_text(&q, pl->val, pl->val_len));
		return -EINVAL;
	}
	if (d.wide)
		note(rd, pl->ln->lineno,
		     "number '%s' does not fit 32 bits: read as %" PRIu32,
		     quote_text(&q, pl->val, pl->val_len), d.low);
	*out = d.low;
	return 0;
}

static int decode_b64(struct reader *rd, const struct prop_line *pl,
		      unsigned char **buf, size_t *size)
{
	size_t col = col_of(pl->ln, pl->val), n, bad = 0;
	struct quote q;
	unsigned char *data;

	if (props_b64_decoded_len(pl->val_len, &n) < 0) {
		errmsg_at(rd->err, rd->fname, pl->ln->lineno, col,
			  "truncated base64: saw '%s' (%zu characters), expected a length of 4n, 4n+2 or 4n+3",
			  quote_text(&q, pl->val, pl->val_len), pl->val_len);
		return -EINVAL;
	}
	data = malloc(n ? n : 1);
	if (!data)
		return -ENOMEM;
	if (props_b64_decode(pl->val, pl->val_len, data, &bad) < 0) {
		errmsg_at(rd->err, rd->fname, pl->ln->lineno, col + bad,
			  "bad base64 character: saw '%s', expected A-Z, a-z, 0-9, '+' or '/'",
			  quote_text(&q, pl->val + bad, 1));
		free(data);
		return -EINVAL;
	}
	*buf = data;
	*size = n;
	return 0;
}

/*
 * The bit count says how many bytes DPC++'s tools carry on: payload past
 * it is dropped (noted); a count past the payload, or a buffer shorter
 * than the count itself, would have them read past the decoded bytes, so
 * it is refused.
 */
static int fit_bytes(struct reader *rd, const struct prop_line *pl,
		     unsigned char *buf, size_t *size)
{
	struct errmsg detail = { 0 };
	uint64_t bits, need;

	if (*size >= PROPS_BYTES_HEADER) {
		bits = get_le64(buf);
		need = bits / 8 + (bits % 8 != 0);
		if (need < *size - PROPS_BYTES_HEADER) {
			note(rd, pl->ln->lineno,
			     "byte array of %zu payload bytes has a bit count of %" PRIu64
			     ": the last %" PRIu64 " bytes are dropped",
			     *size - PROPS_BYTES_HEADER, bits,
			     (uint64_t)(*size - PROPS_BYTES_HEADER) - need);
			*size = PROPS_BYTES_HEADER + (size_t)need;
		}
	}
	if (props_bytes_check(buf, *size, &bits, &detail) < 0) {
		errmsg_at(rd->err, rd->fname, pl->ln->lineno,
			  col_of(pl->ln, pl->val), "%s", detail.msg);
		return -EINVAL;
	}
	return 0;
}

static int read_value(struct reader *rd, const struct prop_line *pl,
		      enum props_type type, uint32_t *u32, unsigned char **buf,
		      size_t *size)
{
	int r;

	*buf = NULL;
	*size = 0;
	*u32 = 0;
	if (type == PROPS_UINT32)
		return parse_u32(rd, pl, u32);
	r = decode_b64(rd, pl, buf, size);
	if (r < 0)
		return r;
	r = fit_bytes(rd, pl, *buf, size);
	if (r < 0) {
		free(*buf);
		*buf = NULL;
	}
	return r;
}

/* Takes buf, stored or freed. */
static int store_prop(struct reader *rd, const struct prop_line *pl,
		      const char *name, enum props_type type, uint32_t u32,
		      unsigned char *buf, size_t size)
{
	struct props_set *s = &rd->p->sets[rd->cur];
	struct quote q, qs;
	size_t idx;
	int r;

	if (props_index_get(&rd->ix, rd->p, rd->cur, name, &idx)) {
		note(rd, pl->ln->lineno,
		     "property '%s' of set '%s' given again: this value replaces the one above",
		     quote_text(&q, pl->name, pl->name_len),
		     quote_text(&qs, s->name, strlen(s->name)));
		props_prop_replace(&s->props[idx], type, u32, buf, size);
		s->props[idx].line = pl->ln->lineno;
		return 0;
	}
	note_reserved(rd, pl->ln->lineno, "property", name);
	if (type == PROPS_UINT32)
		r = props_add_u32(s, name, u32);
	else
		r = props_add_bytes_owned(s, name, buf, size);
	if (r < 0) {
		free(buf);
		return r;
	}
	s->props[s->nprops - 1].line = pl->ln->lineno;
	return props_index_put(&rd->ix, rd->p, rd->cur, s->nprops - 1);
}

static int parse_prop(struct reader *rd, const struct text_line *ln)
{
	unsigned char *buf;
	struct prop_line pl;
	enum props_type type;
	struct quote q;
	uint32_t u32;
	size_t size;
	char *name;
	int r;

	if (rd->cur == SIZE_MAX) {
		errmsg_at(rd->err, rd->fname, ln->lineno, 1,
			  "property outside a set: saw '%s', expected a '[Set name]' line before it",
			  quote_text(&q, ln->s, ln->len));
		return -EINVAL;
	}
	r = split_prop(rd, ln, &pl);
	if (r < 0)
		return r;
	r = parse_type(rd, &pl, &type);
	if (r < 0)
		return r;
	r = read_value(rd, &pl, type, &u32, &buf, &size);
	if (r < 0)
		return r;
	name = props_strndup(pl.name, pl.name_len);
	if (!name) {
		free(buf);
		return -ENOMEM;
	}
	r = store_prop(rd, &pl, name, type, u32, buf, size);
	free(name);
	return r;
}

static void note_nul(struct reader *rd, const char *text, size_t len)
{
	const char *nul = memchr(text, '\0', len), *s;
	size_t line = 1;

	if (!nul || !rd->note)
		return;
	for (s = text; s < nul; s++)
		line += *s == '\n';
	note(rd, line, "NUL byte: the %zu bytes from it to the end are ignored",
	     len - (size_t)(nul - text));
}

/*
 * The end of a read: on failure (r < 0) the model is freed and -ENOMEM
 * gets its message; else it is the caller's.
 */
static int reader_finish(struct reader *rd, int r, struct props **out)
{
	if (r == -ENOMEM)
		errmsg_set(rd->err, "%s: out of memory",
			   errmsg_fname(rd->fname));
	props_index_fini(&rd->ix);
	if (r < 0) {
		props_free(rd->p);
		return r;
	}
	*out = rd->p;
	return 0;
}

int props_parse_noted(const char *text, size_t len, const char *fname,
		      struct props **out, struct errmsg *err,
		      props_note_fn note_fn, void *ctx)
{
	struct reader rd = {
		.fname = fname, .err = err, .cur = SIZE_MAX,
		.note = note_fn, .ctx = ctx,
	};
	struct line_iter it;
	struct text_line ln;
	int r;

	*out = NULL;
	rd.p = props_new();
	if (!rd.p)
		return -ENOMEM;
	if (text)
		note_nul(&rd, text, len);
	lines_init_nul_ends(&it, text, len, fname);
	while ((r = lines_next(&it, &ln, err)) > 0) {
		if (ln.s[0] == '[')
			r = parse_set(&rd, &ln);
		else
			r = parse_prop(&rd, &ln);
		if (r < 0)
			break;
	}
	if (r == 0 && !rd.p->nsets) {
		errmsg_at(err, fname, 1, 1,
			  "no property set: saw %s, expected at least one '[Set name]' line",
			  it.lineno ? "only blank lines" : "an empty file");
		r = -EINVAL;
	}
	return reader_finish(&rd, r, out);
}

/*
 * The text of one set's properties: the set is open from the first line
 * on, and a set line is no property (the writer refuses a property name
 * starting with '[').
 */
int props_parse_set_text(const char *text, size_t len, const char *fname,
			 const char *set_name, struct props **out,
			 struct errmsg *err)
{
	struct reader rd = { .fname = fname, .err = err };
	struct line_iter it;
	struct text_line ln;
	struct quote q;
	int r;

	*out = NULL;
	rd.p = props_new();
	if (!rd.p)
		return -ENOMEM;
	r = props_add_set(rd.p, set_name) ? 0 : -ENOMEM;
	if (r == 0)
		r = props_index_put(&rd.ix, rd.p, PROPS_INDEX_SETS, 0);
	rd.cur = 0;
	lines_init_nul_ends(&it, text, len, fname);
	while (r == 0) {
		r = lines_next(&it, &ln, err);
		if (r <= 0)
			break;
		if (ln.s[0] != '[') {
			r = parse_prop(&rd, &ln);
			continue;
		}
		errmsg_at(err, fname, ln.lineno, 1,
			  "set line in the text of one set's properties: saw '%s', expected Name=Type|Value",
			  quote_text(&q, ln.s, ln.len));
		r = -EINVAL;
	}
	return reader_finish(&rd, r, out);
}

int props_parse(const char *text, size_t len, const char *fname,
		struct props **out, struct errmsg *err)
{
	return props_parse_noted(text, len, fname, out, err, NULL, NULL);
}

int props_read_file_noted(const char *path, struct props **out,
			  struct errmsg *err, props_note_fn note_fn,
			  void *ctx)
{
	size_t len = 0;
	char *text = NULL;
	int r;

	*out = NULL;
	r = input_slurp(path, &text, &len, err);
	if (r < 0)
		return r;
	r = props_parse_noted(text, len, path, out, err, note_fn, ctx);
	free(text);
	return r;
}

int props_read_file(const char *path, struct props **out,
		    struct errmsg *err)
{
	return props_read_file_noted(path, out, err, NULL, NULL);
}
