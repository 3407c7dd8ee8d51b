// SPDX-License-Identifier: MIT
/*
 * devimg-wrap -form=blob: the object as llvm-offload-wrapper --kind=sycl
 * makes it (docs/formats.md, section 3). One OffloadBinary of version 2
 * holds every image, with per image the strings "triple" and "arch" (its
 * -target and -arch, empty when not given), the kernel names as
 * "symbols" (clang-sycl-linker 23's binary table) and one string per
 * property set, named by the set, holding its properties as .props text
 * without the "[name]" line. It lies in an allocated section
 * .llvm.offloading; a constructor of priority 1 passes its address and
 * size to __sycl_register_lib(), a destructor of priority 1 to
 * __sycl_unregister_lib(). Names and property values are offsets inside
 * the blob, so whatever the kernel count, a linked program relocates two
 * words for this object: its constructor's and its destructor's.
 *
 * The sections, symbols and relocations are built as the descriptor form
 * builds its own (object-buf.c, object-sections.c) and written by the
 * same libelf code (object-elf.c, through struct obj_file). Memory use
 * follows the metadata, never the images: only the blob's head (all that
 * comes before its first image) is made in memory; libelf writes the
 * section without data, and the head and each image file are then copied
 * into its range (object-images.c).
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devimg/descriptor.h"
#include "props/offload-binary.h"
#include "props/offload-symbols.h"
#include "wrapper/index.h"
#include "wrapper/object-private.h"

/* LLVM's section type of offloading data (not in <elf.h>). */
#define SHT_LLVM_OFFLOADING 0x6fff4c0bu
#define BLOB_SECTION ".llvm.offloading"
#define BLOB_ALIGN 16u
#define BLOB_VERSION 2u

/* Section numbers; the blob, the largest, is placed last. */
enum {
	BSEC_TEXT = 1,
	BSEC_RELA_TEXT,
	BSEC_INIT,
	BSEC_RELA_INIT,
	BSEC_FINI,
	BSEC_RELA_FINI,
	BSEC_NOTE_STACK,
	BSEC_SYMTAB,
	BSEC_STRTAB,
	BSEC_SHSTRTAB,
	BSEC_BLOB,
	BSEC_COUNT,
};

/* Symbol names, in .strtab. */
enum {
	BNAME_BLOB,
	BNAME_REGISTER,
	BNAME_UNREGISTER,
	BNAME_SYCL_REGISTER,
	BNAME_SYCL_UNREGISTER,
	BNAME_COUNT,
};

/* What one image puts into the blob, made before the blob's head. */
struct blob_image {
	struct offload_string *strings;
	size_t nstrings;
	unsigned char *symbols;	/* the "symbols" table, or NULL */
	char **texts;		/* per property set, its .props text */
	size_t ntexts;
};

struct blob_obj {
	const struct wrap_set *set;
	const struct wrap_machine *mach;
	int has_blob;		/* at least one image */
	int reg;		/* constructor and destructor */
	struct blob_image *imgs;
	struct offload_image_in *in;
	unsigned char *head;
	size_t head_size;
	uint64_t *img_off;	/* in the blob */
	size_t blob_size;
	/* Symbols: null, sections, the named locals, then the globals. */
	uint32_t sym_blob_sec;
	uint32_t sym_text_sec;
	uint32_t sym_blob;
	uint32_t sym_register;	/* and sym_register + 1, the destructor */
	uint32_t sym_callee;	/* and sym_callee + 1, the unregistration */
	uint32_t nsyms;
	uint32_t first_global;
	uint32_t names[BNAME_COUNT];
	struct buf text;
	struct buf strtab;
	struct buf shstrtab;
	struct rels text_rels;
	struct rels init_rels;
	struct rels fini_rels;
	uint64_t init_word;
	uint64_t fini_word;
	struct sec secs[BSEC_COUNT];
	struct obj_file file;
};

/* ---- what the blob holds ---- */

/*
 * LLVM's image kind of a devimg format (offload-binary.h): SPIR-V 6,
 * LLVM bitcode 2; for NVPTX targets PTX 5 (format none: PTX is text) and
 * cubin 3 (native); any other native binary an object, 1.
 */
