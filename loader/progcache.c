// SPDX-License-Identifier: MIT
/*
 * The program cache of a device: one built program per (image id, native
 * spec-constant values, build options). Builds run under the device's
 * cache lock, so two threads asking for the same program build it once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
