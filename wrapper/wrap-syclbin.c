// SPDX-License-Identifier: MIT
/* devimg-wrap --syclbin: a wrap set as a SYCLBIN file (wrap-syclbin.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devimg/descriptor.h"
#include "util/devimg_limits.h"
#include "props/syclbin.h"
#include "wrapper/wrap-syclbin.h"
#include "util/errmsg.h"
#include "util/input.h"

static int errf(struct errmsg *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int errf(struct errmsg *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	errmsg_vset(err, fmt, ap);
	va_end(ap);
	return -1;
}

int wrap_syclbin_state(const char *name)
{
	static const char *const names[] = { "input", "object", "executable" };
	int i;

	for (i = 0; i < 3; i++)
		if (name && !strcmp(name, names[i]))
			return i;
	return -1;
}

/* The image file's bytes; its size must still be what was checked. */
static int read_image(const struct wrap_image *img, unsigned char **out,
		      struct errmsg *err)
{
	struct errmsg perr = { 0 };
	unsigned char *b;
	uint64_t size;
	size_t got = 0;
	ssize_t r;
	int fd;

	fd = input_open(img->path, DEVIMG_LIMIT_IMAGE_FILE, &size, &perr);
	if (fd < 0)
		return errf(err, "%s", perr.msg);
	if (size != img->size) {
		close(fd);
		return errf(err, "%s: changed size since it was checked", img->path);
	}
	b = malloc(size ? (size_t)size : 1);
	if (!b) {
		close(fd);
		return errf(err, "%s: %s", img->path, strerror(ENOMEM));
	}
	while (got < size) {
		r = read(fd, b + got, (size_t)size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			free(b);
			close(fd);
			return errf(err, "%s: %s", img->path,
				    r < 0 ? strerror(errno) : "shorter than when checked");
		}
		got += (size_t)r;
	}
	close(fd);
	*out = b;
	return 0;
}

/*
 * "spir64" names a triple as "spir64-unknown-unknown" (DPC++'s spelling);
 * no target is spir64 (what DPC++'s runtime takes any IR module for).
 */
static char *triple_of(const char *target)
{
	size_t n = strlen(target);
	char *t;

	if (!n)
		return strdup("spir64-unknown-unknown");
	if (strchr(target, '-'))
		return strdup(target);
	t = malloc(n + sizeof("-unknown-unknown"));
	if (t)
		snprintf(t, n + sizeof("-unknown-unknown"), "%s-unknown-unknown",
			 target);
	return t;
}

static char *compile_target(const struct props *p)
{
	const struct props_set *s = p ? props_find_set(p,
					PROPS_SET_DEVICE_REQS) : NULL;
	const struct props_prop *pr = s ? props_set_find(s, "compile_target") :
					  NULL;

	if (pr && pr->type == PROPS_BYTE_ARRAY && pr->size >= PROPS_BYTES_HEADER)
		return strndup((const char *)pr->data + PROPS_BYTES_HEADER,
			       pr->size - PROPS_BYTES_HEADER);
	return strdup("");
}

/*
 * Check img fits a SYCLBIN and add its kernel names to its sets; the set
 * is written even when empty, since a module's metadata must hold at least
 * one set to be read back.
 */
static int prepare(struct wrap_image *img, struct errmsg *err)
{
	struct props_set *s;
	size_t i;

	if (img->kind != DEVIMG_KIND_SYCL)
		return errf(err, "%s: --syclbin takes SYCL images only (-kind=sycl)",
			    img->path);
	if (img->format != DEVIMG_FORMAT_SPIRV &&
	    img->format != DEVIMG_FORMAT_NATIVE)
		return errf(err, "%s: --syclbin takes -format=spirv (IR module) or -format=native images only",
			    img->path);
	if (img->format == DEVIMG_FORMAT_NATIVE && !*img->target)
		return errf(err, "%s: --syclbin: a native image needs its -target",
			    img->path);
	if (img->has_manifest || *img->compile_opts || *img->link_opts)
		return errf(err, "%s: --syclbin: a SYCLBIN has no place for a manifest, compile or link options",
			    img->path);
	if (img->props && props_find_set(img->props, SYCLBIN_SET_KERNEL_NAMES)) {
		if (!img->has_entries)
			return 0;
		return errf(err, "%s: --syclbin: both -entries and a [%s] property set",
			    img->path, SYCLBIN_SET_KERNEL_NAMES);
	}
	if (!img->props && !(img->props = props_new()))
		return errf(err, "%s: %s", img->path, strerror(ENOMEM));
	s = props_add_set(img->props, SYCLBIN_SET_KERNEL_NAMES);
	for (i = 0; s && i < img->entries.n; i++)
		if (props_add_u32(s, img->entries.names[i], 1))
			s = NULL;
	if (!s)
		return errf(err, "%s: %s", img->path, strerror(ENOMEM));
	return 0;
}

static int write_all(int fd, const unsigned char *p, size_t n,
		     const char *out_name, struct errmsg *err)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return errf(err, "%s: %s", out_name, strerror(errno));
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int wrap_write_syclbin(struct wrap_set *set, uint32_t state, int fd,
		       const char *out_name, struct errmsg *err)
{
	struct syclbin_module_in *mods;
	struct syclbin_image_in *imgs;
	struct errmsg perr = { 0 };
	unsigned char *out = NULL;
	size_t i, n = set->nimages, size;
	int r = -1;

	mods = calloc(n ? n : 1, sizeof(*mods));
	imgs = calloc(n ? n : 1, sizeof(*imgs));
	if (!mods || !imgs) {
		errf(err, "%s: %s", out_name, strerror(ENOMEM));
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct wrap_image *img = &set->images[i];
		unsigned char *bytes = NULL;

		if (prepare(img, err) || read_image(img, &bytes, err))
			goto out;
		imgs[i].native = img->format == DEVIMG_FORMAT_NATIVE;
		imgs[i].data = bytes;
		imgs[i].size = (size_t)img->size;
		imgs[i].target = triple_of(img->target);
		imgs[i].arch = imgs[i].native ? compile_target(img->props) :
						strdup("");
		if (!imgs[i].target || !imgs[i].arch) {
			errf(err, "%s: %s", img->path, strerror(ENOMEM));
			goto out;
		}
		mods[i].meta = img->props;
		mods[i].images = &imgs[i];
		mods[i].nimages = 1;
	}
	if (syclbin_write(state, mods, n, SYCLBIN_FORM_ENVELOPE, &out, &size,
			  &perr)) {
		errf(err, "%s: %s", out_name, perr.msg);
		goto out;
	}
	r = write_all(fd, out, size, out_name, err);
out:
	for (i = 0; imgs && i < n; i++) {
		free((void *)imgs[i].data);
		free((char *)imgs[i].target);
		free((char *)imgs[i].arch);
	}
	free(imgs);
	free(mods);
	free(out);
	return r;
}
