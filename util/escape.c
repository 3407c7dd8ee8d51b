// SPDX-License-Identifier: MIT
/*
 * Escaping of text from outside before it is printed (escape.h says what
 * is escaped and how). Output goes to a sink in units, each whole or not
 * at all: an escape, a UTF-8 sequence, one byte of the format's own text.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "util/escape.h"

struct sink {
	char *buf;		/* bounded: size bytes, NUL included */
	size_t size;
	size_t used;		/* bytes written to buf */
	bool full;		/* a unit did not fit: write no more */
	FILE *f;		/* or a stream */
	bool err;
	size_t len;		/* length of the whole text */
};

static void put(struct sink *s, const char *p, size_t n)
{
	if (s->f) {
		if (!s->err && fwrite(p, 1, n, s->f) != n)
			s->err = true;
	} else if (!s->full && s->size && n < s->size - s->used) {
		memcpy(s->buf + s->used, p, n);
		s->used += n;
	} else {
		s->full = true;
	}
	s->len += n;
}

static void put_hex(struct sink *s, const unsigned char *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	char e[16];
	size_t i;

	for (i = 0; i < n; i++) {
		e[4 * i] = '\\';
		e[4 * i + 1] = 'x';
		e[4 * i + 2] = hex[p[i] >> 4];
		e[4 * i + 3] = hex[p[i] & 15];
	}
	put(s, e, 4 * n);
}

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c = n ? s[0] : 0;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (!n)
		return 0;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;	/* no overlong form */
		else if (c == 0xed)
			hi = 0x9f;	/* no surrogate */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;	/* nothing past U+10FFFF */
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static void escape(struct sink *s, const char *src, size_t len,
		   unsigned flags)
{
	const unsigned char *p = (const unsigned char *)src;
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = p[i];

		if (c == '\\') {
			put(s, "\\\\", 2);
			n = 1;
		} else if ((c == '\n' || c == '\t') &&
			   (flags & ESC_LINES)) {
			put(s, (const char *)p + i, 1);
			n = 1;
		} else if (c < 0x20 || c == 0x7f) {
			put_hex(s, p + i, 1);
			n = 1;
		} else if (c < 0x80) {
			put(s, (const char *)p + i, 1);
			n = 1;
		} else if ((n = utf8_seq_len(p + i, len - i)) == 0) {
			put_hex(s, p + i, 1);
			n = 1;
		} else if (c == 0xc2 && p[i + 1] < 0xa0) {
			put_hex(s, p + i, 2);	/* U+0080-U+009F */
		} else {
			put(s, (const char *)p + i, n);
		}
		i += n;
	}
}

static void finish(struct sink *s)
{
	if (!s->f && s->size)
		s->buf[s->used] = '\0';
}

size_t esc_bytes(char *dst, size_t size, const char *src, size_t len,
		 unsigned flags)
{
	struct sink s = { .buf = dst, .size = size };

	escape(&s, src, len, flags);
	finish(&s);
	return s.len;
}

size_t esc_cut(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, u;

	while (i < n && p[i]) {
		if (p[i] == '\\')
			u = p[i + 1] == 'x' ? 4 : 2;
		else
			u = p[i] < 0x80 ? 1 : utf8_seq_len(p + i, 4);
		if (!u)
			u = 1;
		if (u > n - i || memchr(p + i, '\0', u))
			break;
		i += u;
	}
	return i;
}

/* One conversion of a format: its text, what it takes. */
struct conv {
	char spec[32];		/* "%-16s", "%.*s", "%llu" */
	char flags[8];		/* "-", "#", "0" */
	char c;			/* the conversion character */
	char len[3];		/* "", "hh", "h", "l", "ll", "j", "z", "t", "L" */
	bool star_width, star_prec, has_prec;
	bool left;
	int width, prec;
};

