// SPDX-License-Identifier: MIT
/*
 * A stand-in for libomptarget: a program that defines __tgt_register_lib()
 * and __tgt_unregister_lib() (and the SYCL pair, to see the order) and
 * reports what a wrapped object hands them. It defines two offload entries
 * in omp_offloading_entries, as a compiler does for target regions, unless
 * built with -DNO_ENTRIES.
 *
 * stdout, one line each:
 *   sycl-register 0x<ptr> / sycl-unregister 0x<ptr>
 *   register 0x<ptr> images N entries M
 *   image I size S entries same|other   (the image's range is the desc's)
 *   entry J <name>
 *   unregister 0x<ptr>
 * $REG_OUT/omp.I: the bytes of image I (over all registrations).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct tgt_entry {
	void *addr;
	char *name;
	size_t size;
	int32_t flags;
	int32_t reserved;
};

struct tgt_image {
	void *start;
	void *end;
	struct tgt_entry *entries_begin;
	struct tgt_entry *entries_end;
};

struct tgt_desc {
	int32_t nimages;
	struct tgt_image *images;
	struct tgt_entry *entries_begin;
	struct tgt_entry *entries_end;
};

void __tgt_register_lib(struct tgt_desc *desc);
void __tgt_unregister_lib(struct tgt_desc *desc);
void __sycl_register_lib(void *desc);
void __sycl_unregister_lib(void *desc);

#ifndef NO_ENTRIES
static int var_a, var_b;
__attribute__((used, section("omp_offloading_entries")))
static struct tgt_entry entries[2] = {
	{ &var_a, "entry_a", sizeof(var_a), 0, 0 },
	{ &var_b, "entry_b", sizeof(var_b), 1, 0 },
};
#endif

static unsigned next_image;

static void save(unsigned i, const unsigned char *b, size_t n)
{
	const char *dir = getenv("REG_OUT");
	char path[4096];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/omp.%u", dir, i);
	f = fopen(path, "wb");
	if (!f || fwrite(b, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(2);
	}
}

void __tgt_register_lib(struct tgt_desc *d)
{
	struct tgt_entry *e;
	int32_t i;

	printf("register %p images %d entries %td\n", (void *)d, d->nimages,
	       d->entries_end - d->entries_begin);
	for (i = 0; i < d->nimages; i++) {
		struct tgt_image *img = &d->images[i];
		size_t n = (size_t)((char *)img->end - (char *)img->start);

		printf("image %u size %zu entries %s\n", next_image, n,
		       img->entries_begin == d->entries_begin &&
		       img->entries_end == d->entries_end ? "same" : "other");
		save(next_image++, img->start, n);
	}
	for (e = d->entries_begin; e < d->entries_end; e++)
		printf("entry %td %s size %zu flags %d\n", e - d->entries_begin,
		       e->name, e->size, e->flags);
}

void __tgt_unregister_lib(struct tgt_desc *d)
{
	printf("unregister %p\n", (void *)d);
}

void __sycl_register_lib(void *d)
{
	printf("sycl-register %p\n", d);
}

void __sycl_unregister_lib(void *d)
{
	printf("sycl-unregister %p\n", d);
}

int main(void)
{
	printf("main\n");
	return 0;
}
