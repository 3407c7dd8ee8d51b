/* SPDX-License-Identifier: MIT */
/*
 * The object writer's own declarations, shared by its files
 * (wrapper/object-*.c) and by no one else: the tools see object-writer.h.
 * The numbers of the sections and symbols, the layout of the object but
 * for the image bytes, and the calls between the files.
 *
 * File order: ELF header, small sections, images (16-aligned), section
 * header table. Section indices are fixed (enum below) so that symbols and
 * relocations can be written before any section exists.
 */
#ifndef DEVIMG_WRAPPER_OBJECT_PRIVATE_H
#define DEVIMG_WRAPPER_OBJECT_PRIVATE_H

#include <libelf.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/errmsg.h"
#include "wrapper/object-writer.h"

/* Section header indices, in creation order. */
enum {
	SEC_TEXT = 1,
	SEC_RELA_TEXT,
	SEC_INDEX,
	SEC_RELA_INDEX,
	SEC_DESC,
	SEC_RELA_DESC,
	SEC_INIT,
	SEC_RELA_INIT,
	SEC_FINI,
	SEC_RELA_FINI,
	SEC_NOTE_STACK,
	SEC_SYMTAB,
	SEC_STRTAB,
	SEC_SHSTRTAB,
	SEC_IMAGE0,	/* image N's section is SEC_IMAGE0 + N */
	/* then .tgtimg and .rela.tgtimg, when the object has them */
};

/*
 * Symbol indices: null, section symbols (index, descriptor, images, then
 * text when there is code), the named locals, then the globals. Only those
 * that depend on the image count are computed.
 */
enum {
	SYM_INDEX = 1,
	SYM_DESC,
	SYM_IMAGE0,
};

enum {
	NAMED_INDEX,
	NAMED_DESC,
	NAMED_REGISTER,
	NAMED_UNREGISTER,
	NAMED_IMAGE0,
};

/*
 * Undefined __sycl_register_lib, __sycl_unregister_lib; desc-name; then for
 * non-SYCL images undefined __tgt_register_lib, __tgt_unregister_lib,
 * hidden undefined __start_ and __stop_omp_offloading_entries, the hidden
 * empty __dummy.omp_offloading.entry that makes the linker define them,
 * and with desc-name one global descriptor per kind.
 */
enum {
	TGT_REGISTER,
	TGT_UNREGISTER,
	TGT_START,
	TGT_STOP,
	TGT_DUMMY,
};

/*
 * Of the target's structures (object-descriptor.c has their fields, LP64),
 * what the other files need too.
 */
#define IMG_SIZE 96u
#define IMG_V3_SIZE 80u	/* version 3: no manifest pointers */
#define TGT_DESC_SIZE 32u
#define TGT_ALIGN 16u	/* what LLVM gives a global over 16 bytes */
#define TGT_MAX_PACKS 2	/* openmp, hip */
#define TGT_ENTRIES_SECTION "omp_offloading_entries"

struct buf {
	unsigned char *p;
	size_t len;
	size_t cap;
};

struct rel {
	uint64_t offset;
	uint32_t type;
	uint32_t sym;
	int64_t addend;
};

struct rels {
	struct rel *r;
	size_t n;
	size_t cap;
};

struct sec {
	const char *name;
	uint32_t name_off;
	uint32_t type;
	uint64_t flags;
	uint64_t align;
	uint64_t entsize;
	uint32_t link;
	uint32_t info;
	uint64_t offset;
	uint64_t size;
	const void *data;	/* NULL: no Elf_Data */
	Elf_Type dtype;
	int omit;		/* left out of the file */
};

/*
 * The file as object-elf.c writes it, whatever the form of the object
 * (the descriptor's, struct layout; the blob's, object-blob.c): the
 * sections by the form's own numbers, which of them the file holds and
 * where, and how the form fills its symbol and relocation tables.
 */
