// SPDX-License-Identifier: MIT
/*
 * devimg-dump --json (docs/dump-json.md): one document, each file an
 * object of its images or .props sets, or of why it failed.
 */
#include <stdint.h>

#include "devimg/descriptor.h"
#include "wrapper/dump-device-globals.h"
#include "wrapper/dump-private.h"

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

/* One shape whatever the files (docs/dump-json.md). */
void dump_json_begin(struct json_writer *w)
{
	json_object_begin(w);
	json_key(w, "format_version");
	json_uint(w, DUMP_JSON_FORMAT_VERSION);
	json_key(w, "files");
	json_array_begin(w);
}

int dump_json_end(struct json_writer *w)
{
	json_array_end(w);
	json_object_end(w);
	return json_finish(w);
}

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
			v = dump_meta_uint(p, m->elem_bytes, i);
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
			json_uint(w, dump_meta_uint(p, m->elem_bytes, i));
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
		json_hex(w, p->payload, dump_payload_len(p));
		json_key(w, "bits");
		json_uint(w, p->nbits);
		if (p->spec)
			json_spec(w, p->spec);
		dump_meta_decode(set, p, &m);
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
	int r = dump_unzstd_real_size(img, &real, &why);

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
	json_enum(w, "kind", dump_kind_name(img->kind), img->kind);
	json_enum(w, "format", dump_format_name(img->format), img->format);
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

void dump_json_file(struct json_writer *w, const struct devimg_file *df,
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

void dump_json_props(struct json_writer *w, const char *path,
		     const struct devimg_propset *sets, size_t n)
{
	json_object_begin(w);
	json_key(w, "file");
	json_string(w, path);
	json_propsets(w, sets, n);
	json_object_end(w);
}

void dump_json_failed(struct json_writer *w, const char *path,
		      const char *error)
{
	json_object_begin(w);
	json_key(w, "file");
	json_string(w, path);
	json_key(w, "error");
	json_string(w, error);
	json_object_end(w);
}
