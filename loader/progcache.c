// SPDX-License-Identifier: MIT
/*
 * The program cache of a device: one built program per (image id, native
 * spec-constant values, build options). Builds run under the device's
 * cache lock, so two threads asking for the same program build it once.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch.h"

struct progcache_entry {
	struct progcache_entry *next;
	uint64_t image_id;
	char *options;
	void *key;
	size_t key_size;
	struct devimg_plugin_program *prog;
};

static struct progcache_entry *cache_find(struct devimg_device *dev,
					  uint64_t id, const char *options,
					  const void *key, size_t key_size)
{
	struct progcache_entry *e;

	for (e = dev->cache; e; e = e->next)
		if (e->image_id == id && e->key_size == key_size &&
		    !strcmp(e->options, options) &&
		    (key_size == 0 || !memcmp(e->key, key, key_size)))
			return e;
	return NULL;
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

/* Called without locks held: it may log. */
static void dump_image(struct devimg_image *img, enum devimg_image_format fmt)
{
	const char *dir = getenv("DEVIMG_DUMP_IMAGES");
	void *bytes;
	size_t size;
	int err;

	if (!dir || !*dir)
		return;
	err = devimg_image_bin_copy(img, &bytes, &size);
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
		return dispatch_error(err, "image %u (target %s): %s",
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
		return dispatch_error(err, "cannot create a program from image %u (target %s) on %s: %s",
				      devimg_image_index(img),
				      devimg_image_target(img),
				      devimg_device_name(dev),
				      devimg_plugin_last_error(dev->plugin));
	return 0;
}

static int program_build(struct devimg_device *dev, struct devimg_image *img,
			 struct devimg_plugin_program *prog,
			 const char *options, struct devimg_spec_values *spec)
{
	const struct devimg_spec_native *list;
	size_t n = 0, i;
	int err;

	if (spec) {
		err = devimg_spec_values_native(spec, &list, &n);
		if (err < 0)
			return dispatch_error(err, "spec constants: %s",
					      devimg_strerror(err));
	}
	for (i = 0; i < n; i++) {
		err = devimg_plugin_program_set_spec_const(dev->plugin, prog,
							   list[i].id,
							   list[i].size,
							   list[i].value);
		if (err < 0)
			return dispatch_error(err, "cannot set SpecId %u of image %u on %s: %s",
					      list[i].id,
					      devimg_image_index(img),
					      devimg_device_name(dev),
					      devimg_plugin_last_error(dev->plugin));
	}
	atomic_fetch_add(&dev->ctx->builds, 1);
	err = devimg_plugin_program_build(dev->plugin, prog, options);
	if (err < 0)
		return dispatch_error(err, "building image %u (target %s) for %s with options '%s' failed: %s",
				      devimg_image_index(img),
				      devimg_image_target(img),
				      devimg_device_name(dev), options,
				      devimg_plugin_last_error(dev->plugin));
	return 0;
}

int progcache_get(struct devimg_device *dev, struct devimg_image *img,
		  enum devimg_image_format fmt, const char *options,
		  struct devimg_spec_values *spec, const void *spec_key,
		  size_t key_size, struct devimg_plugin_program **out)
{
	uint64_t id = devimg_image_id(img);
	struct devimg_plugin_program *prog = NULL;
	struct progcache_entry *e;
	int err;

	pthread_mutex_lock(&dev->cache_lock);
	e = cache_find(dev, id, options, spec_key, key_size);
	if (e) {
		*out = e->prog;
		pthread_mutex_unlock(&dev->cache_lock);
		return 0;
	}
	err = program_create(dev, img, fmt, &prog);
	if (err == 0)
		err = program_build(dev, img, prog, options, spec);
	if (err == 0) {
		e = calloc(1, sizeof(*e));
		if (e) {
			e->options = strdup(options);
			e->key = key_size ? malloc(key_size) : NULL;
		}
		if (!e || !e->options || (key_size && !e->key)) {
			if (e) {
				free(e->options);
				free(e->key);
				free(e);
			}
			err = dispatch_error(-ENOMEM, "program cache: out of memory");
		}
	}
	if (err < 0) {
		if (prog)
			devimg_plugin_program_release(dev->plugin, prog);
		pthread_mutex_unlock(&dev->cache_lock);
		return err;
	}
	e->image_id = id;
	if (key_size)
		memcpy(e->key, spec_key, key_size);
	e->key_size = key_size;
	e->prog = prog;
	e->next = dev->cache;
	dev->cache = e;
	pthread_mutex_unlock(&dev->cache_lock);
	dump_image(img, fmt);
	*out = prog;
	return 0;
}

void progcache_free(struct devimg_device *dev)
{
	struct progcache_entry *e, *next;

	for (e = dev->cache; e; e = next) {
		next = e->next;
		devimg_plugin_program_release(dev->plugin, e->prog);
		free(e->options);
		free(e->key);
		free(e);
	}
	dev->cache = NULL;
}
