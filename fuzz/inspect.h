/* SPDX-License-Identifier: MIT */
/*
 * Shared by the harnesses that register images from other layouts than a
 * wrapped object's (blob, layout, bundle): every introspection and
 * selection call on a registered image, as fuzz-introspect.c makes them,
 * with the same oracles (a lookup finds what the sets hold, spec
 * constants are cached and their leaves lie inside them, an answer of 0
 * is a sound one), and the log callback that holds every message to one
 * line and counts the rejections.
 */
#ifndef DEVIMG_FUZZ_INSPECT_H
#define DEVIMG_FUZZ_INSPECT_H

#include <stdarg.h>

#include <devimg/devimg.h>

#include "fuzz/fuzz.h"

#define FUZZ_N(a) (sizeof(a) / sizeof((a)[0]))

/* "rejected: ..." (a descriptor) and "rejected image: ..." (one image). */
static unsigned fuzz_rejections, fuzz_image_rejections;

static inline void fuzz_log_fn(void *data, int priority, const char *file,
			       int line, const char *fn, const char *format,
			       va_list args)
	__attribute__((format(printf, 6, 0)));

static inline void fuzz_log_fn(void *data, int priority, const char *file,
			       int line, const char *fn, const char *format,
			       va_list args)
{
	char buf[1024];

	(void)data;
	(void)file;
	(void)line;
	(void)fn;
	vsnprintf(buf, sizeof(buf), format, args);
	FUZZ_ASSERT(!strchr(buf, '\n'), "a message of several lines: %s", buf);
	if (priority > DEVIMG_LOG_ERR)
		return;
	if (!strncmp(buf, "rejected: ", 10))
		fuzz_rejections++;
	else if (!strncmp(buf, "rejected image: ", 16))
		fuzz_image_rejections++;
}

static inline void fuzz_log_setup(void)
{
	devimg_set_log_fn(fuzz_log_fn, NULL);
	devimg_set_log_priority(DEVIMG_LOG_DEBUG);
}

static inline void fuzz_inspect_spec(struct devimg_image *img)
{
	const struct devimg_spec_const_info *consts = NULL, *again = NULL;
	const struct devimg_spec_native *list;
	struct devimg_spec_values *v = NULL;
	const void *defaults = NULL, *buf;
	unsigned char value[64] = { 1, 2, 3 };
	size_t n = 0, n2 = 0, dsize = 0, i, j, bsize, total = 0;

	if (devimg_image_spec_consts(img, &consts, &n, &defaults, &dsize) < 0)
		return;
	FUZZ_ASSERT(devimg_image_spec_consts(img, &again, &n2, NULL, NULL) ==
		    0 && again == consts && n2 == n, "spec consts not cached");
	for (i = 0; i < n; i++) {
		FUZZ_ASSERT(consts[i].name, "constant %zu without a name", i);
		for (j = 0; j < consts[i].nleaves; j++)
			FUZZ_ASSERT((uint64_t)consts[i].leaves[j].offset +
				    consts[i].leaves[j].size <= consts[i].size,
				    "leaf past its constant");
		total += consts[i].size;
	}
	FUZZ_ASSERT(!n || dsize == total, "defaults %zu for %zu bytes", dsize,
		    total);
	/* Bounded by DEVIMG_LIMIT_SPEC_CONSTS; copied by every set. */
	if (total > (1u << 20) || devimg_spec_values_new(img, &v) < 0)
		return;
	for (i = 0; i < n; i++)
		if (consts[i].size <= sizeof(value))
			FUZZ_ASSERT(devimg_spec_values_set(v, consts[i].name,
							   consts[i].size,
							   value) == 0,
				    "set constant %zu", i);
	devimg_spec_values_set(v, "no such constant", 1, value);
	devimg_spec_values_native(v, &list, &n2);
	for (i = 0; i < n2; i++)
		FUZZ_ASSERT(list[i].value, "native value %zu", i);
	FUZZ_ASSERT(devimg_spec_values_buffer(v, &buf, &bsize) == 0 &&
		    bsize == total, "buffer of %zu bytes for %zu", bsize,
		    total);
	devimg_spec_values_unref(v);
}