static uint16_t image_kind_of(const struct wrap_image *img)
{
	int nvptx = !strncmp(img->target, "nvptx", 5);

	switch (img->format) {
	case DEVIMG_FORMAT_SPIRV:
		return OFFLOAD_IMAGE_SPIRV;
	case DEVIMG_FORMAT_LLVMBC:
		return OFFLOAD_IMAGE_BITCODE;
	case DEVIMG_FORMAT_NATIVE:
		return nvptx ? OFFLOAD_IMAGE_CUBIN : OFFLOAD_IMAGE_OBJECT;
	default:
		return nvptx ? OFFLOAD_IMAGE_PTX : OFFLOAD_IMAGE_NONE;
	}
}

static const char *where_of(const struct wrap_image *img)
{
	return img->where ? img->where : "";
}

/* What an OffloadBinary has no place for, refused before anything is made. */
static int check_image(const struct wrap_image *img, struct errmsg *err)
{
	const char *where = where_of(img);
	size_t i;

	if (img->kind != DEVIMG_KIND_SYCL)
		return obj_set_err(err, "%s: the blob form holds SYCL images only, not -kind=%s ones (-form=descriptor wraps them)%s",
				   img->path,
				   img->kind == DEVIMG_KIND_OPENMP ? "openmp" :
				   img->kind == DEVIMG_KIND_HIP ? "hip" : "host",
				   where);
	if (img->format > DEVIMG_FORMAT_LLVMBC)
		return obj_set_err(err, "%s: format %u: the blob form has no image kind for it (compressed images need -form=descriptor)%s",
				   img->path, img->format, where);
	if (img->has_manifest)
		return obj_set_err(err, "%s: the blob form has no place for a manifest (-form=descriptor keeps it)%s",
				   img->path, where);
	if (*img->compile_opts || *img->link_opts)
		return obj_set_err(err, "%s: the blob form has no place for %s options (-form=descriptor keeps them)%s",
				   img->path,
				   *img->compile_opts ? "compile" : "link", where);
	for (i = 0; img->props && i < img->props->nsets; i++) {
		struct quote q;
		const char *name = img->props->sets[i].name;

		/* LLVM's own strings ("triple", "arch", ...) have no '/'. */
		if (!strchr(name, '/'))
			return obj_set_err(err, "%s: property set '%s': the blob form names a set's string by the set, which needs a '/' (as in SYCL/...) to be told from LLVM's strings%s",
					   img->path,
					   quote_text(&q, name, strlen(name)),
					   where);
	}
	return 0;
}

/* The set's .props text without its "[name]" line, NUL-terminated. */
static int set_text(const struct wrap_image *img, const struct props_set *s,
		    char **out, size_t *len, struct errmsg *err)
{
	struct quote q;
	FILE *f;
	int r;

	*out = NULL;
	*len = 0;
	f = open_memstream(out, len);
	if (!f)
		return obj_set_err(err, "%s: %s", img->path, strerror(errno));
	r = props_write_set_text(s, f);
	if (fclose(f) && !r)
		r = -ENOMEM;
	if (!r)
		return 0;
	free(*out);
	*out = NULL;
	if (r == -EINVAL)
		return obj_set_err(err, "%s: property set '%s': not writable as .props text (a property name empty, with '=' or a line end, or twice; a type other than 1 or 2)%s",
				   img->path,
				   quote_text(&q, s->name, strlen(s->name)),
				   where_of(img));
	return obj_set_err(err, "%s: property set '%s': %s", img->path,
			   quote_text(&q, s->name, strlen(s->name)),
			   strerror(-r));
}

static int add_symbols(const struct wrap_image *img, struct blob_image *bi,
		       struct offload_string *str, struct errmsg *err)
{
	struct errmsg serr = { 0 };
	size_t len;
	int r;

