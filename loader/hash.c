// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hash.h"

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
	uint64_t a = 0xcbf29ce484222325ull, b = a ^ len, h;
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

void hash_insert(struct hash *h, const char *key, uint32_t hash, void *value)
{
	struct hash_slot s = { key, value, hash };

	place(h->slots, h->cap, &s);
	h->count++;
}

/* Whether home lies cyclically in (hole, j]: then j must stay put. */
static bool stays(size_t hole, size_t j, size_t home)
{
	if (hole <= j)
		return hole < home && home <= j;
	return hole < home || home <= j;
}

bool hash_remove(struct hash *h, const char *key, uint32_t hash)
{
	size_t i, j;

	if (!h->cap)
		return false;
	for (i = hash & (h->cap - 1); h->slots[i].key != key;
	     i = next_slot(h, i)) {
		if (!h->slots[i].key)
			return false;
	}
	/* Shift later slots of the run back so no probe meets a hole. */
	for (j = next_slot(h, i); h->slots[j].key; j = next_slot(h, j)) {
		if (stays(i, j, h->slots[j].hash & (h->cap - 1)))
			continue;
		h->slots[i] = h->slots[j];
		i = j;
	}
	h->slots[i].key = NULL;
	h->count--;
	return true;
}

static void *match_from(const struct hash *h, const char *key, uint32_t hash,
			size_t i, size_t *pos)
{
	for (; h->slots[i].key; i = next_slot(h, i)) {
		const struct hash_slot *s = &h->slots[i];

		if (s->hash == hash && strcmp(s->key, key) == 0) {
			*pos = i;
			return s->value;
		}
	}
	return NULL;
}

void *hash_find(const struct hash *h, const char *key, uint32_t hash,
		size_t *pos)
{
	if (!h->count)
		return NULL;
	return match_from(h, key, hash, hash & (h->cap - 1), pos);
}

void *hash_find_next(const struct hash *h, const char *key, uint32_t hash,
		     size_t *pos)
{
	return match_from(h, key, hash, next_slot(h, *pos), pos);
}

void hash_fini(struct hash *h)
{
	if (h->slots)
		slots_free(h->slots, h->cap);
	h->slots = NULL;
	h->cap = 0;
	h->count = 0;
}