/* Every reading of a registered image; its kernels are its entries. */
static inline void fuzz_inspect_image(struct devimg_image *img)
{
	const struct devimg_propset_info *sets;
	const struct devimg_property_info *prop;
	struct devimg_image_reqs reqs = { .size = sizeof(reqs) };
	enum devimg_image_format fmt;
	const unsigned char *mask;
	const void *bytes;
	size_t n, i, j, size[3], nargs;
	unsigned dims;
	void *copy;

	devimg_image_guess_format(img, &fmt);
	if (devimg_image_bin_copy(img, &copy, &n) == 0) {
		FUZZ_ASSERT(n == devimg_image_bin_size(img) ||
			    devimg_image_format(img) ==
			    DEVIMG_FORMAT_COMPRESSED,
			    "copy of %zu bytes for %zu", n,
			    devimg_image_bin_size(img));
		FUZZ_ASSERT(devimg_image_bin(img, &bytes, &nargs) == 0 &&
			    nargs == n && (!n || !memcmp(bytes, copy, n)),
			    "the copy differs from the bytes");
		free(copy);
	}
	if (devimg_image_propsets(img, &sets, &n) == 0) {
		for (i = 0; i < n; i++) {
			FUZZ_ASSERT(sets[i].name, "set %zu without a name", i);
			/* Lookups see the first set of a name only. */
			for (j = 0; j < i; j++)
				if (!strcmp(sets[j].name, sets[i].name))
					break;
			if (j < i)
				continue;
			for (j = 0; j < sets[i].nprops; j++) {
				FUZZ_ASSERT(devimg_image_find_property(
						    img, sets[i].name,
						    sets[i].props[j].name,
						    &prop) == 0,
					    "property %zu of set %zu not found",
					    j, i);
				FUZZ_ASSERT(!strcmp(prop->name,
						    sets[i].props[j].name),
					    "found another property");
			}
		}
	}
	fuzz_inspect_spec(img);
	for (i = 0; i < devimg_image_entry_count(img) && i < 64; i++) {
		const char *k = devimg_image_entry_name(img, i);

		FUZZ_ASSERT(k, "entry %zu has no name", i);
		if (devimg_image_kernel_arg_mask(img, k, &mask, &nargs) == 0)
			FUZZ_ASSERT(!nargs || mask, "mask of %zu bits", nargs);
		if (devimg_image_reqd_work_group_size(img, k, &dims, size) == 0)
			FUZZ_ASSERT(dims <= 3 && size[0] && size[1] && size[2],
				    "reqd size of %u dimensions", dims);
	}
	if (devimg_image_requirements(img, &reqs) == 0) {
		FUZZ_ASSERT(reqs.wg_dims <= 3, "%u dimensions", reqs.wg_dims);
		FUZZ_ASSERT(!reqs.naspects == !reqs.aspects, "%zu aspects",
			    reqs.naspects);
	}
}

#define FUZZ_CAPS sizeof(struct devimg_device_caps)

static const struct devimg_device_caps fuzz_devices[] = {
	{ FUZZ_CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_CPU, 0, 1, 0, 0 },
	{ FUZZ_CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_GPU, 1, 0, 0, 1 },
	{ FUZZ_CAPS, DEVIMG_BACKEND_LEVEL_ZERO, DEVIMG_DEVICE_GPU, 1, 0, 0, 0 },
	{ FUZZ_CAPS, DEVIMG_BACKEND_CUDA, DEVIMG_DEVICE_GPU, 0, 0, 80, 1 },
};

/* Selection over the first n images (at most 16) for every device. */
static inline void fuzz_select(struct devimg_image *const *imgs, size_t n)
{
	struct devimg_device_features feat = { .size = sizeof(feat) };
	char reasons[16][DEVIMG_REASON_MAX];
	size_t i, k, chosen;
	int r;

	if (n > FUZZ_N(reasons))
		n = FUZZ_N(reasons);
	feat.aspects = 0xffff;
	feat.aspects_known = ~(uint64_t)0;
	feat.aspects_reported = 1;
	feat.nsub_group_sizes = 2;
	feat.sub_group_sizes[0] = 8;
	feat.sub_group_sizes[1] = 16;
	feat.max_work_group_size = 256;
	feat.max_work_item_sizes[0] = 256;
	feat.max_work_item_sizes[1] = 256;
	feat.max_work_item_sizes[2] = 64;
	for (i = 0; n && i < FUZZ_N(fuzz_devices); i++) {
		r = devimg_select_image(&fuzz_devices[i], imgs, n, &chosen,
					reasons);
		FUZZ_ASSERT(r < 0 || chosen < n, "chose %zu of %zu", chosen, n);
		r = devimg_select_image_with(&fuzz_devices[i], &feat, imgs, n,
					     &chosen, reasons);
		FUZZ_ASSERT(r < 0 || chosen < n, "chose %zu of %zu", chosen, n);
		for (k = 0; r < 0 && k < n; k++)
			FUZZ_ASSERT(memchr(reasons[k], '\0',
					   DEVIMG_REASON_MAX) &&
				    !strchr(reasons[k], '\n'),
				    "reason %zu: %.*s", k, DEVIMG_REASON_MAX,
				    reasons[k]);
	}
}

#endif
