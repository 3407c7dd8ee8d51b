// SPDX-License-Identifier: MIT
/* The per-process hash key and SipHash (hashkey.h). */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "util/hashkey.h"
#include "util/le.h"

static uint64_t key[2];
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static uint64_t rotl(uint64_t v, unsigned r)
{
	return v << r | v >> (64 - r);
}

#define SIPROUND(v0, v1, v2, v3)					\
	do {								\
		v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32); \
		v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;			\
		v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;			\
		v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32); \
	} while (0)

uint64_t siphash(const uint64_t k[2], const void *p, size_t n,
		 unsigned c, unsigned d)
{
	const unsigned char *b = p;
	uint64_t v0 = k[0] ^ 0x736f6d6570736575ull;
	uint64_t v1 = k[1] ^ 0x646f72616e646f6dull;
	uint64_t v2 = k[0] ^ 0x6c7967656e657261ull;
	uint64_t v3 = k[1] ^ 0x7465646279746573ull;
	uint64_t m;
	size_t i, left = n & 7;
	unsigned r;

	for (i = 0; i + 8 <= n; i += 8) {
		m = get_le64(b + i);
		v3 ^= m;
		for (r = 0; r < c; r++)
			SIPROUND(v0, v1, v2, v3);
		v0 ^= m;
	}
	m = (uint64_t)(n & 0xff) << 56;
	while (left--)
		m |= (uint64_t)b[i + left] << (8 * left);
	v3 ^= m;
	for (r = 0; r < c; r++)
		SIPROUND(v0, v1, v2, v3);
	v0 ^= m;
	v2 ^= 0xff;
	for (r = 0; r < d; r++)
		SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

/*
 * getrandom() without blocking; where it fails (no entropy yet early in
 * boot, a kernel without it), the kernel's 16 random bytes for this
 * process (AT_RANDOM), hashed with the time and pid so the key does not
 * equal what the C library made of them (the stack guard).
 */
static void draw_key(void)
{
	uint64_t seed[2] = { 0, 0 }, mix[3];
	int saved = errno;
	const void *at;
	ssize_t got;

	do
		got = getrandom(key, sizeof(key), GRND_NONBLOCK);
	while (got < 0 && errno == EINTR);
	errno = saved;
	if (got == (ssize_t)sizeof(key))
		return;
	at = (const void *)getauxval(AT_RANDOM);
	if (at)
		memcpy(seed, at, sizeof(seed));
	mix[0] = (uint64_t)time(NULL);
	mix[1] = (uint64_t)getpid();
	mix[2] = (uint64_t)(uintptr_t)&key;
	key[0] = siphash(seed, mix, sizeof(mix), 2, 4);
	mix[0] ^= 1;
	key[1] = siphash(seed, mix, sizeof(mix), 2, 4);
}

const uint64_t *siphash_key(void)
{
	pthread_once(&key_once, draw_key);
	return key;
}