/* Parse the conversion at fmt (after its '%'); NULL when malformed. */
static const char *parse_conv(const char *fmt, struct conv *cv)
{
	const char *start = fmt - 1, *p = fmt;
	size_t n;

	memset(cv, 0, sizeof(*cv));
	for (n = 0; *p && strchr("-+ #0'", *p); p++) {
		if (*p == '-')
			cv->left = true;
		if (n + 1 < sizeof(cv->flags))
			cv->flags[n++] = *p;
	}
	if (*p == '*') {
		cv->star_width = true;
		p++;
	} else {
		while (*p >= '0' && *p <= '9')
			cv->width = cv->width * 10 + (*p++ - '0');
	}
	if (*p == '.') {
		cv->has_prec = true;
		p++;
		if (*p == '*') {
			cv->star_prec = true;
			p++;
		} else {
			while (*p >= '0' && *p <= '9')
				cv->prec = cv->prec * 10 + (*p++ - '0');
		}
	}
	n = 0;
	while (*p && strchr("hljztL", *p) && n < 2)
		cv->len[n++] = *p++;
	if (!*p || !strchr("diouxXeEfFgGaAcspnm%", *p))
		return NULL;
	cv->c = *p++;
	n = (size_t)(p - start);
	if (n >= sizeof(cv->spec))
		return NULL;
	memcpy(cv->spec, start, n);
	cv->spec[n] = '\0';
	return p;
}

static bool len_is(const struct conv *cv, const char *l)
{
	return !strcmp(cv->len, l);
}

/* %s: escaped, then padded to the width in escaped bytes. */
static void put_string(struct sink *s, const struct conv *cv, int width,
		       int prec, const char *str, const char *lines)
{
	unsigned flags = str && str == lines ? ESC_LINES : 0;
	struct sink count = { 0 };
	size_t n, pad = 0;

	if (!str)
		str = "(null)";
	n = cv->has_prec && prec >= 0 ? strnlen(str, (size_t)prec) :
					 strlen(str);
	if (width > 0) {
		escape(&count, str, n, flags);
		if (count.len < (size_t)width)
			pad = (size_t)width - count.len;
	}
	for (; !cv->left && pad; pad--)
		put(s, " ", 1);
	escape(s, str, n, flags);
	for (; pad; pad--)
		put(s, " ", 1);
}

/* Format one conversion other than %s into tmp with the C library. */
static int format_other(char *tmp, size_t size, const struct conv *cv,
			int width, int prec, va_list *ap)
{
	char spec[48];
	const char *sp = cv->spec;

	/* The stars' values written in, the rest of the spec as it was. */
	if (cv->star_width || cv->star_prec) {
		int n = snprintf(spec, sizeof(spec), "%%%s%s", cv->flags,
				 width < 0 ? "-" : "");

		if (width)
			n += snprintf(spec + n, sizeof(spec) - (size_t)n, "%d",
				      width < 0 ? -width : width);
		if (cv->has_prec && prec >= 0)
			n += snprintf(spec + n, sizeof(spec) - (size_t)n, ".%d",
				      prec);
		snprintf(spec + n, sizeof(spec) - (size_t)n, "%s%c", cv->len,
			 cv->c);
		sp = spec;
	}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
	switch (cv->c) {
	case 'd':
	case 'i':
		if (len_is(cv, "l"))
			return snprintf(tmp, size, sp, va_arg(*ap, long));
		if (len_is(cv, "ll"))
			return snprintf(tmp, size, sp, va_arg(*ap, long long));
		if (len_is(cv, "j"))
			return snprintf(tmp, size, sp, va_arg(*ap, intmax_t));
		if (len_is(cv, "z") || len_is(cv, "t"))
			return snprintf(tmp, size, sp, va_arg(*ap, ptrdiff_t));
		return snprintf(tmp, size, sp, va_arg(*ap, int));
	case 'o':
	case 'u':
	case 'x':
	case 'X':
		if (len_is(cv, "l"))
			return snprintf(tmp, size, sp,
					va_arg(*ap, unsigned long));
		if (len_is(cv, "ll"))
			return snprintf(tmp, size, sp,
					va_arg(*ap, unsigned long long));
		if (len_is(cv, "j"))
			return snprintf(tmp, size, sp, va_arg(*ap, uintmax_t));
		if (len_is(cv, "z") || len_is(cv, "t"))
			return snprintf(tmp, size, sp, va_arg(*ap, size_t));
		return snprintf(tmp, size, sp, va_arg(*ap, unsigned int));
	case 'e':
	case 'E':
	case 'f':
	case 'F':
	case 'g':
	case 'G':
	case 'a':
	case 'A':
		if (len_is(cv, "L"))
			return snprintf(tmp, size, sp,
					va_arg(*ap, long double));
		return snprintf(tmp, size, sp, va_arg(*ap, double));
	case 'c':
		if (len_is(cv, "l"))
			return snprintf(tmp, size, sp, va_arg(*ap, wint_t));
		return snprintf(tmp, size, sp, va_arg(*ap, int));
	case 's':	/* %ls */
		return snprintf(tmp, size, sp, va_arg(*ap, const wchar_t *));
	case 'p':
		return snprintf(tmp, size, sp, va_arg(*ap, void *));
	case 'm':
		return snprintf(tmp, size, sp);
	case 'n':
		(void)va_arg(*ap, void *);	/* counts nothing here */
		return 0;
	}
#pragma GCC diagnostic pop
	return 0;
}

