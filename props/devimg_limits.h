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

/* Images in one wrapped object (ELF section indices stay below 0xff00). */
#define DEVIMG_LIMIT_IMAGES 65000u

#endif /* DEVIMG_LIMITS_H */
