// SPDX-License-Identifier: MIT
/*
 * The object handed to libelf: the ELF header, then each section's header
 * and data at the offset the layout gave it (ELF_F_LAYOUT), the symbol
 * and relocation tables filled through gelf by the form of the object
 * (struct obj_file); the descriptor form's symbol table is here too.
 * Image sections get no Elf_Data: libelf leaves their ranges for
 * object-images.c (and the blob section, for object-blob.c).
 */
#include <elf.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "wrapper/object-private.h"

static int elf_fail(struct errmsg *err, const char *out_name,
		    const char *what)
{
	return obj_set_err(err, "%s: %s: %s", out_name, what, elf_errmsg(-1));
}

static int fill_symbol(Elf_Data *data, size_t ndx, uint32_t name,
		       unsigned char bind, unsigned char type, uint16_t shndx,
		       uint64_t value, uint64_t size)
{
	GElf_Sym sym = {
		.st_name = name,
		.st_info = GELF_ST_INFO(bind, type),
		.st_other = STV_DEFAULT,
		.st_shndx = shndx,
		.st_value = value,
		.st_size = size,
	};

	return gelf_update_sym(data, ndx, &sym) ? 0 : -1;
}

int obj_fill_symbol(Elf_Data *data, size_t ndx, uint32_t name,
		    unsigned char bind, unsigned char type, uint16_t shndx,
		    uint64_t value, uint64_t size)
{
	return fill_symbol(data, ndx, name, bind, type, shndx, value, size);
}

static int fill_hidden(Elf_Data *data, size_t ndx, uint32_t name,
		       unsigned char type, uint16_t shndx)
{
	GElf_Sym sym;

	if (fill_symbol(data, ndx, name, STB_GLOBAL, type, shndx, 0, 0) ||
	    !gelf_getsym(data, ndx, &sym))
		return -1;
	sym.st_other = STV_HIDDEN;
	return gelf_update_sym(data, ndx, &sym) ? 0 : -1;
}

/* The globals of the non-SYCL descriptors. */
static int fill_tgt_symbols(const struct layout *l, Elf_Data *data)
{
	size_t k;
	int r = 0;

	if (l->tgt_reg) {
		r |= fill_symbol(data, sym_tgt(l, TGT_REGISTER),
				 l->tgt_names[TGT_REGISTER], STB_GLOBAL,
				 STT_NOTYPE, SHN_UNDEF, 0, 0);
		r |= fill_symbol(data, sym_tgt(l, TGT_UNREGISTER),
				 l->tgt_names[TGT_UNREGISTER], STB_GLOBAL,
				 STT_NOTYPE, SHN_UNDEF, 0, 0);
	}
	r |= fill_hidden(data, sym_tgt(l, TGT_START), l->tgt_names[TGT_START],
			 STT_NOTYPE, SHN_UNDEF);
	r |= fill_hidden(data, sym_tgt(l, TGT_STOP), l->tgt_names[TGT_STOP],
			 STT_NOTYPE, SHN_UNDEF);
	r |= fill_hidden(data, sym_tgt(l, TGT_DUMMY), l->tgt_names[TGT_DUMMY],
			 STT_OBJECT, l->file.phys[sec_entries(l)]);
	for (k = 0; l->set->desc_name && k < l->npacks; k++)
		r |= fill_symbol(data, sym_pack_desc(l, k), l->packs[k].name,
				 STB_GLOBAL, STT_OBJECT, l->file.phys[SEC_DESC],
				 l->packs[k].desc_off, TGT_DESC_SIZE);
	return r;
}