static void format(struct sink *s, const char *lines, const char *fmt,
		   va_list ap0)
{
	va_list ap;
	const char *p = fmt;

	va_copy(ap, ap0);
	while (*p) {
		struct conv cv;
		const char *next;
		char tmp[512];
		int width, prec = -1, n;

		if (*p != '%') {
			put(s, p++, 1);
			continue;
		}
		next = parse_conv(p + 1, &cv);
		if (!next) {		/* not a conversion: the rest as text */
			escape(s, p, strlen(p), 0);
			break;
		}
		p = next;
		if (cv.c == '%') {
			put(s, "%", 1);
			continue;
		}
		width = cv.star_width ? va_arg(ap, int) : cv.width;
		if (cv.star_prec)
			prec = va_arg(ap, int);
		else if (cv.has_prec)
			prec = cv.prec;
		if (cv.c == 's' && !cv.len[0]) {
			struct conv c2 = cv;

			if (width < 0) {
				c2.left = true;
				width = -width;
			}
			if (prec < 0)
				c2.has_prec = false;
			put_string(s, &c2, width, prec,
				   va_arg(ap, const char *), lines);
			continue;
		}
		n = format_other(tmp, sizeof(tmp), &cv, width, prec, &ap);
		if (n > 0)	/* %c of 0 gives a NUL: counted, escaped */
			escape(s, tmp, (size_t)n < sizeof(tmp) ?
					       (size_t)n : sizeof(tmp) - 1, 0);
	}
	va_end(ap);
}

size_t esc_vsnprintf(char *buf, size_t size, const char *lines,
		     const char *fmt, va_list ap)
{
	struct sink s = { .buf = buf, .size = size };

	format(&s, lines, fmt, ap);
	finish(&s);
	return s.len;
}

size_t esc_snprintf(char *buf, size_t size, const char *lines,
		    const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = esc_vsnprintf(buf, size, lines, fmt, ap);
	va_end(ap);
	return n;
}

int esc_vfprintf(FILE *f, const char *lines, const char *fmt,
		 va_list ap)
{
	struct sink s = { .f = f };

	format(&s, lines, fmt, ap);
	if (s.err || s.len > INT32_MAX)
		return -1;
	return (int)s.len;
}

int esc_fprintf(FILE *f, const char *lines, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = esc_vfprintf(f, lines, fmt, ap);
	va_end(ap);
	return n;
}

void esc_json(FILE *f, const void *s, size_t n)
{
	const unsigned char *p = s;
	size_t i = 0, len;

	fputc('"', f);
	while (i < n) {
		unsigned char c = p[i];

		len = utf8_seq_len(p + i, n - i);
		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
		} else if (len == 0) {
			fprintf(f, "\\udc%02x", (unsigned)c);
			len = 1;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", (unsigned)c);
		} else if (len == 2 && c == 0xc2 && p[i + 1] < 0xa0) {
			fprintf(f, "\\u%04x", (unsigned)p[i + 1]);
		} else {
			fwrite(p + i, 1, len, f);
		}
		i += len;
	}
	fputc('"', f);
}
