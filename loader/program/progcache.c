// SPDX-License-Identifier: MIT
/*
 * The program cache of a device: one program per (kind, image ids, native
 * spec-constant values, options), where the kind is a program built from
 * one image, an object compiled from one image for linking, or a program
 * linked from the objects of several images (the root image first, then
 * the images it imports from). Builds, compiles and links run under the
 * device's cache lock, so two threads asking for one program make it
 * once. Programs live as long as the context.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/program/program.h"

struct progcache_entry {
	struct progcache_entry *next;
	enum progcache_kind kind;
	uint64_t *ids;			/* the root image first */
	size_t nids;
	char *options;
	void *key;
	size_t key_size;
	struct devimg_plugin_program *prog;
};

/* What a cached program is made of, and how. */
struct cache_key {
	enum progcache_kind kind;
	const uint64_t *ids;
	size_t nids;
	const char *options;
	const void *spec;
	size_t spec_size;
};

static struct progcache_entry *cache_find(struct devimg_device *dev,
					  const struct cache_key *k)
{
	struct progcache_entry *e;

	for (e = dev->cache; e; e = e->next)
		if (e->kind == k->kind && e->nids == k->nids &&
		    !memcmp(e->ids, k->ids, k->nids * sizeof(*k->ids)) &&
		    e->key_size == k->spec_size &&
		    !strcmp(e->options, k->options) &&
		    (!k->spec_size || !memcmp(e->key, k->spec, k->spec_size)))
			return e;
	return NULL;
}

static void entry_free(struct progcache_entry *e)
{
	free(e->ids);
	free(e->options);
	free(e->key);
	free(e);
}

/* Keep prog under k (dev->cache_lock held); -ENOMEM leaves prog alone. */
static int cache_add(struct devimg_device *dev, const struct cache_key *k,
		     struct devimg_plugin_program *prog)
{
	struct progcache_entry *e = calloc(1, sizeof(*e));

	if (!e)
		goto nomem;
	e->ids = malloc(k->nids * sizeof(*e->ids));
	e->options = strdup(k->options);
	e->key = k->spec_size ? malloc(k->spec_size) : NULL;
	if (!e->ids || !e->options || (k->spec_size && !e->key)) {
		entry_free(e);
		goto nomem;
	}
	e->kind = k->kind;
	memcpy(e->ids, k->ids, k->nids * sizeof(*e->ids));
	e->nids = k->nids;
	if (k->spec_size)
		memcpy(e->key, k->spec, k->spec_size);
	e->key_size = k->spec_size;
	e->prog = prog;
	e->next = dev->cache;
	dev->cache = e;
	return 0;
nomem:
	return backend_fail(-ENOMEM, "program cache: out of memory");
}

static const char *dump_suffix(enum devimg_image_format fmt,
			       const void *bytes, size_t size)
{
	unsigned sm;

	switch (fmt) {
	case DEVIMG_FORMAT_SPIRV:
		return "spv";
	case DEVIMG_FORMAT_LLVMBC:
		return "bc";
	default:
		return image_content_of(bytes, size, &sm) == CONTENT_PTX ?
			"ptx" : "bin";
	}
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * DEVIMG_DUMP_IMAGES=DIR: the bytes of an image that was just built, as
 * DIR/<target>-<image id>.<spv|bc|ptx|bin>, written to a temporary file
 * and renamed. A failure is logged as an error (the user asked for the
 * files) and does not stop the build.
 */
static void dump_bytes(struct devimg_image *img, enum devimg_image_format fmt,
		       const char *dir, const void *bytes, size_t size)
{
	char path[4096], tmp[4096 + 8];
	int fd, err, n;

	n = snprintf(path, sizeof(path), "%s/%s-%" PRIu64 ".%s", dir,
		     devimg_image_target(img), devimg_image_id(img),
		     dump_suffix(fmt, bytes, size));
	if (n < 0 || (size_t)n >= sizeof(path) ||
	    strchr(devimg_image_target(img), '/')) {
		log_err("DEVIMG_DUMP_IMAGES: no file name for image %" PRIu64,
			 devimg_image_id(img));
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		log_err("DEVIMG_DUMP_IMAGES: %s: %s", tmp, strerror(errno));
		return;
	}
	err = write_all(fd, bytes, size);
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err) {
		log_err("DEVIMG_DUMP_IMAGES: %s: %s", path, strerror(-err));
		unlink(tmp);
		return;
	}
	log_info("dumped image %" PRIu64 " to %s", devimg_image_id(img), path);
}

