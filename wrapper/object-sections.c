// SPDX-License-Identifier: MIT
/*
 * The object's section table: what each section is (type, flags,
 * alignment, links, data), which sections the file holds and their
 * numbers there, and where each one goes in the file.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "wrapper/index.h"
#include "wrapper/object-private.h"

static void sec_set(struct sec *s, const char *name, uint32_t type,
		    uint64_t flags, uint64_t align)
{
	s->name = name;
	s->type = type;
	s->flags = flags;
	s->align = align;
	s->dtype = ELF_T_BYTE;
}

void obj_sec_set(struct sec *s, const char *name, uint32_t type,
		 uint64_t flags, uint64_t align)
{
	sec_set(s, name, type, flags, align);
}

void obj_sec_data(struct sec *s, const void *data, size_t size)
{
	s->data = size ? data : NULL;
	s->size = size;
}

void obj_sec_rela(struct sec *s, const char *name, size_t symtab,
		  size_t target, const struct rels *rs)
{
	sec_set(s, name, SHT_RELA, SHF_INFO_LINK, 8);
	s->entsize = sizeof(Elf64_Rela);
	s->link = symtab;
	s->info = target;
	s->size = rs->n * sizeof(Elf64_Rela);
	s->dtype = ELF_T_RELA;
}

static void sec_rela(struct layout *l, unsigned idx, const char *name,
		     unsigned target, const struct rels *rs)
{
	obj_sec_rela(&l->file.secs[idx], name, SEC_SYMTAB, target, rs);
}

void obj_describe_sections(struct layout *l)
{
	struct sec *s = l->file.secs;
	size_t i;

	sec_set(&s[SEC_TEXT], DEVIMG_SECTION_TEXT, SHT_PROGBITS,
		SHF_ALLOC | SHF_EXECINSTR, l->mach->stub_align);
	obj_sec_data(&s[SEC_TEXT], l->text.p, l->text.len);
	sec_set(&s[SEC_INDEX], DEVIMG_SECTION_INDEX, SHT_PROGBITS, SHF_ALLOC,
		DEVIMG_INDEX_ALIGN);
	obj_sec_data(&s[SEC_INDEX], l->index.p, l->index.len);
	sec_set(&s[SEC_DESC], DEVIMG_SECTION_DESCRIPTOR, SHT_PROGBITS,
		SHF_ALLOC | SHF_WRITE, l->npacks ? TGT_ALIGN : 8);
	obj_sec_data(&s[SEC_DESC], l->desc.p, l->desc.len);
	sec_set(&s[SEC_INIT], ".init_array.1", SHT_INIT_ARRAY,
		SHF_ALLOC | SHF_WRITE, 8);
	obj_sec_data(&s[SEC_INIT], l->init_words, l->nctors * 8);
	sec_set(&s[SEC_FINI], ".fini_array.1", SHT_FINI_ARRAY,
		SHF_ALLOC | SHF_WRITE, 8);
	obj_sec_data(&s[SEC_FINI], l->fini_words, l->nctors * 8);
	s[SEC_INIT].entsize = s[SEC_FINI].entsize = 8;
	s[SEC_INIT].dtype = s[SEC_FINI].dtype = ELF_T_ADDR;
	sec_set(&s[SEC_NOTE_STACK], ".note.GNU-stack", SHT_PROGBITS, 0, 1);

	sec_rela(l, SEC_RELA_TEXT, ".rela" DEVIMG_SECTION_TEXT, SEC_TEXT,
		 &l->text_rels);
	sec_rela(l, SEC_RELA_INDEX, ".rela" DEVIMG_SECTION_INDEX, SEC_INDEX,
		 &l->index_rels);
	sec_rela(l, SEC_RELA_DESC, ".rela" DEVIMG_SECTION_DESCRIPTOR, SEC_DESC,
		 &l->desc_rels);
	sec_rela(l, SEC_RELA_INIT, ".rela.init_array.1", SEC_INIT,
		 &l->init_rels);
	sec_rela(l, SEC_RELA_FINI, ".rela.fini_array.1", SEC_FINI,
		 &l->fini_rels);

	sec_set(&s[SEC_SYMTAB], ".symtab", SHT_SYMTAB, 0, 8);
	s[SEC_SYMTAB].entsize = sizeof(Elf64_Sym);
	s[SEC_SYMTAB].link = SEC_STRTAB;
	s[SEC_SYMTAB].info = sym_first_global(l);
	s[SEC_SYMTAB].size = l->nsyms * sizeof(Elf64_Sym);
	s[SEC_SYMTAB].dtype = ELF_T_SYM;
	sec_set(&s[SEC_STRTAB], ".strtab", SHT_STRTAB, 0, 1);
	sec_set(&s[SEC_SHSTRTAB], ".shstrtab", SHT_STRTAB, 0, 1);

	/* LLVM aligns a global array to 16 only when it is over 16 bytes. */
	for (i = 0; i < l->set->nimages; i++) {
		uint64_t size = l->set->images[i].size;

		sec_set(&s[SEC_IMAGE0 + i], NULL, SHT_PROGBITS, SHF_ALLOC,
			size > DEVIMG_IMAGE_ALIGN ? DEVIMG_IMAGE_ALIGN : 1);
		s[SEC_IMAGE0 + i].size = size;
	}
	i = sec_tgtimg(l);
	if (l->tgtimg) {
		/* Writable as in DPC++'s (PIC) objects: relocated words. */
		sec_set(&s[i], DEVIMG_SECTION_TGTIMG, SHT_PROGBITS,
			SHF_ALLOC | SHF_WRITE, 16);
		obj_sec_data(&s[i], l->tgt.p, l->tgt.len);
		sec_rela(l, i + 1, ".rela" DEVIMG_SECTION_TGTIMG, i,
			 &l->tgt_rels);
		i += 2;
	}
	/* Empty: it only makes the linker define __start_ and __stop_. */
	if (l->npacks)
		sec_set(&s[i], TGT_ENTRIES_SECTION, SHT_PROGBITS, SHF_ALLOC, 8);
}

