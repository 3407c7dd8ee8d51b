// SPDX-License-Identifier: MIT
/* The LLVMOMPOFFLOAD notes of -add-omp-offload-notes (ompnotes.h). */
#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wrapper/ompnotes.h"

struct elf_view {
	int is64;
	int msb;
	uint64_t shoff;
	uint64_t shnum;
	uint64_t shentsize;
	uint64_t shstrndx;
};

static uint64_t get(const unsigned char *p, unsigned n, int msb)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[msb ? n - 1 - i : i] << (8 * i);
	return v;
}

static void put(unsigned char *p, unsigned n, int msb, uint64_t v)
{
	unsigned i;

	for (i = 0; i < n; i++)
		p[msb ? n - 1 - i : i] = (v >> (8 * i)) & 0xff;
}

static int why_not(char *why, size_t size, const char *what)
{
	snprintf(why, size, "%s", what);
	return 1;
}

/* Fields of a section header: the offset and width of each, per class. */
enum { SH_NAME, SH_TYPE, SH_OFFSET, SH_SIZE, SH_ALIGN };

static unsigned sh_at(const struct elf_view *e, unsigned f, unsigned *w)
{
	static const unsigned off64[] = { 0, 4, 24, 32, 48 };
	static const unsigned off32[] = { 0, 4, 16, 20, 32 };

	*w = (f == SH_NAME || f == SH_TYPE || !e->is64) ? 4 : 8;
	return e->is64 ? off64[f] : off32[f];
}

static uint64_t sh_get(const struct elf_view *e, const unsigned char *sh,
		       unsigned f)
{
	unsigned w, at = sh_at(e, f, &w);

	return get(sh + at, w, e->msb);
}

static void sh_put(const struct elf_view *e, unsigned char *sh, unsigned f,
		   uint64_t v)
{
	unsigned w, at = sh_at(e, f, &w);

	put(sh + at, w, e->msb, v);
}

static int read_header(const unsigned char *in, size_t len,
		       struct elf_view *e, char *why, size_t why_size)
{
	const unsigned char *h = in;
	uint64_t table;

