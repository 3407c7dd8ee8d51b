/* SPDX-License-Identifier: MIT */
/*
 * The kernel names of a SYCL OffloadBinary entry: its "symbols" string,
 * which LLVM's tools write in three ways (docs/formats.md, section 1):
 *
 *   table: clang-sycl-linker 23 (OffloadBinary version 2): u32 count, then
 *          per name {u32 offset from the string's start, u32 length
 *          without its NUL}, then the names, each NUL-ended; all
 *          little-endian;
 *   nul:   between LLVM 22 and 23: names joined by NUL, maybe NUL-ended;
 *   lines: clang-sycl-linker 22 (version 1): names joined by '\n'.
 *
 * Which one a string is comes from its structure alone:
 *
 *   1. empty, or all NULs: no names (form none);
 *   2. a table when it has at least 4 bytes and its count, offsets and
 *      lengths agree: the header (4 + 8 * count bytes) fits, each name
 *      lies after the header and inside the string, is not empty, holds
 *      no NUL and is followed by one, and the names' lengths together
 *      are at most twice the string's (names may share bytes, but a
 *      reader copies or prints each: its work stays linear);
 *   3. otherwise, a string whose first byte is below 0x20 (NUL included)
 *      claims to be a table and is not a consistent one: an error;
 *   4. otherwise text: split at '\n' and NUL both, empty names skipped;
 *      form lines when a '\n' occurs, else nul.
 *
 * A table with 32 names or more starts with a byte of 0x20 or more, so
 * rule 2 is tried before the first byte is looked at.
 */
#ifndef DEVIMG_OFFLOAD_SYMBOLS_H
#define DEVIMG_OFFLOAD_SYMBOLS_H

#include <stddef.h>

#include "props/props.h"

#ifdef __cplusplus
extern "C" {
#endif

enum offload_symbols_form {
	OFFLOAD_SYMBOLS_NONE,
	OFFLOAD_SYMBOLS_TABLE,
	OFFLOAD_SYMBOLS_LINES,
	OFFLOAD_SYMBOLS_NUL,
};

struct offload_symbols {
	/* n NUL-terminated names, in the string's order, owned by this. */
	const char **names;
	size_t n;
	enum offload_symbols_form form;
	/*
	 * Every names[i] points into text: a copy of the string with its
	 * separators ('\n' and NUL) made NULs and one NUL after it
	 * (text_size is the string's length + 1; NULL and 0 for form none).
	 * A caller keeping the names longer copies text once and moves each
	 * pointer by the same distance; names a table shares stay shared.
	 */
	const char *text;
	size_t text_size;
	void *mem;	/* private: names and text, one allocation */
};

/*
 * Decode the len bytes at s (need not be NUL-terminated) into *out, which
 * offload_symbols_fini() releases. Memory is O(len) whatever the string
 * claims: the count is checked against DEVIMG_LIMIT_ENTRIES and the
 * length before anything is allocated.
 *
 * Error contract (as props.h): 0 or a negative errno, and *out untouched
 * on failure, with one line in err (when non-NULL) naming where (what
 * holds the string, e.g. "a.o: OffloadBinary entry 1"; "<input>" when
 * NULL) and "symbols", the field (the count, name i's offset or length)
 * and the value seen against the one expected. -EINVAL: a string that claims to be a table
 * and is not a consistent one, or more than DEVIMG_LIMIT_ENTRIES names;
 * -EOVERFLOW: sizes that do not fit size_t; -ENOMEM.
 */
int offload_symbols_decode(const void *s, size_t len, const char *where,
			   struct offload_symbols *out,
			   struct errmsg *err);
/* Free what sy owns and zero it; NULL or a zeroed sy is fine. */
void offload_symbols_fini(struct offload_symbols *sy);
/*
 * The one block that holds sy's names and text, now the caller's to
 * free(); sy is zeroed. For a caller that keeps the names as they are.
 */
void *offload_symbols_release(struct offload_symbols *sy);

/*
 * The table form of n names (clang-sycl-linker 23's): u32 count, {u32
 * offset, u32 length} per name, then the names each with its NUL, into
 * *out (malloc'ed, *len bytes; 4 zero bytes for no names), which
 * offload_symbols_decode() reads back as the same names. -EINVAL (err
 * names the name by its index) for an empty name or more than
 * DEVIMG_LIMIT_ENTRIES names; -EOVERFLOW when an offset does not fit 32
 * bits; -ENOMEM.
 */
int offload_symbols_encode(const char *const *names, size_t n,
			   unsigned char **out, size_t *len,
			   struct errmsg *err);

/* "table", "lines", "nul", "none" (also for an unknown value). */
const char *offload_symbols_form_name(enum offload_symbols_form f);

#ifdef __cplusplus
}
#endif
#endif /* DEVIMG_OFFLOAD_SYMBOLS_H */
