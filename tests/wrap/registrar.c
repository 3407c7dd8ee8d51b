// SPDX-License-Identifier: MIT
/*
 * A stand-in for the runtime: defines __sycl_register_lib() and
 * __sycl_unregister_lib() and reports what a wrapped object hands them.
 *
 * stdout: "register 0x<ptr>" and "unregister 0x<ptr>" lines.
 * $REG_OUT (a folder; when unset, the JSON goes to stdout and nothing else
 * is written):
 *   desc.K.json  the K-th registered descriptor as docs/dump-json.md shows
 *                it, without "file"; "index" counts images over all
 *                registrations, as devimg-dump counts them over a file
 *   img.N        the bytes of image N
 *   ranges.K     one line per image saying which ranges are NULL, empty
 *                (begin == end, not NULL) or how long, and one line per
 *                string property with its size field, for what JSON
 *                cannot show
 * Unregistering a descriptor that was never registered prints
 * "unregister-unknown 0x<ptr>" and exits with status 3.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devimg/descriptor.h"

#define MAX_DESCS 64

void __sycl_register_lib(struct devimg_device_binaries *desc);
void __sycl_unregister_lib(struct devimg_device_binaries *desc);

static const struct devimg_device_binaries *registered[MAX_DESCS];
static unsigned nregistered;
static unsigned next_image;

static const char *const kind_names[] = { "unknown", "host", "openmp",
					  "hip", "sycl" };
static const char *const format_names[] = { "none", "native", "spirv",
					    "llvmbc", "compressed" };
static const char *const type_names[] = { "unknown", "uint32", "byte_array",
					  "string" };

static FILE *open_out(const char *name, unsigned k)
{
	const char *dir = getenv("REG_OUT");
	char path[4096];
	FILE *f;

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s.%u", dir, name, k);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	return f;
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static void json_bytes(FILE *f, const void *data, size_t n)
{
	const unsigned char *s = data;
	size_t i = 0, len;

	fputc('"', f);
	while (i < n) {
		if (s[i] == '"' || s[i] == '\\') {
			fprintf(f, "\\%c", s[i]);
			i++;
			continue;
		}
		len = utf8_len(s + i, n - i);
		/* docs/dump-json.md: controls as \u00XX, other bytes \uDCXX. */
		if (!len || s[i] < 0x20) {
			fprintf(f, len ? "\\u%04x" : "\\udc%02x", s[i]);
			i++;
			continue;
		}
		fwrite(s + i, 1, len, f);
		i += len;
	}
	fputc('"', f);
}

static void json_str(FILE *f, const char *s)
{
	json_bytes(f, s ? s : "", s ? strlen(s) : 0);
}

