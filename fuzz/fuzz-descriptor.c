// SPDX-License-Identifier: MIT
/*
 * Descriptor validation at registration. The input drives the building of
 * a binary descriptor whose every pointer is valid memory: strings and
 * byte spans point into a NUL-terminated copy of the input (the arena),
 * and the arrays of images, entries, property sets and properties are
 * allocated to exactly their element count. Everything the library cannot
 * check for itself is thus sound, and everything it must check (versions,
 * kinds, formats, NULL and reversed spans, spans that are not whole
 * elements, counts, property types and sizes, names) is the input's.
 * The descriptor is registered (twice, when the input says so), the
 * registry read (settling it), its images inspected (property sets, spec
 * constants, launch metadata, selection) when every byte array lies in
 * the arena, and the descriptor unregistered. Oracles: a rejection logs
 * exactly one one-line "rejected: descriptor ..." error and registers
 * nothing; an accepted descriptor shows its images with the descriptor's
 * fields.
 */
#include <errno.h>
#include <stdarg.h>

#include <devimg/devimg.h>

#include "fuzz/fuzz.h"

#define MAX_IMAGES 8
#define MAX_ENTRIES 16
#define MAX_SETS 4
#define MAX_PROPS 8

struct in {
	const uint8_t *p;
	size_t n;
	unsigned char *arena;	/* input copy plus a NUL */
	size_t alen;
	int unsafe;		/* a byte array reaches past the arena */
};

static uint64_t take(struct in *in, unsigned bytes)
{
	uint64_t v = 0;

	while (bytes--) {
		v = v << 8;
		if (in->n) {
			v |= *in->p++;
			in->n--;
		}
	}
	return v;
}

#define take8(in) ((unsigned)take(in, 1))
#define take16(in) ((unsigned)take(in, 2))

/* NULL, or a place in the arena (NUL-terminated from there). */
static void *arena_ptr(struct in *in)
{
	unsigned v = take16(in);

	return v == 0xffff ? NULL : in->arena + v % in->alen;
}

static size_t arena_left(const struct in *in, const void *p)
{
	return (size_t)(in->arena + in->alen - (const unsigned char *)p);
}

static const char *pick(struct in *in, const char *const *names, size_t n)
{
	unsigned v = take8(in);

	return v < 0xf0 ? names[v % n] : arena_ptr(in);
}

/* begin/end of bytes: mostly in the arena in order, or anything. */
static void byte_span(struct in *in, const void **b, const void **e)
{
	unsigned mode = take8(in);
	const unsigned char *p = arena_ptr(in);
	size_t len;

	*b = p;
	if (mode % 4 == 0 || !p) {
		*e = arena_ptr(in);
		return;
	}
	len = take16(in);
	if (len > arena_left(in, p))
		len = arena_left(in, p);
	*e = p + len;
}

/*
 * begin/end over n elements of elem bytes at arr (allocated for at least
 * one): whole, empty, NULL, half NULL, reversed, not whole elements, or a
 * sub-range. None of them points outside the allocation.
 */
static void elem_span(struct in *in, void *arr, size_t n, size_t elem,
		      void *b, void *e)
{
	char *base = arr, **pb = b, **pe = e;
	size_t lo, hi;

	switch (take8(in) % 8) {
	case 1:
		*pb = *pe = NULL;
		break;
	case 2:
		*pb = NULL;
		*pe = base;
		break;
	case 3:
		*pb = base;
		*pe = NULL;
		break;
	case 4:
		*pb = base + n * elem;
		*pe = base;
		break;
	case 5:
		*pb = base;
		*pe = n ? base + n * elem - 1 - take8(in) % (elem - 1) :
			  base + 1 + take8(in) % (elem - 1);
		break;
	case 6:
		lo = take8(in) % (n + 1);
		hi = lo + take8(in) % (n - lo + 1);
		*pb = base + lo * elem;
		*pe = base + hi * elem;
		break;
	default:
		*pb = base;
		*pe = base + n * elem;
		break;
	}
}

