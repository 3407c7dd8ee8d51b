// SPDX-License-Identifier: MIT
/*
 * Introspection and selection over accepted descriptors. Where
 * fuzz-descriptor.c mostly makes descriptors that registration refuses,
 * this harness makes ones it accepts: every pointer valid, property
 * names that the launch metadata, requirements and spec constants look
 * for (kernel names with their suffixes included), and byte arrays whose
 * bit-count header mostly matches their payload, which is the input's.
 * Each image is then read through every introspection and selection
 * function (property sets, lookups, spec constants and sets of values,
 * requirements, argument masks, required work-group sizes, selection
 * over several devices with and without features, registry lookups)
 * before the descriptor is unregistered. Oracles: no crash, no sanitizer
 * report, a lookup finds what the sets hold, an error is one line.
 */
#include <errno.h>
#include <stdarg.h>

#include <devimg/devimg.h>

#include "fuzz/fuzz.h"

#define MAX_IMAGES 4
#define MAX_ENTRIES 4
#define MAX_SETS 6
#define MAX_PROPS 6
#define MAX_VALUE 96

struct in {
	const uint8_t *p;
	size_t n;
};

static unsigned take8(struct in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static const char *const targets[] = {
	"spir64", "spir64_x86_64", "spir64_gen", "spir64_fpga", "nvptx64",
	"native_cpu",
};
static const char *const kernels[] = { "k0", "k1", "shared", "x" };
static const char *const set_names[] = {
	"SYCL/specialization constants",
	"SYCL/specialization constants default values",
	"SYCL/kernel param opt",
	"SYCL/program metadata",
	"SYCL/device requirements",
	"SYCL/misc properties",
};
static const char *const prop_names[] = {
	"all", "k0", "k1", "shared", "x", "aspects", "reqd_sub_group_size",
	"reqd_work_group_size", "reqd_work_group_size_uint64_t",
	"work_group_num_dim", "k0@reqd_work_group_size",
	"k1@reqd_work_group_size", "shared@reqd_work_group_size", "c0", "c1",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Everything the descriptor points to, freed after unregistration. */
#define OWNED_ROOM (1 + MAX_IMAGES * (2 + MAX_SETS * (1 + MAX_PROPS)))

/*
 * A byte array of the input's payload: its header says the payload's
 * bits, fewer (a partial last byte or a mismatch), or any 8 bytes.
 */
static int build_bytes(struct in *in, struct fuzz_owned *o,
		       struct devimg_property *p)
{
	unsigned mode = take8(in), len = take8(in) % (MAX_VALUE + 1), i;
	uint64_t bits = (uint64_t)len * 8;
	unsigned char *v = fuzz_own(o, malloc(8 + len));

	if (!v)
		return -1;
	if (mode % 8 == 1 && len)
		bits -= take8(in) % 8;
	else if (mode % 8 == 2)
		bits = 0;
	else if (mode % 8 == 3)
		for (i = 0, bits = 0; i < 8; i++)
			bits = bits << 8 | take8(in);
	for (i = 0; i < 8; i++)
		v[i] = (unsigned char)(bits >> (8 * i));
	for (i = 0; i < len; i++)
		v[8 + i] = (unsigned char)take8(in);
	p->value = v;
	p->size = 8 + len;
	return 0;
}

static int build_prop(struct in *in, struct fuzz_owned *o,
		      struct devimg_property *p)
{
	unsigned t = take8(in);
	char *s;
	size_t len, i;

	p->name = (char *)prop_names[take8(in) % N(prop_names)];
	switch (t % 5) {
	case 0:
		p->type = DEVIMG_PROPERTY_UINT32;
		p->size = take8(in) | (uint64_t)take8(in) << 8;
		return 0;
	case 1:
		/* A string, with or without a size bounding it. */
		len = take8(in) % 16;
		s = fuzz_own(o, malloc(len + 1));
		if (!s)
			return -1;
		for (i = 0; i < len; i++)
			s[i] = (char)(take8(in) | 1);
		s[len] = '\0';
		p->type = DEVIMG_PROPERTY_STRING;
		p->value = s;
		p->size = t & 0x80 ? take8(in) % (len + 2) : 0;
		return 0;
	default:
		p->type = DEVIMG_PROPERTY_BYTE_ARRAY;
		return build_bytes(in, o, p);
	}
}

static int build_image(struct in *in, struct fuzz_owned *o,
		       struct devimg_device_image *img)
{
	static const unsigned char spirv[16] = { 0x03, 0x02, 0x23, 0x07 };
	static const unsigned char bc[16] = { 'B', 'C', 0xc0, 0xde };
	struct devimg_offload_entry *ents;
	struct devimg_property_set *sets;
	unsigned f = take8(in);
	size_t n, m, i, j;

	img->version = 2;
	img->kind = DEVIMG_KIND_SYCL;
	img->format = f % 4;
	img->target = targets[take8(in) % N(targets)];
	img->compile_opts = "";
	img->link_opts = "";
	img->bin_begin = f & 4 ? bc : spirv;
	img->bin_end = img->bin_begin + 16;

	n = take8(in) % (MAX_ENTRIES + 1);
	ents = fuzz_own(o, calloc(n ? n : 1, sizeof(*ents)));
	if (!ents)
		return -1;
	for (i = 0; i < n; i++)
		ents[i].name = (char *)kernels[take8(in) % N(kernels)];
	img->entries_begin = n ? ents : NULL;
	img->entries_end = n ? ents + n : NULL;

	n = take8(in) % (MAX_SETS + 1);
	sets = fuzz_own(o, calloc(n ? n : 1, sizeof(*sets)));
	if (!sets)
		return -1;
	for (i = 0; i < n; i++) {
		struct devimg_property *props;

		sets[i].name = (char *)set_names[take8(in) % N(set_names)];
		m = take8(in) % (MAX_PROPS + 1);
		props = fuzz_own(o, calloc(m ? m : 1, sizeof(*props)));
		if (!props)
			return -1;
		for (j = 0; j < m; j++)
			if (build_prop(in, o, &props[j]) < 0)
				return -1;
		sets[i].begin = m ? props : NULL;
		sets[i].end = m ? props + m : NULL;
	}
	img->props_begin = n ? sets : NULL;
	img->props_end = n ? sets + n : NULL;
	return 0;
}

/* Every message one line: decoders quote names, never raw bytes. */
static void log_fn(void *data, int priority, const char *file, int line,
		   const char *fn, const char *format, va_list args)
{
	char buf[1024];

	(void)data;
	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	vsnprintf(buf, sizeof(buf), format, args);
	FUZZ_ASSERT(!strchr(buf, '\n'), "a message of several lines: %s", buf);
}

#define CAPS sizeof(struct devimg_device_caps)

static const struct devimg_device_caps devices[] = {
	{ CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_CPU, 0, 1, 0, 0 },
	{ CAPS, DEVIMG_BACKEND_OPENCL, DEVIMG_DEVICE_GPU, 1, 0, 0, 1 },
	{ CAPS, DEVIMG_BACKEND_LEVEL_ZERO, DEVIMG_DEVICE_GPU, 1, 0, 0, 0 },
	{ CAPS, DEVIMG_BACKEND_CUDA, DEVIMG_DEVICE_GPU, 0, 0, 80, 1 },
};

static void inspect_spec(struct devimg_image *img)
{
	static unsigned char value[1 << 16];
	const struct devimg_spec_const_info *consts = NULL, *again;
	const struct devimg_spec_native *list;
	struct devimg_spec_values *v = NULL;
	const void *defaults, *buf;
	size_t n = 0, n2, dsize, i, j, bsize, total = 0;

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
	/* Constants may declare up to 4 GiB (zeros): too much to copy. */
	if (total > (1u << 20))
		return;
	if (devimg_spec_values_new(img, &v) < 0)
		return;
	for (i = 0; i < n; i++) {
		if (consts[i].size <= sizeof(value))
			FUZZ_ASSERT(devimg_spec_values_set(v, consts[i].name,
							   consts[i].size,
							   value) == 0,
				    "set constant %zu", i);
		devimg_spec_values_set(v, consts[i].name, consts[i].size + 1,
				       value);
	}
	devimg_spec_values_set(v, "no such constant", 1, value);
	devimg_spec_values_native(v, &list, &n);
	for (i = 0; i < n; i++)
		FUZZ_ASSERT(list[i].value, "native value %zu", i);
	FUZZ_ASSERT(devimg_spec_values_buffer(v, &buf, &bsize) == 0 &&
		    bsize == total, "buffer of %zu bytes for %zu", bsize,
		    total);
	devimg_spec_values_unref(v);
}

static void inspect(struct devimg_image *img)
{
	const struct devimg_propset_info *sets;
	const struct devimg_property_info *prop;
	struct devimg_image_reqs reqs = { .size = sizeof(reqs) };
	const unsigned char *mask;
	size_t n, i, j, size[3], nargs;
	unsigned dims;

	if (devimg_image_propsets(img, &sets, &n) == 0) {
		for (i = 0; i < n; i++) {
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
	devimg_image_find_property(img, "SYCL/misc properties", "none", &prop);
	inspect_spec(img);
	for (i = 0; i < N(kernels); i++) {
		if (devimg_image_kernel_arg_mask(img, kernels[i], &mask,
						 &nargs) == 0)
			FUZZ_ASSERT(!nargs || mask, "mask of %zu bits", nargs);
		if (devimg_image_reqd_work_group_size(img, kernels[i], &dims,
						      size) == 0)
			FUZZ_ASSERT(dims <= 3 && size[0] && size[1] &&
				    size[2], "reqd size of %u dimensions",
				    dims);
	}
	if (devimg_image_requirements(img, &reqs) == 0) {
		FUZZ_ASSERT(reqs.wg_dims <= 3, "%u dimensions", reqs.wg_dims);
		FUZZ_ASSERT(!reqs.naspects == !reqs.aspects, "%zu aspects",
			    reqs.naspects);
		for (i = 0; i < reqs.naspects; i++)
			FUZZ_ASSERT(reqs.aspects[i] == reqs.aspects[i],
				    "aspect %zu", i);
	}
	devimg_image_requirements(img, &reqs);
}

static void select_all(struct in *in, struct devimg_image **imgs, size_t n)
{
	struct devimg_device_features feat = { .size = sizeof(feat) };
	char reasons[MAX_IMAGES][DEVIMG_REASON_MAX];
	size_t i, chosen;
	int r;

	feat.aspects = (uint64_t)take8(in) << 8 | take8(in);
	feat.aspects_known = ~(uint64_t)0;
	feat.aspects_reported = 1;
	feat.nsub_group_sizes = take8(in) % 3;
	feat.sub_group_sizes[0] = 8;
	feat.sub_group_sizes[1] = 16;
	feat.max_work_group_size = (size_t)1 << (take8(in) % 12);
	feat.max_work_item_sizes[0] = feat.max_work_group_size;
	feat.max_work_item_sizes[1] = feat.max_work_group_size;
	feat.max_work_item_sizes[2] = 64;
	for (i = 0; i < N(devices); i++) {
		r = devimg_select_image(&devices[i], imgs, n, &chosen, reasons);
		FUZZ_ASSERT(r < 0 || chosen < n, "chose %zu of %zu", chosen, n);
		r = devimg_select_image_with(&devices[i], &feat, imgs, n,
					     &chosen, reasons);
		FUZZ_ASSERT(r < 0 || chosen < n, "chose %zu of %zu", chosen, n);
		for (chosen = 0; r < 0 && chosen < n; chosen++)
			FUZZ_ASSERT(memchr(reasons[chosen], '\0',
					   DEVIMG_REASON_MAX) &&
				    !strchr(reasons[chosen], '\n'),
				    "reason %zu", chosen);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct devimg_device_binaries desc = { 0 };
	struct devimg_device_image *images;
	struct devimg_image *imgs[MAX_IMAGES], *found[MAX_IMAGES + 1];
	FUZZ_OWNED(o, OWNED_ROOM);
	struct in in = { data, size };
	size_t count, n = 0, i, j, nf;

	devimg_set_log_fn(log_fn, NULL);
	devimg_set_log_priority(DEVIMG_LOG_DEBUG);
	count = 1 + take8(&in) % MAX_IMAGES;
	images = fuzz_own(&o, calloc(count, sizeof(*images)));
	if (!images)
		goto out;
	for (i = 0; i < count; i++)
		if (build_image(&in, &o, &images[i]) < 0)
			goto out;
	desc.version = 1;
	desc.count = (uint16_t)count;
	desc.images = images;

	__sycl_register_lib(&desc);
	FUZZ_ASSERT(devimg_registry_images(imgs, N(imgs), &n) == 0 &&
		    n == count, "%zu images registered of %zu", n, count);
	for (i = 0; i < n; i++)
		inspect(imgs[i]);
	select_all(&in, imgs, n);
	for (i = 0; i < N(kernels); i++) {
		if (devimg_registry_find_kernel(kernels[i], found, N(found),
						&nf) < 0)
			continue;
		for (j = 0; j < nf && j < N(found); j++)
			devimg_image_unref(found[j]);
	}
	__sycl_unregister_lib(&desc);
	for (i = 0; i < n; i++) {
		const struct devimg_propset_info *sets;

		/* Read before: cached; never read: gone. */
		devimg_image_propsets(imgs[i], &sets, &nf);
		devimg_image_unref(imgs[i]);
	}
out:
	fuzz_owned_free(&o);
	return 0;
}
