/* SPDX-License-Identifier: MIT */
/*
 * devimg-dump's reading of binary descriptors (docs/formats.md, section 1)
 * without running anything: the descriptors that a constructor of an ELF
 * file would hand to __sycl_register_lib(), DPC++'s (images of version 1
 * or 2, 96 bytes, and 3, 80 bytes; 32-byte entries) and LLVM's (images of
 * version 3 with kind 8; 56-byte entries), found by their structure so that
 * stripped files, which have no symbols, are read too. Their images are
 * shown as libdevimg registers them (loader/registry/layout.c): kind 8 as
 * kind 4 with the devimg format of its LLVM image kind.
 *
 * The rule, also given in man/devimg-dump.1, is in dump-descriptor.c.
 *
 * Error contract: the open functions return 0 and *out (which may hold no
 * image: finding no descriptor is no error), or a negative errno with one
 * line "<file>: <where>: <reason>", escaped, in err: -E2BIG when the
 * file's structure repeats beyond the check budget (a small constant
 * number of checks per byte of the file), -EINVAL for section headers that
 * cannot be read or a property value of a found image that does not
 * decode, -ENOMEM.
 */
#ifndef DEVIMG_WRAPPER_DUMP_DESCRIPTOR_H
#define DEVIMG_WRAPPER_DUMP_DESCRIPTOR_H

#include <stddef.h>
#include <stdint.h>

#include "util/errmsg.h"
#include "wrapper/index-reader.h"

/* bin_offset of an image whose bytes are not in the file (inflated). */
#define DUMP_NOT_IN_FILE UINT64_MAX

struct dump_descriptors;

/*
 * Find the descriptors of the ELF file in buf (size bytes, kept valid and
 * unchanged until dump_descriptors_close()); fname names it in errors and
 * in the result. known holds the file offsets (sorted ascending) of the
 * image bytes listed already: an image whose bytes start at one of them,
 * or at those of an image found before it, is left out. Only 64-bit
 * little-endian files of x86-64 and aarch64 are searched; others, and
 * files that are no ELF file, have no descriptors.
 */
int dump_descriptors_open_mem(const void *buf, size_t size, const char *fname,
			      const uint64_t *known, size_t nknown,
			      struct dump_descriptors **out,
			      struct errmsg *err);
/* Map path (devimg_reader_map()) and read it as above. */
int dump_descriptors_open(const char *path, const uint64_t *known,
			  size_t nknown, struct dump_descriptors **out,
			  struct errmsg *err);
void dump_descriptors_close(struct dump_descriptors *d);

/* The images found, found = "descriptor", indices from 0. */
const struct devimg_file *
dump_descriptors_images(const struct dump_descriptors *d);

/*
 * keep[i] = 0 for each of the n images whose bytes start at a file offset
 * in known (sorted ascending) or at that of an image before it in imgs,
 * else 1. Images with bin_offset DUMP_NOT_IN_FILE are kept. 0 or -ENOMEM.
 */
int dump_images_unique(const struct reader_image *imgs, size_t n,
		       const uint64_t *known, size_t nknown,
		       unsigned char *keep);

#endif