/*
 * Called without locks held: it may log. DEVIMG_DUMP_IMAGES makes the
 * library write files, so a setuid or setgid program ignores it
 * (secure_getenv() in env.c), as it ignores DEVIMG_PLUGIN_PATH.
 */
static void dump_image(struct devimg_image *img, enum devimg_image_format fmt)
{
	const char *dir = devimg_env(DEVIMG_ENV_DUMP_IMAGES);
	void *bytes;
	size_t size;
	int err;

	if (!dir || !*dir)
		return;
	error_hold();
	err = devimg_image_bin_copy(img, &bytes, &size);
	error_release();
	if (err < 0) {
		log_err("DEVIMG_DUMP_IMAGES: image %" PRIu64 ": %s",
			 devimg_image_id(img), devimg_strerror(err));
		return;
	}
	dump_bytes(img, fmt, dir, bytes, size);
	free(bytes);
}

static int program_create(struct devimg_device *dev, struct devimg_image *img,
			  enum devimg_image_format fmt,
			  struct devimg_plugin_program **out)
{
	void *bytes;
	size_t size;
	int err;

	err = devimg_image_bin_copy(img, &bytes, &size);
	if (err < 0)
		return backend_fail(err, "image %u (target %s): %s",
				    devimg_image_index(img),
				    devimg_image_target(img),
				    devimg_strerror(err));
	switch (fmt) {
	case DEVIMG_FORMAT_SPIRV:
		err = devimg_plugin_program_create_il(dev->plugin, dev->pctx,
						      dev->pdev, bytes, size,
						      out);
		break;
	case DEVIMG_FORMAT_LLVMBC:
		err = devimg_plugin_program_create_binary(dev->plugin, dev->pctx,
			dev->pdev, DEVIMG_PLUGIN_BINARY_SPIR, bytes, size, out);
		break;
	default:
		err = devimg_plugin_program_create_binary(dev->plugin, dev->pctx,
			dev->pdev, DEVIMG_PLUGIN_BINARY_NATIVE, bytes, size, out);
		break;
	}
	free(bytes);
	if (err < 0)
		return backend_fail(err, "cannot create a program from image %u (target %s) on %s: %s",
				    devimg_image_index(img),
				    devimg_image_target(img),
				    devimg_device_name(dev),
				    devimg_plugin_last_error(dev->plugin));
	return 0;
}

/* The native spec-constant values of spec (NULL: none) onto prog. */
static int program_spec(struct devimg_device *dev, struct devimg_image *img,
			struct devimg_plugin_program *prog,
			struct devimg_spec_values *spec)
{
	const struct devimg_spec_native *list;
	size_t n = 0, i;
	int err;

	if (spec) {
		err = devimg_spec_values_native(spec, &list, &n);
		if (err < 0)
			return backend_fail(err, "spec constants: %s",
					    devimg_strerror(err));
	}
	for (i = 0; i < n; i++) {
		err = devimg_plugin_program_set_spec_const(dev->plugin, prog,
							   list[i].id,
							   list[i].size,
							   list[i].value);
		if (err < 0)
			return backend_fail(err, "cannot set SpecId %u of image %u on %s: %s",
					    list[i].id,
					    devimg_image_index(img),
					    devimg_device_name(dev),
					    devimg_plugin_last_error(dev->plugin));
	}
	return 0;
}

static int program_build(struct devimg_device *dev, struct devimg_image *img,
			 struct devimg_plugin_program *prog,
			 const char *options, struct devimg_spec_values *spec)
{
	int err;

	err = program_spec(dev, img, prog, spec);
	if (err < 0)
		return err;
	atomic_fetch_add(dev->builds, 1);
	err = devimg_plugin_program_build(dev->plugin, prog, options);
	if (err < 0)
		return backend_fail(err, "building image %u (target %s) for %s with options '%s' failed: %s",
				    devimg_image_index(img),
				    devimg_image_target(img),
				    devimg_device_name(dev), options,
				    devimg_plugin_last_error(dev->plugin));
	return 0;
}

