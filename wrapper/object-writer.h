/* SPDX-License-Identifier: MIT */
/*
 * The ELF object writer of devimg-wrap.
 *
 * The caller describes the images (file names and sizes, not their bytes;
 * target, options, entries, property sets, manifest) and a machine; the
 * writer lays out an ELF64 relocatable object as wrapper/index.h describes,
 * writes everything but the image bytes with libelf, then copies each image
 * file into the range reserved for it. Memory use does not depend on the
 * size of the images.
 */
#ifndef DEVIMG_WRAPPER_WRITER_H
#define DEVIMG_WRAPPER_WRITER_H

#include <stdint.h>
#include <stdio.h>

#include "util/errmsg.h"

#include "util/devimg_limits.h"
#include "wrapper/machine.h"
#include "props/props.h"

struct wrap_image {
	char *path;		/* the image file */
	uint64_t size;		/* its size when it was checked */
	unsigned char *data;	/* non-NULL: these size bytes, not the file's */
	uint8_t kind;		/* enum devimg_offload_kind: SYCL images go
				   into the descriptor; HOST images are
				   carried as bytes only */
	uint8_t format;		/* enum devimg_image_format */
	char *target;		/* never NULL; "" when not given */
	char *arch;		/* never NULL; "" when not given: the blob
				   form's "arch" string, which no other form
				   has */
	char *compile_opts;
	char *link_opts;
	int has_manifest;
	unsigned char *manifest;
	size_t manifest_size;
	int has_entries;	/* 0: no -entries file (NULL range) */
	struct props_names entries;
	struct props *props;	/* NULL: no -properties file */
	/* For warnings (lint.h): where the image and its files came from. */
	char *where;		/* " (table:line)", or NULL */
	char *manifest_path;	/* NULL: no manifest file */
	char *entries_path;	/* NULL: none, or taken from elsewhere */
	int no_entries_asked;	/* -entries="" (or an empty cell) given */
};

/* What registers the images (devimg-wrap -form). */
enum wrap_form {
	WRAP_FORM_DESCRIPTOR,	/* DPC++'s binary descriptor, the index */
	WRAP_FORM_BLOB,		/* one OffloadBinary, LLVM's form */
};

struct wrap_set {
	const struct wrap_machine *mach;
	enum wrap_form form;
	uint16_t image_version;	/* device_image.version: 2, or 3 (80 bytes,
				   no manifest pointers); 0 means 2 */
	int no_reg_funcs;	/* no constructor, destructor or .tgtimg */
	const char *desc_name;	/* NULL, or the descriptor becomes the global
				   symbol ".sycl_offloading.<desc_name>" */
	struct wrap_image *images;
	size_t nimages;
	size_t cap;
};

/* The longest -arch name, in bytes (sm_90, gfx90a:xnack+: a few). */
#define WRAP_ARCH_MAX 64u

/* The most images one object can hold (limits.h). */
#define WRAP_MAX_IMAGES DEVIMG_LIMIT_IMAGES

/* Append a zeroed image; NULL on ENOMEM. */
struct wrap_image *wrap_set_add(struct wrap_set *set);
/* Free every image and its contents; the set itself is the caller's. */
void wrap_set_fini(struct wrap_set *set);

/*
 * Write the object to fd (an empty regular file opened for reading and
 * writing) in set->form; out_name only names it in messages. When
 * verbose is non-NULL, a summary of what was written goes there. Returns
 * 0, or -1 with err filled: a libelf failure (with elf_errmsg), an image
 * file that cannot be read or changed size since it was checked, a write
 * failure, or metadata too large for the index's 32-bit offsets; in the
 * blob form also an image the blob has no place for (not SYCL,
 * compressed, with a manifest or options) and a property set whose name
 * has no '/'.
 */
int wrap_write_object(const struct wrap_set *set, int fd,
		      const char *out_name, FILE *verbose,
		      struct errmsg *err);

#endif
