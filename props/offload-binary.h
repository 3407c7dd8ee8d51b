/* SPDX-License-Identifier: MIT */
/*
 * LLVM's OffloadBinary: the container clang's new offload driver embeds in
 * a host object's ".llvm.offloading" section (SHT_LLVM_OFFLOADING), and
 * the envelope DPC++ puts around a SYCLBIN. docs/formats.md
 * ("OffloadBinary") gives the byte layout of each version:
 *
 *   version 1: 32-byte header, one entry, 16-byte string entries whose
 *              values are NUL-terminated;
 *   version 2: 32-byte header, EntriesCount entries, 24-byte string
 *              entries with an explicit value size;
 *   version 3: 40-byte header adding InflatedSize; when it is not zero,
 *              everything after the header is zstd or zlib compressed
 *              (inflated into a copy the result owns).
 *
 * All numbers are little-endian; all offsets count from the start of the
 * blob. Several blobs may follow each other in one section, each starting
 * at a multiple of 8 bytes from the section's start.
 *
 * Error contract (as props.h): 0 or a negative errno; on failure err (when
 * non-NULL) holds one line naming the input and the field, the value seen
 * and what was expected, and nothing is allocated for the caller.
 * -EINVAL: malformed blob; -EOPNOTSUPP: a compressed blob whose library
 * (libzstd.so.1 or libz.so.1, loaded when needed) cannot be loaded;
 * -ENOMEM; -EOVERFLOW: sizes that do not fit size_t.
 */
#ifndef DEVIMG_OFFLOAD_BINARY_H
#define DEVIMG_OFFLOAD_BINARY_H

#include <stddef.h>
#include <stdint.h>

#include "props/props.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OFFLOAD_BINARY_MAGIC "\x10\xff\x10\xad"
#define OFFLOAD_BINARY_MAGIC_LEN 4u
/* Newest version read and the one written by default. */
#define OFFLOAD_BINARY_VERSION 3u
/* Blobs (and the images in them) start at multiples of this. */
#define OFFLOAD_BINARY_ALIGN 8u

/* What an entry's image holds (LLVM's ImageKind). */
enum offload_image_kind {
	OFFLOAD_IMAGE_NONE = 0,
	OFFLOAD_IMAGE_OBJECT = 1,	/* "o" */
	OFFLOAD_IMAGE_BITCODE = 2,	/* "bc" */
	OFFLOAD_IMAGE_CUBIN = 3,	/* "cubin" */
	OFFLOAD_IMAGE_FATBINARY = 4,	/* "fatbin" */
	OFFLOAD_IMAGE_PTX = 5,		/* "s" */
	OFFLOAD_IMAGE_SPIRV = 6,	/* "spv" */
};

/* Who produced an entry (LLVM's OffloadKind: one bit each). */
enum offload_kind {
	OFFLOAD_KIND_NONE = 0,
	OFFLOAD_KIND_OPENMP = 1 << 0,
	OFFLOAD_KIND_CUDA = 1 << 1,
	OFFLOAD_KIND_HIP = 1 << 2,
	OFFLOAD_KIND_SYCL = 1 << 3,
};

/* Entry flags. */
#define OFFLOAD_FLAG_METADATA 0x1u	/* the entry carries no image */

/*
 * One key/value of an entry's string map, each NUL-terminated; value_len
 * does not count that NUL (a version 2 or 3 value may hold NUL bytes of
 * its own). Parsed ones borrow from the blob (or from the inflated copy of
 * a compressed one), as the images do: a key where it lies, a value too
 * when a NUL follows it in the blob (LLVM's writer ends every string with
 * one), else a copy the binary owns. Entries with the same string map
 * (offset and count) share one array of them.
 */
struct offload_string {
	const char *key;
	const char *value;
	size_t value_len;
};

struct offload_key;

struct offload_entry {
	uint16_t image_kind;		/* enum offload_image_kind, as stored */
	uint16_t offload_kind;		/* enum offload_kind, as stored */
	uint32_t flags;
	const unsigned char *image;	/* image_size bytes inside the blob */
	size_t image_size;
	/* In first-seen key order; a repeated key keeps its last value. */
	struct offload_string *strings;
	size_t nstrings;
	/* Private: the keys by hash for offload_entry_string(), or NULL. */
	const struct offload_key *keys;
};

