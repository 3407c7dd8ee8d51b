/* SPDX-License-Identifier: MIT */
/*
 * devimg-dump's view of LLVM offloading containers: SYCLBIN files (in each
 * form DPC++'s runtime reads, props/syclbin.h), bare OffloadBinary files,
 * and the OffloadBinary blobs of an ELF file's SHT_LLVM_OFFLOADING
 * (".llvm.offloading") sections, listed as llvm-objdump --offloading lists
 * them; those of allocated sections, which a constructor hands to
 * __sycl_register_lib(), also as the images libdevimg registers. An
 * allocated section without the OffloadBinary magic holds raw images (a
 * descriptor's, dump-descriptor.h) and is no blob.
 *
 * A SYCLBIN shows as the images DPC++'s runtime makes of it, in its order
 * (each abstract module's IR modules, then its native images): kind sycl,
 * IR modules format spirv target spir64, native images format native with
 * the first component of their target triple; entries are the module's
 * "SYCL/kernel names"; property sets the module's metadata in file order.
 *
 * Errors: one line "<file>: <field>: <reason>" in err, a negative errno.
 */
#ifndef DEVIMG_WRAPPER_DUMP_OFFLOAD_H
#define DEVIMG_WRAPPER_DUMP_OFFLOAD_H

#include <stdio.h>

#include "util/errmsg.h"
#include "wrapper/json.h"
#include "wrapper/index-reader.h"

struct dump_container;

/*
 * Open path when it is a SYCLBIN or an OffloadBinary file: 1 and *out;
 * 0 when it is neither (nothing opened); or a negative errno.
 */
int dump_container_open(const char *path, struct dump_container **out,
			struct errmsg *err);
/*
 * The OffloadBinary blobs of the SHT_LLVM_OFFLOADING sections of the ELF
 * file path: 0 with *out NULL when it has none (or is no ELF file), 0 and
 * *out, or a negative errno for a malformed section or blob.
 */
int dump_offloading_open(const char *path, struct dump_container **out,
			 struct errmsg *err);
void dump_container_close(struct dump_container *c);

/* The SYCLBIN's images as devimg-dump shows an object's; NULL if none. */
const struct devimg_file *dump_container_images(const struct dump_container *c);
/* The OffloadBinary entries as images, for --extract; NULL if none. */
const struct devimg_file *dump_container_entries(const struct dump_container *c);
/*
 * The images a constructor registers from the blobs of the file's
 * allocated SHT_LLVM_OFFLOADING sections that are not SHF_EXCLUDE, as
 * libdevimg makes them (loader/registry/blob.c): one per SYCL entry that
 * is not metadata, version 3, kind sycl, the format of its image kind,
 * target its "triple", entries its decoded "symbols", found
 * "offload-binary"; NULL if none.
 */
const struct devimg_file *
dump_container_registered(const struct dump_container *c);
/*
 * Problem i of what was listed but does not read (a "symbols" string that
 * does not decode, a blob that libdevimg refuses as a whole): one line
 * "<file>: <where>: <reason>", escaped; NULL past the last one.
 */
const char *dump_container_problem(const struct dump_container *c, size_t i);

/*
 * Text: a SYCLBIN line, then "OFFLOADING IMAGE [i]:" blocks: llvm-objdump
 * --offloading's lines (LLVM 23's, "image size" included), then the
 * decoded "symbols" of entries that have that string.
 */
void dump_container_text(FILE *f, const struct dump_container *c);
/* JSON: members "syclbin" and "offloading" of the file's object. */
void dump_container_json(struct json_writer *w, const struct dump_container *c);

#endif
