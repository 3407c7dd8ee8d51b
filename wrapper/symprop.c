// SPDX-License-Identifier: MIT
/* Entries and property sets from wrapped objects (symprop.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devimg/descriptor.h"
#include "util/devimg_limits.h"
#include "wrapper/index-reader.h"
#include "wrapper/symprop.h"
#include "util/errmsg.h"
#include "util/input.h"

struct source {
	const char *table;
	struct props_table t;
	size_t row;			/* next row to open */
	struct devimg_file *file;	/* the object being taken from */
	size_t next;			/* its next image */
	struct errmsg *err;
};

/* The message in s->err; -1. */
static int sp_fail(struct source *s, const char *fmt, ...)
	DEVIMG_PRINTF(2, 3);

static int sp_fail(struct source *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	errmsg_vset(s->err, fmt, ap);
	va_end(ap);
	return -1;
}

static int read_table(struct source *s)
{
	struct errmsg perr = { 0 };
	char *text;
	size_t len;
	int r;

	r = input_read(s->table, DEVIMG_LIMIT_TEXT_FILE, &text, &len,
		       &perr);
	if (r < 0)
		return sp_fail(s, "%s", perr.msg);
	r = props_table_parse(text, len, s->table, &s->t, &perr);
	free(text);
	if (r < 0)
		return sp_fail(s, "%s", perr.msg);
	if (!s->t.has[PROPS_COL_SYM_AND_PROPS])
		return sp_fail(s, "%s:1: the table has no SymAndProps column",
			       s->table);
	return 0;
}

/* The next image of the listed objects, opening the next row as needed. */
static int next_image(struct source *s, const struct reader_image **img,
		      size_t want)
{
	const struct props_table_row *row;
	struct errmsg msg = { 0 };

	while (!s->file || s->next == s->file->nimages) {
		if (s->file)
			devimg_reader_close(s->file);
		s->file = NULL;
		if (s->row == s->t.nrows)
			return sp_fail(s, "%s: the objects it lists hold fewer images than the %zu SYCL images wrapped here",
				       s->table, want);
		row = &s->t.rows[s->row++];
		if (devimg_reader_open(row->cell[PROPS_COL_SYM_AND_PROPS],
				       &s->file, &msg) < 0) {
			s->file = NULL;
			return sp_fail(s, "%s (%s:%u)", msg.msg, s->table,
				       row->line);
		}
		s->next = 0;
	}
	*img = &s->file->images[s->next++];
	return 0;
}

static int copy_entries(struct wrap_image *dst, const struct reader_image *src)
{
	struct props_names n = { 0 };
	size_t i;

	if (src->nentries) {
		n.names = calloc(src->nentries, sizeof(*n.names));
		if (!n.names)
			return -ENOMEM;
		n.n = src->nentries;
		for (i = 0; i < n.n; i++) {
			n.names[i] = strdup(src->entries[i]);
			if (!n.names[i]) {
				props_names_fini(&n);
				return -ENOMEM;
			}
		}
	}
	if (dst->has_entries)
		props_names_fini(&dst->entries);
	dst->entries = n;
	dst->has_entries = src->nentries > 0;
	return 0;
}

static int copy_prop(struct props_set *set, const struct devimg_prop *p)
{
	switch (p->type) {
	case DEVIMG_PROPERTY_UINT32:
		return props_add_u32(set, p->name, (uint32_t)p->size);
	case DEVIMG_PROPERTY_BYTE_ARRAY:
		return props_add_bytes(set, p->name, p->payload, p->nbits);
	case DEVIMG_PROPERTY_STRING:
		return props_add_string(set, p->name, (const char *)p->value);
	default:
		return -EINVAL;
	}
}

static int copy_props(struct wrap_image *dst, const struct reader_image *src)
{
	struct props *p = NULL;
	size_t i, j;
	int r = 0;

	if (src->npropsets) {
		p = props_new();
		if (!p)
			return -ENOMEM;
	}
	for (i = 0; !r && i < src->npropsets; i++) {
		const struct devimg_propset *ps = &src->propsets[i];
		struct props_set *set = props_add_set(p, ps->name);

		if (!set)
			r = -ENOMEM;
		for (j = 0; !r && j < ps->nprops; j++)
			r = copy_prop(set, &ps->props[j]);
	}
	if (r) {
		props_free(p);
		return r;
	}
	props_free(dst->props);
	dst->props = p;
	return 0;
}

int wrap_symprop_apply(struct wrap_set *set, const char *table,
		       struct errmsg *err)
{
	struct source s = { .table = table, .err = err };
	const struct reader_image *src = NULL;	/* GCC 12 misses next_image() setting it */
	size_t i, want = 0;
	int r;

	for (i = 0; i < set->nimages; i++)
		want += set->images[i].kind == DEVIMG_KIND_SYCL;
	r = read_table(&s);
	for (i = 0; !r && i < set->nimages; i++) {
		struct wrap_image *img = &set->images[i];

		if (img->kind != DEVIMG_KIND_SYCL)
			continue;
		r = next_image(&s, &src, want);
		if (!r)
			r = copy_entries(img, src);
		if (!r)
			r = copy_props(img, src);
		if (r == -ENOMEM)
			r = sp_fail(&s, "%s: %s", table, strerror(ENOMEM));
		else if (r == -EINVAL)
			r = sp_fail(&s, "%s: image %u: a property of unknown type",
				    s.file->fname, src->index);
	}
	if (s.file)
		devimg_reader_close(s.file);
	props_table_fini(&s.t);
	return r;
}
