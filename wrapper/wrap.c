// SPDX-License-Identifier: MIT
/*
 * devimg-wrap's work (wrapper/wrap.h): reading the inputs into a
 * struct wrap_job (images, manifests, entry lists, property sets, batch
 * tables), the checks libdevimg would make at load time, and writing the
 * object or SYCLBIN file atomically. tools/devimg-wrap.c reads the
 * command line into the job.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devimg/descriptor.h"
#include "util/devimg_limits.h"
#include "wrapper/ompnotes.h"
#include "wrapper/outfile.h"
#include "props/props.h"
#include "wrapper/symprop.h"
#include "wrapper/wrap.h"
#include "wrapper/wrap-syclbin.h"
#include "util/errmsg.h"
#include "util/input.h"

int wrap_fail(const char *fmt, ...)
{
	va_list ap;

	fputs(WRAP_PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* A props library message names its place; add the file only if not. */
int wrap_fail_props(const char *fname, const struct errmsg *err,
		    const char *where)
{
	size_t n = strlen(fname);

	if (!strncmp(err->msg, fname, n) && err->msg[n] == ':')
		return wrap_fail("%s%s", err->msg, where);
	return wrap_fail("%s: %s%s", fname, err->msg, where);
}

/* ---- files ---- */

/*
 * An input refused by input_open(): one that cannot be opened says
 * "PATH: reason" as devimg-wrap always said, the rest as the props
 * library words it ("PATH: cannot read: not a regular file (FIFO)").
 */
static int fail_input(const char *path, int r, const struct errmsg *err,
		      const char *where)
{
	size_t n = strlen(path);

	if (!strncmp(err->msg, path, n) &&
	    !strncmp(err->msg + n, ": cannot open: ", 15))
		return wrap_fail("%s: %s%s", path, strerror(-r), where);
	return wrap_fail_props(path, err, where);
}

/*
 * Read a whole text input (entries, properties, table, manifest), at most
 * DEVIMG_LIMIT_TEXT_FILE bytes; where names the table row that gave its
 * name ("" on the command line).
 */
static int read_whole(const char *path, char **text, size_t *len,
		      const char *where)
{
	struct errmsg err = { 0 };
	int r;

	r = input_read(path, DEVIMG_LIMIT_TEXT_FILE, text, len, &err);
	return r < 0 ? fail_input(path, r, &err, where) : 0;
}

/*
 * An image must be a regular file of at most DEVIMG_LIMIT_IMAGE_FILE
 * bytes; only its size is read now.
 */
static int check_image(const char *path, uint64_t *size, const char *where)
{
	struct errmsg err = { 0 };
	int fd;

	fd = input_open(path, DEVIMG_LIMIT_IMAGE_FILE, size, &err);
	if (fd < 0)
		return fail_input(path, fd, &err, where);
	close(fd);
	return 0;
}

/*
 * What libdevimg checks at load time (loader/registry/descriptor.c), checked here so
 * that no object is written that it would refuse: counts of entries, of
 * property sets and of properties in a set, and byte-array sizes.
 */
static int check_limits(const struct wrap_image *img, const char *entries,
			const char *props, const char *where)
{
	struct quote q;
	size_t i, j;

	if (img->has_entries && img->entries.n > DEVIMG_LIMIT_ENTRIES)
		return wrap_fail("%s: %zu kernel names, more than the %u of an image that libdevimg accepts%s",
				 entries, img->entries.n, DEVIMG_LIMIT_ENTRIES,
				 where);
	if (!img->props)
		return 0;
	if (img->props->nsets > DEVIMG_LIMIT_PROPS)
		return wrap_fail("%s: %zu property sets, more than the %u of an image that libdevimg accepts%s",
				 props, img->props->nsets, DEVIMG_LIMIT_PROPS,
				 where);
	for (i = 0; i < img->props->nsets; i++) {
		const struct props_set *set = &img->props->sets[i];

		if (set->nprops > DEVIMG_LIMIT_PROPS)
			return wrap_fail("%s: set '%s': %zu properties, more than the %u of a set that libdevimg accepts%s",
					 props, quote_text(&q, set->name, strlen(set->name)),
					 set->nprops, DEVIMG_LIMIT_PROPS, where);
		for (j = 0; j < set->nprops; j++) {
			const struct props_prop *p = &set->props[j];

			if (p->type == PROPS_BYTE_ARRAY &&
			    (uint64_t)p->size > DEVIMG_LIMIT_BYTE_ARRAY)
				return wrap_fail("%s: set '%s': property %zu: byte array of %zu bytes, more than the %llu that libdevimg accepts%s",
						 props,
						 quote_text(&q, set->name, strlen(set->name)),
						 j, p->size,
						 (unsigned long long)DEVIMG_LIMIT_BYTE_ARRAY,
						 where);
		}
	}
	return 0;
}

/* ---- one image ---- */

static int load_manifest(struct wrap_image *img, const char *path,
			 const char *where)
{
	char *text;
	size_t len;

	if (read_whole(path, &text, &len, where))
		return -1;
	img->has_manifest = 1;
	img->manifest = (unsigned char *)text;
	img->manifest_size = len;
	return 0;
}