static int program_compile(struct devimg_device *dev,
			   struct devimg_image *img,
			   struct devimg_plugin_program *prog,
			   const char *options, struct devimg_spec_values *spec)
{
	int err;

	err = devimg_plugin_need_link(dev->plugin);
	if (err < 0)
		return backend_fail(err, "%s",
				    devimg_plugin_last_error(dev->plugin));
	err = program_spec(dev, img, prog, spec);
	if (err < 0)
		return err;
	atomic_fetch_add(dev->builds, 1);
	err = devimg_plugin_program_compile(dev->plugin, prog, options);
	if (err < 0)
		return backend_fail(err, "compiling image %u (target %s) for %s with options '%s' failed: %s",
				    devimg_image_index(img),
				    devimg_image_target(img),
				    devimg_device_name(dev), options,
				    devimg_plugin_last_error(dev->plugin));
	return 0;
}

/*
 * The program of img (built, or compiled into an object) from the cache,
 * or made and kept there (dev->cache_lock held). *made (may be NULL): it
 * was made now, so that the caller dumps img once the lock is dropped.
 */
static int get_locked(struct devimg_device *dev, enum progcache_kind kind,
		      struct devimg_image *img, enum devimg_image_format fmt,
		      const char *options, struct devimg_spec_values *spec,
		      const void *spec_key, size_t key_size,
		      struct devimg_plugin_program **out, bool *made)
{
	uint64_t id = devimg_image_id(img);
	struct cache_key k = {
		.kind = kind, .ids = &id, .nids = 1, .options = options,
		.spec = spec_key, .spec_size = key_size,
	};
	struct devimg_plugin_program *prog = NULL;
	struct progcache_entry *e;
	int err;

	e = cache_find(dev, &k);
	if (made)
		*made = !e;
	if (e) {
		*out = e->prog;
		return 0;
	}
	err = program_create(dev, img, fmt, &prog);
	if (err == 0 && kind == PROGCACHE_BUILT)
		err = program_build(dev, img, prog, options, spec);
	else if (err == 0)
		err = program_compile(dev, img, prog, options, spec);
	if (err == 0)
		err = cache_add(dev, &k, prog);
	if (err < 0) {
		if (prog)
			devimg_plugin_program_release(dev->plugin, prog);
		return err;
	}
	if (kind == PROGCACHE_BUILT)
		global_program_built(dev, &img, 1, prog);
	*out = prog;
	return 0;
}

int progcache_get(struct devimg_device *dev, struct devimg_image *img,
		  enum devimg_image_format fmt, const char *options,
		  struct devimg_spec_values *spec, const void *spec_key,
		  size_t key_size, struct devimg_plugin_program **out)
{
	struct devimg_plugin_program *prog;
	bool made;
	int err;

	pthread_mutex_lock(&dev->cache_lock);
	err = get_locked(dev, PROGCACHE_BUILT, img, fmt, options, spec,
			 spec_key, key_size, &prog, &made);
	pthread_mutex_unlock(&dev->cache_lock);
	if (err < 0)
		return err;
	if (made)
		dump_image(img, fmt);
	*out = prog;
	return 0;
}

int progcache_get_object(struct devimg_device *dev, struct devimg_image *img,
			 enum devimg_image_format fmt, const char *options,
			 struct devimg_spec_values *spec, const void *spec_key,
			 size_t key_size, struct devimg_plugin_program **out)
{
	int err;

	pthread_mutex_lock(&dev->cache_lock);
	err = get_locked(dev, PROGCACHE_OBJECT, img, fmt, options, spec,
			 spec_key, key_size, out, NULL);
	pthread_mutex_unlock(&dev->cache_lock);
	return err;
}

/*
 * A link of one image with native spec-constant values, on a device whose
 * links drop them (DEVIMG_PLUGIN_CAP_LINK_DROPS_SPEC_CONSTANTS: Mesa's
 * rusticl): built from the image instead, its compile options then the
 * link options (dev->cache_lock held), as one module linked alone is that
 * module built. docs/platforms.md says so.
 */
