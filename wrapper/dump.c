/* SPDX-License-Identifier: MIT */
/*
 * devimg-dump's work (wrapper/dump.h): show the device images that a
 * binary carries, without running it; write them out; decode .props
 * files. See man/devimg-dump.1 and docs/dump-json.md; the command line is
 * tools/devimg-dump.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devimg/descriptor.h"
#include "dump.h"
#include "dump-descriptor.h"
#include "hashkey.h"
#include "dump-offload.h"
#include "escape.h"
#include "dump-device-globals.h"
#include "json.h"
#include "outfile.h"
#include "props.h"
#include "index-reader.h"
#include "unzstd.h"
#include "util/errmsg.h"

#define PROG DUMP_PROG
#define ERRLEN 1024

/* ---- names ---- */

static const char *kind_name(unsigned kind)
{
	static const char *const names[] = {
		"unknown", "host", "openmp", "hip", "sycl",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : NULL;
}

static const char *format_name(unsigned format)
{
	static const char *const names[] = {
		"none", "native", "spirv", "llvmbc", "compressed",
	};

	return format < sizeof(names) / sizeof(names[0]) ? names[format] : NULL;
}

static const char *type_name(uint32_t type)
{
	switch (type) {
	case DEVIMG_PROPERTY_UINT32:
		return "uint32";
	case DEVIMG_PROPERTY_BYTE_ARRAY:
		return "byte_array";
	case DEVIMG_PROPERTY_STRING:
		return "string";
	default:
		return "unknown";
	}
}

static size_t payload_len(const struct devimg_prop *p)
{
	return (size_t)(p->nbits / 8 + (p->nbits % 8 != 0));
}

/* ---- launch metadata (docs/launch-metadata.md) ---- */

enum meta_kind {
	META_NONE,
	META_ARG_MASK,		/* SYCL/kernel param opt */
	META_WG_SIZE,		/* work-group sizes: a tuple */
	META_ASPECTS,		/* uint32 aspect ids */
	META_UINTS,		/* other uint32 lists */
};

/* A property's launch metadata, decoded (or why it could not be). */
struct meta_view {
	enum meta_kind kind;
	unsigned elem_bytes;	/* META_WG_SIZE, META_ASPECTS, META_UINTS */
	size_t n;		/* how many integers */
	unsigned dims;		/* META_WG_SIZE */
	uint64_t wg[3];
	const unsigned char *mask;	/* META_ARG_MASK */
	uint64_t nargs;
	struct errmsg err;	/* msg non-empty: not decodable */
};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

static enum meta_kind meta_kind_of(const char *set,
				   const struct devimg_prop *p,
				   unsigned *elem_bytes)
{
	*elem_bytes = 4;
	if (p->type != DEVIMG_PROPERTY_BYTE_ARRAY || !set)
		return META_NONE;
	if (!strcmp(set, PROPS_SET_KERNEL_PARAM_OPT))
		return META_ARG_MASK;
	if (!strcmp(set, PROPS_SET_PROGRAM_METADATA))
		return ends_with(p->name, PROPS_META_REQD_WORK_GROUP_SIZE) ||
		       ends_with(p->name, PROPS_META_MAX_WORK_GROUP_SIZE) ?
		       META_WG_SIZE : META_NONE;
	if (strcmp(set, PROPS_SET_DEVICE_REQS))
		return META_NONE;
	if (!strcmp(p->name, PROPS_REQ_ASPECTS))
		return META_ASPECTS;
	if (!strcmp(p->name, PROPS_REQ_WORK_GROUP_SIZE_64)) {
		*elem_bytes = 8;
		return META_WG_SIZE;
	}
	if (!strcmp(p->name, PROPS_REQ_WORK_GROUP_SIZE_32))
		return META_WG_SIZE;
	if (!strcmp(p->name, PROPS_REQ_SUB_GROUP_SIZE) ||
	    !strcmp(p->name, PROPS_REQ_WORK_GROUP_NUM_DIM))
		return META_UINTS;
	return META_NONE;
}

static void meta_decode(const char *set, const struct devimg_prop *p,
			struct meta_view *m)
{
	char where[256];
	int r = 0;

	memset(m, 0, sizeof(*m));
	m->kind = meta_kind_of(set, p, &m->elem_bytes);
	snprintf(where, sizeof(where), "set '%s' property '%s'", set,
		 p->name);
	switch (m->kind) {
	case META_ARG_MASK:
		r = props_param_opt_decode(p->value, p->size, where, &m->mask,
					   &m->nargs, &m->err);
		break;
	case META_WG_SIZE:
		r = props_work_group_size(p->value, p->size, m->elem_bytes,
					  where, m->wg, &m->dims, &m->err);
		break;
	case META_ASPECTS:
	case META_UINTS:
		r = props_uint_list(p->value, p->size, m->elem_bytes, where,
				    NULL, 0, &m->n, &m->err);
		break;
	case META_NONE:
		break;
	}
	if (r < 0 && !m->err.msg[0])
		snprintf(m->err.msg, sizeof(m->err.msg), "%s: cannot decode",
			 where);
}

/* Integer i of a validated list (the payload after the header). */
static uint64_t meta_uint(const struct devimg_prop *p, unsigned elem_bytes,
			  size_t i)
{
	const unsigned char *b = p->payload + i * elem_bytes;
	uint64_t v = 0;
	unsigned j;

	for (j = elem_bytes; j-- > 0;)
		v = v << 8 | b[j];
	return v;
}

/* ---- text ---- */

static char short_escape(unsigned char c)
{
	switch (c) {
	case '"':
		return '"';
	case '\\':
		return '\\';
	case '\n':
		return 'n';
	case '\t':
		return 't';
	case '\r':
		return 'r';
	default:
		return 0;
	}
}

/*
 * Control characters (the C1 ones of U+0080-U+009F too) and bytes that are
 * not UTF-8 as C escapes.
 */
static void put_escaped(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, len;
	char e;

	while (i < n) {
		len = utf8_seq_len(s + i, n - i);
		e = short_escape(s[i]);
		if (e)
			fprintf(f, "\\%c", e);
		else if (s[i] < 0x20 || s[i] == 0x7f || len == 0)
			fprintf(f, "\\x%02x", (unsigned)s[i]);
		else if (s[i] == 0xc2 && s[i + 1] < 0xa0)
			fprintf(f, "\\xc2\\x%02x", (unsigned)s[i + 1]);
		else
			fwrite(s + i, 1, len, f);
		i += e || len == 0 ? 1 : len;
	}
}

static void put_quoted(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	put_escaped(f, s, n);
	fputc('"', f);
}

static void put_hex(FILE *f, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i && i % 8 == 0)
			fputc(' ', f);
		fprintf(f, "%02x", (unsigned)p[i]);
	}
}

