// SPDX-License-Identifier: MIT
/* Error messages: one line with the place, the text seen, what was expected. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

const char *props_fname(const char *fname)
{
	return fname ? fname : "<input>";
}

static void props_verrf(struct props_error *err, size_t at, const char *fmt,
			va_list ap) PROPS_PRINTF(3, 0);

static void props_verrf(struct props_error *err, size_t at, const char *fmt,
			va_list ap)
{
	if (at >= sizeof(err->msg))
		return;
	vsnprintf(err->msg + at, sizeof(err->msg) - at, fmt, ap);
}

void props_errf(struct props_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	props_verrf(err, 0, fmt, ap);
	va_end(ap);
}

void props_err_at(struct props_error *err, const char *fname, size_t line,
		  size_t col, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err)
		return;
	n = snprintf(err->msg, sizeof(err->msg), "%s:%zu:%zu: ",
		     props_fname(fname), line, col);
	if (n < 0)
		n = 0;
	va_start(ap, fmt);
	props_verrf(err, (size_t)n, fmt, ap);
	va_end(ap);
}

static size_t quote_char(char *dst, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	if (c == '\'' || c == '\\') {
		dst[0] = '\\';
		dst[1] = (char)c;
		return 2;
	}
	if (c >= 0x20 && c < 0x7f) {
		dst[0] = (char)c;
		return 1;
	}
	dst[0] = '\\';
	dst[1] = 'x';
	dst[2] = hex[c >> 4];
	dst[3] = hex[c & 15];
	return 4;
}

const char *props_quote(struct props_quote *q, const char *s, size_t n)
{
	size_t i, o = 0;
	size_t shown = n > PROPS_QUOTE_IN ? PROPS_QUOTE_IN : n;

	for (i = 0; i < shown; i++)
		o += quote_char(q->s + o, (unsigned char)s[i]);
	if (shown < n) {
		memcpy(q->s + o, "...", 3);
		o += 3;
	}
	q->s[o] = '\0';
	return q->s;
}
