/* SPDX-License-Identifier: MIT */
/*
 * An open-addressing hash multimap from NUL-terminated strings to values:
 * linear probing, the hash stored beside each key so probes compare keys
 * only on a hash match, at most 3/4 full, deletion by backward shift (no
 * tombstones). Several slots may share a key. The caller owns the keys;
 * a slot is identified by its key pointer, so one stored key string
 * belongs to one slot. Not locked: the registry guards it.
 */
#ifndef DEVIMG_HASH_H
#define DEVIMG_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hash_slot {
	const char *key;		/* NULL: empty */
	void *value;
	uint32_t hash;
};

struct hash {
	struct hash_slot *slots;
	size_t cap;			/* 0 or a power of two */
	size_t count;
};

#define HASH_INIT { NULL, 0, 0 }

/*
 * 32-bit hash of a NUL-terminated string: FNV-1a's xor-multiply over two
 * lanes of 64-bit words instead of bytes, then murmur3's 64-bit finalizer.
 */
uint32_t hash_string(const char *s);
/* The same hash of len bytes. */
uint32_t hash_bytes(const char *s, size_t len);

/*
 * Make room for count keys in all, so that that many hash_insert() calls
 * cannot fail. -ENOMEM.
 */
int hash_reserve(struct hash *h, size_t count);
/* Insert; needs room (hash_reserve). hash: hash_string(key). */
void hash_insert(struct hash *h, const char *key, uint32_t hash, void *value);
/* Remove the slot holding this very key pointer; false when absent. */
bool hash_remove(struct hash *h, const char *key, uint32_t hash);

/*
 * Matches of a key, in no particular order:
 *	for (v = hash_find(h, key, hash, &pos); v;
 *	     v = hash_find_next(h, key, hash, &pos))
 */
void *hash_find(const struct hash *h, const char *key, uint32_t hash,
		size_t *pos);
void *hash_find_next(const struct hash *h, const char *key, uint32_t hash,
		     size_t *pos);
/* Free the slots; the map must be empty. */
void hash_fini(struct hash *h);

#endif
