// SPDX-License-Identifier: MIT
/*
 * devimg-dump --extract: each image written to DIR/FILE.INDEX.TARGET.EXT,
 * expanded unless --raw, atomically, no name written twice in a run.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devimg/descriptor.h"
#include "wrapper/dump-private.h"
#include "util/escape.h"
#include "util/hashkey.h"
#include "wrapper/outfile.h"
#include "props/unzstd.h"

static int has_prefix(const unsigned char *p, size_t n, const char *s)
{
	size_t len = strlen(s);

	return n >= len && !memcmp(p, s, len);
}

static const char *image_ext(const struct reader_image *img,
			     const unsigned char *p, size_t n)
{
	static const unsigned char spirv_le[] = { 0x03, 0x02, 0x23, 0x07 };
	static const unsigned char spirv_be[] = { 0x07, 0x23, 0x02, 0x03 };
	static const unsigned char bc[] = { 'B', 'C', 0xc0, 0xde };
	static const unsigned char bc_wrap[] = { 0xde, 0xc0, 0x17, 0x0b };
	size_t i;

	if (img->format == DEVIMG_FORMAT_COMPRESSED && p == img->bin)
		return "zst";
	if (img->format == DEVIMG_FORMAT_SPIRV)
		return "spv";
	if (img->format == DEVIMG_FORMAT_LLVMBC)
		return "bc";
	if (n >= 4 && (!memcmp(p, spirv_le, 4) || !memcmp(p, spirv_be, 4)))
		return "spv";
	if (n >= 4 && (!memcmp(p, bc, 4) || !memcmp(p, bc_wrap, 4)))
		return "bc";
	for (i = 0; i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
			      p[i] == '\r'); i++)
		;
	if (has_prefix(p + i, n - i, "//") ||
	    has_prefix(p + i, n - i, ".version"))
		return "ptx";
	return "bin";
}

/* The target as one safe path component. */
static void safe_target(const char *target, char *out, size_t len)
{
	size_t i;

	if (!*target)
		target = "none";
	for (i = 0; target[i] && i + 1 < len; i++) {
		char c = target[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.')
			out[i] = c;
		else
			out[i] = '_';
	}
	out[i] = '\0';
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Keyed (hashkey.h): the names come from the files dumped. */
static size_t name_hash(const char *s)
{
	return (size_t)siphash13(s, strlen(s));
}

/* The slot of s: where it is, or the empty one where it would go. */
static char **name_slot(const struct dump_names *ns, const char *s)
{
	size_t i = name_hash(s) & (ns->cap - 1);

	while (ns->slot[i] && strcmp(ns->slot[i], s))
		i = (i + 1) & (ns->cap - 1);
	return &ns->slot[i];
}

static int name_set_has(const struct dump_names *ns, const char *s)
{
	return ns->cap && *name_slot(ns, s);
}

static int name_set_add(struct dump_names *ns, const char *s)
{
	struct dump_names bigger = { NULL, 0, 0 };
	char **slot, *copy;
	size_t i;

	if (2 * (ns->n + 1) > ns->cap) {
		bigger.cap = ns->cap ? 2 * ns->cap : 64;
		bigger.slot = calloc(bigger.cap, sizeof(*bigger.slot));
		if (!bigger.slot)
			return -ENOMEM;
		for (i = 0; i < ns->cap; i++)
			if (ns->slot[i])
				*name_slot(&bigger, ns->slot[i]) = ns->slot[i];
		bigger.n = ns->n;
		free(ns->slot);
		*ns = bigger;
	}
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	slot = name_slot(ns, s);
	*slot = copy;
	ns->n++;
	return 0;
}

static void name_set_fini(struct dump_names *ns)
{
	size_t i;

	for (i = 0; i < ns->cap; i++)
		free(ns->slot[i]);
	free(ns->slot);
}

/*
 * DIR/FILE.INDEX.TARGET.EXT; when this run wrote that name already (two
 * inputs of the same base name, or names that meet once the suffix is
 * added), DIR/FILE.INDEX.TARGET.N.EXT with the smallest N from 2 that it
 * did not write either. -ENAMETOOLONG when no name fits.
 */
static int extract_name(const struct devimg_file *df,
			const struct reader_image *img, const char *dir,
			const struct dump_names *written, char *path,
			size_t len, const unsigned char *p, size_t n_bytes)
{
	const char *base = strrchr(df->fname, '/');
	const char *ext = image_ext(img, p, n_bytes);
	char target[128];
	unsigned n;
	int r;

	base = base ? base + 1 : df->fname;
	safe_target(img->target, target, sizeof(target));
	r = snprintf(path, len, "%s/%s.%u.%s.%s", dir, base, img->index,
		     target, ext);
	for (n = 2; r >= 0 && (size_t)r < len && name_set_has(written, path);
	     n++)
		r = snprintf(path, len, "%s/%s.%u.%s.%u.%s", dir, base,
			     img->index, target, n, ext);
	return r < 0 || (size_t)r >= len ? -ENAMETOOLONG : 0;
}

static int extract_bytes(const struct devimg_file *df,
			 const struct reader_image *img, struct dump_job *o,
			 const unsigned char *p, size_t n)
{
	struct errmsg err = { 0 };
	struct out_file out;
	char path[PATH_MAX];
	int ret;

	ret = extract_name(df, img, o->dir, &o->written, path, sizeof(path),
			   p, n);
	if (ret < 0) {
		esc_fprintf(stderr, NULL, PROG ": %s: image %u: --extract: path too long\n",
			    df->fname, img->index);
		return ret;
	}
	if (out_open(&out, path, &err) < 0) {
		esc_fprintf(stderr, NULL, PROG ": %s: image %u: %s\n",
			    df->fname, img->index, err.msg);
		return -EIO;
	}
	ret = write_all(out.fd, p, n);
	if (ret < 0) {
		out_abort(&out);
		esc_fprintf(stderr, NULL, PROG ": %s: image %u: %s: %s\n",
			    df->fname, img->index, path, strerror(-ret));
		return ret;
	}
	/* Remembered first: a name that cannot be remembered is not written. */
	ret = name_set_add(&o->written, path);
	if (ret < 0) {
		out_abort(&out);
		esc_fprintf(stderr, NULL, PROG ": %s: image %u: %s\n",
			    df->fname, img->index, strerror(-ret));
		return ret;
	}
	if (out_commit(&out, &err) < 0) {
		esc_fprintf(stderr, NULL, PROG ": %s: image %u: %s\n",
			    df->fname, img->index, err.msg);
		return -EIO;
	}
	esc_fprintf(stdout, NULL, "%s\n", path);
	return 0;
}

/* --extract's reason for a compressed image it cannot expand. */
static void unzstd_error(int status, const struct props_unzstd *z,
			 struct errmsg *err)
{
	if (status == PROPS_UNZSTD_NO_MEMORY)
		errmsg_set(err, "no memory for %llu expanded bytes",
			   z->declared);
	else if (status == PROPS_UNZSTD_CORRUPT)
		errmsg_set(err, "corrupt zstd frame: %s", z->detail);
	else if (status == PROPS_UNZSTD_SHORT)
		errmsg_set(err, "corrupt zstd frame: %zu bytes, %llu recorded",
			   z->size, z->declared);
	else
		errmsg_set(err, "%s", dump_unzstd_why(status));
}

static int extract_image(const struct devimg_file *df,
			 const struct reader_image *img, struct dump_job *o)
{
	struct props_unzstd z = { .head = 0, .want = PROPS_UNZSTD_ANY };
	const unsigned char *p = img->bin;
	size_t n = (size_t)img->bin_size;
	struct errmsg err = { 0 };
	int ret;

	/* A compressed image is written expanded unless --raw. */
	if (img->format == DEVIMG_FORMAT_COMPRESSED && !o->raw) {
		ret = props_unzstd(img->bin, n, &z);
		if (ret) {
			unzstd_error(ret, &z, &err);
			esc_fprintf(stderr, NULL, PROG ": %s: image %u: --extract: compressed image: %s\n",
				    df->fname, img->index, err.msg);
			return -EBADMSG;
		}
		p = z.buf;
		n = z.size;
	}
	ret = extract_bytes(df, img, o, p, n);
	free(z.buf);
	return ret;
}

int dump_extract_file(const struct devimg_file *df, struct dump_job *o)
{
	size_t i;
	int ret;

	for (i = 0; i < df->nimages; i++) {
		ret = extract_image(df, &df->images[i], o);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* The job holds nothing but the names --extract wrote. */
void dump_job_fini(struct dump_job *o)
{
	name_set_fini(&o->written);
}
