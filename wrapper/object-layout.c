// SPDX-License-Identifier: MIT
/*
 * The object's layout, everything but the image bytes built in memory:
 * the counts that fix symbol and section numbers first, then the data,
 * the code, the names and the section table, each section placed in the
 * file.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "devimg/descriptor.h"
#include "wrapper/object-private.h"

static int rel_cmp(const void *a, const void *b)
{
	const struct rel *x = a, *y = b;

	return (x->offset > y->offset) - (x->offset < y->offset);
}

void obj_layout_fini(struct layout *l)
{
	free(l->text.p);
	free(l->index.p);
	free(l->desc.p);
	free(l->tgt.p);
	free(l->tgt_rels.r);
	free(l->strtab.p);
	free(l->shstrtab.p);
	free(l->text_rels.r);
	free(l->index_rels.r);
	free(l->desc_rels.r);
	free(l->init_rels.r);
	free(l->fini_rels.r);
	free(l->sym_name);
	free(l->file.secs);
	free(l->file.phys);
}

static void count_packs(struct layout *l)
{
	static const uint8_t kinds[TGT_MAX_PACKS] = { DEVIMG_KIND_OPENMP,
						      DEVIMG_KIND_HIP };
	size_t k, i;

	for (k = 0; k < TGT_MAX_PACKS; k++) {
		struct tgt_pack *p = &l->packs[l->npacks];

		p->kind = kinds[k];
		for (i = 0; i < l->set->nimages; i++)
			if (l->set->images[i].kind == kinds[k])
				p->n++;
		if (p->n)
			l->npacks++;
		else
			memset(p, 0, sizeof(*p));
	}
}

int obj_build_layout(struct layout *l, struct errmsg *err,
		     const char *out_name)
{
	size_t n = l->set->nimages, i;
	int r;

	if (n > WRAP_MAX_IMAGES)
		return obj_set_err(err,
				   "%s: %zu images (at most %u can be wrapped)",
				   out_name, n, WRAP_MAX_IMAGES);
	l->img_version = l->set->image_version ? l->set->image_version :
			 DEVIMG_IMAGE_VERSION;
	l->img_size = l->img_version >= 3 ? IMG_V3_SIZE : IMG_SIZE;
	for (i = 0; i < n; i++)
		if (l->set->images[i].kind == DEVIMG_KIND_SYCL)
			l->ndesc++;
	/* As DPC++: only SYCL images are registered, none when none. */
	l->reg = !l->set->no_reg_funcs && l->ndesc;
	l->tgtimg = !l->set->no_reg_funcs && n;
	count_packs(l);
	l->tgt_reg = !l->set->no_reg_funcs && l->npacks;
	/* The constructor count decides symbol numbers: count them now. */
	l->nctors = (l->reg ? 1 : 0) + (l->tgt_reg ? l->npacks : 0);
	if (obj_build_data(l, err, out_name))
		return -1;
	l->nsyms = sym_first_global(l) + nglobals(l);
	l->file = (struct obj_file){
		.mach = l->mach,
		.nsecs = SEC_IMAGE0 + n + (l->tgtimg ? 2 : 0) +
			 (l->npacks ? 1 : 0),
		.shstrtab = SEC_SHSTRTAB,
		.fill_table = obj_fill_layout_table,
		.form = l,
	};
	l->file.secs = calloc(l->file.nsecs, sizeof(*l->file.secs));
	r = l->file.secs ? obj_build_text(l) : -ENOMEM;
	if (!r)
		r = obj_build_strtab(l);
	if (!r) {
		obj_describe_sections(l);
		r = obj_name_sections(l);
	}
	if (!r)
		r = obj_number_sections(l);
	if (r)
		return obj_set_err(err, "%s: %s", out_name, strerror(-r));
	/* In offset order, as assemblers write them; easier to read. */
	if (l->desc_rels.n)
		qsort(l->desc_rels.r, l->desc_rels.n, sizeof(struct rel),
		      rel_cmp);
	obj_sec_data(&l->file.secs[SEC_STRTAB], l->strtab.p, l->strtab.len);
	obj_sec_data(&l->file.secs[SEC_SHSTRTAB], l->shstrtab.p,
		     l->shstrtab.len);
	if (obj_place_file(&l->file))
		return obj_set_err(err, "%s: %s", out_name, strerror(EFBIG));
	return 0;
}
