// SPDX-License-Identifier: MIT
/* Line iteration over text buffers that need not be NUL-terminated. */
#include <errno.h>
#include <string.h>

#include "util/errmsg.h"
#include "util/lines.h"

void lines_init(struct line_iter *it, const char *text, size_t len,
		const char *fname)
{
	it->p = text;
	it->end = text ? text + len : text;
	it->fname = fname;
	it->lineno = 0;
	it->nul_ends = 0;
}

void lines_init_nul_ends(struct line_iter *it, const char *text,
			 size_t len, const char *fname)
{
	const char *nul = text ? memchr(text, '\0', len) : NULL;

	lines_init(it, text, nul ? (size_t)(nul - text) : len, fname);
	it->nul_ends = 1;
}

static void lines_take(struct line_iter *it, struct text_line *line)
{
	size_t left = (size_t)(it->end - it->p);
	const char *nl = memchr(it->p, '\n', left);
	size_t len = nl ? (size_t)(nl - it->p) : left;

	line->s = it->p;
	line->lineno = ++it->lineno;
	it->p += nl ? len + 1 : len;
	if (len > 0 && line->s[len - 1] == '\r' && (nl || !it->nul_ends))
		len--;
	line->len = len;
}

int lines_next(struct line_iter *it, struct text_line *line,
	       struct errmsg *err)
{
	const char *nul;

	while (it->p < it->end) {
		lines_take(it, line);
		if (line->len == 0)
			continue;
		nul = memchr(line->s, '\0', line->len);
		if (nul) {
			errmsg_at(err, it->fname, line->lineno,
				  (size_t)(nul - line->s) + 1,
				  "NUL byte in text: saw '\\x00', expected a printable character");
			return -EINVAL;
		}
		return 1;
	}
	return 0;
}
