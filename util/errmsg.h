/* SPDX-License-Identifier: MIT */
/*
 * The one carrier of an error message inside devimg: a reader, a writer or
 * a tool's step that fails fills a struct errmsg with one line (the place,
 * what was seen, what was expected) and returns a negative errno; whoever
 * reports it (a tool's stderr line, libdevimg's devimg_last_error() and
 * log) adds the program's name or prefix. A NULL carrier is allowed and
 * takes nothing.
 */
#ifndef DEVIMG_UTIL_ERRMSG_H
#define DEVIMG_UTIL_ERRMSG_H

#include <stdarg.h>
#include <stddef.h>

#define DEVIMG_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))

struct errmsg {
	int code;		/* the failure's negative errno, where kept */
	char msg[1024];
};

/* Set the message; the text is kept as formatted. */
void errmsg_set(struct errmsg *err, const char *fmt, ...) DEVIMG_PRINTF(2, 3);
void errmsg_vset(struct errmsg *err, const char *fmt, va_list ap)
	DEVIMG_PRINTF(2, 0);
/*
 * Set code and the message with every argument escaped (util/escape.h):
 * for text from outside that a log line or devimg_last_error() will show.
 * Returns code.
 */
int errmsg_esc(struct errmsg *err, int code, const char *fmt, ...)
	DEVIMG_PRINTF(3, 4);
/* "FNAME:LINE:COL: " then the formatted rest. */
void errmsg_at(struct errmsg *err, const char *fname, size_t line, size_t col,
	       const char *fmt, ...) DEVIMG_PRINTF(5, 6);
/* "PREFIX: " put before the message already there. */
void errmsg_prefix(struct errmsg *err, const char *fmt, ...)
	DEVIMG_PRINTF(2, 3);

/* Input text as a message shows it: escaped, cut after QUOTE_IN bytes. */
#define QUOTE_IN 48
struct quote {
	char s[QUOTE_IN * 4 + 8];
};
const char *quote_text(struct quote *q, const char *s, size_t n);

/* The file name of messages: fname, or "<input>" when NULL. */
const char *errmsg_fname(const char *fname);

#endif
