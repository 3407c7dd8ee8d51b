// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/hash.h"
#include "util/hashkey.h"

#define HASH_MIN_SLOTS 64u
/* From this size on, slots are mapped with their pages populated at once. */
#define HASH_MAP_BYTES (64u * 1024)

static uint64_t rotl64(uint64_t v, unsigned r)
{
	return v << r | v >> (64 - r);
}

static uint64_t load64(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

/* Up to 7 bytes, assembled in a register (no store-to-load stall). */
static uint64_t load_short(const char *p, size_t n)
{
	uint64_t w = 0;
	size_t i;

	for (i = 0; i < n; i++)
		w |= (uint64_t)(unsigned char)p[i] << (8 * i);
	return w;
}

static uint64_t mix(uint64_t h, uint64_t w)
{
	return (rotl64(h, 23) ^ w) * 0x100000001b3ull;
}

/*
 * Sixteen bytes a step in two independent lanes, not one byte: names are
 * long (mangled C++), and each lane's multiply waits for the last. The
 * last 8 bytes are read again, overlapping, instead of byte by byte.
 */
uint32_t hash_bytes(const char *s, size_t len)
{
	/* keyed per process (hashkey.h): kernel names come from files too */
	const uint64_t *k = siphash_key();
	uint64_t a = 0xcbf29ce484222325ull ^ k[0], b = a ^ len ^ k[1], h;
	size_t i = 0;

	if (len < 8) {
		a = mix(a, load_short(s, len));
	} else {
		for (; i + 16 <= len; i += 16) {
			a = mix(a, load64(s + i));
			b = mix(b, load64(s + i + 8));
		}
		if (i + 8 <= len) {
			a = mix(a, load64(s + i));
			i += 8;
		}
		if (i < len)
			b = mix(b, load64(s + len - 8));
	}
	h = a ^ rotl64(b, 31) ^ (uint64_t)len << 56;
	/* murmur3's finalizer: every input bit reaches the low bits. */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (uint32_t)h;
}

uint32_t hash_string(const char *s)
{
	return hash_bytes(s, strlen(s));
}

static size_t next_slot(const struct hash *h, size_t i)
{
	return (i + 1) & (h->cap - 1);
}

static void place(struct hash_slot *slots, size_t cap,
		  const struct hash_slot *s)
{
	size_t i = s->hash & (cap - 1);

	while (slots[i].key)
		i = (i + 1) & (cap - 1);
	slots[i] = *s;
}

/*
 * Large slot arrays are written all over right after allocation: one
 * populating mmap() is much cheaper than a page fault per page.
 */
static struct hash_slot *slots_alloc(size_t cap)
{
	size_t bytes = cap * sizeof(struct hash_slot);
	void *p;

	if (bytes < HASH_MAP_BYTES)
		return calloc(cap, sizeof(struct hash_slot));
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void slots_free(struct hash_slot *slots, size_t cap)
{
	size_t bytes = cap * sizeof(struct hash_slot);

	if (bytes < HASH_MAP_BYTES)
		free(slots);
	else
		munmap(slots, bytes);
}

static int hash_resize(struct hash *h, size_t cap)
{
	struct hash_slot *slots;
	size_t i;

	slots = slots_alloc(cap);
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < h->cap; i++) {
		if (h->slots[i].key)
			place(slots, cap, &h->slots[i]);
	}
	if (h->slots)
		slots_free(h->slots, h->cap);
	h->slots = slots;
	h->cap = cap;
	return 0;
}

int hash_reserve(struct hash *h, size_t count)
{
	size_t cap = h->cap ? h->cap : HASH_MIN_SLOTS;

	if (count <= h->cap / 4 * 3)
		return 0;
	while (count > cap / 4 * 3) {
		if (cap > SIZE_MAX / 4 / sizeof(struct hash_slot))
			return -ENOMEM;
		cap *= 2;
	}
	/*
	 * A map that grows in steps (one registration after another) gets
	 * twice the room it needs, halving how often all slots are moved.
	 */
	if (h->count)
		cap *= 2;
	return hash_resize(h, cap);
}

/*
 * The slot of key, or the empty slot ending its probe (key absent). The
 * map has slots and at least one of them is empty (3/4 full at most).
 */
static size_t probe(const struct hash *h, const char *key, uint32_t hash)
{
	size_t i;

	for (i = hash & (h->cap - 1); h->slots[i].key; i = next_slot(h, i)) {
		const struct hash_slot *s = &h->slots[i];

		if (s->hash == hash &&
		    (s->key == key || strcmp(s->key, key) == 0))
			break;
	}
	return i;
}

struct hash_node *hash_find_pos(const struct hash *h, const char *key,
				uint32_t hash, size_t *pos)
{
	*pos = probe(h, key, hash);
	return h->slots[*pos].first;
}

void hash_insert(struct hash *h, struct hash_node *n, const char *key,
		 uint32_t hash)
{
	hash_insert_at(h, probe(h, key, hash), n, key, hash);
}

void hash_insert_at(struct hash *h, size_t pos, struct hash_node *n,
		    const char *key, uint32_t hash)
{
	struct hash_slot *s = &h->slots[pos];

	n->key = key;
	n->next = NULL;
	if (s->key) {
		struct hash_node *last = s->first->prev;

		last->next = n;
		n->prev = last;
		s->first->prev = n;
	} else {
		n->prev = n;
		*s = (struct hash_slot){ key, n, hash };
		h->count++;
	}
	h->nodes++;
}

/* Whether home lies cyclically in (hole, j]: then j must stay put. */
static bool stays(size_t hole, size_t j, size_t home)
{
	if (hole <= j)
		return hole < home && home <= j;
	return hole < home || home <= j;
}

/* Empty slot i, shifting later slots of its run back over the hole. */
static void slot_delete(struct hash *h, size_t i)
{
	size_t j;

	for (j = next_slot(h, i); h->slots[j].key; j = next_slot(h, j)) {
		if (stays(i, j, h->slots[j].hash & (h->cap - 1)))
			continue;
		h->slots[i] = h->slots[j];
		i = j;
	}
	h->slots[i].key = NULL;
	h->slots[i].first = NULL;
	h->count--;
}

/*
 * Only the first and the last node of a chain need its slot: the first
 * is the slot's, and the first node's prev names the last.
 */
void hash_remove(struct hash *h, struct hash_node *n, uint32_t hash)
{
	bool first = n->prev->next != n;
	struct hash_slot *s = NULL;
	size_t i = 0;

	if (first || !n->next) {
		i = probe(h, n->key, hash);
		s = &h->slots[i];
	}
	if (!first) {
		n->prev->next = n->next;
		if (n->next)
			n->next->prev = n->prev;
		else
			s->first->prev = n->prev;
	} else if (n->next) {
		n->next->prev = n->prev;
		s->first = n->next;
		s->key = n->next->key;
	} else {
		slot_delete(h, i);
	}
	n->next = NULL;
	n->prev = NULL;
	h->nodes--;
}

struct hash_node *hash_find(const struct hash *h, const char *key,
			    uint32_t hash)
{
	if (!h->count)
		return NULL;
	return h->slots[probe(h, key, hash)].first;
}

void hash_fini(struct hash *h)
{
	if (h->slots)
		slots_free(h->slots, h->cap);
	h->slots = NULL;
	h->cap = 0;
	h->count = 0;
	h->nodes = 0;
}
