// SPDX-License-Identifier: MIT
/* .sym files: one kernel or symbol name per line, in order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "props/internal.h"

static int names_push(struct props_names *names, size_t *cap,
		      const char *s, size_t len)
{
	char **arr;
	char *name;
	size_t ncap;

	if (names->n == *cap) {
		ncap = *cap ? *cap * 2 : 16;
		if (ncap < *cap || ncap > SIZE_MAX / sizeof(*arr))
			return -ENOMEM;
		arr = realloc(names->names, ncap * sizeof(*arr));
		if (!arr)
			return -ENOMEM;
		names->names = arr;
		*cap = ncap;
	}
	name = props_strndup(s, len);
	if (!name)
		return -ENOMEM;
	names->names[names->n++] = name;
	return 0;
}

void props_names_fini(struct props_names *names)
{
	size_t i;

	for (i = 0; i < names->n; i++)
		free(names->names[i]);
	free(names->names);
	names->names = NULL;
	names->n = 0;
}

int props_sym_parse(const char *text, size_t len, const char *fname,
		    struct props_names *out, struct errmsg *err)
{
	struct props_names names = { NULL, 0 };
	struct line_iter it;
	struct text_line ln;
	size_t cap = 0;
	int r;

	memset(out, 0, sizeof(*out));
	lines_init(&it, text, len, fname);
	while ((r = lines_next(&it, &ln, err)) > 0) {
		r = names_push(&names, &cap, ln.s, ln.len);
		if (r < 0) {
			errmsg_set(err, "%s: out of memory", errmsg_fname(fname));
			break;
		}
	}
	if (r < 0) {
		props_names_fini(&names);
		return r;
	}
	*out = names;
	return 0;
}

int props_sym_read_file(const char *path, struct props_names *out,
			struct errmsg *err)
{
	size_t len = 0;
	char *text = NULL;
	int r;

	memset(out, 0, sizeof(*out));
	r = input_slurp(path, &text, &len, err);
	if (r < 0)
		return r;
	r = props_sym_parse(text, len, path, out, err);
	free(text);
	return r;
}