/*
 * Without code (-emit-reg-funcs=0, or nothing to register) .text.devimg and
 * the constructor tables are left out, as is every relocation section
 * without relocations: DPC++'s wrapper writes none of them then.
 */
int obj_number_sections(struct layout *l)
{
	if (!l->nctors) {
		l->file.secs[SEC_TEXT].omit = 1;
		l->file.secs[SEC_INIT].omit = 1;
		l->file.secs[SEC_FINI].omit = 1;
	}
	return obj_number_file(&l->file);
}

int obj_number_file(struct obj_file *f)
{
	size_t i;

	f->phys = calloc(f->nsecs, sizeof(*f->phys));
	if (!f->phys)
		return -ENOMEM;
	f->nphys = 1;
	for (i = 1; i < f->nsecs; i++) {
		const struct sec *s = &f->secs[i];

		if ((s->type == SHT_RELA && !s->size) || s->omit)
			continue;
		f->phys[i] = f->nphys++;
	}
	for (i = 1; i < f->nsecs; i++) {
		struct sec *s = &f->secs[i];

		if (s->type == SHT_RELA || s->type == SHT_SYMTAB)
			s->link = f->phys[s->link];
		if (s->type == SHT_RELA)
			s->info = f->phys[s->info];
	}
	return 0;
}

/* Offsets: sections in the form's order, then the section headers. */
int obj_place_file(struct obj_file *f)
{
	uint64_t off = sizeof(Elf64_Ehdr);
	size_t i;

	for (i = 1; i < f->nsecs; i++) {
		struct sec *s = &f->secs[i];

		if (!f->phys[i])
			continue;
		off = align_up(off, s->align);
		if (off + s->size < off)
			return -EFBIG;
		s->offset = off;
		off += s->size;
	}
	f->shoff = align_up(off, 8);
	f->total = f->shoff + f->nphys * sizeof(Elf64_Shdr);
	if (f->total < off)
		return -EFBIG;
	return 0;
}