static void text_spec(FILE *f, const struct props_spec_const *c)
{
	size_t i;

	for (i = 0; i < c->ndescs; i++) {
		const struct props_spec_desc *d = &c->descs[i];

		fputs(i ? ", {" : "{", f);
		if (d->id == PROPS_SPEC_PADDING_ID)
			fputs("pad", f);
		else
			fprintf(f, "id %" PRIu32, d->id);
		fprintf(f, ", offset %" PRIu32 ", size %" PRIu32 "}",
			d->offset, d->size);
	}
}

/* "3 arguments, eliminated 0, 2"; "(8, 1, 1)"; "cpu, fp64, 70"; "16". */
static void text_meta(FILE *f, const struct devimg_prop *p,
		      const struct meta_view *m)
{
	const char *name;
	uint64_t i, v, shown = 0;

	switch (m->kind) {
	case META_ARG_MASK:
		fprintf(f, "%" PRIu64 " argument%s, ", m->nargs,
			m->nargs == 1 ? "" : "s");
		for (i = 0; i < m->nargs; i++)
			if (props_arg_eliminated(m->mask, i))
				fprintf(f, "%s%" PRIu64,
					shown++ ? ", " : "eliminated ", i);
		if (!shown)
			fputs("none eliminated", f);
		break;
	case META_WG_SIZE:
		fputc('(', f);
		for (i = 0; i < m->dims; i++)
			fprintf(f, "%s%" PRIu64, i ? ", " : "", m->wg[i]);
		fputc(')', f);
		break;
	case META_ASPECTS:
	case META_UINTS:
		if (!m->n)
			fputs("none", f);
		for (i = 0; i < m->n; i++) {
			v = meta_uint(p, m->elem_bytes, i);
			name = m->kind == META_ASPECTS && v <= UINT32_MAX ?
				props_aspect_name((uint32_t)v) : NULL;
			fputs(i ? ", " : "", f);
			if (name)
				fputs(name, f);
			else
				fprintf(f, "%" PRIu64, v);
		}
		break;
	case META_NONE:
		break;
	}
}

static void text_prop(FILE *f, const char *set, const struct devimg_prop *p)
{
	struct meta_view m;

	fputs("      ", f);
	put_escaped(f, p->name, strlen(p->name));
	fputs(" = ", f);
	switch (p->type) {
	case DEVIMG_PROPERTY_UINT32:
		fprintf(f, "%" PRIu64, p->size);
		break;
	case DEVIMG_PROPERTY_STRING:
		put_quoted(f, (const char *)p->value,
			   strlen((const char *)p->value));
		break;
	case DEVIMG_PROPERTY_BYTE_ARRAY:
		if (p->spec) {
			text_spec(f, p->spec);
			break;
		}
		meta_decode(set, p, &m);
		if (m.kind != META_NONE && !m.err.msg[0]) {
			text_meta(f, p, &m);
			break;
		}
		if (m.kind == META_NONE && dump_global_text(f, set, p, &m.err))
			break;
		put_hex(f, p->payload, payload_len(p));
		fprintf(f, "%s(%" PRIu64 " bits)", p->nbits ? " " : "",
			p->nbits);
		if (m.err.msg[0]) {
			fputs(" [cannot decode: ", f);
			put_escaped(f, m.err.msg, strlen(m.err.msg));
			fputc(']', f);
		}
		break;
	default:
		fprintf(f, "(type %" PRIu32 ", size %" PRIu64 ")", p->type,
			p->size);
		break;
	}
	fputc('\n', f);
}