/* What a per-image text file holds: kernel names or property sets. */
enum text_kind { TEXT_ENTRIES, TEXT_PROPS };

static int load_text(struct wrap_image *img, const char *path,
		     const char *where, enum text_kind kind)
{
	struct errmsg err = { 0 };
	char *text;
	size_t len;
	int r;

	if (read_whole(path, &text, &len, where))
		return -1;
	if (kind == TEXT_ENTRIES)
		r = props_sym_parse(text, len, path, &img->entries, &err);
	else
		r = props_parse(text, len, path, &img->props, &err);
	free(text);
	if (r)
		return wrap_fail_props(path, &err, where);
	if (kind == TEXT_ENTRIES)
		img->has_entries = 1;
	return 0;
}

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

/*
 * Add one image. entries, props and manifest: NULL or "" for none. where
 * says which table row it comes from ("" on the command line).
 */
int wrap_add_image(struct wrap_job *c, const struct wrap_image_opts *o,
		   const char *path, const char *manifest, const char *entries,
		   const char *props, const char *where)
{
	struct wrap_image *img;

	if (c->set.nimages >= WRAP_MAX_IMAGES)
		return wrap_fail("%s: too many images (at most %u)%s", path,
				 WRAP_MAX_IMAGES, where);
	img = wrap_set_add(&c->set);
	if (!img)
		return wrap_fail("%s: %s", path, strerror(ENOMEM));
	img->kind = o->kind;
	img->format = o->format;
	img->path = strdup(path);
	img->target = dup_or_empty(o->target);
	img->arch = dup_or_empty(o->arch);
	img->compile_opts = dup_or_empty(o->compile_opts);
	img->link_opts = dup_or_empty(o->link_opts);
	if (!img->path || !img->target || !img->arch ||
	    !img->compile_opts || !img->link_opts)
		return wrap_fail("%s: %s", path, strerror(ENOMEM));
	if (where[0] && !(img->where = strdup(where)))
		return wrap_fail("%s: %s", path, strerror(ENOMEM));
	if (check_image(path, &img->size, where))
		return -1;
	if (manifest && *manifest &&
	    (load_manifest(img, manifest, where) ||
	     !(img->manifest_path = strdup(manifest))))
		return img->has_manifest ?
			       wrap_fail("%s: %s", path, strerror(ENOMEM)) : -1;
	img->no_entries_asked = entries && !*entries;
	if (entries && *entries &&
	    (load_text(img, entries, where, TEXT_ENTRIES) ||
	     !(img->entries_path = strdup(entries))))
		return img->has_entries ?
			       wrap_fail("%s: %s", path, strerror(ENOMEM)) : -1;
	if (props && *props && load_text(img, props, where, TEXT_PROPS))
		return -1;
	return check_limits(img, entries, props, where);
}

/* ---- batch tables ---- */

static int add_row(struct wrap_job *c, const struct wrap_image_opts *o,
		   const char *table, const struct props_table_row *row)
{
	char where[64 + 4096];
	const char *code = row->cell[PROPS_COL_CODE];

	snprintf(where, sizeof(where), " (%s:%u)", table, row->line);
	if (!code || !*code)
		return wrap_fail("%s:%u: image file name missing", table,
				 row->line);
	return wrap_add_image(c, o, code, row->cell[PROPS_COL_MANIFEST],
			      row->cell[PROPS_COL_SYMBOLS],
			      row->cell[PROPS_COL_PROPERTIES], where);
}

int wrap_add_table(struct wrap_job *c, const struct wrap_image_opts *o,
		   const char *table)
{
	struct props_table t = { 0 };
	struct errmsg err = { 0 };
	char *text;
	size_t len, i;
	int r;

	if (read_whole(table, &text, &len, ""))
		return -1;
	r = props_table_parse(text, len, table, &t, &err);
	free(text);
	if (r)
		return wrap_fail_props(table, &err, "");
	/*
	 * A table without rows adds no image, as in DPC++; an empty file is
	 * such a table, without a header to need a Code column.
	 */
	if (t.ncols && !t.has[PROPS_COL_CODE])
		r = wrap_fail("%s:1: the table has no Code column", table);
	for (i = 0; !r && i < t.nrows; i++)
		r = add_row(c, o, table, &t.rows[i]);
	props_table_fini(&t);
	return r;
}

/* ---- output ---- */

/* Copy what fd holds, from its start, to standard output. */
static int copy_to_stdout(int fd)
{
	char buf[65536];
	ssize_t n, w, done;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return wrap_fail("standard output: %s", strerror(errno));
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return wrap_fail("standard output: %s", strerror(errno));
		if (n == 0)
			return 0;
		for (done = 0; done < n; done += w) {
			w = write(STDOUT_FILENO, buf + done, n - done);
			if (w < 0 && errno == EINTR) {
				w = 0;
				continue;
			}
			if (w <= 0)
				return wrap_fail("standard output: %s",
						 strerror(w < 0 ? errno : EIO));
		}
	}
}