static int build_for_link(struct devimg_device *dev,
			  const struct progcache_unit *u, const char *options,
			  struct devimg_plugin_program **out)
{
	size_t len = strlen(u->options) + strlen(options) + 2;
	struct devimg_plugin_program *prog = NULL;
	char *both = malloc(len);
	int err;

	if (!both)
		return backend_fail(-ENOMEM, "program cache: out of memory");
	snprintf(both, len, "%s%s%s", u->options, *u->options && *options ?
		 " " : "", options);
	err = program_create(dev, u->img, u->fmt, &prog);
	if (err == 0)
		err = program_build(dev, u->img, prog, both, u->spec);
	free(both);
	if (err < 0) {
		if (prog)
			devimg_plugin_program_release(dev->plugin, prog);
		return err;
	}
	global_program_built(dev, &u->img, 1, prog);
	*out = prog;
	return 0;
}

/* Link the objects of u (dev->cache_lock held). */
static int link_locked(struct devimg_device *dev,
		       const struct progcache_unit *u, size_t n,
		       const char *options, struct devimg_plugin_program **objs,
		       struct devimg_plugin_program **out)
{
	size_t i;
	int err;

	if (n == 1 && u[0].spec &&
	    dev->info->caps & DEVIMG_PLUGIN_CAP_LINK_DROPS_SPEC_CONSTANTS)
		return build_for_link(dev, u, options, out);

	for (i = 0; i < n; i++) {
		err = get_locked(dev, PROGCACHE_OBJECT, u[i].img, u[i].fmt,
				 u[i].options, u[i].spec, u[i].spec_key,
				 u[i].key_size, &objs[i], NULL);
		if (err < 0)
			return err;
	}
	atomic_fetch_add(dev->builds, 1);
	err = devimg_plugin_program_link(dev->plugin, dev->pctx, dev->pdev,
					 (unsigned)n, objs, options, out);
	if (err < 0)
		return backend_fail(err, "linking image %u (target %s) with %zu other image(s) for %s with options '%s' failed: %s",
				    devimg_image_index(u[0].img),
				    devimg_image_target(u[0].img), n - 1,
				    devimg_device_name(dev), options,
				    devimg_plugin_last_error(dev->plugin));
	for (i = 0; i < n; i++)
		global_program_built(dev, &u[i].img, 1, *out);
	return 0;
}

int progcache_get_linked(struct devimg_device *dev,
			 const struct progcache_unit *u, size_t n,
			 const char *options,
			 struct devimg_plugin_program **out)
{
	struct devimg_plugin_program **objs = NULL, *prog = NULL;
	uint64_t *ids;
	struct cache_key k = {
		.kind = PROGCACHE_LINKED, .nids = n, .options = options,
		.spec = u[0].spec_key, .spec_size = u[0].key_size,
	};
	struct progcache_entry *e;
	size_t i;
	int err;

	ids = calloc(n, sizeof(*ids));
	objs = calloc(n, sizeof(*objs));
	if (!ids || !objs) {
		free(ids);
		free(objs);
		return backend_fail(-ENOMEM, "program cache: out of memory");
	}
	for (i = 0; i < n; i++)
		ids[i] = devimg_image_id(u[i].img);
	k.ids = ids;
	pthread_mutex_lock(&dev->cache_lock);
	e = cache_find(dev, &k);
	if (e) {
		prog = e->prog;
		err = 0;
	} else {
		err = link_locked(dev, u, n, options, objs, &prog);
		if (err == 0) {
			err = cache_add(dev, &k, prog);
			if (err < 0)
				devimg_plugin_program_release(dev->plugin,
							      prog);
		}
	}
	pthread_mutex_unlock(&dev->cache_lock);
	free(ids);
	free(objs);
	if (err < 0)
		return err;
	*out = prog;
	return 0;
}

void progcache_free(struct devimg_device *dev)
{
	struct progcache_entry *e, *next;

	for (e = dev->cache; e; e = next) {
		next = e->next;
		devimg_plugin_program_release(dev->plugin, e->prog);
		entry_free(e);
	}
	dev->cache = NULL;
}
