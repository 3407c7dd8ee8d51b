// SPDX-License-Identifier: MIT
/*
 * The object's code and constructor tables: a constructor and a destructor
 * per registered descriptor in .text.devimg (the machine's stub, with its
 * relocations), and their words in .init_array.1 and .fini_array.1.
 */
#include <stdint.h>
#include <string.h>

#include "devimg/descriptor.h"
#include "wrapper/object-private.h"

/*
 * A constructor and a destructor: both pass the descriptor at desc_off to
 * their callee; *off gets the constructor's offset.
 */
static int add_stubs(struct layout *l, size_t desc_off, uint32_t reg,
		     uint32_t unreg, size_t *first)
{
	const struct wrap_machine *m = l->mach;
	uint32_t callee[2] = { reg, unreg };
	size_t off, k;
	unsigned j;
	int r;

	for (k = 0; k < 2; k++) {
		size_t end = l->text.len;

		r = obj_buf_add(&l->text, m->stub, m->stub_size, m->stub_align,
				&off);
		if (r)
			return r;
		if (k == 0)
			*first = off;
		memset(l->text.p + end, m->text_fill, off - end);
		for (j = 0; j < m->nstub_relocs; j++) {
			const struct wrap_stub_reloc *s = &m->stub_relocs[j];
			uint32_t sym = s->target == WRAP_STUB_DESCRIPTOR ?
				       SYM_DESC : callee[k];
			int64_t addend = s->addend;

			if (s->target == WRAP_STUB_DESCRIPTOR)
				addend += (int64_t)desc_off;
			r = obj_rels_add(&l->text_rels, off + s->offset,
					 s->type, sym, addend);
			if (r)
				return r;
		}
	}
	return 0;
}

/* One .init_array.1 and one .fini_array.1 word for the stubs at off. */
static int add_ctor(struct layout *l, size_t off)
{
	const struct wrap_machine *m = l->mach;
	uint64_t at = l->nctors * 8;
	int r;

	r = obj_rels_add(&l->init_rels, at, m->r_abs64, sym_text(l), off);
	if (!r)
		r = obj_rels_add(&l->fini_rels, at, m->r_abs64, sym_text(l),
				 off + m->stub_align);
	l->nctors++;
	return r;
}

/*
 * SYCL's stubs come first in the code; the constructor tables list the
 * kinds in the order DPC++'s wrapper emits them (openmp, sycl, hip), all
 * with priority 1.
 */
int obj_build_text(struct layout *l)
{
	size_t k;
	int r = 0;

	if (l->reg)
		r = add_stubs(l, 0, sym_first_global(l),
			      sym_first_global(l) + 1, &l->sycl_reg_off);
	for (k = 0; !r && l->tgt_reg && k < l->npacks; k++)
		r = add_stubs(l, l->packs[k].desc_off,
			      sym_tgt(l, TGT_REGISTER),
			      sym_tgt(l, TGT_UNREGISTER), &l->packs[k].reg_off);
	l->nctors = 0;
	for (k = 0; !r && l->tgt_reg && k < l->npacks; k++)
		if (l->packs[k].kind == DEVIMG_KIND_OPENMP)
			r = add_ctor(l, l->packs[k].reg_off);
	if (!r && l->reg)
		r = add_ctor(l, l->sycl_reg_off);
	for (k = 0; !r && l->tgt_reg && k < l->npacks; k++)
		if (l->packs[k].kind != DEVIMG_KIND_OPENMP)
			r = add_ctor(l, l->packs[k].reg_off);
	return r;
}
