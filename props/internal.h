/* SPDX-License-Identifier: MIT */
/*
 * Internal helpers of libdevimg-props shared by its modules: error
 * formatting, line iteration over (text, len) buffers, whole-file reading,
 * byte-array header validation and the model's ownership-taking adder.
 * Nothing here is part of the library's API.
 */
#ifndef DEVIMG_PROPS_INTERNAL_H
#define DEVIMG_PROPS_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "props.h"

#define PROPS_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* ---- errors (props-error.c) ---- */

void props_errf(struct props_error *err, const char *fmt, ...) PROPS_PRINTF(2, 3);
/* "FNAME:LINE:COL: " then the formatted rest. */
void props_err_at(struct props_error *err, const char *fname, size_t line,
		  size_t col, const char *fmt, ...) PROPS_PRINTF(5, 6);

/* Input text as a message shows it: escaped, cut after PROPS_QUOTE_IN bytes. */
#define PROPS_QUOTE_IN 48
struct props_quote {
	char s[PROPS_QUOTE_IN * 4 + 8];
};
const char *props_quote(struct props_quote *q, const char *s, size_t n);

/* The file name of messages: fname, or "<input>" when NULL. */
const char *props_fname(const char *fname);

/* ---- lines (lines.c) ---- */

struct props_lines {
	const char *p;
	const char *end;
	const char *fname;
	size_t lineno;
	int nul_ends;		/* a NUL ends the text instead of failing */
};

struct props_line {
	const char *s;		/* without "\n" or "\r\n" */
	size_t len;
	size_t lineno;		/* 1-based */
};

void props_lines_init(struct props_lines *it, const char *text, size_t len,
		      const char *fname);
/*
 * As LLVM's line_iterator reads a NUL-terminated buffer, as DPC++'s
 * .props reader does: the first NUL ends the text (the rest is ignored),
 * and only a '\r' right before a '\n' is a line end, so one at the very
 * end of the text stays on its line.
 */
void props_lines_init_nul_ends(struct props_lines *it, const char *text,
			       size_t len, const char *fname);
/*
 * Next non-empty line: 1 when one is returned, 0 at the end, -EINVAL on a
 * NUL byte (the formats are text; a NUL would silently cut a name short).
 */
int props_lines_next(struct props_lines *it, struct props_line *line,
		     struct props_error *err);

/* ---- files (file.c) ---- */

/*
 * Read a whole text input (props_input_read(), at most
 * DEVIMG_LIMIT_TEXT_FILE bytes) into a malloc'ed buffer.
 */
int props_slurp(const char *path, char **buf, size_t *len,
		struct props_error *err);

/* ---- byte arrays (bytes.c) ---- */

/*
 * Check the 8-byte bit-count header against the payload. On failure,
 * detail receives "what: saw ..., expected ..." without a place.
 */
int props_bytes_check(const unsigned char *buf, uint64_t size, uint64_t *nbits,
		      char *detail, size_t detailsz);
/* Little-endian integers at p, read and written byte by byte. */
uint64_t props_le64(const unsigned char *p);
uint32_t props_le32(const unsigned char *p);
uint16_t props_le16(const unsigned char *p);
void props_put_le64(unsigned char *p, uint64_t v);
void props_put_le32(unsigned char *p, uint32_t v);
void props_put_le16(unsigned char *p, uint16_t v);

/* ---- model (model.c) ---- */

/* Replace pr's value with one the caller owns (data may be NULL). */
void props_prop_replace(struct props_prop *pr, enum props_type type,
			uint32_t u32, unsigned char *data, size_t size);

/* ---- name index (index.c) ---- */

struct props_index_ent {
	uint64_t hash;		/* keyed: hashkey.h */
	size_t set;		/* PROPS_INDEX_SETS for a set's own name */
	size_t idx;
	int used;
};

struct props_index {
	struct props_index_ent *e;
	size_t cap;
	size_t n;
};

#define PROPS_INDEX_SETS SIZE_MAX

/*
 * Look up a set (set == PROPS_INDEX_SETS) or a property of set number set
 * by name: 1 and *idx when present, 0 when not.
 */
int props_index_get(const struct props_index *ix, const struct props *p,
		    size_t set, const char *name, size_t *idx);
/* Add the set or property at idx (already in p); 0 or -ENOMEM. */
int props_index_put(struct props_index *ix, const struct props *p, size_t set,
		    size_t idx);
void props_index_fini(struct props_index *ix);

/* Append a BYTE_ARRAY property taking ownership of buf (header included). */
int props_add_bytes_owned(struct props_set *s, const char *name,
			  unsigned char *buf, size_t size);
char *props_strndup(const char *s, size_t n);

#endif