static int fill_symtab(const struct layout *l, Elf_Data *data)
{
	const struct wrap_machine *m = l->mach;
	const size_t *p = l->file.phys;
	size_t n = l->set->nimages, i;
	uint32_t g = sym_first_global(l);
	int r;

	r = fill_symbol(data, 0, 0, STB_LOCAL, STT_NOTYPE, SHN_UNDEF, 0, 0);
	r |= fill_symbol(data, SYM_INDEX, 0, STB_LOCAL, STT_SECTION,
			 p[SEC_INDEX], 0, 0);
	r |= fill_symbol(data, SYM_DESC, 0, STB_LOCAL, STT_SECTION,
			 p[SEC_DESC], 0, 0);
	for (i = 0; i < n; i++)
		r |= fill_symbol(data, sym_image(i), 0, STB_LOCAL, STT_SECTION,
				 p[SEC_IMAGE0 + i], 0, 0);
	if (l->nctors)
		r |= fill_symbol(data, sym_text(l), 0, STB_LOCAL, STT_SECTION,
				 p[SEC_TEXT], 0, 0);
	r |= fill_symbol(data, sym_named(l, NAMED_INDEX),
			 l->sym_name[NAMED_INDEX], STB_LOCAL, STT_OBJECT,
			 p[SEC_INDEX], 0, l->index.len);
	r |= fill_symbol(data, sym_named(l, NAMED_DESC),
			 l->sym_name[NAMED_DESC], STB_LOCAL, STT_OBJECT,
			 p[SEC_DESC], 0, l->sycl_desc_len);
	if (l->reg) {
		r |= fill_symbol(data, sym_named(l, NAMED_REGISTER),
				 l->sym_name[NAMED_REGISTER], STB_LOCAL,
				 STT_FUNC, p[SEC_TEXT], l->sycl_reg_off,
				 m->stub_size);
		r |= fill_symbol(data, sym_named(l, NAMED_UNREGISTER),
				 l->sym_name[NAMED_UNREGISTER], STB_LOCAL,
				 STT_FUNC, p[SEC_TEXT],
				 l->sycl_reg_off + m->stub_align,
				 m->stub_size);
	}
	for (i = 0; i < n; i++)
		r |= fill_symbol(data, sym_named(l, NAMED_IMAGE0 + i),
				 l->sym_name[NAMED_IMAGE0 + i], STB_LOCAL,
				 STT_OBJECT, p[SEC_IMAGE0 + i], 0,
				 l->set->images[i].size);
	if (l->reg) {
		r |= fill_symbol(data, g, l->sym_name[NAMED_IMAGE0 + n],
				 STB_GLOBAL, STT_NOTYPE, SHN_UNDEF, 0, 0);
		r |= fill_symbol(data, g + 1,
				 l->sym_name[NAMED_IMAGE0 + n + 1], STB_GLOBAL,
				 STT_NOTYPE, SHN_UNDEF, 0, 0);
	}
	if (l->set->desc_name)
		r |= fill_symbol(data, sym_desc_global(l),
				 l->sym_name[NAMED_IMAGE0 + n + 2], STB_GLOBAL,
				 STT_OBJECT, p[SEC_DESC], 0, l->sycl_desc_len);
	if (l->npacks)
		r |= fill_tgt_symbols(l, data);
	return r ? -1 : 0;
}

int obj_fill_rela(const struct rels *rs, Elf_Data *data)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		GElf_Rela rela = {
			.r_offset = rs->r[i].offset,
			.r_info = GELF_R_INFO(rs->r[i].sym, rs->r[i].type),
			.r_addend = rs->r[i].addend,
		};

		if (!gelf_update_rela(data, i, &rela))
			return -1;
	}
	return 0;
}

static const struct rels *rels_of(const struct layout *l, size_t idx)
{
	switch (idx) {
	case SEC_RELA_TEXT:
		return &l->text_rels;
	case SEC_RELA_INDEX:
		return &l->index_rels;
	case SEC_RELA_DESC:
		return &l->desc_rels;
	case SEC_RELA_INIT:
		return &l->init_rels;
	case SEC_RELA_FINI:
		return &l->fini_rels;
	default:
		return &l->tgt_rels;
	}
}

/* Symbol and relocation tables are filled through gelf once they exist. */
int obj_fill_layout_table(const void *form, size_t idx, Elf_Data *data)
{
	const struct layout *l = form;

	if (idx == SEC_SYMTAB)
		return fill_symtab(l, data);
	return obj_fill_rela(rels_of(l, idx), data);
}

