/* SPDX-License-Identifier: MIT */
/*
 * devimg-dump's work (wrapper/dump.h): show the device images that a
 * binary carries, without running it; write them out; decode .props
 * files. See man/devimg-dump.1 and docs/dump-json.md; the command line is
 * tools/devimg-dump.c. Here each input is read, an ELF file's views of
 * its images merged into one list, and handed to the job: dump-text.c,
 * dump-json.c or dump-extract.c (dump-private.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wrapper/dump-descriptor.h"
#include "wrapper/dump-private.h"

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Show df (the images; may be empty) and dc (a SYCLBIN's or the
 * OffloadBinary blobs'; may be NULL).
 */
static int dump_view(const struct devimg_file *df,
		     const struct dump_container *dc, struct dump_job *o,
		     struct json_writer *w)
{
	const struct devimg_file *entries = dump_container_entries(dc);
	int ret = 0;

	switch (o->mode) {
	case DUMP_TEXT:
		dump_text_file(stdout, df);
		if (dc)
			dump_container_text(stdout, dc);
		break;
	case DUMP_JSON:
		dump_json_file(w, df, dc);
		break;
	case DUMP_EXTRACT:
		ret = dump_extract_file(df, o);
		if (!ret && entries)
			ret = dump_extract_file(entries, o);
		break;
	}
	return ret;
}

/*
 * A file that failed: its one line on stderr, "devimg-dump: " and the
 * message (escaped where it was made), kept in o->error for --json.
 * Returns err.
 */
static int file_failed(struct dump_job *o, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int file_failed(struct dump_job *o, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->error, sizeof(o->error), fmt, ap);
	va_end(ap);
	fprintf(stderr, PROG ": %s\n", o->error);
	return err;
}

/* What is listed but did not read, one line each: 1 when any, else 0. */
static int print_problems(const struct dump_container *dc)
{
	const char *p;
	size_t i;

	for (i = 0; (p = dump_container_problem(dc, i)); i++)
		fprintf(stderr, PROG ": %s\n", p);
	return i > 0;
}

/*
 * A SYCLBIN or OffloadBinary file: 1 when path is one (*partial when
 * something listed did not read), 0 when not.
 */
static int dump_container(const char *path, struct dump_job *o,
			  struct json_writer *w, int *partial)
{
	const struct devimg_file *df;
	struct devimg_file none = { .fname = path };
	struct dump_container *dc = NULL;
	struct errmsg err = { 0 };
	int ret;

	ret = dump_container_open(path, &dc, &err);
	if (ret <= 0)
		return ret < 0 ? file_failed(o, ret, "%s", err.msg) : 0;
	df = dump_container_images(dc);
	*partial = print_problems(dc);
	ret = dump_view(df ? df : &none, dc, o, w);
	dump_container_close(dc);
	return ret < 0 ? ret : 1;
}

