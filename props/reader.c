// SPDX-License-Identifier: MIT
/*
 * The .props reader: "[Set name]" lines open a set, "Name=Type|Value" lines
 * add a property to it (split at the first '=', then the first '|').
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct reader {
	const char *fname;
	struct props *p;
	struct props_set *cur;
	struct props_error *err;
};

/* A parsed "Name=Type|Value" line; pointers into the line. */
struct prop_line {
	const struct props_line *ln;
	const char *name;
	size_t name_len;
	const char *type;
	size_t type_len;
	const char *val;
	size_t val_len;
};

static size_t col_of(const struct props_line *ln, const char *at)
{
	return (size_t)(at - ln->s) + 1;
}

static int parse_set(struct reader *rd, const struct props_line *ln)
{
	struct props_quote q;
	char *name;

	if (ln->len < 2 || ln->s[ln->len - 1] != ']') {
		props_err_at(rd->err, rd->fname, ln->lineno, ln->len + 1,
			     "unterminated set name: saw '%s', expected ']' at the end of the line",
			     props_quote(&q, ln->s, ln->len));
		return -EINVAL;
	}
	if (ln->len == 2) {
		props_err_at(rd->err, rd->fname, ln->lineno, 2,
			     "empty set name: saw '[]', expected a name between '[' and ']'");
		return -EINVAL;
	}
	name = props_strndup(ln->s + 1, ln->len - 2);
	if (!name)
		return -ENOMEM;
	rd->cur = props_add_set(rd->p, name);
	free(name);
	return rd->cur ? 0 : -ENOMEM;
}

static int split_prop(struct reader *rd, const struct props_line *ln,
		      struct prop_line *pl)
{
	const char *end = ln->s + ln->len, *eq, *bar;
	struct props_quote q;