static const char *const targets[] = {
	"spir64", "spir64_x86_64", "spir64_gen", "spir64_fpga", "nvptx64",
	"amdgcn", "native_cpu", "",
};
static const char *const kernels[] = {
	"k0", "k1", "k2", "k3", "shared", "kernel_with_a_longer_name", "x", "",
};
static const char *const set_names[] = {
	"SYCL/specialization constants",
	"SYCL/specialization constants default values",
	"SYCL/kernel param opt",
	"SYCL/program metadata",
	"SYCL/device requirements",
	"SYCL/misc properties",
	"SYCL/devicelib req mask",
	"",
};
static const char *const prop_names[] = {
	"all", "k0", "k1", "aspects", "reqd_sub_group_size",
	"reqd_work_group_size", "reqd_work_group_size_uint64_t",
	"work_group_num_dim", "k0@reqd_work_group_size",
	"k0@max_work_group_size", "shared", "c0",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void build_prop(struct in *in, struct devimg_property *p)
{
	unsigned t = take8(in);
	size_t left;

	p->name = (char *)pick(in, prop_names, N(prop_names));
	p->type = t < 0xf0 ? t % 4 : (uint32_t)take(in, 4);
	p->value = arena_ptr(in);
	if (take8(in) & 1) {
		p->size = take(in, 8);
	} else {
		p->size = take16(in);
		if (p->value && p->size > (left = arena_left(in, p->value)))
			p->size = left;
	}
	if (p->type == 2 && p->value && p->size > arena_left(in, p->value))
		in->unsafe = 1;
}

/* Everything the descriptor points to, freed after unregistration. */
#define OWNED_ROOM (3 + MAX_IMAGES * (2 + MAX_SETS))

static int build_set(struct in *in, struct fuzz_owned *o,
		     struct devimg_property_set *s)
{
	size_t n = take8(in) % (MAX_PROPS + 1), i;
	struct devimg_property *props;

	props = fuzz_own(o, calloc(n ? n : 1, sizeof(*props)));
	if (!props)
		return -1;
	s->name = (char *)pick(in, set_names, N(set_names));
	for (i = 0; i < n; i++)
		build_prop(in, &props[i]);
	elem_span(in, props, n, sizeof(*props), &s->begin, &s->end);
	return 0;
}

static int build_image(struct in *in, struct fuzz_owned *o,
		       struct devimg_device_image *img)
{
	unsigned f = take8(in);
	struct devimg_offload_entry *ents;
	struct devimg_property_set *sets;
	const void *b, *e;
	size_t n, i;

	img->version = f & 1 ? take16(in) : 2;
	/* 3 says the array holds 80-byte images: not what is built here. */
	if (img->version == 3)
		img->version = 4;
	img->kind = f & 2 ? take8(in) : 4;
	img->format = f & 4 ? take8(in) : take8(in) % 4;
	img->target = f & 8 ? arena_ptr(in) : targets[take8(in) % N(targets)];
	img->compile_opts = arena_ptr(in);
	img->link_opts = arena_ptr(in);
	byte_span(in, &b, &e);
	img->bin_begin = b;
	img->bin_end = e;
	if (f & 16) {
		byte_span(in, &b, &e);
		img->manifest_begin = b;
		img->manifest_end = e;
	}

	n = take8(in) % (MAX_ENTRIES + 1);
	ents = fuzz_own(o, calloc(n ? n : 1, sizeof(*ents)));
	if (!ents)
		return -1;
	for (i = 0; i < n; i++) {
		ents[i].name = (char *)pick(in, kernels, N(kernels));
		if (f & 32) {
			ents[i].addr = arena_ptr(in);
			ents[i].size = take(in, 8);
			ents[i].flags = (int32_t)take(in, 4);
		}
	}
	elem_span(in, ents, n, sizeof(*ents), &img->entries_begin,
		  &img->entries_end);

	n = take8(in) % (MAX_SETS + 1);
	sets = fuzz_own(o, calloc(n ? n : 1, sizeof(*sets)));
	if (!sets)
		return -1;
	for (i = 0; i < n; i++)
		if (build_set(in, o, &sets[i]) < 0)
			return -1;
	elem_span(in, sets, n, sizeof(*sets), &img->props_begin,
		  &img->props_end);
	return 0;
}

/* ---- the log: every message formatted, rejections counted ---- */

static unsigned rejections;

static void log_fn(void *data, int priority, const char *file, int line,
		   const char *fn, const char *format, va_list args)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), format, args);
	/* Other errors (of the image inspected) may quote input strings. */
	if (priority > DEVIMG_LOG_ERR || strncmp(buf, "rejected: ", 10))
		return;
	fuzz_check_msg(buf, sizeof(buf), "rejected: descriptor ");
	rejections++;
}