struct obj_file {
	const struct wrap_machine *mach;
	struct sec *secs;	/* [nsecs], [0] unused */
	size_t nsecs;
	size_t *phys;		/* section index as written; 0: left out */
	size_t nphys;
	size_t shstrtab;	/* the form's number of .shstrtab */
	uint64_t shoff;
	uint64_t total;
	/* Fill the table (SHT_SYMTAB or SHT_RELA) of section idx: 0 or -1. */
	int (*fill_table)(const void *form, size_t idx, Elf_Data *data);
	const void *form;
};

/* The object, but for the image bytes. */
struct layout {
	const struct wrap_set *set;
	const struct wrap_machine *mach;
	uint16_t img_version;	/* 2 or 3 */
	size_t img_size;	/* IMG_SIZE or IMG_V3_SIZE */
	size_t ndesc;		/* SYCL images: those in the descriptor */
	int reg;		/* SYCL constructor and destructor */
	int tgtimg;		/* a .tgtimg section */
	/*
	 * Non-SYCL images (OpenMP, HIP), one libomptarget descriptor per
	 * kind after the SYCL one in the descriptor section, registered
	 * through __tgt_register_lib as DPC++'s wrapper does.
	 */
	struct tgt_pack {
		uint8_t kind;
		size_t n;
		size_t desc_off;	/* its __tgt_bin_desc */
		size_t reg_off;		/* its constructor's offset */
		uint32_t name;		/* strtab: .<kind>_offloading.NAME */
	} packs[TGT_MAX_PACKS];
	size_t npacks;
	int tgt_reg;		/* constructors for the packs */
	size_t sycl_desc_len;	/* the SYCL descriptor's part */
	size_t sycl_reg_off;
	uint32_t tgt_names[5];	/* strtab: the five tgt globals */
	struct buf text;
	struct buf index;
	struct buf desc;
	struct buf tgt;		/* .tgtimg: {address, size} per image */
	struct buf strtab;
	struct buf shstrtab;
	struct rels text_rels;
	struct rels index_rels;
	struct rels desc_rels;
	struct rels init_rels;
	struct rels fini_rels;
	struct rels tgt_rels;
	/* .init_array.1 and .fini_array.1: zeros, relocated */
	uint64_t init_words[1 + TGT_MAX_PACKS];
	uint64_t fini_words[1 + TGT_MAX_PACKS];
	size_t nctors;
	uint32_t *sym_name;	/* strtab offsets of the named symbols */
	size_t nsyms;
	/* secs: [SEC_IMAGE0 + nimages (+ 2) (+ 1)] */
	struct obj_file file;
};

/* ---- numbers of symbols and sections, offsets ---- */

static inline uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Without a constructor and destructor, their two symbols are left out. */
static inline uint32_t sym_named(const struct layout *l, unsigned which)
{
	uint32_t gap = !l->reg && which >= NAMED_IMAGE0 ? 2 : 0;

	return SYM_IMAGE0 + l->set->nimages + (l->nctors ? 1 : 0) + which - gap;
}

/* The section symbol of .text.devimg, when there is code. */
static inline uint32_t sym_text(const struct layout *l)
{
	return SYM_IMAGE0 + l->set->nimages;
}

static inline uint32_t sym_first_global(const struct layout *l)
{
	return sym_named(l, NAMED_IMAGE0) + l->set->nimages;
}

static inline uint32_t sym_image(size_t i)
{
	return SYM_IMAGE0 + i;
}

static inline size_t nglobals(const struct layout *l)
{
	return (l->reg ? 2 : 0) + (l->set->desc_name ? 1 : 0) +
	       (l->tgt_reg ? 2 : 0) +
	       (l->npacks ? 3 + (l->set->desc_name ? l->npacks : 0) : 0);
}

static inline uint32_t sym_tgt(const struct layout *l, unsigned which)
{
	uint32_t g = sym_first_global(l) + (l->reg ? 2 : 0) +
		     (l->set->desc_name ? 1 : 0);

	if (which >= TGT_START && !l->tgt_reg)
		g -= 2;
	return g + which;
}

static inline uint32_t sym_pack_desc(const struct layout *l, size_t k)
{
	return sym_tgt(l, TGT_DUMMY) + 1 + k;
}

