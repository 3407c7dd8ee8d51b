/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "util/escape.h"
#include "wrapper/json.h"

void json_init(struct json_writer *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

static void indent(struct json_writer *w)
{
	unsigned i;

	fputc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Separator and indentation in front of a value or a key. */
static void before_value(struct json_writer *w, int is_key)
{
	if (w->after_key) {
		if (is_key)
			w->misuse = 1;
		w->after_key = 0;
		return;
	}
	if (w->depth == 0) {
		if (is_key)
			w->misuse = 1;
		return;
	}
	/* In an object, every value must follow a key. */
	if (w->close[w->depth - 1] == '}' && !is_key)
		w->misuse = 1;
	if (w->nonempty[w->depth - 1])
		fputc(',', w->f);
	w->nonempty[w->depth - 1] = 1;
	indent(w);
}

static void container_begin(struct json_writer *w, char c, char close)
{
	before_value(w, 0);
	if (w->depth >= JSON_MAX_DEPTH) {
		w->misuse = 1;
		return;
	}
	fputc(c, w->f);
	w->close[w->depth] = close;
	w->nonempty[w->depth] = 0;
	w->depth++;
}

static void container_end(struct json_writer *w, char close)
{
	if (w->depth == 0 || w->close[w->depth - 1] != close || w->after_key) {
		w->misuse = 1;
		return;
	}
	w->depth--;
	if (w->nonempty[w->depth])
		indent(w);
	fputc(close, w->f);
}

void json_object_begin(struct json_writer *w)
{
	container_begin(w, '{', '}');
}

void json_object_end(struct json_writer *w)
{
	container_end(w, '}');
}

void json_array_begin(struct json_writer *w)
{
	container_begin(w, '[', ']');
}

void json_array_end(struct json_writer *w)
{
	container_end(w, ']');
}

void json_key(struct json_writer *w, const char *key)
{
	before_value(w, 1);
	esc_json(w->f, key, strlen(key));
	fputs(": ", w->f);
	w->after_key = 1;
}

void json_string_n(struct json_writer *w, const void *s, size_t n)
{
	before_value(w, 0);
	esc_json(w->f, s, n);
}

void json_string(struct json_writer *w, const char *s)
{
	json_string_n(w, s, strlen(s));
}

void json_uint(struct json_writer *w, uint64_t v)
{
	before_value(w, 0);
	fprintf(w->f, "%" PRIu64, v);
}

void json_null(struct json_writer *w)
{
	before_value(w, 0);
	fputs("null", w->f);
}

void json_bool(struct json_writer *w, int v)
{
	before_value(w, 0);
	fputs(v ? "true" : "false", w->f);
}

void json_hex(struct json_writer *w, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	before_value(w, 0);
	fputc('"', w->f);
	for (i = 0; i < n; i++)
		fprintf(w->f, "%02x", (unsigned)b[i]);
	fputc('"', w->f);
}

int json_finish(struct json_writer *w)
{
	if (w->depth != 0 || w->after_key)
		w->misuse = 1;
	fputc('\n', w->f);
	if (w->misuse)
		return -EINVAL;
	if (ferror(w->f))
		return -EIO;
	return 0;
}