/* ---- looking at what was registered ---- */

#define CAPS sizeof(struct devimg_device_caps)

static const struct devimg_device_caps devices[] = {
	{ CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_CPU, 0, 1, 0, 0 },
	{ CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_GPU, 1, 0, 0, 1 },
	{ CAPS, DEVIMG_BACKEND_LEVEL_ZERO, DEVIMG_DEVICE_GPU, 1, 0, 0, 0 },
	{ CAPS, DEVIMG_BACKEND_CUDA, DEVIMG_DEVICE_GPU, 0, 0, 80, 1 },
};

static void inspect_spec(struct devimg_image *img)
{
	const struct devimg_spec_const_info *consts = NULL;
	const struct devimg_spec_native *list;
	struct devimg_spec_values *v = NULL;
	const void *defaults, *buf;
	unsigned char value[64] = { 1, 2, 3 };
	size_t n = 0, dsize, i, bsize;

	if (devimg_image_spec_consts(img, &consts, &n, &defaults, &dsize) < 0)
		return;
	/*
	 * Constants may declare up to 4 GiB, zeros where the image has no
	 * defaults: allocated (untouched) by the image, but copied by every
	 * set of values. Run with -malloc_limit_mb above 4096.
	 */
	for (i = 0, bsize = 0; i < n; i++)
		bsize += consts[i].size;
	if (bsize > (1u << 20))
		return;
	if (devimg_spec_values_new(img, &v) < 0)
		return;
	for (i = 0; i < n; i++)
		if (consts[i].size <= sizeof(value))
			devimg_spec_values_set(v, consts[i].name,
					       consts[i].size, value);
	devimg_spec_values_set(v, "no such constant", 1, value);
	devimg_spec_values_native(v, &list, &n);
	devimg_spec_values_buffer(v, &buf, &bsize);
	devimg_spec_values_unref(v);
}

static void inspect(struct devimg_image *img)
{
	const struct devimg_propset_info *sets;
	const struct devimg_property_info *prop;
	struct devimg_image_reqs reqs = { .size = sizeof(reqs) };
	enum devimg_image_format fmt;
	const unsigned char *mask;
	size_t n, i, size[3];
	unsigned dims;
	void *copy;

	devimg_image_guess_format(img, &fmt);
	if (devimg_image_bin_copy(img, &copy, &n) == 0) {
		FUZZ_ASSERT(n == devimg_image_bin_size(img) ||
			    devimg_image_format(img) == DEVIMG_FORMAT_COMPRESSED,
			    "copy size");
		free(copy);
	}
	if (devimg_image_propsets(img, &sets, &n) == 0)
		for (i = 0; i < n; i++)
			FUZZ_ASSERT(sets[i].name, "set %zu without a name", i);
	devimg_image_find_property(img, "SYCL/misc properties", "k0", &prop);
	inspect_spec(img);
	for (i = 0; i < devimg_image_entry_count(img); i++) {
		const char *k = devimg_image_entry_name(img, i);

		devimg_image_kernel_arg_mask(img, k, &mask, &n);
		devimg_image_reqd_work_group_size(img, k, &dims, size);
	}
	devimg_image_requirements(img, &reqs);
}

