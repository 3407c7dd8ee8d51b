// SPDX-License-Identifier: MIT
/*
 * devimg-dump's ELF reader from memory (devimg_reader_open_mem): on success
 * every string of the model is NUL-terminated inside the input, every
 * image, manifest and value lies inside it, and walking the model touches
 * nothing else; errors are one line naming the input.
 */
#include <errno.h>

#include "fuzz/fuzz.h"
#include "util/errmsg.h"
#include "wrapper/index-reader.h"

#define FNAME "fuzz.elf"

static const unsigned char *lo, *hi;
static volatile unsigned sink;

static void in_input(const void *p, uint64_t n, const char *what)
{
	const unsigned char *b = p;

	FUZZ_ASSERT(b >= lo && b <= hi && n <= (uint64_t)(hi - b),
		    "%s (%llu bytes) outside the input", what,
		    (unsigned long long)n);
}

static void touch(const void *p, uint64_t n)
{
	const unsigned char *b = p;
	unsigned s = 0;
	uint64_t i;

	for (i = 0; i < n; i++)
		s += b[i];
	sink += s;
}

static void check_string(const char *s, const char *what)
{
	FUZZ_ASSERT(s, "%s is NULL", what);
	touch(s, strlen(s) + 1);
}

static void check_prop(const struct devimg_prop *p)
{
	size_t i;

	check_string(p->name, "property name");
	if (p->type == 2) {
		in_input(p->value, p->size, "byte array");
		FUZZ_ASSERT(p->payload == p->value + PROPS_BYTES_HEADER,
			    "payload");
		FUZZ_ASSERT((p->nbits + 7) / 8 == p->size - PROPS_BYTES_HEADER,
			    "bit count");
		touch(p->value, p->size);
	} else if (p->type == 3) {
		check_string((const char *)p->value, "string value");
		in_input(p->value, p->size, "string value");
	}
	if (p->spec)
		for (i = 0; i < p->spec->ndescs; i++)
			FUZZ_ASSERT(p->spec->descs[i].size, "empty leaf");
}

static void check_image(const struct reader_image *img)
{
	size_t i, j;

	check_string(img->target, "target");
	check_string(img->compile_opts, "compile options");
	check_string(img->link_opts, "link options");
	if (img->manifest) {
		in_input(img->manifest, img->manifest_size, "manifest");
		touch(img->manifest, img->manifest_size);
	}
	in_input(img->bin, img->bin_size, "image bytes");
	FUZZ_ASSERT(img->bin == lo + img->bin_offset, "bin_offset");
	touch(img->bin, img->bin_size);
	for (i = 0; i < img->nentries; i++)
		check_string(img->entries[i], "entry");
	for (i = 0; i < img->npropsets; i++) {
		check_string(img->propsets[i].name, "set name");
		for (j = 0; j < img->propsets[i].nprops; j++)
			check_prop(&img->propsets[i].props[j]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct devimg_file *f = NULL;
	struct errmsg err = { 0 };
	size_t i;
	int r;

	lo = data;
	hi = data + size;
	r = devimg_reader_open_mem(data, size, FNAME, &f, &err);
	if (r < 0) {
		FUZZ_ASSERT(!f, "output on failure");
		FUZZ_ASSERT(r == -EINVAL || r == -ENOMEM, "error %d", r);
		fuzz_check_msg(err.msg, sizeof(err.msg), FNAME ": ");
		return 0;
	}
	FUZZ_ASSERT(f && !strcmp(f->fname, FNAME), "file name");
	for (i = 0; i < f->nimages; i++) {
		FUZZ_ASSERT(f->images[i].index == i, "image index");
		check_image(&f->images[i]);
	}
	devimg_reader_close(f);
	return 0;
}