static void text_propsets(FILE *f, const struct devimg_propset *sets,
			  size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		fputs("    [", f);
		put_escaped(f, sets[i].name, strlen(sets[i].name));
		fputs("]\n", f);
		for (j = 0; j < sets[i].nprops; j++)
			text_prop(f, sets[i].name, &sets[i].props[j]);
	}
}

static void text_enum(FILE *f, const char *label, const char *name,
		      unsigned v)
{
	if (name)
		fprintf(f, "  %-16s %s\n", label, name);
	else
		fprintf(f, "  %-16s %u\n", label, v);
}

static void text_string(FILE *f, const char *label, const char *s)
{
	fprintf(f, "  %-16s ", label);
	put_quoted(f, s, strlen(s));
	fputc('\n', f);
}

/* Why a compressed image has no real size, for a props_unzstd status. */
static const char *unzstd_why(int status)
{
	switch (status) {
	case PROPS_UNZSTD_NO_LIBRARY:
	case PROPS_UNZSTD_NO_SYMBOL:
		return "libzstd.so.1 cannot be loaded";
	case PROPS_UNZSTD_NOT_FRAME:
		return "not a zstd frame";
	case PROPS_UNZSTD_NO_SIZE:
		return "the zstd frame does not record its content size";
	default:
		return "the zstd frame's content size is above the limit";
	}
}

/*
 * The content size recorded in a compressed image's frame: 0 and *real,
 * or -1 and *why (static text).
 */
static int unzstd_real_size(const struct reader_image *img, uint64_t *real,
			    const char **why)
{
	int r = props_unzstd_size(img->bin, (size_t)img->bin_size, real);

	*why = r ? unzstd_why(r) : NULL;
	return r ? -1 : 0;
}

/* A compressed image: the size its frame records, or why there is none. */
static void text_real_size(FILE *f, const struct reader_image *img)
{
	const char *why;
	uint64_t real;

	if (unzstd_real_size(img, &real, &why) == 0)
		fprintf(f, "  %-16s %" PRIu64 " bytes (zstd frame)\n",
			"real size:", real);
	else
		fprintf(f, "  %-16s unknown: %s\n", "real size:", why);
}

/* Where an image other than the index's was found. */
static void text_found(FILE *f, const struct reader_image *img)
{
	if (!img->found)
		return;
	fprintf(f, "  %-16s %s in section ", "found:", img->found);
	put_quoted(f, img->found_section, strlen(img->found_section));
	fprintf(f, " at offset 0x%" PRIx64 "\n", img->found_offset);
}

/* "size:": where the bytes lie, when they lie in the file. */
static void text_size(FILE *f, const struct reader_image *img)
{
	fprintf(f, "  %-16s %" PRIu64 " bytes", "size:", img->bin_size);
	if (img->bin_offset == DUMP_NOT_IN_FILE)
		fputs(" (inflated from a compressed OffloadBinary)\n", f);
	else
		fprintf(f, " at file offset 0x%" PRIx64 "\n", img->bin_offset);
}

static void text_image(FILE *f, const struct reader_image *img)
{
	size_t i;

	fprintf(f, "image %u:\n", img->index);
	text_found(f, img);
	text_enum(f, "kind:", kind_name(img->kind), img->kind);
	text_enum(f, "format:", format_name(img->format), img->format);
	fprintf(f, "  %-16s %u\n", "version:", (unsigned)img->version);
	text_string(f, "target:", img->target);
	text_string(f, "compile options:", img->compile_opts);
	text_string(f, "link options:", img->link_opts);
	fprintf(f, "  %-16s ", "manifest:");
	if (img->manifest)
		put_quoted(f, img->manifest, img->manifest_size);
	else
		fputs("none", f);
	fputc('\n', f);
	text_size(f, img);
	if (img->format == DEVIMG_FORMAT_COMPRESSED)
		text_real_size(f, img);
	fprintf(f, "  %-16s %zu\n", "entries:", img->nentries);
	for (i = 0; i < img->nentries; i++) {
		fputs("    ", f);
		put_escaped(f, img->entries[i], strlen(img->entries[i]));
		fputc('\n', f);
	}
	fprintf(f, "  %-16s %zu\n", "property sets:", img->npropsets);
	text_propsets(f, img->propsets, img->npropsets);
}

