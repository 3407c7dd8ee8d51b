/* SPDX-License-Identifier: MIT */
/*
 * Drives devimg_reader_open_mem() over every truncation of a file and over
 * single-byte corruptions of it (0x00, 0xff, top bit flipped), each in a
 * buffer of exactly the input's size so that ASan sees any read past it.
 * Every result must be either a model whose strings and image bytes can be
 * read whole, or an error of one line that starts with the file's name.
 *
 * Usage: reader-mutate FILE [STEP]   (STEP: mutate every STEP-th byte)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/errmsg.h"
#include "wrapper/index-reader.h"

static unsigned long sink;

static void touch(const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		sink += *b++;
}

static void touch_str(const char *s)
{
	touch(s, strlen(s) + 1);
}

static void touch_sets(const struct devimg_propset *sets, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		touch_str(sets[i].name);
		for (j = 0; j < sets[i].nprops; j++) {
			const struct devimg_prop *p = &sets[i].props[j];

			touch_str(p->name);
			if (p->type == 2)
				touch(p->payload, (size_t)((p->nbits + 7) / 8));
			if (p->type == 3)
				touch_str((const char *)p->value);
			if (p->spec)
				touch(p->spec->descs,
				      p->spec->ndescs * sizeof(*p->spec->descs));
		}
	}
}

static void touch_file(const struct devimg_file *f)
{
	size_t i, j;

	for (i = 0; i < f->nimages; i++) {
		const struct reader_image *img = &f->images[i];

		touch_str(img->target);
		touch_str(img->compile_opts);
		touch_str(img->link_opts);
		if (img->manifest)
			touch(img->manifest, img->manifest_size);
		touch(img->bin, (size_t)img->bin_size);
		for (j = 0; j < img->nentries; j++)
			touch_str(img->entries[j]);
		touch_sets(img->propsets, img->npropsets);
	}
}

/* 0: read or rejected properly; -1: a bad error message. */
static int try(const unsigned char *data, size_t size, const char *what)
{
	static const char name[] = "mutant";
	struct devimg_file *f = NULL;
	struct errmsg err = { 0 };
	unsigned char *copy;
	int ret;

	copy = malloc(size ? size : 1);
	if (!copy)
		return -1;
	memcpy(copy, data, size);
	ret = devimg_reader_open_mem(copy, size, name, &f, &err);
	if (ret == 0) {
		touch_file(f);
		devimg_reader_close(f);
	} else if (strncmp(err.msg, "mutant: ", 8) || strchr(err.msg, '\n') ||
		   strlen(err.msg) < 12 || ret == -ENOMEM) {
		fprintf(stderr, "%s: bad error (%d): '%s'\n", what, ret,
			err.msg);
		free(copy);
		return -1;
	}
	free(copy);
	return 0;
}

static unsigned char *slurp(const char *path, size_t *size)
{
	unsigned char *buf = NULL;
	FILE *f = fopen(path, "rb");
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		goto out;
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	*size = (size_t)n;
out:
	if (f)
		fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	static const int kinds[] = { 0x00, 0xff, -1 };
	unsigned char *buf, *mut;
	size_t size = 0, i, step = 1, k, bad = 0, runs = 0;
	char what[64];

	if (argc < 2)
		return 2;
	if (argc > 2)
		step = strtoul(argv[2], NULL, 0);
	buf = slurp(argv[1], &size);
	if (!buf || !step) {
		fprintf(stderr, "cannot read %s\n", argv[1]);
		return 2;
	}
	mut = malloc(size);
	if (!mut)
		return 2;
	if (try(buf, size, "original"))
		bad++;
	for (i = 0; i <= size; i++, runs++) {
		snprintf(what, sizeof(what), "truncated to %zu", i);
		bad += try(buf, i, what) != 0;
	}
	for (i = 0; i < size; i += step) {
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++, runs++) {
			memcpy(mut, buf, size);
			mut[i] = (unsigned char)(kinds[k] < 0 ? mut[i] ^ 0x80 :
								kinds[k]);
			snprintf(what, sizeof(what), "byte %zu set to 0x%02x", i,
				 mut[i]);
			bad += try(mut, size, what) != 0;
		}
	}
	printf("%zu runs, %zu bad\n", runs, bad);
	free(mut);
	free(buf);
	return bad ? 1 : 0;
}
