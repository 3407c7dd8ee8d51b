/* SPDX-License-Identifier: MIT */
/*
 * devimg-wrap --sym-prop-bc-files=TABLE: kernel names and property sets
 * taken from objects wrapped before, not from .sym and .props files.
 *
 * TABLE is a file table with a SymAndProps column; each row names an
 * object that devimg-wrap made (DPC++ names the bitcode its wrapper made;
 * devimg-wrap's output is an ELF object, read with wrapper/index-reader.h).
 * The images of those objects, in row order and in each object's order,
 * give their entries and property sets to the SYCL images of the set, in
 * order: the first SYCL image gets those of the first image listed, and
 * so on. DPC++'s FPGA flow wraps updated device code this way with the
 * metadata of an earlier link.
 */
#ifndef DEVIMG_WRAPPER_SYMPROP_H
#define DEVIMG_WRAPPER_SYMPROP_H

#include "util/errmsg.h"
#include "wrapper/object-writer.h"

/*
 * Replace the entries and property sets of set's SYCL images. Returns 0,
 * or -1 with one line in err: the table or an object cannot be read, the
 * table has no SymAndProps column, or the objects hold fewer images than
 * the set has SYCL images.
 */
int wrap_symprop_apply(struct wrap_set *set, const char *table,
		       struct errmsg *err);

#endif