static void text_file(FILE *f, const struct devimg_file *df)
{
	size_t i;

	put_escaped(f, df->fname, strlen(df->fname));
	if (!df->nimages) {
		fputs(": no device images\n", f);
		return;
	}
	fprintf(f, ": %zu device image%s\n", df->nimages,
		df->nimages == 1 ? "" : "s");
	for (i = 0; i < df->nimages; i++)
		text_image(f, &df->images[i]);
}

/* ---- JSON (docs/dump-json.md) ---- */

static void json_enum(struct json_writer *w, const char *key,
		      const char *name, unsigned v)
{
	json_key(w, key);
	if (name)
		json_string(w, name);
	else
		json_uint(w, v);
}

static void json_spec(struct json_writer *w, const struct props_spec_const *c)
{
	size_t i;

	json_key(w, "descriptors");
	json_array_begin(w);
	for (i = 0; i < c->ndescs; i++) {
		json_object_begin(w);
		json_key(w, "id");
		json_uint(w, c->descs[i].id);
		json_key(w, "offset");
		json_uint(w, c->descs[i].offset);
		json_key(w, "size");
		json_uint(w, c->descs[i].size);
		json_object_end(w);
	}
	json_array_end(w);
}

static void json_meta(struct json_writer *w, const struct devimg_prop *p,
		      const struct meta_view *m)
{
	const char *name;
	uint64_t i, v;

	if (m->err.msg[0]) {
		json_key(w, "decode_error");
		json_string(w, m->err.msg);
		return;
	}
	switch (m->kind) {
	case META_ARG_MASK:
		json_key(w, "arguments");
		json_uint(w, m->nargs);
		json_key(w, "eliminated");
		json_array_begin(w);
		for (i = 0; i < m->nargs; i++)
			if (props_arg_eliminated(m->mask, i))
				json_uint(w, i);
		json_array_end(w);
		break;
	case META_WG_SIZE:
		json_key(w, "work_group_size");
		json_array_begin(w);
		for (i = 0; i < m->dims; i++)
			json_uint(w, m->wg[i]);
		json_array_end(w);
		break;
	case META_ASPECTS:
		json_key(w, "aspects");
		json_array_begin(w);
		for (i = 0; i < m->n; i++) {
			v = meta_uint(p, m->elem_bytes, i);
			name = v <= UINT32_MAX ?
				props_aspect_name((uint32_t)v) : NULL;
			json_object_begin(w);
			json_key(w, "id");
			json_uint(w, v);
			json_key(w, "name");
			if (name)
				json_string(w, name);
			else
				json_null(w);
			json_object_end(w);
		}
		json_array_end(w);
		break;
	case META_UINTS:
		json_key(w, "values");
		json_array_begin(w);
		for (i = 0; i < m->n; i++)
			json_uint(w, meta_uint(p, m->elem_bytes, i));
		json_array_end(w);
		break;
	case META_NONE:
		break;
	}
}

static void json_prop(struct json_writer *w, const char *set,
		      const struct devimg_prop *p)
{
	struct meta_view m;

	json_object_begin(w);
	json_key(w, "name");
	json_string(w, p->name);
	json_key(w, "type");
	json_string(w, type_name(p->type));
	json_key(w, "value");
	switch (p->type) {
	case DEVIMG_PROPERTY_UINT32:
		json_uint(w, p->size);
		break;
	case DEVIMG_PROPERTY_STRING:
		json_string(w, (const char *)p->value);
		break;
	case DEVIMG_PROPERTY_BYTE_ARRAY:
		json_hex(w, p->payload, payload_len(p));
		json_key(w, "bits");
		json_uint(w, p->nbits);
		if (p->spec)
			json_spec(w, p->spec);
		meta_decode(set, p, &m);
		if (m.kind == META_NONE)
			dump_global_json(w, set, p, &m.err);
		json_meta(w, p, &m);
		break;
	default:
		json_null(w);
		json_key(w, "size");
		json_uint(w, p->size);
		break;
	}
	json_object_end(w);
}

static void json_propsets(struct json_writer *w,
			  const struct devimg_propset *sets, size_t n)
{
	size_t i, j;

	json_key(w, "property_sets");
	json_array_begin(w);
	for (i = 0; i < n; i++) {
		json_object_begin(w);
		json_key(w, "name");
		json_string(w, sets[i].name);
		json_key(w, "properties");
		json_array_begin(w);
		for (j = 0; j < sets[i].nprops; j++)
			json_prop(w, sets[i].name, &sets[i].props[j]);
		json_array_end(w);
		json_object_end(w);
	}
	json_array_end(w);
}

