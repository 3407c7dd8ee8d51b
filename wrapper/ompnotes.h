/* SPDX-License-Identifier: MIT */
/*
 * -add-omp-offload-notes: the LLVMOMPOFFLOAD ELF notes that DPC++'s
 * clang-offload-wrapper adds to each OpenMP image before wrapping it.
 *
 * DPC++'s wrapper has llvm-objcopy add a section .note.openmp (SHT_NOTE)
 * holding three notes named "LLVMOMPOFFLOAD": type 1, the image version
 * "1.0"; type 2, the producer; type 3, the producer's version (descriptors
 * without a NUL, each part padded to 4 bytes, in the image's byte order).
 * We add the same section without llvm-objcopy: the image's bytes stay as
 * they are, and the notes, a grown copy of the section name table and a
 * section header table with one more entry follow them; the ELF header
 * then points to the new table. The producer is "devimg" and its version
 * this package's, as the notes say who wrote them.
 */
#ifndef DEVIMG_WRAPPER_OMPNOTES_H
#define DEVIMG_WRAPPER_OMPNOTES_H

#include <stddef.h>

#define OMP_NOTES_SECTION ".note.openmp"
#define OMP_NOTES_NAME "LLVMOMPOFFLOAD"
#define OMP_NOTES_IMAGE_VERSION "1.0"

/*
 * The image in in (len bytes) with the notes added: 0 and *out (malloc'd,
 * *out_len bytes); 1 when it cannot take them, why (a phrase that follows
 * the file name) in why: not an ELF file, or one whose section headers we
 * do not know how to extend; -1 when out of memory.
 */
int omp_notes_add(const unsigned char *in, size_t len, const char *producer,
		  const char *version, unsigned char **out, size_t *out_len,
		  char *why, size_t why_size);

#endif
