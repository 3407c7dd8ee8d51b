// SPDX-License-Identifier: MIT
/*
 * File tables (devimg-wrap -batch): a "[Code|Symbols|...]" header naming
 * the columns, then one row of '|'-separated cells per image.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "props/internal.h"

static const char *const column_names[PROPS_NCOLS] = {
	[PROPS_COL_CODE] = "Code",
	[PROPS_COL_SYMBOLS] = "Symbols",
	[PROPS_COL_PROPERTIES] = "Properties",
	[PROPS_COL_MANIFEST] = "Manifest",
	[PROPS_COL_SYM_AND_PROPS] = "SymAndProps",
};

#define EXPECTED_HEADER \
	"'[Code|Symbols|Properties|Manifest]' (any subset, any order)"

struct table_parser {
	const char *fname;
	struct props_table *t;
	size_t cap;
	int *cols;	/* header order: a props_column, or -1 ignored */
	size_t ncols;
	size_t cols_cap;
	struct errmsg *err;
};

static int column_of(const char *s, size_t len)
{
	int c;

	for (c = 0; c < PROPS_NCOLS; c++)
		if (strlen(column_names[c]) == len &&
		    !memcmp(column_names[c], s, len))
			return c;
	return -1;
}

static int add_column(struct table_parser *tp, int c)
{
	int *cols;
	size_t ncap;

	if (tp->ncols == tp->cols_cap) {
		ncap = tp->cols_cap ? tp->cols_cap * 2 : 8;
		if (ncap > SIZE_MAX / sizeof(*cols))
			return -ENOMEM;
		cols = realloc(tp->cols, ncap * sizeof(*cols));
		if (!cols)
			return -ENOMEM;
		tp->cols = cols;
		tp->cols_cap = ncap;
	}
	tp->cols[tp->ncols++] = c;
	return 0;
}

/*
 * A column of another name (sycl-post-link and file-table-tform add some,
 * such as SymAndProps) is carried by every row but not read, as DPC++'s
 * wrapper reads only the columns it knows.
 */
static int header_cell(struct table_parser *tp, const struct text_line *ln,
		       const char *s, size_t len)
{
	size_t col = (size_t)(s - ln->s) + 1;
	struct quote q;
	int c = column_of(s, len);

	if (!len) {
		errmsg_at(tp->err, tp->fname, ln->lineno, col,
			  "empty table column name: saw '%s', expected a name such as Code, Symbols, Properties or Manifest",
			  quote_text(&q, ln->s, ln->len));
		return -EINVAL;
	}
	if (c < 0)
		return add_column(tp, -1);
	if (tp->t->has[c]) {
		errmsg_at(tp->err, tp->fname, ln->lineno, col,
			  "repeated table column: saw '%s', expected each column at most once",
			  quote_text(&q, s, len));
		return -EINVAL;
	}
	tp->t->has[c] = 1;
	return add_column(tp, c);
}

static int parse_header(struct table_parser *tp, const struct text_line *ln)
{
	const char *p, *end, *bar;
	struct quote q;
	int r;

	if (ln->len < 2 || ln->s[0] != '[' || ln->s[ln->len - 1] != ']') {
		errmsg_at(tp->err, tp->fname, ln->lineno, 1,
			  "missing table header: saw '%s', expected " EXPECTED_HEADER,
			  quote_text(&q, ln->s, ln->len));
		return -EINVAL;
	}
	p = ln->s + 1;
	end = ln->s + ln->len - 1;
	for (;;) {
		bar = memchr(p, '|', (size_t)(end - p));
		r = header_cell(tp, ln, p, (size_t)((bar ? bar : end) - p));
		if (r < 0 || !bar)
			return r;
		p = bar + 1;
	}
}

static size_t count_cells(const char *s, size_t len)
{
	const char *end = s + len, *bar;
	size_t n = 1;

	while ((bar = memchr(s, '|', (size_t)(end - s)))) {
		n++;
		s = bar + 1;
	}
	return n;
}