	r = offload_symbols_encode((const char *const *)img->entries.names,
				   img->entries.n, &bi->symbols, &len, &serr);
	if (r)
		return obj_set_err(err, "%s: %s%s", img->entries_path ?
				   img->entries_path : img->path, serr.msg,
				   where_of(img));
	*str = (struct offload_string){ "symbols", (const char *)bi->symbols,
					len };
	return 0;
}

/* Image img's strings and its entry of the blob. */
static int build_image(const struct wrap_image *img, struct blob_image *bi,
		       struct offload_image_in *in, struct errmsg *err)
{
	size_t nsets = img->props ? img->props->nsets : 0, i, len;
	struct offload_string *s;

	if (check_image(img, err))
		return -1;
	bi->strings = calloc(3 + nsets, sizeof(*bi->strings));
	bi->texts = calloc(nsets ? nsets : 1, sizeof(*bi->texts));
	if (!bi->strings || !bi->texts)
		return obj_set_err(err, "%s: %s", img->path, strerror(ENOMEM));
	s = bi->strings;
	s[bi->nstrings++] = (struct offload_string){ "triple", img->target,
						     strlen(img->target) };
	s[bi->nstrings++] = (struct offload_string){ "arch", img->arch,
						     strlen(img->arch) };
	if (img->has_entries &&
	    add_symbols(img, bi, &s[bi->nstrings++], err))
		return -1;
	for (i = 0; i < nsets; i++) {
		const struct props_set *set = &img->props->sets[i];

		if (set_text(img, set, &bi->texts[i], &len, err))
			return -1;
		bi->ntexts++;
		s[bi->nstrings++] = (struct offload_string){ set->name,
							     bi->texts[i],
							     len };
	}
	*in = (struct offload_image_in){
		.image_kind = image_kind_of(img),
		.offload_kind = OFFLOAD_KIND_SYCL,
		.image_size = img->size,
		.strings = bi->strings,
		.nstrings = bi->nstrings,
	};
	return 0;
}

static int build_blob(struct blob_obj *b, struct errmsg *err,
		      const char *out_name)
{
	struct errmsg berr = { 0 };
	size_t n = b->set->nimages, i;
	int r;

	b->imgs = calloc(n, sizeof(*b->imgs));
	b->in = calloc(n, sizeof(*b->in));
	b->img_off = calloc(n, sizeof(*b->img_off));
	if (!b->imgs || !b->in || !b->img_off)
		return obj_set_err(err, "%s: %s", out_name, strerror(ENOMEM));
	for (i = 0; i < n; i++)
		if (build_image(&b->set->images[i], &b->imgs[i], &b->in[i],
				err))
			return -1;
	r = offload_binary_write_head(b->in, n, BLOB_VERSION, &b->head,
				      &b->head_size, b->img_off,
				      &b->blob_size, &berr);
	if (r)
		return obj_set_err(err, "%s: %s", out_name, berr.msg);
	return 0;
}

/* ---- code, symbols, sections ---- */

/* Constructor at 0, destructor at blob_stub_align: (blob, size). */
static int build_text(struct blob_obj *b)
{
	const struct wrap_machine *m = b->mach;
	size_t off, k;
	unsigned j;
	int r;

	for (k = 0; k < 2; k++) {
		size_t end = b->text.len;

		r = obj_buf_add(&b->text, m->blob_stub, m->blob_stub_size,
				m->blob_stub_align, &off);
		if (r)
			return r;
		memset(b->text.p + end, m->text_fill, off - end);
		m->blob_stub_put_size(b->text.p + off, b->blob_size);
		for (j = 0; j < m->nblob_stub_relocs; j++) {
			const struct wrap_stub_reloc *s;
			uint32_t sym;

			s = &m->blob_stub_relocs[j];
			sym = s->target == WRAP_STUB_DESCRIPTOR ?
			      b->sym_blob_sec : b->sym_callee + k;

			r = obj_rels_add(&b->text_rels, off + s->offset,
					 s->type, sym, s->addend);
			if (r)
				return r;
		}
	}
	r = obj_rels_add(&b->init_rels, 0, m->r_abs64, b->sym_text_sec, 0);
	if (!r)
		r = obj_rels_add(&b->fini_rels, 0, m->r_abs64,
				 b->sym_text_sec, m->blob_stub_align);
	return r;
}

