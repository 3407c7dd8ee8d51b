/* SPDX-License-Identifier: MIT */
/*
 * A small streaming JSON writer for devimg-dump: objects, arrays, strings
 * escaped as RFC 8259 requires, numbers, null. Output is indented two
 * spaces per level.
 *
 * Strings: as esc_json() (escape.h) writes them, losing no byte:
 * controls as \u00XX, valid UTF-8 copied, every other byte as \uDCXX
 * (docs/dump-json.md).
 *
 * Error contract: the writer functions never fail by themselves; a misuse
 * (nesting deeper than JSON_MAX_DEPTH, closing what was not opened) sets a
 * sticky flag, and json_finish() returns 0 when the document was complete
 * and well formed and every write to the stream succeeded, -EINVAL on
 * misuse, -EIO when the stream reported an error.
 */
#ifndef DEVIMG_WRAPPER_JSON_H
#define DEVIMG_WRAPPER_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *f;
	unsigned depth;
	int misuse;
	int after_key;			/* a key was written, a value is due */
	unsigned char nonempty[JSON_MAX_DEPTH];	/* a member was written */
	char close[JSON_MAX_DEPTH];	/* '}' or ']' */
};

void json_init(struct json_writer *w, FILE *f);
/* Returns 0, -EINVAL or -EIO; see above. Writes the final newline. */
int json_finish(struct json_writer *w);

void json_object_begin(struct json_writer *w);
void json_object_end(struct json_writer *w);
void json_array_begin(struct json_writer *w);
void json_array_end(struct json_writer *w);

/* Object member name; the value follows with one of the calls below. */
void json_key(struct json_writer *w, const char *key);

void json_string(struct json_writer *w, const char *s);
/* n bytes, which may hold NUL and bytes that are not UTF-8. */
void json_string_n(struct json_writer *w, const void *s, size_t n);
void json_uint(struct json_writer *w, uint64_t v);
void json_null(struct json_writer *w);
void json_bool(struct json_writer *w, int v);
/* n bytes as one string of lowercase hex digits. */
void json_hex(struct json_writer *w, const void *p, size_t n);

#endif