static int new_row(struct table_parser *tp, struct props_table_row **row)
{
	struct props_table *t = tp->t;
	struct props_table_row *rows;
	size_t ncap;

	if (t->nrows == tp->cap) {
		ncap = tp->cap ? tp->cap * 2 : 8;
		if (ncap < tp->cap || ncap > SIZE_MAX / sizeof(*rows))
			return -ENOMEM;
		rows = realloc(t->rows, ncap * sizeof(*rows));
		if (!rows)
			return -ENOMEM;
		t->rows = rows;
		tp->cap = ncap;
	}
	*row = &t->rows[t->nrows++];
	memset(*row, 0, sizeof(**row));
	return 0;
}

static int fill_row(struct table_parser *tp, const struct text_line *ln,
		    struct props_table_row *row)
{
	const char *p = ln->s, *end = ln->s + ln->len, *bar;
	size_t k;

	row->line = ln->lineno > UINT_MAX ? UINT_MAX : (unsigned)ln->lineno;
	for (k = 0; k < tp->ncols; k++) {
		bar = memchr(p, '|', (size_t)(end - p));
		if (!bar)
			bar = end;
		if (tp->cols[k] >= 0) {
			row->cell[tp->cols[k]] =
				props_strndup(p, (size_t)(bar - p));
			if (!row->cell[tp->cols[k]])
				return -ENOMEM;
		}
		p = bar + 1;
	}
	return 0;
}

static int parse_row(struct table_parser *tp, const struct text_line *ln)
{
	size_t n = count_cells(ln->s, ln->len);
	struct props_table_row *row;
	struct quote q;
	int r;

	if (n != tp->ncols) {
		errmsg_at(tp->err, tp->fname, ln->lineno, 1,
			  "wrong number of cells in table row: saw '%s' (got %zu cells), expected %zu cells, one per header column",
			  quote_text(&q, ln->s, ln->len), n, tp->ncols);
		return -EINVAL;
	}
	r = new_row(tp, &row);
	if (r < 0)
		return r;
	return fill_row(tp, ln, row);
}

void props_table_fini(struct props_table *t)
{
	size_t i;
	int c;

	for (i = 0; i < t->nrows; i++)
		for (c = 0; c < PROPS_NCOLS; c++)
			free(t->rows[i].cell[c]);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

/* No line but empty ones: an empty table, no header needed. */
static int parse_lines(struct table_parser *tp, struct line_iter *it)
{
	struct text_line ln;
	int r;

	r = lines_next(it, &ln, tp->err);
	if (r <= 0)
		return r;
	r = parse_header(tp, &ln);
	tp->t->ncols = tp->ncols;
	while (r >= 0 && (r = lines_next(it, &ln, tp->err)) > 0)
		r = parse_row(tp, &ln);
	return r;
}

int props_table_parse(const char *text, size_t len, const char *fname,
		      struct props_table *out, struct errmsg *err)
{
	struct props_table t;
	struct table_parser tp = { .fname = fname, .t = &t, .err = err };
	struct line_iter it;
	int r;

	memset(out, 0, sizeof(*out));
	memset(&t, 0, sizeof(t));
	lines_init(&it, text, len, fname);
	r = parse_lines(&tp, &it);
	free(tp.cols);
	if (r == -ENOMEM)
		errmsg_set(err, "%s: out of memory", errmsg_fname(fname));
	if (r < 0) {
		props_table_fini(&t);
		return r;
	}
	*out = t;
	return 0;
}

int props_table_read_file(const char *path, struct props_table *out,
			  struct errmsg *err)
{
	size_t len = 0;
	char *text = NULL;
	int r;

	memset(out, 0, sizeof(*out));
	r = input_slurp(path, &text, &len, err);
	if (r < 0)
		return r;
	r = props_table_parse(text, len, path, out, err);
	free(text);
	return r;
}
