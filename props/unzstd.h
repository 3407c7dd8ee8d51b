/* SPDX-License-Identifier: MIT */
/*
 * The one zstd expander: libdevimg's compressed images (format 4),
 * devimg-dump's sizes and --extract, and compressed OffloadBinary bodies
 * all expand their frames here. A frame is trusted for nothing: it must
 * record its content size, that size bounds the buffer (and is itself
 * bounded by DEVIMG_LIMIT_DECOMPRESSED) and the expansion must fill the
 * buffer exactly.
 */
#ifndef DEVIMG_PROPS_UNZSTD_H
#define DEVIMG_PROPS_UNZSTD_H

#include <stddef.h>
#include <stdint.h>

/* What went wrong; each caller words its own message from it. */
enum props_unzstd_status {
	PROPS_UNZSTD_OK = 0,
	PROPS_UNZSTD_NO_LIBRARY,	/* libzstd.so.1 cannot be loaded */
	PROPS_UNZSTD_NO_SYMBOL,		/* it lacks a function we call */
	PROPS_UNZSTD_NOT_FRAME,		/* no zstd frame header */
	PROPS_UNZSTD_NO_SIZE,		/* the frame records no content size */
	PROPS_UNZSTD_OTHER_SIZE,	/* it records another size than want */
	PROPS_UNZSTD_TOO_BIG,		/* above props_unzstd_limit() */
	PROPS_UNZSTD_NO_MEMORY,
	PROPS_UNZSTD_CORRUPT,		/* libzstd refuses it: see detail */
	PROPS_UNZSTD_SHORT,		/* it expands to another size */
};

/* want: any content size (up to the limit) will do. */
#define PROPS_UNZSTD_ANY UINT64_MAX

/*
 * The most bytes n compressed bytes may expand to: DEVIMG_LIMIT_DECOMPRESSED,
 * and DEVIMG_LIMIT_DECOMPRESS_RATIO times n.
 */
uint64_t props_unzstd_limit(size_t n);

struct props_unzstd {
	/* Set by the caller. */
	size_t head;		/* bytes left free before the expanded ones */
	uint64_t want;		/* the content size required, or _ANY */
	/* Set by props_unzstd(), as far as it got. */
	unsigned long long declared;	/* the content size recorded */
	unsigned char *buf;	/* malloc'ed: head, size bytes, a NUL */
	size_t size;		/* bytes expanded (on _SHORT too) */
	const char *detail;	/* libzstd's error name on _CORRUPT */
};

/*
 * Load libzstd.so.1 if no call has tried yet: PROPS_UNZSTD_OK, or
 * _NO_LIBRARY or _NO_SYMBOL, the same answer for the life of the process.
 * The first call waits for the dynamic linker's load lock (dlopen), which
 * a constructor or destructor that registers images runs under: call it
 * holding no lock that registration or unregistration may wait for (the
 * registry's; docs/design.md, "Locks and the dynamic loader"). The two
 * functions below load the library themselves; after a call of this one
 * they no longer reach the dynamic linker, and may run under such a lock.
 */
int props_unzstd_load(void);

/*
 * The content size recorded in the frame header of the n bytes at src,
 * checked against the limit: PROPS_UNZSTD_OK and *size, or a status
 * (_NO_LIBRARY, _NO_SYMBOL, _NOT_FRAME, _NO_SIZE, _TOO_BIG).
 */
int props_unzstd_size(const void *src, size_t n, uint64_t *size);

/*
 * Expand the frame at src into z->buf (free() it) at offset z->head:
 * PROPS_UNZSTD_OK, z->size == z->declared; or a status, z->buf NULL.
 * Nothing is allocated before the recorded size has passed the checks.
 */
int props_unzstd(const void *src, size_t n, struct props_unzstd *z);

#endif