static void number_symbols(struct blob_obj *b)
{
	uint32_t s = 1;

	if (b->has_blob)
		b->sym_blob_sec = s++;
	if (b->reg)
		b->sym_text_sec = s++;
	if (b->has_blob)
		b->sym_blob = s++;
	if (b->reg) {
		b->sym_register = s;
		s += 2;
	}
	b->first_global = s;
	if (b->reg) {
		b->sym_callee = s;
		s += 2;
	}
	b->nsyms = s;
}

static int build_strtab(struct blob_obj *b)
{
	static const char *const names[BNAME_COUNT] = {
		[BNAME_BLOB] = "__devimg_blob",
		[BNAME_REGISTER] = "__devimg_register",
		[BNAME_UNREGISTER] = "__devimg_unregister",
		[BNAME_SYCL_REGISTER] = "__sycl_register_lib",
		[BNAME_SYCL_UNREGISTER] = "__sycl_unregister_lib",
	};
	size_t off, i;
	int r;

	r = obj_buf_add(&b->strtab, "", 1, 1, &off);
	for (i = 0; !r && i < BNAME_COUNT; i++) {
		/* Only the names of the symbols the object has. */
		if (i == BNAME_BLOB ? !b->has_blob : !b->reg)
			continue;
		r = obj_buf_str(&b->strtab, names[i], &off);
		b->names[i] = off;
	}
	return r;
}

static void describe_sections(struct blob_obj *b)
{
	struct sec *s = b->secs;

	obj_sec_set(&s[BSEC_TEXT], DEVIMG_SECTION_TEXT, SHT_PROGBITS,
		    SHF_ALLOC | SHF_EXECINSTR, b->mach->blob_stub_align);
	obj_sec_data(&s[BSEC_TEXT], b->text.p, b->text.len);
	obj_sec_rela(&s[BSEC_RELA_TEXT], ".rela" DEVIMG_SECTION_TEXT,
		     BSEC_SYMTAB, BSEC_TEXT, &b->text_rels);
	obj_sec_set(&s[BSEC_INIT], ".init_array.1", SHT_INIT_ARRAY,
		    SHF_ALLOC | SHF_WRITE, 8);
	obj_sec_data(&s[BSEC_INIT], &b->init_word, 8);
	obj_sec_rela(&s[BSEC_RELA_INIT], ".rela.init_array.1", BSEC_SYMTAB,
		     BSEC_INIT, &b->init_rels);
	obj_sec_set(&s[BSEC_FINI], ".fini_array.1", SHT_FINI_ARRAY,
		    SHF_ALLOC | SHF_WRITE, 8);
	obj_sec_data(&s[BSEC_FINI], &b->fini_word, 8);
	obj_sec_rela(&s[BSEC_RELA_FINI], ".rela.fini_array.1", BSEC_SYMTAB,
		     BSEC_FINI, &b->fini_rels);
	s[BSEC_INIT].entsize = s[BSEC_FINI].entsize = 8;
	s[BSEC_INIT].dtype = s[BSEC_FINI].dtype = ELF_T_ADDR;
	s[BSEC_TEXT].omit = s[BSEC_INIT].omit = s[BSEC_FINI].omit = !b->reg;
	obj_sec_set(&s[BSEC_NOTE_STACK], ".note.GNU-stack", SHT_PROGBITS, 0,
		    1);
	obj_sec_set(&s[BSEC_SYMTAB], ".symtab", SHT_SYMTAB, 0, 8);
	s[BSEC_SYMTAB].entsize = sizeof(Elf64_Sym);
	s[BSEC_SYMTAB].link = BSEC_STRTAB;
	s[BSEC_SYMTAB].info = b->first_global;
	s[BSEC_SYMTAB].size = b->nsyms * sizeof(Elf64_Sym);
	s[BSEC_SYMTAB].dtype = ELF_T_SYM;
	obj_sec_set(&s[BSEC_STRTAB], ".strtab", SHT_STRTAB, 0, 1);
	obj_sec_data(&s[BSEC_STRTAB], b->strtab.p, b->strtab.len);
	obj_sec_set(&s[BSEC_SHSTRTAB], ".shstrtab", SHT_STRTAB, 0, 1);
	/* Its bytes are copied in after libelf wrote the rest. */
	obj_sec_set(&s[BSEC_BLOB], BLOB_SECTION, SHT_LLVM_OFFLOADING,
		    SHF_ALLOC, BLOB_ALIGN);
	s[BSEC_BLOB].size = b->blob_size;
	s[BSEC_BLOB].omit = !b->has_blob;
}

