/* SPDX-License-Identifier: MIT */
/*
 * Limits shared by devimg-wrap, devimg-dump and libdevimg, so that the
 * wrapper refuses what the loader would refuse at load time and the tools
 * bound every read. docs/limits.md says where each is enforced and why
 * its value.
 */
#ifndef DEVIMG_LIMITS_H
#define DEVIMG_LIMITS_H

#include <stdint.h>

/* Kernel entries of one image: beyond, the count comes from corruption. */
#define DEVIMG_LIMIT_ENTRIES (1u << 24)

/* Property sets of one image, and properties of one set. */
#define DEVIMG_LIMIT_PROPS (1u << 20)

/* One byte-array property value, its 8-byte bit-length header included. */
#define DEVIMG_LIMIT_BYTE_ARRAY ((uint64_t)1 << 32)

/*
 * All spec-constant values of one image together (the emulated buffer,
 * the defaults): OpenCL guarantees only 64 KiB of constant memory, and
 * every value is copied for each program built; 16 times that is room for
 * any real program and bounds what a descriptor makes the loader allocate.
 */
#define DEVIMG_LIMIT_SPEC_CONSTS (1u << 20)

/* Images in one wrapped object (ELF section indices stay below 0xff00). */
#define DEVIMG_LIMIT_IMAGES 65000u

/*
 * Bytes of one text input of the tools (.sym, .props, manifest, batch
 * table, devimg-dump --props), read whole into memory: room for a .sym
 * naming DEVIMG_LIMIT_ENTRIES kernels at 64 bytes a name; a larger file
 * is refused by its size before any of it is read.
 */
#define DEVIMG_LIMIT_TEXT_FILE ((uint64_t)1 << 30)

/*
 * Bytes of one device image file that devimg-wrap copies into an object
 * (copied, never held in memory): several times the largest fat binaries
 * of many GPU architectures; a larger or sparse runaway file is refused
 * by its size before anything is copied.
 */
#define DEVIMG_LIMIT_IMAGE_FILE ((uint64_t)1 << 34)

/*
 * Bytes of one compressed image once expanded (its zstd frame's content
 * size), which libdevimg and devimg-dump hold in memory: beyond the largest
 * real device images by far; a frame claiming more is taken as corrupt
 * before anything is allocated, and devimg-wrap compresses no larger image.
 */
#define DEVIMG_LIMIT_DECOMPRESSED ((uint64_t)1 << 32)

/*
 * Bytes expanded per compressed byte, at most: deflate's largest ratio
 * (258 bytes from about 2 bits). zstd's RLE blocks reach far beyond it,
 * but no real device image compresses so well, and with this bound no
 * input makes a reader allocate more than 1032 times its size (a 32 KB
 * frame declaring 1 GiB is refused before anything is allocated).
 */
#define DEVIMG_LIMIT_DECOMPRESS_RATIO 1032u

/*
 * Bytes a container's entries or modules reference (images, metadata,
 * strings), each part counted once for every entry or module that
 * references it, per byte of the container. Containers may share parts
 * (LLVM's string table merges equal strings), but whoever registers,
 * prints or builds them pays per reference: without the bound, 300
 * SYCLBIN modules naming one 2 MB metadata of 100,000 kernels registered
 * 30 million kernels. Real files reference each image once and share a
 * few short strings; 16 leaves room for 16 targets of one kernel list.
 */
#define DEVIMG_LIMIT_REFERENCE_RATIO 16u

/*
 * Bytes of one ELF file that devimg-dump maps (never reads whole): room
 * for a program and up to four images of DEVIMG_LIMIT_IMAGE_FILE.
 */
#define DEVIMG_LIMIT_OBJECT_FILE ((uint64_t)1 << 36)

#endif /* DEVIMG_LIMITS_H */
