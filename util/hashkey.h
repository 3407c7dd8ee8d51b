/* SPDX-License-Identifier: MIT */
/*
 * Hash tables keyed per process. Names that fill devimg's tables come from
 * files and objects anyone may hand it; with a hash they could compute,
 * names chosen to land in one slot would make every look-up walk them all.
 * Each process draws a 128-bit key once (getrandom), and tables hash with
 * it: SipHash-1-3 where names are few or long (property sets, devimg-dump),
 * a cheaper seeded hash in the registry's start-up path.
 */
#ifndef DEVIMG_HASHKEY_H
#define DEVIMG_HASHKEY_H

#include <stddef.h>
#include <stdint.h>

/* This process's key, drawn on the first call (thread-safe). */
const uint64_t *siphash_key(void);

/*
 * SipHash-c-d of n bytes at p under key k: c compression and d
 * finalization rounds (2-4 is the reference; tables use 1-3).
 */
uint64_t siphash(const uint64_t k[2], const void *p, size_t n,
		 unsigned c, unsigned d);

/* SipHash-1-3 under this process's key. */
static inline uint64_t siphash13(const void *p, size_t n)
{
	return siphash(siphash_key(), p, n, 1, 3);
}

#endif /* DEVIMG_HASHKEY_H */