	eq = memchr(ln->s, '=', ln->len);
	if (!eq) {
		props_err_at(rd->err, rd->fname, ln->lineno, 1,
			     "missing '=' in property: saw '%s', expected Name=Type|Value",
			     props_quote(&q, ln->s, ln->len));
		return -EINVAL;
	}
	if (eq == ln->s) {
		props_err_at(rd->err, rd->fname, ln->lineno, 1,
			     "empty property name: saw '%s', expected a name before '='",
			     props_quote(&q, ln->s, ln->len));
		return -EINVAL;
	}
	bar = memchr(eq + 1, '|', (size_t)(end - eq - 1));
	if (!bar) {
		props_err_at(rd->err, rd->fname, ln->lineno, col_of(ln, eq + 1),
			     "missing '|' after the property type: saw '%s', expected Type|Value",
			     props_quote(&q, eq + 1, (size_t)(end - eq - 1)));
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

static int parse_type(struct reader *rd, const struct prop_line *pl,
		      enum props_type *type)
{
	struct props_quote q;

	if (pl->type_len == 1 && pl->type[0] >= '1' && pl->type[0] <= '3') {
		*type = (enum props_type)(pl->type[0] - '0');
		return 0;
	}
	props_err_at(rd->err, rd->fname, pl->ln->lineno, col_of(pl->ln, pl->type),
		     "bad property type: saw '%s', expected 1 (UINT32), 2 (BYTE_ARRAY) or 3 (STRING)",
		     props_quote(&q, pl->type, pl->type_len));
	return -EINVAL;
}

static int parse_u32(struct reader *rd, const struct prop_line *pl,
		     uint32_t *out)
{
	size_t col = col_of(pl->ln, pl->val), i;
	struct props_quote q;
	uint32_t v = 0, d;

	for (i = 0; i < pl->val_len; i++)
		if (pl->val[i] < '0' || pl->val[i] > '9')
			break;
	if (pl->val_len == 0 || i < pl->val_len) {
		props_err_at(rd->err, rd->fname, pl->ln->lineno, col + i,
			     "bad decimal number: saw '%s', expected digits 0-9 only",
			     props_quote(&q, pl->val, pl->val_len));
		return -EINVAL;
	}
	for (i = 0; i < pl->val_len; i++) {
		d = (uint32_t)(pl->val[i] - '0');
		if (v > (UINT32_MAX - d) / 10) {
			props_err_at(rd->err, rd->fname, pl->ln->lineno, col,
				     "number out of range: saw '%s', expected at most 4294967295",
				     props_quote(&q, pl->val, pl->val_len));
			return -ERANGE;
		}
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int decode_b64(struct reader *rd, const struct prop_line *pl,
		      unsigned char **buf, size_t *size)
{
	size_t col = col_of(pl->ln, pl->val), n, bad = 0;
	struct props_quote q;
	unsigned char *data;

	if (props_b64_decoded_len(pl->val_len, &n) < 0) {
		props_err_at(rd->err, rd->fname, pl->ln->lineno, col,
			     "truncated base64: saw '%s' (%zu characters), expected a length of 4n, 4n+2 or 4n+3",
			     props_quote(&q, pl->val, pl->val_len), pl->val_len);
		return -EINVAL;
	}
	data = malloc(n ? n : 1);
	if (!data)
		return -ENOMEM;
	if (props_b64_decode(pl->val, pl->val_len, data, &bad) < 0) {
		props_err_at(rd->err, rd->fname, pl->ln->lineno, col + bad,
			     "bad base64 character: saw '%s', expected A-Z, a-z, 0-9, '+' or '/'",
			     props_quote(&q, pl->val + bad, 1));
		free(data);
		return -EINVAL;
	}
	*buf = data;
	*size = n;
	return 0;
}

static int add_bytes(struct reader *rd, const struct prop_line *pl,
		     const char *name)
{
	unsigned char *buf = NULL;
	char detail[256];
	uint64_t bits;
	size_t size = 0;
	int r;

	r = decode_b64(rd, pl, &buf, &size);
	if (r < 0)
		return r;
	r = props_bytes_check(buf, size, &bits, detail, sizeof(detail));
	if (r < 0) {
		props_err_at(rd->err, rd->fname, pl->ln->lineno,
			     col_of(pl->ln, pl->val), "%s", detail);
		goto err_free;
	}
	r = props_add_bytes_owned(rd->cur, name, buf, size);
	if (r < 0)
		goto err_free;
	return 0;

err_free:
	free(buf);
	return r;
}

static int add_string(struct reader *rd, const struct prop_line *pl,
		      const char *name)
{
	char *val = props_strndup(pl->val, pl->val_len);
	int r;

	if (!val)
		return -ENOMEM;
	r = props_add_string(rd->cur, name, val);
	free(val);
	return r;
}

static int add_value(struct reader *rd, const struct prop_line *pl,
		     enum props_type type, const char *name)
{
	uint32_t v;
	int r;

	switch (type) {
	case PROPS_UINT32:
		r = parse_u32(rd, pl, &v);
		return r < 0 ? r : props_add_u32(rd->cur, name, v);
	case PROPS_BYTE_ARRAY:
		return add_bytes(rd, pl, name);
	default:
		return add_string(rd, pl, name);
	}
}

static int parse_prop(struct reader *rd, const struct props_line *ln)
{
	struct prop_line pl;
	enum props_type type;
	struct props_quote q;
	char *name;
	int r;

	if (!rd->cur) {
		props_err_at(rd->err, rd->fname, ln->lineno, 1,
			     "property outside a set: saw '%s', expected a '[Set name]' line before it",
			     props_quote(&q, ln->s, ln->len));
		return -EINVAL;
	}
	r = split_prop(rd, ln, &pl);
	if (r < 0)
		return r;
	r = parse_type(rd, &pl, &type);
	if (r < 0)
		return r;
	name = props_strndup(pl.name, pl.name_len);
	if (!name)
		return -ENOMEM;
	r = add_value(rd, &pl, type, name);
	free(name);
	return r;
}

int props_parse(const char *text, size_t len, const char *fname,
		struct props **out, struct props_error *err)
{
	struct reader rd = { .fname = fname, .err = err };
	struct props_lines it;
	struct props_line ln;
	int r;

	*out = NULL;
	rd.p = props_new();
	if (!rd.p)
		return -ENOMEM;
	props_lines_init(&it, text, len, fname);
	while ((r = props_lines_next(&it, &ln, err)) > 0) {
		if (ln.s[0] == '[')
			r = parse_set(&rd, &ln);
		else
			r = parse_prop(&rd, &ln);
		if (r < 0)
			break;
	}
	if (r == -ENOMEM)
		props_errf(err, "%s: out of memory", props_fname(fname));
	if (r < 0) {
		props_free(rd.p);
		return r;
	}
	*out = rd.p;
	return 0;
}

int props_read_file(const char *path, struct props **out,
		    struct props_error *err)
{
	size_t len = 0;
	char *text = NULL;
	int r;

	*out = NULL;
	r = props_slurp(path, &text, &len, err);
	if (r < 0)
		return r;
	r = props_parse(text, len, path, out, err);
	free(text);
	return r;
}