/* "real_size": what the frame records, or null and "real_size_error". */
static void json_real_size(struct json_writer *w,
			   const struct reader_image *img)
{
	const char *why;
	uint64_t real;
	int r = unzstd_real_size(img, &real, &why);

	json_key(w, "real_size");
	if (r == 0) {
		json_uint(w, real);
		return;
	}
	json_null(w);
	json_key(w, "real_size_error");
	json_string(w, why);
}

static void json_image(struct json_writer *w, const struct reader_image *img)
{
	size_t i;

	json_object_begin(w);
	json_key(w, "index");
	json_uint(w, img->index);
	if (img->found) {
		json_key(w, "found");
		json_string(w, img->found);
		json_key(w, "found_section");
		json_string(w, img->found_section);
		json_key(w, "found_offset");
		json_uint(w, img->found_offset);
	}
	json_key(w, "version");
	json_uint(w, img->version);
	json_enum(w, "kind", kind_name(img->kind), img->kind);
	json_enum(w, "format", format_name(img->format), img->format);
	json_key(w, "target");
	json_string(w, img->target);
	json_key(w, "compile_options");
	json_string(w, img->compile_opts);
	json_key(w, "link_options");
	json_string(w, img->link_opts);
	json_key(w, "manifest");
	if (img->manifest)
		json_string_n(w, img->manifest, img->manifest_size);
	else
		json_null(w);
	json_key(w, "size");
	json_uint(w, img->bin_size);
	if (img->format == DEVIMG_FORMAT_COMPRESSED)
		json_real_size(w, img);
	json_key(w, "entries");
	json_array_begin(w);
	for (i = 0; i < img->nentries; i++)
		json_string(w, img->entries[i]);
	json_array_end(w);
	json_propsets(w, img->propsets, img->npropsets);
	json_object_end(w);
}

static void json_file(struct json_writer *w, const struct devimg_file *df,
		      const struct dump_container *dc)
{
	size_t i;

	json_object_begin(w);
	json_key(w, "file");
	json_string(w, df->fname);
	json_key(w, "images");
	json_array_begin(w);
	for (i = 0; i < df->nimages; i++)
		json_image(w, &df->images[i]);
	json_array_end(w);
	if (dc)
		dump_container_json(w, dc);
	json_object_end(w);
}

/* ---- --extract ---- */

static int has_prefix(const unsigned char *p, size_t n, const char *s)
{
	size_t len = strlen(s);

	return n >= len && !memcmp(p, s, len);
}

static const char *image_ext(const struct reader_image *img,
			     const unsigned char *p, size_t n)
{
	static const unsigned char spirv_le[] = { 0x03, 0x02, 0x23, 0x07 };
	static const unsigned char spirv_be[] = { 0x07, 0x23, 0x02, 0x03 };
	static const unsigned char bc[] = { 'B', 'C', 0xc0, 0xde };
	static const unsigned char bc_wrap[] = { 0xde, 0xc0, 0x17, 0x0b };
	size_t i;

	if (img->format == DEVIMG_FORMAT_COMPRESSED && p == img->bin)
		return "zst";
	if (img->format == DEVIMG_FORMAT_SPIRV)
		return "spv";
	if (img->format == DEVIMG_FORMAT_LLVMBC)
		return "bc";
	if (n >= 4 && (!memcmp(p, spirv_le, 4) || !memcmp(p, spirv_be, 4)))
		return "spv";
	if (n >= 4 && (!memcmp(p, bc, 4) || !memcmp(p, bc_wrap, 4)))
		return "bc";
	for (i = 0; i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
			      p[i] == '\r'); i++)
		;
	if (has_prefix(p + i, n - i, "//") ||
	    has_prefix(p + i, n - i, ".version"))
		return "ptx";
	return "bin";
}

