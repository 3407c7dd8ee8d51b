// SPDX-License-Identifier: MIT
/*
 * devimg-dump's text listing (man/devimg-dump.1): an ELF file's images or
 * a .props file's sets, one field a line, every string escaped.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "devimg/descriptor.h"
#include "wrapper/dump-descriptor.h"
#include "wrapper/dump-device-globals.h"
#include "wrapper/dump-private.h"
#include "util/escape.h"

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
			v = dump_meta_uint(p, m->elem_bytes, i);
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
		dump_meta_decode(set, p, &m);
		if (m.kind != META_NONE && !m.err.msg[0]) {
			text_meta(f, p, &m);
			break;
		}
		if (m.kind == META_NONE && dump_global_text(f, set, p, &m.err))
			break;
		put_hex(f, p->payload, dump_payload_len(p));
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


/* A compressed image: the size its frame records, or why there is none. */
static void text_real_size(FILE *f, const struct reader_image *img)
{
	const char *why;
	uint64_t real;

	if (dump_unzstd_real_size(img, &real, &why) == 0)
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
	text_enum(f, "kind:", dump_kind_name(img->kind), img->kind);
	text_enum(f, "format:", dump_format_name(img->format), img->format);
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

void dump_text_file(FILE *f, const struct devimg_file *df)
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

void dump_text_props(FILE *f, const char *path,
		     const struct devimg_propset *sets, size_t n)
{
	put_escaped(f, path, strlen(path));
	fprintf(f, ": %zu property set%s\n", n, n == 1 ? "" : "s");
	text_propsets(f, sets, n);
}