struct offload_binary {
	uint32_t version;
	/* Bytes of the blob as stored (its header's Size). */
	size_t size;
	struct offload_entry *entries;
	size_t nentries;
	/*
	 * Private: the inflated copy of a compressed blob (the entries point
	 * into it), or NULL; the strings of every map and their keys by hash;
	 * the copies of values without a NUL after them.
	 */
	unsigned char *owned;
	void *pool;
	char *copies;
};

/* 1 when buf starts with the OffloadBinary magic (len may be short). */
int offload_binary_is(const void *buf, size_t len);

/*
 * Parse the blob that starts at buf + *off (len counts from buf). The
 * result borrows from buf (keep it alive while using it). On success *off
 * moves past the blob, rounded up to OFFLOAD_BINARY_ALIGN (at most len), so
 * a section's blobs are read with
 *
 *	for (off = 0; off < len;) {
 *		if (offload_binary_parse_at(buf, len, &off, name, &ob, &err))
 *			...
 *		offload_binary_free(ob);
 *	}
 *
 * fname names the input in errors. Every offset and size is checked
 * against the blob: header Size within len, entries, string entries, keys
 * (NUL-terminated inside the blob), values and images inside it.
 *
 * Time and memory are linear in the blob (its inflated bytes when it is
 * compressed), whatever its entries share, overlap or repeat; what does
 * not fit is refused (-EINVAL) rather than read:
 *   - the string entries of all maps, a map shared whole by entries
 *     counted once, must fit in Size bytes;
 *   - copies of version 2 or 3 values without a NUL after them take at
 *     most Size bytes together;
 *   - keys of equal hash are told apart by at most Size bytes compared;
 *   - a compressed body inflates to at most DEVIMG_LIMIT_DECOMPRESSED.
 * The heap used while parsing peaks below 8 bytes per byte of Size
 * (docs/limits.md has the exact sum), plus the inflated copy.
 */
int offload_binary_parse_at(const void *buf, size_t len, size_t *off,
			    const char *fname, struct offload_binary **out,
			    struct errmsg *err);
/* The blob at the start of buf; bytes past its Size are ignored. */
int offload_binary_parse(const void *buf, size_t len, const char *fname,
			 struct offload_binary **out, struct errmsg *err);
void offload_binary_free(struct offload_binary *ob);

/*
 * Borrowed value of key in e (its length in *len when len is non-NULL):
 * O(log n) in e's strings for an entry the reader made.
 */
const char *offload_entry_string(const struct offload_entry *e,
				 const char *key, size_t *len);

/* LLVM's names: "o", "bc", "cubin", "fatbin", "s", "spv"; "" otherwise. */
const char *offload_image_kind_name(unsigned kind);
/* "openmp", "cuda", "hip", "sycl"; "none" otherwise. */
const char *offload_kind_name(unsigned kind);
/* The inverse of the two above; OFFLOAD_*_NONE for an unknown name. */
unsigned offload_image_kind_from_name(const char *name);
unsigned offload_kind_from_name(const char *name);

/* What the writer takes for one entry. Strings are written in order. */
struct offload_image_in {
	uint16_t image_kind;
	uint16_t offload_kind;
	uint32_t flags;
	const void *image;
	size_t image_size;
	const struct offload_string *strings;	/* value_len bytes each */
	size_t nstrings;
};

/*
 * Write n entries as one blob of the given version (1, 2 or 3; version 1
 * holds exactly one entry) into a malloc'ed buffer: header, entries,
 * string entries, a string table (a NUL, then each distinct key and value
 * with a NUL), zeros to a multiple of 8, the images back to back, zeros to
 * a multiple of 8. -EINVAL for n == 0, a bad version, a key with a NUL in
 * it or a version-1 value holding a NUL.
 */
int offload_binary_write(const struct offload_image_in *in, size_t n,
			 unsigned version, unsigned char **out, size_t *size,
			 struct errmsg *err);

/*
 * offload_binary_write() but for the image bytes, for a writer that puts
 * them in place itself: *head (malloc'ed) gets the blob's first
 * *head_size bytes, everything before the first image (header, entries,
 * string entries, string table, zeros to a multiple of 8); img_off[i] (n
 * of them) where entry i's image_size bytes go, the images back to back
 * from *head_size; *size the blob's Size (after the last image, zeros up
 * to it). in[i].image is not read. Errors as offload_binary_write().
 */
int offload_binary_write_head(const struct offload_image_in *in, size_t n,
			      unsigned version, unsigned char **head,
			      size_t *head_size, uint64_t *img_off,
			      size_t *size, struct errmsg *err);

#ifdef __cplusplus
}
#endif
#endif /* DEVIMG_OFFLOAD_BINARY_H */
