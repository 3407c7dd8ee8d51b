// SPDX-License-Identifier: MIT
/*
 * The object's names: the symbol names of .strtab and the section names
 * of .shstrtab, image sections named as clang-offload-bundler looks for
 * them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devimg/descriptor.h"
#include "wrapper/index.h"
#include "wrapper/object-private.h"

static int strtab_add(struct layout *l, unsigned which, const char *name)
{
	size_t off;
	int r = obj_buf_str(&l->strtab, name, &off);

	if (!r)
		l->sym_name[which] = off;
	return r;
}

static const char *kind_name(uint8_t kind)
{
	switch (kind) {
	case DEVIMG_KIND_HOST:
		return "host";
	case DEVIMG_KIND_OPENMP:
		return "openmp";
	case DEVIMG_KIND_HIP:
		return "hip";
	default:
		return "sycl";
	}
}

static int tgt_strtab(struct layout *l)
{
	static const char *const names[] = {
		[TGT_REGISTER] = "__tgt_register_lib",
		[TGT_UNREGISTER] = "__tgt_unregister_lib",
		[TGT_START] = "__start_" TGT_ENTRIES_SECTION,
		[TGT_STOP] = "__stop_" TGT_ENTRIES_SECTION,
		[TGT_DUMMY] = "__dummy.omp_offloading.entry",
	};
	size_t i, off, at;
	int r = 0;

	for (i = 0; !r && i < sizeof(names) / sizeof(names[0]); i++) {
		r = obj_buf_str(&l->strtab, names[i], &off);
		l->tgt_names[i] = off;
	}
	for (i = 0; !r && l->set->desc_name && i < l->npacks; i++) {
		const char *kind = kind_name(l->packs[i].kind);

		r = obj_buf_add(&l->strtab, ".", 1, 1, &off);
		if (!r)
			r = obj_buf_add(&l->strtab, kind, strlen(kind), 1, &at);
		if (!r)
			r = obj_buf_add(&l->strtab, "_offloading.", 12, 1, &at);
		if (!r)
			r = obj_buf_str(&l->strtab, l->set->desc_name, NULL);
		l->packs[i].name = off;
	}
	return r;
}

int obj_build_strtab(struct layout *l)
{
	static const char *const fixed[] = {
		"__devimg_index", "__devimg_descriptor", "__devimg_register",
		"__devimg_unregister",
	};
	size_t n = l->set->nimages, i, off;
	char name[64];
	int r;

	l->sym_name = calloc(NAMED_IMAGE0 + n + 3, sizeof(*l->sym_name));
	if (!l->sym_name)
		return -ENOMEM;
	r = obj_buf_add(&l->strtab, "", 1, 1, &off);
	for (i = 0; !r && i < NAMED_IMAGE0; i++)
		r = strtab_add(l, i, fixed[i]);
	for (i = 0; !r && i < n; i++) {
		snprintf(name, sizeof(name), "__devimg_image_%zu", i);
		r = strtab_add(l, NAMED_IMAGE0 + i, name);
	}
	if (!r && l->reg)
		r = strtab_add(l, NAMED_IMAGE0 + n, "__sycl_register_lib");
	if (!r && l->reg)
		r = strtab_add(l, NAMED_IMAGE0 + n + 1, "__sycl_unregister_lib");
	if (!r && l->set->desc_name) {
		r = obj_buf_add(&l->strtab, ".sycl_offloading.", 17, 1, &off);
		if (!r) {
			l->sym_name[NAMED_IMAGE0 + n + 2] = off;
			r = obj_buf_str(&l->strtab, l->set->desc_name, NULL);
		}
	}
	if (!r && l->npacks)
		r = tgt_strtab(l);
	return r;
}

/*
 * Where DPC++'s wrapper puts an image: "__CLANG_OFFLOAD_BUNDLE__" then the
 * offload kind and the target, so that clang-offload-bundler finds it; an
 * image without a target goes to the read-only data.
 */
static int image_section_name(struct buf *b, const struct wrap_image *img,
			      size_t *off)
{
	const char *kind = kind_name(img->kind);
	size_t at;
	int r;

	if (!*img->target)
		return obj_buf_str(b, DEVIMG_SECTION_IMAGE_NOTARGET, off);
	r = obj_buf_add(b, DEVIMG_SECTION_IMAGE_PREFIX,
			strlen(DEVIMG_SECTION_IMAGE_PREFIX), 1, off);
	if (!r)
		r = obj_buf_add(b, kind, strlen(kind), 1, &at);
	if (!r)
		r = obj_buf_add(b, "-", 1, 1, &at);
	if (!r)
		r = obj_buf_str(b, img->target, NULL);
	return r;
}

int obj_name_sections(struct layout *l)
{
	size_t i, off;
	int r;

	r = obj_buf_add(&l->shstrtab, "", 1, 1, &off);
	for (i = 1; !r && i < l->file.nsecs; i++) {
		if (i >= SEC_IMAGE0 && i < sec_tgtimg(l))
			r = image_section_name(&l->shstrtab,
					       &l->set->images[i - SEC_IMAGE0],
					       &off);
		else
			r = obj_buf_str(&l->shstrtab, l->file.secs[i].name,
					&off);
		l->file.secs[i].name_off = off;
	}
	return r;
}
