// SPDX-License-Identifier: MIT
/*
 * A registrar for programs built for another host (aarch64 under qemu):
 * defines __sycl_register_lib() and __sycl_unregister_lib() and prints,
 * one fact a line, what a wrapped object hands them, so that a shell test
 * compares it with the inputs without jq or the host's devimg-dump.
 *
 *   register D version V count N host RANGE
 *   image I version V kind K format F size S cksum C manifest M
 *   target I "..."       compile I "..."       link I "..."
 *   entry I J NAME
 *   propset I J NAME nprops P
 *   prop I J K NAME type T size Z [cksum C | "string"]
 *   unregister D
 *
 * D counts registered descriptors from 0; I counts images over all of
 * them. C is the POSIX cksum(1) CRC of the bytes (image, manifest, byte
 * array value including its 8-byte bit count), so the shell computes the
 * expected value with cksum. M is "none" or "SIZE cksum C". RANGE is
 * "null" or the entry count of the host range.
 *
 * Built with no devimg header: the layout is spelled out here on purpose,
 * so the test also checks include/devimg/descriptor.h's promise that the
 * layout is the same on every LP64 host.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	void *addr;
	char *name;
	size_t size;
	int32_t flags;
	int32_t reserved;
};

struct property {
	char *name;
	void *value;
	uint32_t type;
	uint64_t size;
};

struct property_set {
	char *name;
	struct property *begin;
	struct property *end;
};

struct device_image {
	uint16_t version;
	uint8_t kind;
	uint8_t format;
	const char *target;
	const char *compile_opts;
	const char *link_opts;
	const char *manifest_begin;
	const char *manifest_end;
	const unsigned char *bin_begin;
	const unsigned char *bin_end;
	struct entry *entries_begin;
	struct entry *entries_end;
	struct property_set *props_begin;
	struct property_set *props_end;
};

struct device_binaries {
	uint16_t version;
	uint16_t count;
	struct device_image *images;
	struct entry *host_begin;
	struct entry *host_end;
};

_Static_assert(sizeof(struct entry) == 32, "offload entry");
_Static_assert(sizeof(struct property) == 32, "property");
_Static_assert(sizeof(struct property_set) == 24, "property set");
_Static_assert(sizeof(struct device_image) == 96, "device image");
_Static_assert(sizeof(struct device_binaries) == 32, "device binaries");

void __sycl_register_lib(struct device_binaries *desc);
void __sycl_unregister_lib(struct device_binaries *desc);

#define MAX_DESCS 16

static const struct device_binaries *registered[MAX_DESCS];
static unsigned nregistered;
static unsigned next_image;

/* POSIX cksum: CRC-32 (0x04c11db7, MSB first) over the bytes, then the length. */
static uint32_t crc_byte(uint32_t crc, unsigned char b)
{
	int i;

	crc ^= (uint32_t)b << 24;
	for (i = 0; i < 8; i++)
		crc = crc & 0x80000000u ? crc << 1 ^ 0x04c11db7u : crc << 1;
	return crc;
}

static uint32_t cksum(const void *data, uint64_t n)
{
	const unsigned char *p = data;
	uint32_t crc = 0;
	uint64_t i;

	for (i = 0; i < n; i++)
		crc = crc_byte(crc, p[i]);
	for (; n; n >>= 8)
		crc = crc_byte(crc, n & 0xff);
	return ~crc;
}

static void print_prop(unsigned i, unsigned j, unsigned k,
		       const struct property *p)
{
	printf("prop %u %u %u %s type %u size %llu", i, j, k, p->name,
	       (unsigned)p->type, (unsigned long long)p->size);
	if (p->type == 2 && p->value)
		printf(" cksum %lu", (unsigned long)cksum(p->value, p->size));
	else if (p->type == 3 && p->value)
		printf(" \"%s\"", (const char *)p->value);
	putchar('\n');
}

static void print_image(unsigned i, const struct device_image *img)
{
	const struct property_set *s;
	const struct property *p;
	const struct entry *e;
	uint64_t size = (uint64_t)(img->bin_end - img->bin_begin);
	unsigned j, k;

	printf("image %u version %u kind %u format %u size %llu cksum %lu manifest ",
	       i, img->version, img->kind, img->format,
	       (unsigned long long)size,
	       (unsigned long)cksum(img->bin_begin, size));
	if (img->manifest_begin)
		printf("%llu cksum %lu\n",
		       (unsigned long long)(img->manifest_end - img->manifest_begin),
		       (unsigned long)cksum(img->manifest_begin,
					    img->manifest_end - img->manifest_begin));
	else
		puts("none");
	printf("target %u \"%s\"\n", i, img->target ? img->target : "(null)");
	printf("compile %u \"%s\"\n", i,
	       img->compile_opts ? img->compile_opts : "(null)");
	printf("link %u \"%s\"\n", i, img->link_opts ? img->link_opts : "(null)");
	for (e = img->entries_begin, j = 0; e != img->entries_end; e++, j++)
		printf("entry %u %u %s\n", i, j, e->name);
	for (s = img->props_begin, j = 0; s != img->props_end; s++, j++) {
		printf("propset %u %u %s nprops %u\n", i, j, s->name,
		       (unsigned)(s->end - s->begin));
		for (p = s->begin, k = 0; p != s->end; p++, k++)
			print_prop(i, j, k, p);
	}
}

void __sycl_register_lib(struct device_binaries *desc)
{
	unsigned i;

	if (nregistered == MAX_DESCS) {
		fputs("cross-registrar: too many descriptors\n", stderr);
		exit(2);
	}
	printf("register %u version %u count %u host ", nregistered,
	       desc->version, desc->count);
	if (desc->host_begin)
		printf("%u\n", (unsigned)(desc->host_end - desc->host_begin));
	else
		puts("null");
	registered[nregistered++] = desc;
	for (i = 0; i < desc->count; i++)
		print_image(next_image + i, &desc->images[i]);
	next_image += desc->count;
	fflush(stdout);
}

void __sycl_unregister_lib(struct device_binaries *desc)
{
	unsigned i;

	for (i = 0; i < nregistered; i++) {
		if (registered[i] == desc) {
			registered[i] = NULL;
			printf("unregister %u\n", i);
			fflush(stdout);
			return;
		}
	}
	puts("unregister-unknown");
	fflush(stdout);
	exit(3);
}