/* The target as one safe path component. */
static void safe_target(const char *target, char *out, size_t len)
{
	size_t i;

	if (!*target)
		target = "none";
	for (i = 0; target[i] && i + 1 < len; i++) {
		char c = target[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.')
			out[i] = c;
		else
			out[i] = '_';
	}
	out[i] = '\0';
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Keyed (hashkey.h): the names come from the files dumped. */
static size_t name_hash(const char *s)
{
	return (size_t)siphash13(s, strlen(s));
}

/* The slot of s: where it is, or the empty one where it would go. */
static char **name_slot(const struct dump_names *ns, const char *s)
{
	size_t i = name_hash(s) & (ns->cap - 1);

	while (ns->slot[i] && strcmp(ns->slot[i], s))
		i = (i + 1) & (ns->cap - 1);
	return &ns->slot[i];
}

static int name_set_has(const struct dump_names *ns, const char *s)
{
	return ns->cap && *name_slot(ns, s);
}

static int name_set_add(struct dump_names *ns, const char *s)
{
	struct dump_names bigger = { NULL, 0, 0 };
	char **slot, *copy;
	size_t i;

	if (2 * (ns->n + 1) > ns->cap) {
		bigger.cap = ns->cap ? 2 * ns->cap : 64;
		bigger.slot = calloc(bigger.cap, sizeof(*bigger.slot));
		if (!bigger.slot)
			return -ENOMEM;
		for (i = 0; i < ns->cap; i++)
			if (ns->slot[i])
				*name_slot(&bigger, ns->slot[i]) = ns->slot[i];
		bigger.n = ns->n;
		free(ns->slot);
		*ns = bigger;
	}
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	slot = name_slot(ns, s);
	*slot = copy;
	ns->n++;
	return 0;
}

static void name_set_fini(struct dump_names *ns)
{
	size_t i;

	for (i = 0; i < ns->cap; i++)
		free(ns->slot[i]);
	free(ns->slot);
}

/*
 * DIR/FILE.INDEX.TARGET.EXT; when this run wrote that name already (two
 * inputs of the same base name, or names that meet once the suffix is
 * added), DIR/FILE.INDEX.TARGET.N.EXT with the smallest N from 2 that it
 * did not write either. -ENAMETOOLONG when no name fits.
 */
static int extract_name(const struct devimg_file *df,
			const struct reader_image *img, const char *dir,
			const struct dump_names *written, char *path,
			size_t len, const unsigned char *p, size_t n_bytes)
{
	const char *base = strrchr(df->fname, '/');
	const char *ext = image_ext(img, p, n_bytes);
	char target[128];
	unsigned n;
	int r;

	base = base ? base + 1 : df->fname;
	safe_target(img->target, target, sizeof(target));
	r = snprintf(path, len, "%s/%s.%u.%s.%s", dir, base, img->index,
		     target, ext);
	for (n = 2; r >= 0 && (size_t)r < len && name_set_has(written, path);
	     n++)
		r = snprintf(path, len, "%s/%s.%u.%s.%u.%s", dir, base,
			     img->index, target, n, ext);
	return r < 0 || (size_t)r >= len ? -ENAMETOOLONG : 0;
}

static int extract_bytes(const struct devimg_file *df,
			 const struct reader_image *img, struct dump_job *o,
			 const unsigned char *p, size_t n)
{
	char path[PATH_MAX], err[ERRLEN];
	struct out_file out;
	int ret;

	ret = extract_name(df, img, o->dir, &o->written, path, sizeof(path),
			   p, n);
	if (ret < 0) {
		esc_fprintf(stderr, NULL, PROG ": %s: image %u: --extract: path too long\n",
				  df->fname, img->index);
		return ret;
	}
	if (out_open(&out, path, err, sizeof(err)) < 0) {
		esc_fprintf(stderr, NULL, PROG ": %s: image %u: %s\n",
				  df->fname, img->index, err);
		return -EIO;
	}
	ret = write_all(out.fd, p, n);
	if (ret < 0) {
		out_abort(&out);
		esc_fprintf(stderr, NULL, PROG ": %s: image %u: %s: %s\n",
				  df->fname, img->index, path, strerror(-ret));
		return ret;
	}
	/* Remembered first: a name that cannot be remembered is not written. */
	ret = name_set_add(&o->written, path);
	if (ret < 0) {
		out_abort(&out);
		esc_fprintf(stderr, NULL, PROG ": %s: image %u: %s\n",
				  df->fname, img->index, strerror(-ret));
		return ret;
	}
	if (out_commit(&out, err, sizeof(err)) < 0) {
		esc_fprintf(stderr, NULL, PROG ": %s: image %u: %s\n",
				  df->fname, img->index, err);
		return -EIO;
	}
	esc_fprintf(stdout, NULL, "%s\n", path);
	return 0;
}

/* --extract's reason for a compressed image it cannot expand. */
static void unzstd_error(int status, const struct props_unzstd *z, char *err,
			 size_t errlen)
{
	if (status == PROPS_UNZSTD_NO_MEMORY)
		snprintf(err, errlen, "no memory for %llu expanded bytes",
			 z->declared);
	else if (status == PROPS_UNZSTD_CORRUPT)
		snprintf(err, errlen, "corrupt zstd frame: %s", z->detail);
	else if (status == PROPS_UNZSTD_SHORT)
		snprintf(err, errlen,
			 "corrupt zstd frame: %zu bytes, %llu recorded",
			 z->size, z->declared);
	else
		snprintf(err, errlen, "%s", unzstd_why(status));
}

static int extract_image(const struct devimg_file *df,
			 const struct reader_image *img, struct dump_job *o)
{
	struct props_unzstd z = { .head = 0, .want = PROPS_UNZSTD_ANY };
	const unsigned char *p = img->bin;
	size_t n = (size_t)img->bin_size;
	char err[ERRLEN];
	int ret;

	/* A compressed image is written expanded unless --raw. */
	if (img->format == DEVIMG_FORMAT_COMPRESSED && !o->raw) {
		ret = props_unzstd(img->bin, n, &z);
		if (ret) {
			unzstd_error(ret, &z, err, sizeof(err));
			esc_fprintf(stderr, NULL, PROG ": %s: image %u: --extract: compressed image: %s\n",
					  df->fname, img->index, err);
			return -EBADMSG;
		}
		p = z.buf;
		n = z.size;
	}
	ret = extract_bytes(df, img, o, p, n);
	free(z.buf);
	return ret;
}

static int extract_file(const struct devimg_file *df, struct dump_job *o)
{
	size_t i;
	int ret;

	for (i = 0; i < df->nimages; i++) {
		ret = extract_image(df, &df->images[i], o);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* ---- files ---- */

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Show df (the images; may be empty) and dc (a SYCLBIN's or the
 * OffloadBinary blobs'; may be NULL).
 */
static int dump_view(const struct devimg_file *df,
		     const struct dump_container *dc, struct dump_job *o,
		     struct json_writer *w)
{
	const struct devimg_file *entries = dump_container_entries(dc);
	int ret = 0;

	switch (o->mode) {
	case DUMP_TEXT:
		text_file(stdout, df);
		if (dc)
			dump_container_text(stdout, dc);
		break;
	case DUMP_JSON:
		json_file(w, df, dc);
		break;
	case DUMP_EXTRACT:
		ret = extract_file(df, o);
		if (!ret && entries)
			ret = extract_file(entries, o);
		break;
	}
	return ret;
}

/*
 * A file that failed: its one line on stderr, "devimg-dump: " and the
 * message (escaped where it was made), kept in o->error for --json.
 * Returns err.
 */
static int file_failed(struct dump_job *o, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int file_failed(struct dump_job *o, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->error, sizeof(o->error), fmt, ap);
	va_end(ap);
	fprintf(stderr, PROG ": %s\n", o->error);
	return err;
}

/* What is listed but did not read, one line each: 1 when any, else 0. */
static int print_problems(const struct dump_container *dc)
{
	const char *p;
	size_t i;

	for (i = 0; (p = dump_container_problem(dc, i)); i++)
		fprintf(stderr, PROG ": %s\n", p);
	return i > 0;
}

/*
 * A SYCLBIN or OffloadBinary file: 1 when path is one (*partial when
 * something listed did not read), 0 when not.
 */
static int dump_container(const char *path, struct dump_job *o,
			  struct json_writer *w, int *partial)
{
	const struct devimg_file *df;
	struct devimg_file none = { .fname = path };
	struct dump_container *dc = NULL;
	char err[ERRLEN];
	int ret;

	ret = dump_container_open(path, &dc, err, sizeof(err));
	if (ret <= 0)
		return ret < 0 ? file_failed(o, ret, "%s", err) : 0;
	df = dump_container_images(dc);
	*partial = print_problems(dc);
	ret = dump_view(df ? df : &none, dc, o, w);
	dump_container_close(dc);
	return ret < 0 ? ret : 1;
}

/* The file offsets of the bytes of n images, sorted; NULL for none. */
static uint64_t *bin_offsets(const struct reader_image *a, size_t na,
			     const struct reader_image *b, size_t nb)
{
	uint64_t *v = malloc((na + nb + 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < na; i++)
		v[i] = a[i].bin_offset;
	for (i = 0; i < nb; i++)
		v[na + i] = b[i].bin_offset;
	qsort(v, na + nb, sizeof(*v), u64_cmp);
	return v;
}

/*
 * Every image the file's program registers, in one list numbered from 0:
 * the .devimg index's, then those of descriptors found by their structure
 * and those of registered OffloadBinary blobs, each bin listed once.
 */
static int merge_views(const struct devimg_file *df,
		       const struct devimg_file *dd,
		       const struct devimg_file *reg,
		       struct devimg_file *out)
{
	size_t nd = dd ? dd->nimages : 0, nr = reg ? reg->nimages : 0;
	unsigned char *keep = NULL;
	uint64_t *known = NULL;
	size_t i, n = df->nimages;
	int ret = -ENOMEM;

	*out = *df;
	if (!nd && !nr)
		return 0;
	out->images = calloc(df->nimages + nd + nr, sizeof(*out->images));
	keep = calloc(nr + 1, 1);
	known = bin_offsets(df->images, df->nimages, nd ? dd->images : NULL,
			    nd);
	if (!out->images || !keep || !known)
		goto out;
	if (df->nimages)
		memcpy(out->images, df->images,
		       df->nimages * sizeof(*out->images));
	for (i = 0; i < nd; i++)
		out->images[n++] = dd->images[i];
	ret = nr ? dump_images_unique(reg->images, nr, known,
				      df->nimages + nd, keep) : 0;
	for (i = 0; !ret && i < nr; i++)
		if (keep[i])
			out->images[n++] = reg->images[i];
	for (i = df->nimages; i < n; i++)
		out->images[i].index = (unsigned)i;
	out->nimages = n;
out:
	free(known);
	free(keep);
	if (ret < 0) {
		free(out->images);
		out->images = NULL;
	}
	return ret;
}

/* The listing of an ELF file: 0, 1 when something did not read, -errno. */
static int dump_elf_view(const char *path, struct devimg_file *df,
			 struct dump_container *dc, struct dump_job *o,
			 struct json_writer *w)
{
	struct dump_descriptors *dd = NULL;
	struct devimg_file view;
	uint64_t *known;
	char err[ERRLEN];
	int ret, partial;

	known = bin_offsets(df->images, df->nimages, NULL, 0);
	if (!known)
		return file_failed(o, -ENOMEM, "%s: %s", path,
				   strerror(ENOMEM));
	ret = dump_descriptors_open(path, known, df->nimages, &dd, err,
				    sizeof(err));
	free(known);
	if (ret < 0)
		return file_failed(o, ret, "%s", err);
	ret = merge_views(df, dump_descriptors_images(dd),
			  dump_container_registered(dc), &view);
	if (ret < 0) {
		dump_descriptors_close(dd);
		return file_failed(o, ret, "%s: %s", path, strerror(-ret));
	}
	partial = print_problems(dc);
	ret = dump_view(&view, dc, o, w);
	if (view.images != df->images)
		free(view.images);
	dump_descriptors_close(dd);
	return ret < 0 ? ret : partial;
}

/* 0, 1 when the file was listed but something did not read, -errno. */
static int dump_elf(const char *path, struct dump_job *o,
		    struct json_writer *w)
{
	struct dump_container *dc = NULL;
	struct devimg_file *df = NULL;
	char err[ERRLEN];
	int ret, partial = 0;

	ret = dump_container(path, o, w, &partial);
	if (ret)
		return ret < 0 ? ret : partial;
	ret = devimg_reader_open(path, &df, err, sizeof(err));
	if (ret < 0)
		return file_failed(o, ret, "%s", err);
	ret = dump_offloading_open(path, &dc, err, sizeof(err));
	if (ret < 0) {
		devimg_reader_close(df);
		return file_failed(o, ret, "%s", err);
	}
	ret = dump_elf_view(path, df, dc, o, w);
	dump_container_close(dc);
	devimg_reader_close(df);
	return ret;
}

static int dump_props(const char *path, struct dump_job *o,
		      struct json_writer *w)
{
	struct devimg_propset *sets = NULL;
	struct errmsg perr = { 0 };
	struct props *p = NULL;
	char err[ERRLEN];
	size_t n = 0;
	int ret;

	ret = props_read_file(path, &p, &perr);
	if (ret < 0) {
		esc_snprintf(err, sizeof(err), NULL, "%s", perr.msg);
		return file_failed(o, ret, "%s", err);
	}
	ret = devimg_propsets_from_props(p, path, &sets, &n, err, sizeof(err));
	if (ret < 0) {
		file_failed(o, ret, "%s", err);
		goto out;
	}
	if (o->mode == DUMP_JSON) {
		json_object_begin(w);
		json_key(w, "file");
		json_string(w, path);
		json_propsets(w, sets, n);
		json_object_end(w);
	} else {
		put_escaped(stdout, path, strlen(path));
		printf(": %zu property set%s\n", n, n == 1 ? "" : "s");
		text_propsets(stdout, sets, n);
	}
	devimg_propsets_free(sets, n);
out:
	props_free(p);
	return ret;
}

int dump_run(char **files, int n, struct dump_job *o)
{
	struct json_writer w;
	int i, r, status = 0;

	json_init(&w, stdout);
	/* One shape whatever the files (docs/dump-json.md). */
	if (o->mode == DUMP_JSON) {
		json_object_begin(&w);
		json_key(&w, "format_version");
		json_uint(&w, DUMP_JSON_FORMAT_VERSION);
		json_key(&w, "files");
		json_array_begin(&w);
	}
	for (i = 0; i < n; i++) {
		/* > 0: listed, but something in it did not read */
		o->error[0] = '\0';
		r = o->props ? dump_props(files[i], o, &w) :
			       dump_elf(files[i], o, &w);
		if (r)
			status = 1;
		if (r < 0 && o->mode == DUMP_JSON) {
			json_object_begin(&w);
			json_key(&w, "file");
			json_string(&w, files[i]);
			json_key(&w, "error");
			json_string(&w, o->error[0] ? o->error :
					    strerror(-r));
			json_object_end(&w);
		}
	}
	if (o->mode == DUMP_JSON) {
		json_array_end(&w);
		json_object_end(&w);
		if (json_finish(&w) < 0)
			status = 1;
	}
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, PROG ": standard output: %s\n",
			strerror(errno ? errno : EIO));
		status = 1;
	}
	return status;
}

void dump_job_fini(struct dump_job *o)
{
	name_set_fini(&o->written);
}