static int name_sections(struct blob_obj *b)
{
	size_t i, off;
	int r;

	r = obj_buf_add(&b->shstrtab, "", 1, 1, &off);
	for (i = 1; !r && i < BSEC_COUNT; i++) {
		r = obj_buf_str(&b->shstrtab, b->secs[i].name, &off);
		b->secs[i].name_off = off;
	}
	if (!r)
		obj_sec_data(&b->secs[BSEC_SHSTRTAB], b->shstrtab.p,
			     b->shstrtab.len);
	return r;
}

static int fill_symtab(const struct blob_obj *b, Elf_Data *data)
{
	const size_t *p = b->file.phys;
	const struct wrap_machine *m = b->mach;
	int r;

	r = obj_fill_symbol(data, 0, 0, STB_LOCAL, STT_NOTYPE, SHN_UNDEF, 0,
			    0);
	if (b->has_blob) {
		r |= obj_fill_symbol(data, b->sym_blob_sec, 0, STB_LOCAL,
				     STT_SECTION, p[BSEC_BLOB], 0, 0);
		r |= obj_fill_symbol(data, b->sym_blob, b->names[BNAME_BLOB],
				     STB_LOCAL, STT_OBJECT, p[BSEC_BLOB], 0,
				     b->blob_size);
	}
	if (!b->reg)
		return r ? -1 : 0;
	r |= obj_fill_symbol(data, b->sym_text_sec, 0, STB_LOCAL, STT_SECTION,
			     p[BSEC_TEXT], 0, 0);
	r |= obj_fill_symbol(data, b->sym_register, b->names[BNAME_REGISTER],
			     STB_LOCAL, STT_FUNC, p[BSEC_TEXT], 0,
			     m->blob_stub_size);
	r |= obj_fill_symbol(data, b->sym_register + 1,
			     b->names[BNAME_UNREGISTER], STB_LOCAL, STT_FUNC,
			     p[BSEC_TEXT], m->blob_stub_align,
			     m->blob_stub_size);
	r |= obj_fill_symbol(data, b->sym_callee,
			     b->names[BNAME_SYCL_REGISTER], STB_GLOBAL,
			     STT_NOTYPE, SHN_UNDEF, 0, 0);
	r |= obj_fill_symbol(data, b->sym_callee + 1,
			     b->names[BNAME_SYCL_UNREGISTER], STB_GLOBAL,
			     STT_NOTYPE, SHN_UNDEF, 0, 0);
	return r ? -1 : 0;
}

static int fill_table(const void *form, size_t idx, Elf_Data *data)
{
	const struct blob_obj *b = form;

	switch (idx) {
	case BSEC_SYMTAB:
		return fill_symtab(b, data);
	case BSEC_RELA_TEXT:
		return obj_fill_rela(&b->text_rels, data);
	case BSEC_RELA_INIT:
		return obj_fill_rela(&b->init_rels, data);
	default:
		return obj_fill_rela(&b->fini_rels, data);
	}
}

