// SPDX-License-Identifier: MIT
/*
 * The one error carrier (errmsg.h): one line with the place, the text seen,
 * what was expected.
 */
#include <stdio.h>
#include <string.h>

#include "util/errmsg.h"
#include "util/escape.h"

const char *errmsg_fname(const char *fname)
{
	return fname ? fname : "<input>";
}

static void errmsg_vput(struct errmsg *err, size_t at, const char *fmt,
			va_list ap) DEVIMG_PRINTF(3, 0);

static void errmsg_vput(struct errmsg *err, size_t at, const char *fmt,
			va_list ap)
{
	if (at >= sizeof(err->msg))
		return;
	vsnprintf(err->msg + at, sizeof(err->msg) - at, fmt, ap);
}

void errmsg_vset(struct errmsg *err, const char *fmt, va_list ap)
{
	if (err)
		errmsg_vput(err, 0, fmt, ap);
}

void errmsg_set(struct errmsg *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	errmsg_vset(err, fmt, ap);
	va_end(ap);
}

int errmsg_esc(struct errmsg *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	esc_vsnprintf(err->msg, sizeof(err->msg), NULL, fmt, ap);
	va_end(ap);
	return code;
}

void errmsg_at(struct errmsg *err, const char *fname, size_t line,
	       size_t col, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err)
		return;
	n = snprintf(err->msg, sizeof(err->msg), "%s:%zu:%zu: ",
		     errmsg_fname(fname), line, col);
	if (n < 0)
		n = 0;
	va_start(ap, fmt);
	errmsg_vput(err, (size_t)n, fmt, ap);
	va_end(ap);
}

/* Append s at err->msg's end, cut to fit. */
static void errmsg_append(struct errmsg *err, const char *s)
{
	size_t at = strnlen(err->msg, sizeof(err->msg) - 1);
	size_t len = strnlen(s, sizeof(err->msg) - 1 - at);

	memcpy(err->msg + at, s, len);
	err->msg[at + len] = '\0';
}

void errmsg_prefix(struct errmsg *err, const char *fmt, ...)
{
	char old[sizeof(err->msg)];
	va_list ap;
	int n;

	if (!err)
		return;
	memcpy(old, err->msg, sizeof(old));
	va_start(ap, fmt);
	n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		err->msg[0] = '\0';
	errmsg_append(err, ": ");
	errmsg_append(err, old);
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

const char *quote_text(struct quote *q, const char *s, size_t n)
{
	size_t i, o = 0;
	size_t shown = n > QUOTE_IN ? QUOTE_IN : n;

	for (i = 0; i < shown; i++)
		o += quote_char(q->s + o, (unsigned char)s[i]);
	if (shown < n) {
		memcpy(q->s + o, "...", 3);
		o += 3;
	}
	q->s[o] = '\0';
	return q->s;
}
