/* SPDX-License-Identifier: MIT */
/*
 * A hash multimap from NUL-terminated strings to caller-owned nodes. Each
 * distinct key has one slot of an open-addressing table (linear probing,
 * the hash stored beside the key so probes compare keys only on a hash
 * match, at most 3/4 full, deletion by backward shift, no tombstones);
 * the nodes that share the key hang off that slot in a chain kept in
 * insertion order. Equal keys therefore never form a probe cluster:
 * inserting, finding and removing cost O(1) expected each, however many
 * nodes share a key, and listing a key's nodes costs O(its nodes).
 *
 * The caller embeds a struct hash_node per value and owns it and its key
 * string, which must stay valid while the node is in the map. Not
 * locked: the registry guards it.
 */
#ifndef DEVIMG_HASH_H
#define DEVIMG_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A value in the map. next runs from a key's first node to its last
 * (NULL after it); prev runs backwards, and the first node's prev is the
 * last node, so appending needs no walk.
 */
struct hash_node {
	struct hash_node *next;
	struct hash_node *prev;
	const char *key;
};

/* One per distinct key: its first node, whose key string it uses. */
struct hash_slot {
	const char *key;		/* NULL: empty */
	struct hash_node *first;
	uint32_t hash;
};

struct hash {
	struct hash_slot *slots;
	size_t cap;			/* 0 or a power of two */
	size_t count;			/* distinct keys (used slots) */
	size_t nodes;			/* nodes in all */
};

#define HASH_INIT { NULL, 0, 0, 0 }

/*
 * 32-bit hash of a NUL-terminated string: FNV-1a's xor-multiply over two
 * lanes of 64-bit words instead of bytes, then murmur3's 64-bit finalizer;
 * the lanes start from the process's key (siphash_key()), so names
 * cannot be chosen to collide. Cheaper than SipHash on the start-up path,
 * not a cryptographic hash: it keeps precomputed collisions out.
 */
uint32_t hash_string(const char *s);
/* The same hash of len bytes. */
uint32_t hash_bytes(const char *s, size_t len);

/*
 * Make room for count distinct keys in all, so that inserting nodes until
 * the map holds that many keys cannot fail. A bound on the nodes to come
 * plus h->count always suffices. -ENOMEM.
 */
int hash_reserve(struct hash *h, size_t count);
/*
 * Append node n with key (hash: hash_string(key)) to the end of the
 * key's chain, or start the chain. Needs room for a new key
 * (hash_reserve). O(1) expected.
 */
void hash_insert(struct hash *h, struct hash_node *n, const char *key,
		 uint32_t hash);
/*
 * The same in two steps, to look at a key's chain before adding to it:
 * hash_find_pos() gives the key's first node (NULL when absent) and, in
 * *pos, its slot or the free slot it would take; hash_insert_at() appends
 * there, the map unchanged in between. Needs room (hash_reserve) first.
 */
struct hash_node *hash_find_pos(const struct hash *h, const char *key,
				uint32_t hash, size_t *pos);
void hash_insert_at(struct hash *h, size_t pos, struct hash_node *n,
		    const char *key, uint32_t hash);
/*
 * Take node n, which must be in h, out of its chain (hash: its key's).
 * O(1) expected.
 */
void hash_remove(struct hash *h, struct hash_node *n, uint32_t hash);

/*
 * The first node of key's chain, NULL when no node has the key. Its
 * nodes in insertion order:
 *	for (n = hash_find(h, key, hash); n; n = n->next)
 * and the last one is hash_find(h, key, hash)->prev.
 */
struct hash_node *hash_find(const struct hash *h, const char *key,
			    uint32_t hash);
/* Free the slots; the map must be empty. */
void hash_fini(struct hash *h);

#endif