static void check_image(struct devimg_image *img,
			const struct devimg_device_binaries *desc)
{
	const struct devimg_device_image *di;
	struct devimg_image *found[MAX_IMAGES + 1];
	unsigned idx = devimg_image_index(img);
	size_t i, n;

	FUZZ_ASSERT(devimg_image_descriptor(img) == desc, "descriptor");
	FUZZ_ASSERT(idx < desc->count, "index %u", idx);
	di = &desc->images[idx];
	FUZZ_ASSERT(!strcmp(devimg_image_target(img), di->target), "target");
	FUZZ_ASSERT(devimg_image_bin_size(img) ==
		    (size_t)(di->bin_end - di->bin_begin), "bin size");
	FUZZ_ASSERT(devimg_image_entry_count(img) ==
		    (size_t)(di->entries_end - di->entries_begin), "entries");
	for (i = 0; i < devimg_image_entry_count(img); i++) {
		const char *k = devimg_image_entry_name(img, i);

		FUZZ_ASSERT(k && !strcmp(k, di->entries_begin[i].name),
			    "entry %zu", i);
		FUZZ_ASSERT(devimg_registry_find_kernel(k, found, N(found),
							&n) == 0 && n >= 1,
			    "entry %zu '%s' not found", i, k);
		while (n--)
			if (n < N(found))
				devimg_image_unref(found[n]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct devimg_device_binaries desc = { 0 };
	struct devimg_device_image *images;
	struct devimg_offload_entry *host;
	struct devimg_image *imgs[MAX_IMAGES];
	FUZZ_OWNED(o, OWNED_ROOM);
	struct in in = { data, size, NULL, size + 1, 0 };
	unsigned f, nhost, before;
	size_t count, n = 0, i, chosen;
	int again;

	devimg_set_log_fn(log_fn, NULL);
	devimg_set_log_priority(DEVIMG_LOG_ERR);
	in.arena = fuzz_own(&o, malloc(in.alen));
	if (!in.arena)
		return 0;
	if (size)
		memcpy(in.arena, data, size);
	in.arena[size] = '\0';

	f = take8(&in);
	count = take8(&in) % (MAX_IMAGES + 1);
	images = fuzz_own(&o, calloc(count ? count : 1, sizeof(*images)));
	nhost = take8(&in) % 4;
	host = fuzz_own(&o, calloc(nhost ? nhost : 1, sizeof(*host)));
	if (!images || !host)
		goto out;
	desc.version = f & 1 ? take16(&in) : 1;
	desc.count = (uint16_t)count;
	desc.images = images;
	if (f & 2)
		desc.images = NULL;
	if (f & 4) {
		desc.images = NULL;
		desc.count = (uint16_t)take16(&in);
	}
	elem_span(&in, host, nhost, sizeof(*host), &desc.host_begin,
		  &desc.host_end);
	for (i = 0; i < count; i++)
		if (build_image(&in, &o, &images[i]) < 0)
			goto out;
	again = f & 8;

	before = rejections;
	__sycl_register_lib(&desc);
	if (again)
		__sycl_register_lib(&desc);
	if (devimg_registry_images(imgs, N(imgs), &n) < 0)
		n = 0;
	/* Rejected at registration: once per call; when settling: once. */
	if (n == 0) {
		FUZZ_ASSERT(desc.count == 0 || rejections > before,
			    "no rejection for a descriptor of %u images",
			    desc.count);
	} else {
		FUZZ_ASSERT(rejections == before, "accepted and rejected");
		FUZZ_ASSERT(n == desc.count, "%zu images registered of %u", n,
			    desc.count);
	}
	FUZZ_ASSERT(rejections - before <= (again ? 2u : 1u),
		    "%u rejections", rejections - before);
	for (i = 0; i < n && i < N(imgs); i++) {
		check_image(imgs[i], &desc);
		if (!in.unsafe)
			inspect(imgs[i]);
	}
	if (n && !in.unsafe)
		for (i = 0; i < N(devices); i++)
			devimg_select_image(&devices[i], imgs,
					    n < N(imgs) ? n : N(imgs), &chosen,
					    NULL);
	__sycl_unregister_lib(&desc);
	for (i = 0; i < n && i < N(imgs); i++) {
		const void *bytes;
		size_t bsize;

		FUZZ_ASSERT(!devimg_image_is_registered(imgs[i]),
			    "registered after unregistration");
		FUZZ_ASSERT(devimg_image_bin(imgs[i], &bytes, &bsize) ==
			    -ESTALE, "bytes of an unregistered image");
		devimg_image_unref(imgs[i]);
	}
	n = 1;
	FUZZ_ASSERT(devimg_registry_images(NULL, 0, &n) == 0 && n == 0,
		    "%zu images left registered", n);
out:
	fuzz_owned_free(&o);
	return 0;
}
