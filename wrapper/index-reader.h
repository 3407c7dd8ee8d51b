/* SPDX-License-Identifier: MIT */
/*
 * Reader of the device images that devimg-wrap embeds (wrapper/index.h), in
 * any ELF64 file that carries them: relocatable objects, executables (PIE or
 * not), shared libraries, also after strip. Nothing is run and nothing of
 * the binary descriptor is followed: every fact comes from the ".devimg"
 * index blobs, and image bytes from the files' own sections.
 *
 * The core works on a buffer in memory, so that it can be fuzzed; the file
 * variant maps the file and calls it.
 *
 * Error contract: the open functions return 0 and a complete, validated
 * model in *out, or a negative errno value (-EINVAL malformed or
 * unsupported input, -ENOMEM, or the errno of a failed system call) with
 * *out untouched and one line "<fname>: <section or field>: <reason>",
 * escaped, in err (truncated when longer). Every offset, count and size of
 * the input is checked before use; every string of the model is
 * NUL-terminated.
 */
#ifndef DEVIMG_WRAPPER_READER_H
#define DEVIMG_WRAPPER_READER_H

#include <stddef.h>
#include <stdint.h>

#include "props/props.h"
#include "util/errmsg.h"
#include "util/input.h"

struct devimg_prop {
	const char *name;
	uint32_t type;		/* enum devimg_property_type, or any value seen */
	uint64_t size;		/* property.size of the descriptor */
	/* BYTE_ARRAY: the bit-count header and payload; STRING: NUL-terminated */
	const unsigned char *value;
	const unsigned char *payload;	/* BYTE_ARRAY: after the header */
	uint64_t nbits;			/* BYTE_ARRAY: the header's bit count */
	/* Byte arrays of the spec-constant set: their {id, offset, size}. */
	struct props_spec_const *spec;
};

struct devimg_propset {
	const char *name;
	struct devimg_prop *props;
	size_t nprops;
};

struct reader_image {
	unsigned index;		/* counts images across the file */
	uint16_t version;
	uint8_t kind;
	uint8_t format;
	const char *target;
	const char *compile_opts;
	const char *link_opts;
	const char *manifest;	/* NULL when none; manifest_size bytes */
	size_t manifest_size;
	const unsigned char *bin;	/* bin_size bytes, inside the file */
	uint64_t bin_size;
	uint64_t bin_offset;		/* file offset of bin */
	const char **entries;
	size_t nentries;
	struct devimg_propset *propsets;
	size_t npropsets;
	/*
	 * Where devimg-dump found the image: NULL for the .devimg index (all
	 * this reader reads), else "descriptor" or "offload-binary", with the
	 * section and the offset in it of the descriptor or blob.
	 */
	const char *found;
	const char *found_section;
	uint64_t found_offset;
};

struct devimg_elf;

struct devimg_file {
	const char *fname;	/* as given to open */
	struct reader_image *images;
	size_t nimages;
	struct devimg_elf *elf;	/* private: owns what the model points to */
};

/*
 * Read buf (size bytes), which must stay valid and unchanged until
 * devimg_reader_close(); fname names it in errors and is borrowed too.
 * A file without a ".devimg" section is no error: it has no images.
 */
int devimg_reader_open_mem(const void *buf, size_t size, const char *fname,
			   struct devimg_file **out, struct errmsg *err);
/*
 * Map an input as input_open() accepts it (a regular file, at most
 * DEVIMG_LIMIT_OBJECT_FILE bytes, never blocking on a FIFO or device):
 * *map NULL and *size 0 for an empty file. 0 or -errno with err set.
 */
int devimg_reader_map(const char *path, void **map, size_t *size,
		      struct errmsg *err);
/* Map path (devimg_reader_map()) and read it (devimg_reader_open_mem()). */
int devimg_reader_open(const char *path, struct devimg_file **out,
		       struct errmsg *err);
void devimg_reader_close(struct devimg_file *f);

/*
 * Build the same view of property sets from a parsed .props file (for
 * devimg-dump --props): validates byte arrays and decodes spec-constant
 * descriptors as the ELF reader does. The view borrows names and values
 * from p. Errors as above, fname naming the file.
 */
int devimg_propsets_from_props(const struct props *p, const char *fname,
			       struct devimg_propset **out, size_t *nout,
			       struct errmsg *err);
void devimg_propsets_free(struct devimg_propset *sets, size_t n);

#endif
