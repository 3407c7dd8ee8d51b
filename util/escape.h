/* SPDX-License-Identifier: MIT */
/*
 * Text from outside the program (names, targets, options and property
 * values from descriptors and files, device names and build logs from
 * drivers, environment variables, file names) made safe to print on a
 * terminal, in a log line or in an error message.
 *
 * Each of these bytes becomes \xHH (two lower-case hex digits):
 *  - the C0 controls 0x00-0x1f and DEL 0x7f: ESC starts a terminal control
 *    sequence, CR rewrites the line, a newline starts a line that a reader
 *    takes for a message of its own;
 *  - the bytes of the C1 controls U+0080-U+009F in their UTF-8 form (both
 *    bytes: \xc2\x9b), which some terminals act on;
 *  - every byte that is not part of well-formed UTF-8 (a terminal in an
 *    8-bit encoding takes 0x9b for CSI).
 * A backslash becomes \\, so that \x in the output always starts an escape.
 * Well-formed UTF-8 of every other code point is kept as it is.
 *
 * ESC_LINES keeps newline and tab: for text with lines of its own, a
 * driver's build log, printed as such. A name never has lines.
 *
 * The bounded functions write at most size bytes, the NUL included, never
 * the first bytes of an escape or of a UTF-8 sequence without the rest, and
 * return the length of the whole text: a result >= size means it was cut.
 *
 * The formatting functions take printf formats; the format's own text is
 * copied as it is, the output of every conversion is escaped. lines, when
 * not NULL, is the one string argument (by address) that is multi-line
 * text: a %s of exactly that pointer is escaped with ESC_LINES.
 */
#ifndef DEVIMG_UTIL_ESCAPE_H
#define DEVIMG_UTIL_ESCAPE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define ESC_LINES 1u

/* Escape len bytes of src (NULs included) into dst. */
size_t esc_bytes(char *dst, size_t size, const char *src, size_t len,
		 unsigned flags);

size_t esc_vsnprintf(char *buf, size_t size, const char *lines,
		     const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
size_t esc_snprintf(char *buf, size_t size, const char *lines,
		    const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Unbounded, to a stream: the bytes written, or -1 on a write error. */
int esc_vfprintf(FILE *f, const char *lines, const char *fmt,
		 va_list ap) __attribute__((format(printf, 3, 0)));
int esc_fprintf(FILE *f, const char *lines, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The longest prefix of escaped text s, at most n bytes, that ends on a
 * boundary: not inside an escape or a UTF-8 sequence. For cutting text
 * that these functions made.
 */
size_t esc_cut(const char *s, size_t n);

/*
 * The length (1 to 4) of the well-formed UTF-8 sequence that starts s,
 * of at most n bytes; 0 when s starts none. ASCII counts as length 1.
 */
size_t utf8_seq_len(const unsigned char *s, size_t n);

/*
 * Write the n bytes of s to f as a JSON string, losing nothing: quote and
 * backslash escaped; control characters (C0, DEL and the C1 controls
 * U+0080-U+009F, on which terminals act) as \u00XX; well-formed UTF-8 as
 * it is; and each byte B that is not part of well-formed UTF-8 as the lone
 * low surrogate \uDCBB (U+DC00 + B), as Python's "surrogateescape" does.
 * Well-formed UTF-8 never encodes a surrogate, so a reader gets the bytes
 * back exactly (Python: json.loads(), then .encode("utf-8",
 * "surrogateescape")); jq and others show such a byte as U+FFFD.
 */
void esc_json(FILE *f, const void *s, size_t n);

#endif
