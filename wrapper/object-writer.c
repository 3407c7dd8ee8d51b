// SPDX-License-Identifier: MIT
/*
 * devimg-wrap's ELF writer: wrap_write_object(), which lays the object
 * out, has libelf write it, copies the images in and says what it wrote.
 *
 * Everything but the image bytes (code, index blob, descriptor, symbols,
 * relocations, string tables) is built in memory and written by libelf with
 * ELF_F_LAYOUT: we place every section ourselves. Image sections get no
 * Elf_Data, so libelf writes nothing into their ranges (they stay holes of
 * the file it extends to its full size); each image file is then copied into
 * its range with copy_file_range(2), or pread/pwrite where the kernel or
 * file system cannot. Memory use follows the metadata, never the images.
 *
 * The writer's files, one job each (object-private.h is what they share):
 *   object-layout.c      the layout: counts, then every part built, placed
 *   object-descriptor.c  the descriptor and the index blob, .tgtimg
 *   object-ctors.c       constructors, destructors and their tables
 *   object-names.c       the string tables: symbol and section names
 *   object-sections.c    the section table, section numbers and offsets
 *   object-elf.c         libelf: the headers, data, symbols, relocations
 *   object-images.c      the file's space reserved, the image bytes copied
 *   object-buf.c         growable buffers and relocation lists
 *   object-error.c       the messages of failures
 *   object-set.c         the image set that the tools fill
 *   object-blob.c        the blob form (-form=blob): one OffloadBinary,
 *                        its own sections and symbols, written through
 *                        object-sections.c and object-elf.c
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>

#include "wrapper/index.h"
#include "wrapper/object-private.h"

static const char *format_name(uint8_t f)
{
	static const char *const names[] = { "none", "native", "spirv",
					     "llvmbc", "compressed" };

	return f < 5 ? names[f] : "?";
}

/* What -v says: the object, then each image's section and the metadata. */
static void print_summary(const struct layout *l, FILE *f,
			  const char *out_name)
{
	size_t i;

	fprintf(f, "devimg-wrap: %s: ELF64 relocatable for %s, %zu image(s), %llu bytes\n",
		out_name, l->mach->name, l->set->nimages,
		(unsigned long long)l->file.total);
	for (i = 0; i < l->set->nimages; i++) {
		const struct wrap_image *img = &l->set->images[i];
		const struct sec *s = &l->file.secs[SEC_IMAGE0 + i];

		fprintf(f, "  %s  offset 0x%llx  %llu bytes  from %s: format %s, target '%s', %zu entries%s, %zu property sets%s\n",
			(const char *)l->shstrtab.p + s->name_off,
			(unsigned long long)s->offset,
			(unsigned long long)img->size, img->path,
			format_name(img->format), img->target,
			img->has_entries ? img->entries.n : 0,
			img->has_entries ? "" : " (none given)",
			img->props ? img->props->nsets : 0,
			img->has_manifest ? ", manifest" : "");
	}
	fprintf(f, "  %s  index blob, %zu bytes\n", DEVIMG_SECTION_INDEX,
		l->index.len);
	fprintf(f, "  %s  descriptor, %zu bytes, %zu relocations\n",
		DEVIMG_SECTION_DESCRIPTOR, l->desc.len, l->desc_rels.n);
	fprintf(f, "  %s  constructor and destructor, %zu bytes\n",
		DEVIMG_SECTION_TEXT, l->text.len);
}

int wrap_write_object(const struct wrap_set *set, int fd,
		      const char *out_name, FILE *verbose,
		      struct errmsg *err)
{
	struct layout l = { .set = set, .mach = set->mach };
	int r = -1;

	if (set->mach->ei_data != ELFDATA2LSB) {
		obj_set_err(err, "%s: big-endian hosts are not supported",
			    out_name);
		goto out;
	}
	if (set->form == WRAP_FORM_BLOB)
		return obj_write_blob(set, fd, out_name, verbose, err);
	if (obj_build_layout(&l, err, out_name))
		goto out;
	if (obj_reserve_space(fd, l.file.total, err, out_name))
		goto out;
	if (obj_emit_elf(&l.file, fd, err, out_name))
		goto out;
	if (obj_copy_images(&l, fd, err, out_name))
		goto out;
	if (verbose)
		print_summary(&l, verbose, out_name);
	r = 0;
out:
	obj_layout_fini(&l);
	return r;
}