/*
 * "-o -": the writer needs a regular file it can seek in, so the object
 * is made in an unnamed temporary file first; nothing reaches standard
 * output unless it was all written.
 */
/* The object, or the SYCLBIN file, to fd. */
static int write_to(struct wrap_job *c, int fd, const char *name,
		    struct errmsg *err)
{
	if (c->syclbin >= 0)
		return wrap_write_syclbin(&c->set, (uint32_t)c->syclbin, fd,
					  name, err);
	return wrap_write_object(&c->set, fd, name,
				 c->verbose ? stderr : NULL, err);
}

static int write_stdout(struct wrap_job *c)
{
	struct errmsg err = { 0 };
	FILE *tmp = tmpfile();
	int r;

	if (!tmp)
		return wrap_fail("-o -: cannot create a temporary file: %s",
				 strerror(errno));
	r = write_to(c, fileno(tmp), "-", &err);
	if (r)
		r = wrap_fail("%s", err.msg);
	else
		r = copy_to_stdout(fileno(tmp));
	fclose(tmp);
	return r;
}

static int write_output(struct wrap_job *c)
{
	struct errmsg err = { 0 };
	struct out_file out;
	int r;

	if (wrap_compress_images(&c->set, &c->compress,
				 c->verbose ? stderr : NULL, &err))
		return wrap_fail("%s", err.msg);
	if (!strcmp(c->output, "-"))
		return write_stdout(c);
	out_catch_signals();
	if (out_open(&out, c->output, &err))
		return wrap_fail("%s", err.msg);
	r = write_to(c, out.fd, c->output, &err);
	if (r) {
		out_abort(&out);
		return wrap_fail("%s", err.msg);
	}
	if (out_commit(&out, &err))
		return wrap_fail("%s", err.msg);
	return 0;
}

static int take_symprop(struct wrap_job *c)
{
	struct errmsg err = { 0 };

	if (wrap_symprop_apply(&c->set, c->symprop, &err))
		return wrap_fail("%s", err.msg);
	return 0;
}

/* Version 3 images have no manifest pointers: a manifest would be lost. */
static int check_version(const struct wrap_job *c)
{
	size_t i;

	if (c->image_version < 3)
		return 0;
	for (i = 0; i < c->set.nimages; i++)
		if (c->set.images[i].has_manifest)
			return wrap_fail("%s: a manifest cannot go into a version 3 image (given %s)",
					 c->set.images[i].path, c->version_opt);
	return 0;
}

static void print_plan(const struct wrap_job *c)
{
	size_t i;

	for (i = 0; i < c->set.nimages; i++) {
		const struct wrap_image *img = &c->set.images[i];

		fprintf(stderr, WRAP_PROG ": image %zu: %s, %llu bytes, target '%s', compile options '%s', link options '%s'\n",
			i, img->path, (unsigned long long)img->size,
			img->target, img->compile_opts, img->link_opts);
	}
}

/*
 * As DPC++'s wrapper: an OpenMP image that cannot take the notes is
 * wrapped as it is, after a warning.
 */
static int add_omp_notes(struct wrap_job *c)
{
	struct errmsg perr = { 0 };
	size_t i, len, out_len;
	unsigned char *out;
	char why[128];
	char *in;
	int r;

	for (i = 0; i < c->set.nimages; i++) {
		struct wrap_image *img = &c->set.images[i];

		if (img->kind != DEVIMG_KIND_OPENMP || img->data)
			continue;
		r = input_read(img->path, DEVIMG_LIMIT_IMAGE_FILE, &in,
			       &len, &perr);
		if (r < 0)
			return fail_input(img->path, r, &perr, "");
		r = omp_notes_add((unsigned char *)in, len, "devimg",
				  PACKAGE_VERSION, &out, &out_len, why,
				  sizeof(why));
		free(in);
		if (r < 0)
			return wrap_fail("%s: %s", img->path, strerror(ENOMEM));
		if (r > 0) {
			if (wrap_warn(&c->warnings, "%s %s, so notes cannot be added to it.",
				      img->path, why))
				return wrap_fail("%s: %s", img->path,
						 strerror(ENOMEM));
			continue;
		}
		img->data = out;
		img->size = out_len;
	}
	return 0;
}

int wrap_job_write(struct wrap_job *c)
{
	int r = 0;

	if (c->symprop)
		r = take_symprop(c);
	if (!r && c->omp_notes)
		r = add_omp_notes(c);
	if (!r)
		r = check_version(c);
	if (!r && !c->no_warnings)
		r = wrap_lint(&c->set, &c->warnings);
	if (!r && c->werror && c->warnings.n) {
		wrap_warnings_print(&c->warnings, 1);
		return -1;
	}
	if (!r && c->verbose)
		print_plan(c);
	if (!r)
		r = write_output(c);
	if (!r && !c->no_warnings)
		wrap_warnings_print(&c->warnings, 0);
	return r;
}

void wrap_job_fini(struct wrap_job *c)
{
	wrap_set_fini(&c->set);
	wrap_warnings_fini(&c->warnings);
}