/* The file offsets of the bytes of n images, sorted; NULL for none. */
static uint64_t *bin_offsets(const struct reader_image *a, size_t na,
			     const struct reader_image *b, size_t nb)
{
	uint64_t *v = malloc((na + nb + 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < na; i++)
		v[i] = a[i].bin_offset;
	for (i = 0; i < nb; i++)
		v[na + i] = b[i].bin_offset;
	qsort(v, na + nb, sizeof(*v), u64_cmp);
	return v;
}

/*
 * Every image the file's program registers, in one list numbered from 0:
 * the .devimg index's, then those of descriptors found by their structure
 * and those of registered OffloadBinary blobs, each bin listed once.
 */
static int merge_views(const struct devimg_file *df,
		       const struct devimg_file *dd,
		       const struct devimg_file *reg,
		       struct devimg_file *out)
{
	size_t nd = dd ? dd->nimages : 0, nr = reg ? reg->nimages : 0;
	unsigned char *keep = NULL;
	uint64_t *known = NULL;
	size_t i, n = df->nimages;
	int ret = -ENOMEM;

	*out = *df;
	if (!nd && !nr)
		return 0;
	out->images = calloc(df->nimages + nd + nr, sizeof(*out->images));
	keep = calloc(nr + 1, 1);
	known = bin_offsets(df->images, df->nimages, nd ? dd->images : NULL,
			    nd);
	if (!out->images || !keep || !known)
		goto out;
	if (df->nimages)
		memcpy(out->images, df->images,
		       df->nimages * sizeof(*out->images));
	for (i = 0; i < nd; i++)
		out->images[n++] = dd->images[i];
	ret = nr ? dump_images_unique(reg->images, nr, known,
				      df->nimages + nd, keep) : 0;
	for (i = 0; !ret && i < nr; i++)
		if (keep[i])
			out->images[n++] = reg->images[i];
	for (i = df->nimages; i < n; i++)
		out->images[i].index = (unsigned)i;
	out->nimages = n;
out:
	free(known);
	free(keep);
	if (ret < 0) {
		free(out->images);
		out->images = NULL;
	}
	return ret;
}

/* The listing of an ELF file: 0, 1 when something did not read, -errno. */
static int dump_elf_view(const char *path, struct devimg_file *df,
			 struct dump_container *dc, struct dump_job *o,
			 struct json_writer *w)
{
	struct dump_descriptors *dd = NULL;
	struct errmsg err = { 0 };
	struct devimg_file view;
	uint64_t *known;
	int ret, partial;

	known = bin_offsets(df->images, df->nimages, NULL, 0);
	if (!known)
		return file_failed(o, -ENOMEM, "%s: %s", path,
				   strerror(ENOMEM));
	ret = dump_descriptors_open(path, known, df->nimages, &dd, &err);
	free(known);
	if (ret < 0)
		return file_failed(o, ret, "%s", err.msg);
	ret = merge_views(df, dump_descriptors_images(dd),
			  dump_container_registered(dc), &view);
	if (ret < 0) {
		dump_descriptors_close(dd);
		return file_failed(o, ret, "%s: %s", path, strerror(-ret));
	}
	partial = print_problems(dc);
	ret = dump_view(&view, dc, o, w);
	if (view.images != df->images)
		free(view.images);
	dump_descriptors_close(dd);
	return ret < 0 ? ret : partial;
}

/* 0, 1 when the file was listed but something did not read, -errno. */
static int dump_elf(const char *path, struct dump_job *o,
		    struct json_writer *w)
{
	struct dump_container *dc = NULL;
	struct devimg_file *df = NULL;
	struct errmsg err = { 0 };
	int ret, partial = 0;

	ret = dump_container(path, o, w, &partial);
	if (ret)
		return ret < 0 ? ret : partial;
	ret = devimg_reader_open(path, &df, &err);
	if (ret < 0)
		return file_failed(o, ret, "%s", err.msg);
	ret = dump_offloading_open(path, &dc, &err);
	if (ret < 0) {
		devimg_reader_close(df);
		return file_failed(o, ret, "%s", err.msg);
	}
	ret = dump_elf_view(path, df, dc, o, w);
	dump_container_close(dc);
	devimg_reader_close(df);
	return ret;
}

static int dump_props(const char *path, struct dump_job *o,
		      struct json_writer *w)
{
	struct devimg_propset *sets = NULL;
	struct errmsg perr = { 0 };
	struct errmsg err = { 0 };
	struct props *p = NULL;
	size_t n = 0;
	int ret;

	ret = props_read_file(path, &p, &perr);
	if (ret < 0) {
		errmsg_esc(&err, ret, "%s", perr.msg);
		return file_failed(o, ret, "%s", err.msg);
	}
	ret = devimg_propsets_from_props(p, path, &sets, &n, &err);
	if (ret < 0) {
		file_failed(o, ret, "%s", err.msg);
		goto out;
	}
	if (o->mode == DUMP_JSON)
		dump_json_props(w, path, sets, n);
	else
		dump_text_props(stdout, path, sets, n);
	devimg_propsets_free(sets, n);
out:
	props_free(p);
	return ret;
}

int dump_run(char **files, int n, struct dump_job *o)
{
	struct json_writer w;
	int i, r, status = 0;

	json_init(&w, stdout);
	if (o->mode == DUMP_JSON)
		dump_json_begin(&w);
	for (i = 0; i < n; i++) {
		/* > 0: listed, but something in it did not read */
		o->error[0] = '\0';
		r = o->props ? dump_props(files[i], o, &w) :
			       dump_elf(files[i], o, &w);
		if (r)
			status = 1;
		if (r < 0 && o->mode == DUMP_JSON)
			dump_json_failed(&w, files[i], o->error[0] ? o->error :
					 strerror(-r));
	}
	if (o->mode == DUMP_JSON && dump_json_end(&w) < 0)
		status = 1;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, PROG ": standard output: %s\n",
			strerror(errno ? errno : EIO));
		status = 1;
	}
	return status;
}
