/* SPDX-License-Identifier: MIT */
/* Line iteration over text buffers that need not be NUL-terminated. */
#ifndef DEVIMG_UTIL_LINES_H
#define DEVIMG_UTIL_LINES_H

#include <stddef.h>

struct errmsg;

struct line_iter {
	const char *p;
	const char *end;
	const char *fname;
	size_t lineno;
	int nul_ends;		/* a NUL ends the text instead of failing */
};

struct text_line {
	const char *s;		/* without "\n" or "\r\n" */
	size_t len;
	size_t lineno;		/* 1-based */
};

void lines_init(struct line_iter *it, const char *text, size_t len,
		const char *fname);
/*
 * As LLVM's line_iterator reads a NUL-terminated buffer, as DPC++'s
 * .props reader does: the first NUL ends the text (the rest is ignored),
 * and only a '\r' right before a '\n' is a line end, so one at the very
 * end of the text stays on its line.
 */
void lines_init_nul_ends(struct line_iter *it, const char *text, size_t len,
			 const char *fname);
/*
 * Next non-empty line: 1 when one is returned, 0 at the end, -EINVAL on a
 * NUL byte (the formats are text; a NUL would silently cut a name short).
 */
int lines_next(struct line_iter *it, struct text_line *line,
	       struct errmsg *err);

#endif