static int emit_section(const struct obj_file *f, Elf *elf, size_t idx,
			void *table, struct errmsg *err,
			const char *out_name)
{
	const struct sec *s = &f->secs[idx];
	Elf_Scn *scn = elf_newscn(elf);
	GElf_Shdr shdr;
	Elf_Data *data;

	if (!scn || !gelf_getshdr(scn, &shdr))
		return elf_fail(err, out_name, "cannot add a section");
	if (elf_ndxscn(scn) != f->phys[idx])
		return obj_set_err(err, "%s: section %s got index %zu, not %zu",
				   out_name, s->name, elf_ndxscn(scn),
				   f->phys[idx]);
	shdr.sh_name = s->name_off;
	shdr.sh_type = s->type;
	shdr.sh_flags = s->flags;
	shdr.sh_addralign = s->align;
	shdr.sh_entsize = s->entsize;
	shdr.sh_link = s->link;
	shdr.sh_info = s->info;
	shdr.sh_offset = s->offset;
	shdr.sh_size = s->size;
	if (!gelf_update_shdr(scn, &shdr))
		return elf_fail(err, out_name, "cannot set a section header");
	if (!s->size || (!s->data && !table))
		return 0;
	data = elf_newdata(scn);
	if (!data)
		return elf_fail(err, out_name, "cannot add section data");
	data->d_buf = s->data ? (void *)s->data : table;
	data->d_size = s->size;
	data->d_type = s->dtype;
	data->d_align = s->dtype == ELF_T_BYTE ? 1 : 8;
	data->d_off = 0;
	data->d_version = EV_CURRENT;
	if (table && f->fill_table(f->form, idx, data))
		return elf_fail(err, out_name, "cannot fill a table");
	return 0;
}

static int emit_header(const struct obj_file *f, Elf *elf,
		       struct errmsg *err, const char *out_name)
{
	GElf_Ehdr ehdr;

	if (!gelf_newehdr(elf, ELFCLASS64) || !gelf_getehdr(elf, &ehdr))
		return elf_fail(err, out_name, "cannot create the ELF header");
	ehdr.e_ident[EI_DATA] = f->mach->ei_data;
	ehdr.e_ident[EI_OSABI] = ELFOSABI_NONE;
	ehdr.e_type = ET_REL;
	ehdr.e_machine = f->mach->e_machine;
	ehdr.e_version = EV_CURRENT;
	ehdr.e_shoff = f->shoff;
	ehdr.e_ehsize = sizeof(Elf64_Ehdr);
	ehdr.e_shentsize = sizeof(Elf64_Shdr);
	ehdr.e_shstrndx = f->phys[f->shstrtab];
	if (!gelf_update_ehdr(elf, &ehdr))
		return elf_fail(err, out_name, "cannot set the ELF header");
	return 0;
}

/* The buffer of a table whose entries gelf converts; NULL for others. */
static int alloc_table(const struct obj_file *f, size_t idx, void **out)
{
	const struct sec *s = &f->secs[idx];

	*out = NULL;
	if (s->type != SHT_SYMTAB && s->type != SHT_RELA)
		return 0;
	*out = calloc(1, s->size ? s->size : 1);
	return *out ? 0 : -ENOMEM;
}

int obj_emit_elf(const struct obj_file *f, int fd, struct errmsg *err,
		 const char *out_name)
{
	void **tables = calloc(f->nsecs, sizeof(*tables));
	Elf *elf = NULL;
	off_t written;
	size_t i;
	int r = -1;

	if (!tables) {
		obj_set_err(err, "%s: %s", out_name, strerror(ENOMEM));
		return -1;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		elf_fail(err, out_name, "libelf is out of date");
		goto out;
	}
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!elf) {
		elf_fail(err, out_name, "cannot start the ELF file");
		goto out;
	}
	if (emit_header(f, elf, err, out_name))
		goto out;
	elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
	for (i = 1; i < f->nsecs; i++) {
		void *t;

		if (alloc_table(f, i, &t)) {
			obj_set_err(err, "%s: %s", out_name, strerror(ENOMEM));
			goto out;
		}
		tables[i] = t;
		if (f->phys[i] && emit_section(f, elf, i, t, err, out_name))
			goto out;
	}
	written = elf_update(elf, ELF_C_WRITE);
	if (written < 0) {
		elf_fail(err, out_name, "cannot write");
		goto out;
	}
	if ((uint64_t)written != f->total) {
		obj_set_err(err, "%s: libelf wrote %lld bytes, %llu expected",
			    out_name, (long long)written,
			    (unsigned long long)f->total);
		goto out;
	}
	r = 0;
out:
	if (elf)
		elf_end(elf);
	for (i = 0; i < f->nsecs; i++)
		free(tables[i]);
	free(tables);
	return r;
}