	if (len < EI_NIDENT || memcmp(h, ELFMAG, SELFMAG))
		return why_not(why, why_size, "is not an ELF image");
	if ((h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64) ||
	    (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB))
		return why_not(why, why_size,
			       "is an ELF image of unrecognized format");
	e->is64 = h[EI_CLASS] == ELFCLASS64;
	e->msb = h[EI_DATA] == ELFDATA2MSB;
	if (len < (e->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return why_not(why, why_size, "is not an ELF image (truncated header)");
#define EHDR(cls, f) (h + offsetof(cls, f))
	if (e->is64) {
		e->shoff = get(EHDR(Elf64_Ehdr, e_shoff), 8, e->msb);
		e->shentsize = get(EHDR(Elf64_Ehdr, e_shentsize), 2, e->msb);
		e->shnum = get(EHDR(Elf64_Ehdr, e_shnum), 2, e->msb);
		e->shstrndx = get(EHDR(Elf64_Ehdr, e_shstrndx), 2, e->msb);
	} else {
		e->shoff = get(EHDR(Elf32_Ehdr, e_shoff), 4, e->msb);
		e->shentsize = get(EHDR(Elf32_Ehdr, e_shentsize), 2, e->msb);
		e->shnum = get(EHDR(Elf32_Ehdr, e_shnum), 2, e->msb);
		e->shstrndx = get(EHDR(Elf32_Ehdr, e_shstrndx), 2, e->msb);
	}
#undef EHDR
	if (e->shentsize != (e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return why_not(why, why_size, "has no section headers of the usual size");
	if (!e->shoff || !e->shnum || e->shnum >= SHN_LORESERVE - 1 ||
	    e->shstrndx == SHN_UNDEF || e->shstrndx >= e->shnum)
		return why_not(why, why_size, "has no section name table that notes can be added to");
	table = e->shnum * e->shentsize;
	if (e->shoff > len || table > len - e->shoff)
		return why_not(why, why_size, "is not an ELF image (section headers past its end)");
	return 0;
}

/* The three notes, in the image's byte order; their size when out is NULL. */
static size_t put_notes(const struct elf_view *e, unsigned char *out,
			const char *producer, const char *version)
{
	const char *desc[3] = { OMP_NOTES_IMAGE_VERSION, producer, version };
	size_t name = sizeof(OMP_NOTES_NAME), off = 0;
	unsigned i;

	for (i = 0; i < 3; i++) {
		size_t d = strlen(desc[i]);

		if (out) {
			put(out + off, 4, e->msb, name);
			put(out + off + 4, 4, e->msb, d);
			put(out + off + 8, 4, e->msb, i + 1);
			memcpy(out + off + 12, OMP_NOTES_NAME, name);
			memcpy(out + off + 12 + ((name + 3) & ~(size_t)3),
			       desc[i], d);
		}
		off += 12 + ((name + 3) & ~(size_t)3) + ((d + 3) & ~(size_t)3);
	}
	return off;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

int omp_notes_add(const unsigned char *in, size_t len, const char *producer,
		  const char *version, unsigned char **out, size_t *out_len,
		  char *why, size_t why_size)
{
	struct elf_view e;
	const unsigned char *strsh;
	uint64_t str_off, str_size, notes_at, names_at, table_at, total;
	size_t notes_size, sect_name = sizeof(OMP_NOTES_SECTION);
	unsigned char *o, *sh;
	int r;

	r = read_header(in, len, &e, why, why_size);
	if (r)
		return r;
	strsh = in + e.shoff + e.shstrndx * e.shentsize;
	str_off = sh_get(&e, strsh, SH_OFFSET);
	str_size = sh_get(&e, strsh, SH_SIZE);
	if (sh_get(&e, strsh, SH_TYPE) != SHT_STRTAB || str_off > len ||
	    str_size > len - str_off)
		return why_not(why, why_size, "is not an ELF image (bad section name table)");
	if (len > UINT64_MAX / 2 || str_size > UINT64_MAX / 4)
		return why_not(why, why_size, "is too large for notes");
	notes_size = put_notes(&e, NULL, producer, version);
	notes_at = align_up(len, 4);
	names_at = notes_at + notes_size;
	table_at = align_up(names_at + str_size + sect_name, e.is64 ? 8 : 4);
	total = table_at + (e.shnum + 1) * e.shentsize;
	if (total > SIZE_MAX || (!e.is64 && total > UINT32_MAX))
		return why_not(why, why_size, "is too large for notes");
	o = calloc(1, total);
	if (!o)
		return -1;
	memcpy(o, in, len);
	put_notes(&e, o + notes_at, producer, version);
	memcpy(o + names_at, in + str_off, str_size);
	memcpy(o + names_at + str_size, OMP_NOTES_SECTION, sect_name);
	memcpy(o + table_at, in + e.shoff, e.shnum * e.shentsize);

	sh = o + table_at + e.shstrndx * e.shentsize;
	sh_put(&e, sh, SH_OFFSET, names_at);
	sh_put(&e, sh, SH_SIZE, str_size + sect_name);
	sh = o + table_at + e.shnum * e.shentsize;
	sh_put(&e, sh, SH_NAME, str_size);
	sh_put(&e, sh, SH_TYPE, SHT_NOTE);
	sh_put(&e, sh, SH_OFFSET, notes_at);
	sh_put(&e, sh, SH_SIZE, notes_size);
	sh_put(&e, sh, SH_ALIGN, 4);

	if (e.is64) {
		put(o + offsetof(Elf64_Ehdr, e_shoff), 8, e.msb, table_at);
		put(o + offsetof(Elf64_Ehdr, e_shnum), 2, e.msb, e.shnum + 1);
	} else {
		put(o + offsetof(Elf32_Ehdr, e_shoff), 4, e.msb, table_at);
		put(o + offsetof(Elf32_Ehdr, e_shnum), 2, e.msb, e.shnum + 1);
	}
	*out = o;
	*out_len = total;
	return 0;
}
