// SPDX-License-Identifier: MIT
/*
 * devimg-dump: an image's values decoded for the views: the names of
 * kinds and formats, launch metadata (docs/launch-metadata.md), what a
 * zstd frame says of its size.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "devimg/descriptor.h"
#include "wrapper/dump-private.h"
#include "props/unzstd.h"

/* ---- names ---- */

const char *dump_kind_name(unsigned kind)
{
	static const char *const names[] = {
		"unknown", "host", "openmp", "hip", "sycl",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : NULL;
}

const char *dump_format_name(unsigned format)
{
	static const char *const names[] = {
		"none", "native", "spirv", "llvmbc", "compressed",
	};

	return format < sizeof(names) / sizeof(names[0]) ? names[format] : NULL;
}

size_t dump_payload_len(const struct devimg_prop *p)
{
	return (size_t)(p->nbits / 8 + (p->nbits % 8 != 0));
}

/* ---- launch metadata (docs/launch-metadata.md) ---- */

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

void dump_meta_decode(const char *set, const struct devimg_prop *p,
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
		errmsg_set(&m->err, "%s: cannot decode", where);
}

uint64_t dump_meta_uint(const struct devimg_prop *p, unsigned elem_bytes,
			size_t i)
{
	const unsigned char *b = p->payload + i * elem_bytes;
	uint64_t v = 0;
	unsigned j;

	for (j = elem_bytes; j-- > 0;)
		v = v << 8 | b[j];
	return v;
}

/* ---- a compressed image ---- */

const char *dump_unzstd_why(int status)
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

int dump_unzstd_real_size(const struct reader_image *img, uint64_t *real,
			  const char **why)
{
	int r = props_unzstd_size(img->bin, (size_t)img->bin_size, real);

	*why = r ? dump_unzstd_why(r) : NULL;
	return r ? -1 : 0;
}