static int build_layout(struct blob_obj *b, struct errmsg *err,
			const char *out_name)
{
	int r = 0;

	b->has_blob = b->set->nimages != 0;
	b->reg = b->has_blob && !b->set->no_reg_funcs;
	if (b->has_blob && build_blob(b, err, out_name))
		return -1;
	number_symbols(b);
	if (b->reg)
		r = build_text(b);
	if (!r)
		r = build_strtab(b);
	if (!r) {
		describe_sections(b);
		r = name_sections(b);
	}
	b->file = (struct obj_file){
		.mach = b->mach,
		.secs = b->secs,
		.nsecs = BSEC_COUNT,
		.shstrtab = BSEC_SHSTRTAB,
		.fill_table = fill_table,
		.form = b,
	};
	if (!r)
		r = obj_number_file(&b->file);
	if (!r)
		r = obj_place_file(&b->file);
	if (r)
		return obj_set_err(err, "%s: %s", out_name,
				   strerror(r == -EFBIG ? EFBIG : -r));
	return 0;
}

/* ---- writing ---- */

static int copy_blob(const struct blob_obj *b, int fd, struct errmsg *err,
		     const char *out_name)
{
	uint64_t at = b->secs[BSEC_BLOB].offset;
	size_t i;

	if (obj_write_at(fd, b->head, b->head_size, at, "OffloadBinary", err,
			 out_name))
		return -1;
	for (i = 0; i < b->set->nimages; i++)
		if (obj_copy_image(&b->set->images[i], fd, at + b->img_off[i],
				   err, out_name))
			return -1;
	return 0;
}

static const char *image_kind_name(uint16_t kind)
{
	const char *s = offload_image_kind_name(kind);

	return *s ? s : "none";
}

static void print_summary(const struct blob_obj *b, FILE *f,
			  const char *out_name)
{
	size_t i;

	fprintf(f, "devimg-wrap: %s: ELF64 relocatable for %s, %zu image(s) in one OffloadBinary, %llu bytes\n",
		out_name, b->mach->name, b->set->nimages,
		(unsigned long long)b->file.total);
	if (!b->has_blob)
		return;
	fprintf(f, "  %s  offset 0x%llx  OffloadBinary version %u, %zu bytes\n",
		BLOB_SECTION, (unsigned long long)b->secs[BSEC_BLOB].offset,
		BLOB_VERSION, b->blob_size);
	for (i = 0; i < b->set->nimages; i++) {
		const struct wrap_image *img = &b->set->images[i];

		fprintf(f, "    image %zu at +0x%llx  %llu bytes from %s: kind %s, triple '%s', arch '%s', %zu entries%s, %zu property sets\n",
			i, (unsigned long long)b->img_off[i],
			(unsigned long long)img->size, img->path,
			image_kind_name(b->in[i].image_kind), img->target,
			img->arch,
			img->has_entries ? img->entries.n : 0,
			img->has_entries ? "" : " (none given)",
			img->props ? img->props->nsets : 0);
	}
	if (b->reg)
		fprintf(f, "  %s  constructor and destructor, %zu bytes\n",
			DEVIMG_SECTION_TEXT, b->text.len);
}

static void blob_obj_fini(struct blob_obj *b)
{
	size_t i, j;

	for (i = 0; b->imgs && i < b->set->nimages; i++) {
		for (j = 0; j < b->imgs[i].ntexts; j++)
			free(b->imgs[i].texts[j]);
		free(b->imgs[i].texts);
		free(b->imgs[i].strings);
		free(b->imgs[i].symbols);
	}
	free(b->imgs);
	free(b->in);
	free(b->img_off);
	free(b->head);
	free(b->text.p);
	free(b->strtab.p);
	free(b->shstrtab.p);
	free(b->text_rels.r);
	free(b->init_rels.r);
	free(b->fini_rels.r);
	free(b->file.phys);
}

int obj_write_blob(const struct wrap_set *set, int fd, const char *out_name,
		   FILE *verbose, struct errmsg *err)
{
	struct blob_obj b = { .set = set, .mach = set->mach };
	int r = -1;

	if (build_layout(&b, err, out_name))
		goto out;
	if (obj_reserve_space(fd, b.file.total, err, out_name))
		goto out;
	if (obj_emit_elf(&b.file, fd, err, out_name))
		goto out;
	if (b.has_blob && copy_blob(&b, fd, err, out_name))
		goto out;
	if (verbose)
		print_summary(&b, verbose, out_name);
	r = 0;
out:
	blob_obj_fini(&b);
	return r;
}