static void json_name(FILE *f, const char *const *names, unsigned n,
		      unsigned v)
{
	if (v < n)
		fprintf(f, "\"%s\"", names[v]);
	else
		fprintf(f, "%u", v);
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void json_byte_array(FILE *f, const struct devimg_property *p,
			    int spec)
{
	const unsigned char *v = p->value;
	uint64_t i, n = p->size >= 8 ? p->size - 8 : 0;

	fprintf(f, "\"type\": \"byte_array\", \"bits\": %llu, \"value\": \"",
		(unsigned long long)(p->size >= 8 ? le64(v) : 0));
	for (i = 0; i < n; i++)
		fprintf(f, "%02x", v[8 + i]);
	fputc('"', f);
	if (!spec)
		return;
	fputs(", \"descriptors\": [", f);
	for (i = 0; i + 12 <= n; i += 12)
		fprintf(f, "%s{\"id\": %u, \"offset\": %u, \"size\": %u}",
			i ? ", " : "", le32(v + 8 + i), le32(v + 12 + i),
			le32(v + 16 + i));
	fputc(']', f);
}

static void json_prop(FILE *f, const struct devimg_property *p, int spec)
{
	fputs("{\"name\": ", f);
	json_str(f, p->name);
	fputs(", ", f);
	switch (p->type) {
	case DEVIMG_PROPERTY_UINT32:
		fprintf(f, "\"type\": \"uint32\", \"value\": %llu",
			(unsigned long long)p->size);
		break;
	case DEVIMG_PROPERTY_BYTE_ARRAY:
		json_byte_array(f, p, spec);
		break;
	case DEVIMG_PROPERTY_STRING:
		fputs("\"type\": \"string\", \"value\": ", f);
		json_str(f, p->value);
		break;
	default:
		fputs("\"type\": ", f);
		json_name(f, type_names, 1, p->type);
		fprintf(f, ", \"value\": null, \"size\": %llu",
			(unsigned long long)p->size);
		break;
	}
	fputc('}', f);
}

static void json_set(FILE *f, const struct devimg_property_set *s)
{
	const struct devimg_property *p;
	int spec = s->name && !strcmp(s->name, "SYCL/specialization constants");

	fputs("{\"name\": ", f);
	json_str(f, s->name);
	fputs(", \"properties\": [", f);
	for (p = s->begin; p != s->end; p++) {
		fputs(p != s->begin ? ",\n        " : "\n        ", f);
		json_prop(f, p, spec);
	}
	fputs("]}", f);
}

static void json_image(FILE *f, const struct devimg_device_image *img,
		       unsigned index)
{
	const struct devimg_offload_entry *e;
	const struct devimg_property_set *s;

	fprintf(f, "{\"index\": %u, \"version\": %u, \"kind\": ", index,
		img->version);
	json_name(f, kind_names, 5, img->kind);
	fputs(", \"format\": ", f);
	json_name(f, format_names, 5, img->format);
	fputs(", \"target\": ", f);
	json_str(f, img->target);
	fputs(", \"compile_options\": ", f);
	json_str(f, img->compile_opts);
	fputs(", \"link_options\": ", f);
	json_str(f, img->link_opts);
	fputs(", \"manifest\": ", f);
	if (img->manifest_begin)
		json_bytes(f, img->manifest_begin,
			   img->manifest_end - img->manifest_begin);
	else
		fputs("null", f);
	fprintf(f, ", \"size\": %zu, \"entries\": [",
		(size_t)(img->bin_end - img->bin_begin));
	for (e = img->entries_begin; e != img->entries_end; e++) {
		fputs(e != img->entries_begin ? ", " : "", f);
		json_str(f, e->name);
	}
	fputs("], \"property_sets\": [", f);
	for (s = img->props_begin; s != img->props_end; s++) {
		fputs(s != img->props_begin ? ",\n      " : "\n      ", f);
		json_set(f, s);
	}
	fputs("]}", f);
}

static void write_json(const struct devimg_device_binaries *desc,
		       unsigned k, unsigned first)
{
	FILE *f = open_out("desc", k);
	FILE *out = f ? f : stdout;
	unsigned i;

	fputs("{\"images\": [", out);
	for (i = 0; i < desc->count; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		json_image(out, &desc->images[i], first + i);
	}
	fputs("\n]}\n", out);
	if (f)
		fclose(f);
}

static const char *range(const void *b, const void *e, size_t elem,
			 char *buf, size_t n)
{
	if (!b && !e)
		return "null";
	if (!b || !e)
		return "broken";
	if (b == e)
		return "empty";
	snprintf(buf, n, "%zu", (size_t)((const char *)e - (const char *)b) /
		 elem);
	return buf;
}

static void write_string_sizes(FILE *f, const struct devimg_device_image *img,
			       unsigned i)
{
	const struct devimg_property_set *s;
	const struct devimg_property *p;

	for (s = img->props_begin; s != img->props_end; s++)
		for (p = s->begin; p != s->end; p++)
			if (p->type == DEVIMG_PROPERTY_STRING)
				fprintf(f, "string %u %s/%s size %llu\n", i,
					s->name, p->name,
					(unsigned long long)p->size);
}

static void write_ranges(const struct devimg_device_binaries *desc,
			 unsigned k)
{
	FILE *f = open_out("ranges", k);
	char a[32], b[32], c[32];
	const struct devimg_property_set *s;
	unsigned i;

	if (!f)
		return;
	fprintf(f, "binaries version %u host %s\n", desc->version,
		range(desc->host_begin, desc->host_end, 1, a, sizeof(a)));
	for (i = 0; i < desc->count; i++) {
		const struct devimg_device_image *img = &desc->images[i];

		fprintf(f, "image %u manifest %s entries %s propsets %s",
			i, range(img->manifest_begin, img->manifest_end, 1, a,
				 sizeof(a)),
			range(img->entries_begin, img->entries_end,
			      sizeof(*img->entries_begin), b, sizeof(b)),
			range(img->props_begin, img->props_end,
			      sizeof(*img->props_begin), c, sizeof(c)));
		for (s = img->props_begin; s != img->props_end; s++)
			fprintf(f, " [%s %s]", s->name,
				range(s->begin, s->end, sizeof(*s->begin), a,
				      sizeof(a)));
		fputc('\n', f);
		write_string_sizes(f, img, i);
	}
	fclose(f);
}

static void write_images(const struct devimg_device_binaries *desc,
			 unsigned first)
{
	unsigned i;

	for (i = 0; i < desc->count; i++) {
		const struct devimg_device_image *img = &desc->images[i];
		FILE *f = open_out("img", first + i);

		if (!f)
			return;
		fwrite(img->bin_begin, 1, img->bin_end - img->bin_begin, f);
		if (fclose(f)) {
			perror("img");
			exit(2);
		}
	}
}

void __sycl_register_lib(struct devimg_device_binaries *desc)
{
	unsigned k = nregistered;

	printf("register %p\n", (void *)desc);
	fflush(stdout);
	if (k == MAX_DESCS) {
		fputs("registrar: too many descriptors\n", stderr);
		exit(2);
	}
	registered[nregistered++] = desc;
	write_json(desc, k, next_image);
	write_ranges(desc, k);
	write_images(desc, next_image);
	next_image += desc->count;
}

void __sycl_unregister_lib(struct devimg_device_binaries *desc)
{
	unsigned i;

	for (i = 0; i < nregistered; i++) {
		if (registered[i] == desc) {
			registered[i] = NULL;
			printf("unregister %p\n", (void *)desc);
			fflush(stdout);
			return;
		}
	}
	printf("unregister-unknown %p\n", (void *)desc);
	fflush(stdout);
	exit(3);
}