static inline uint32_t sym_desc_global(const struct layout *l)
{
	return sym_first_global(l) + (l->reg ? 2 : 0);
}

static inline size_t sec_tgtimg(const struct layout *l)
{
	return SEC_IMAGE0 + l->set->nimages;
}

static inline size_t sec_entries(const struct layout *l)
{
	return sec_tgtimg(l) + (l->tgtimg ? 2 : 0);
}

/* ---- the calls between the files ---- */

/* Fill err (util/errmsg.h), return -1. */
static inline int obj_set_err(struct errmsg *err, const char *fmt, ...)
	DEVIMG_PRINTF(2, 3);
static inline int obj_set_err(struct errmsg *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	errmsg_vset(err, fmt, ap);
	va_end(ap);
	return -1;
}

/* object-buf.c: 0 or -ENOMEM. */
int obj_buf_alloc(struct buf *b, size_t size, size_t align, size_t *off);
int obj_buf_add(struct buf *b, const void *data, size_t size, size_t align,
		size_t *off);
int obj_buf_str(struct buf *b, const char *s, size_t *off);
int obj_rels_add(struct rels *rs, uint64_t offset, uint32_t type,
		 uint32_t sym, int64_t addend);

/* object-descriptor.c: 0, or -1 with err filled. */
int obj_build_data(struct layout *l, struct errmsg *err,
		   const char *out_name);

/* object-ctors.c: 0 or -ENOMEM. */
int obj_build_text(struct layout *l);

/* object-names.c: 0 or -ENOMEM. */
int obj_build_strtab(struct layout *l);
int obj_name_sections(struct layout *l);

/* object-sections.c: numbering 0 or -ENOMEM, placing 0 or -EFBIG. */
void obj_sec_set(struct sec *s, const char *name, uint32_t type,
		 uint64_t flags, uint64_t align);
void obj_sec_data(struct sec *s, const void *data, size_t size);
/* A relocation section of rs for section target, symbols in symtab. */
void obj_sec_rela(struct sec *s, const char *name, size_t symtab,
		  size_t target, const struct rels *rs);
void obj_describe_sections(struct layout *l);
int obj_number_sections(struct layout *l);
/* Any form: every section but empty relocations and omitted ones. */
int obj_number_file(struct obj_file *f);
int obj_place_file(struct obj_file *f);

/* object-layout.c: 0, or -1 with err filled. */
int obj_build_layout(struct layout *l, struct errmsg *err,
		     const char *out_name);
void obj_layout_fini(struct layout *l);

/* object-elf.c: 0, or -1 with err filled. */
int obj_emit_elf(const struct obj_file *f, int fd, struct errmsg *err,
		 const char *out_name);
/* The descriptor form's tables: its obj_file's fill_table. */
int obj_fill_layout_table(const void *form, size_t idx, Elf_Data *data);
/* Any form's: one symbol (0 or -1), a relocation section's entries. */
int obj_fill_symbol(Elf_Data *data, size_t ndx, uint32_t name,
		    unsigned char bind, unsigned char type, uint16_t shndx,
		    uint64_t value, uint64_t size);
int obj_fill_rela(const struct rels *rs, Elf_Data *data);

/* object-images.c: 0, or -1 with err filled. */
int obj_reserve_space(int fd, uint64_t size, struct errmsg *err,
		      const char *out_name);
int obj_copy_images(const struct layout *l, int fd, struct errmsg *err,
		    const char *out_name);
/* Image img (its file, or its bytes made in memory) to fd at dst. */
int obj_copy_image(const struct wrap_image *img, int fd, uint64_t dst,
		   struct errmsg *err, const char *out_name);
/* size bytes at p to fd at dst; what names them in errors. */
int obj_write_at(int fd, const void *p, size_t size, uint64_t dst,
		 const char *what, struct errmsg *err, const char *out_name);

/* object-blob.c: the blob form, as wrap_write_object(). */
int obj_write_blob(const struct wrap_set *set, int fd, const char *out_name,
		   FILE *verbose, struct errmsg *err);

#endif
