// SPDX-License-Identifier: MIT
/*
 * The descriptor layouts registration turns into its own
 * (loader/registry/layout.c): images of version 3 (80 bytes, no
 * manifest), alone or mixed with 96-byte ones in one array, LLVM's kind 8
 * with its image kinds as formats, and LLVM's 56-byte offload entries, as
 * clang-linker-wrapper 22 lays them out. fuzz-descriptor.c builds 96-byte
 * images only (it turns version 3 into 4); this harness lays the image
 * array out by each image's version, so that what the library walks is
 * what was built, and every pointer is valid memory: strings and byte
 * spans into a NUL-terminated copy of the input (the arena), entry arrays
 * and property sets allocated to their element count.
 *
 * One thing registration cannot check is kept sound: a 56-byte entry
 * array is told from a 32-byte one by its first entry (reserved 0,
 * version 1, kind 8, flags 0), so its first entry always has those and
 * its span never starts elsewhere nor holds less than one entry; the
 * later entries' fields are the input's (an array mixing layouts must be
 * refused), as is a span that is not whole entries.
 *
 * Oracles: every message is one line; a rejected descriptor logs one
 * "rejected: descriptor ..." and registers nothing; an accepted one
 * registers its count of images with the fields it declares (kind 8 of
 * version 3 as kind sycl with the format of its LLVM image kind) and the
 * names of its entries, whichever their layout; its images are read
 * through every introspection and selection call (inspect.h); after
 * unregistration nothing is left and the bytes are -ESTALE.
 */
#include <errno.h>
#include <limits.h>

#include <devimg/descriptor.h>

#include "fuzz/fuzz.h"
#include "fuzz/inspect.h"

#define MAX_IMAGES 6
#define MAX_ENTRIES 8
#define MAX_SETS 4
#define MAX_PROPS 4
#define MAX_VALUE 64

#define V2_SIZE sizeof(struct devimg_device_image)
#define V3_SIZE sizeof(struct devimg_device_image_v3)
#define OLD_ENTRY sizeof(struct devimg_offload_entry)
#define LLVM_ENTRY sizeof(struct devimg_llvm_offload_entry)

struct in {
	const uint8_t *p;
	size_t n;
	unsigned char *arena;	/* the input and a NUL */
	size_t alen;
};

static unsigned take8(struct in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static uint64_t take(struct in *in, unsigned bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = v << 8 | take8(in);
	return v;
}

/* NULL, or a place in the arena (NUL-terminated from there). */
static unsigned char *arena_ptr(struct in *in)
{
	unsigned v = (unsigned)take(in, 2);

	return v == 0xffff ? NULL : in->arena + v % in->alen;
}

static const char *const targets[] = {
	"spir64", "spirv64-unknown-unknown", "spir64-unknown-unknown",
	"spir64_gen", "spir64_x86_64", "nvptx64-nvidia-cuda", "nvptx64",
	"amdgcn-amd-amdhsa", "",
};
static const char *const kernels[] = { "k0", "k1", "shared", "_ZTS4Fill" };
static const char *const set_names[] = {
	"SYCL/specialization constants",
	"SYCL/specialization constants default values",
	"SYCL/kernel param opt",
	"SYCL/program metadata",
	"SYCL/device requirements",
	"SYCL/misc properties",
	"SYCL/device globals",
};
static const char *const prop_names[] = {
	"all", "k0", "k1", "shared", "aspects", "reqd_sub_group_size",
	"reqd_work_group_size", "reqd_work_group_size_uint64_t",
	"k0@reqd_work_group_size", "c0", "dg",
};

/* Everything the descriptor points to, freed after unregistration. */
#define OWNED_ROOM (2 + MAX_IMAGES * (2 + MAX_SETS * (1 + MAX_PROPS)))

static const char *pick(struct in *in, const char *const *names, size_t n)
{
	unsigned v = take8(in);

	return v < 0xf0 ? names[v % n] : (const char *)arena_ptr(in);
}

/* A property the decoders look at: its value is the input's. */
static int build_prop(struct in *in, struct fuzz_owned *o,
		      struct devimg_property *p)
{
	unsigned t = take8(in), len, i;
	uint64_t bits;
	unsigned char *v;

	p->name = (char *)prop_names[take8(in) % FUZZ_N(prop_names)];
	switch (t % 4) {
	case 0:
		p->type = DEVIMG_PROPERTY_UINT32;
		p->size = take(in, 2);
		return 0;
	case 1:
		p->type = DEVIMG_PROPERTY_STRING;
		p->value = arena_ptr(in);
		return 0;
	default:
		len = take8(in) % (MAX_VALUE + 1);
		v = fuzz_own(o, malloc(8 + len));
		if (!v)
			return -1;
		bits = t & 0x80 ? take(in, 8) : (uint64_t)len * 8;
		for (i = 0; i < 8; i++)
			v[i] = (unsigned char)(bits >> (8 * i));
		for (i = 0; i < len; i++)
			v[8 + i] = (unsigned char)take8(in);
		p->type = DEVIMG_PROPERTY_BYTE_ARRAY;
		p->value = v;
		p->size = 8 + len;
		return 0;
	}
}

static int build_sets(struct in *in, struct fuzz_owned *o,
		      struct devimg_property_set **b,
		      struct devimg_property_set **e)
{
	size_t n = take8(in) % (MAX_SETS + 1), m, i, j;
	struct devimg_property_set *sets;

	*b = *e = NULL;
	if (!n)
		return 0;
	sets = fuzz_own(o, calloc(n, sizeof(*sets)));
	if (!sets)
		return -1;
	for (i = 0; i < n; i++) {
		struct devimg_property *props;

		sets[i].name = (char *)pick(in, set_names, FUZZ_N(set_names));
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
	*b = sets;
	*e = sets + n;
	return 0;
}

/* An image's entries as built, to compare with what registers. */
struct entries {
	void *b, *e;
	size_t elem;		/* OLD_ENTRY or LLVM_ENTRY */
	size_t n;		/* whole entries in the span */
	const char *names[MAX_ENTRIES];
};

/* 32-byte entries: a whole array, a sub-range, NULL, half NULL, reversed. */
static int build_old_entries(struct in *in, struct fuzz_owned *o,
			     struct entries *es)
{
	size_t n = take8(in) % (MAX_ENTRIES + 1), i, lo, hi;
	struct devimg_offload_entry *a;
	unsigned mode = take8(in);

	a = fuzz_own(o, calloc(n ? n : 1, OLD_ENTRY));
	if (!a)
		return -1;
	for (i = 0; i < n; i++) {
		a[i].name = (char *)pick(in, kernels, FUZZ_N(kernels));
		if (mode & 0x80)
			a[i].size = take(in, 2);
	}
	es->elem = OLD_ENTRY;
	switch (mode % 8) {
	case 1:
		es->b = es->e = NULL;
		break;
	case 2:
		es->b = NULL;
		es->e = a;
		break;
	case 3:
		es->b = a + n;
		es->e = a;
		break;
	case 4:
		lo = take8(in) % (n + 1);
		hi = lo + take8(in) % (n - lo + 1);
		es->b = a + lo;
		es->e = a + hi;
		break;
	default:
		es->b = a;
		es->e = a + n;
		break;
	}
	if (es->b && es->e && es->e >= es->b) {
		const struct devimg_offload_entry *e = es->b;

		es->n = (size_t)((char *)es->e - (char *)es->b) / OLD_ENTRY;
		for (i = 0; i < es->n; i++)
			es->names[i] = e[i].name;
	}
	return 0;
}

/*
 * 56-byte entries: entry 0 is LLVM's, the others mostly; the span starts
 * at entry 0 and is whole, a prefix, or (at least one entry long) not a
 * whole number of entries.
 */
static int build_llvm_entries(struct in *in, struct fuzz_owned *o,
			      struct entries *es)
{
	size_t n = 1 + take8(in) % MAX_ENTRIES, i, span;
	struct devimg_llvm_offload_entry *a;
	unsigned mode = take8(in), f;

	a = fuzz_own(o, calloc(n, LLVM_ENTRY));
	if (!a)
		return -1;
	for (i = 0; i < n; i++) {
		a[i].version = DEVIMG_LLVM_ENTRY_VERSION;
		a[i].kind = DEVIMG_LLVM_OFFLOAD_KIND_SYCL;
		a[i].name = (char *)pick(in, kernels, FUZZ_N(kernels));
		if (mode & 0x80) {
			a[i].addr = arena_ptr(in);
			a[i].size = take(in, 8);
			a[i].data = take(in, 8);
		}
		f = i ? take8(in) : 0;
		if (f >= 0xf8) {
			/* Another layout in the same array: refused. */
			switch (f % 4) {
			case 0:
				a[i].reserved = take(in, 8);
				break;
			case 1:
				a[i].version = (uint16_t)take(in, 2);
				break;
			case 2:
				a[i].kind = (uint16_t)take(in, 2);
				break;
			default:
				a[i].flags = (uint32_t)take(in, 4);
				break;
			}
		}
	}
	es->elem = LLVM_ENTRY;
	es->b = a;
	span = n * LLVM_ENTRY;
	switch (mode % 4) {
	case 1:
		span = (1 + take8(in) % n) * LLVM_ENTRY;
		break;
	case 2:
		if (n > 1)
			span -= 1 + take8(in) % (LLVM_ENTRY - 1);
		break;
	default:
		break;
	}
	es->e = (char *)a + span;
	es->n = span / LLVM_ENTRY;
	for (i = 0; i < es->n; i++)
		es->names[i] = a[i].name;
	return 0;
}

/* What an image was built with, to compare with what registers. */
struct built {
	unsigned version, kind, format;
	const char *target;
	size_t bin_size;
	struct entries es;
};

static unsigned llvm_format(unsigned image_kind)
{
	switch (image_kind) {
	case 0:
	case 5:
		return DEVIMG_FORMAT_NONE;
	case 1:
	case 3:
	case 4:
		return DEVIMG_FORMAT_NATIVE;
	case 2:
		return DEVIMG_FORMAT_LLVMBC;
	case 6:
		return DEVIMG_FORMAT_SPIRV;
	default:
		return UINT_MAX;
	}
}

static int build_image(struct in *in, struct fuzz_owned *o, unsigned char *at,
		       unsigned version, struct built *bt)
{
	struct devimg_device_image img = { 0 };
	struct devimg_device_image_v3 v3 = { 0 };
	unsigned f = take8(in), len;
	unsigned char *bin;

	img.version = (uint16_t)version;
	if (version == 3)
		img.kind = f & 1 ? DEVIMG_KIND_SYCL :
				   DEVIMG_LLVM_OFFLOAD_KIND_SYCL;
	else
		img.kind = DEVIMG_KIND_SYCL;
	if ((f & 6) == 6)
		img.kind = (uint8_t)take8(in);
	img.format = (uint8_t)(f & 8 ? take8(in) : take8(in) % 8);
	img.target = (char *)pick(in, targets, FUZZ_N(targets));
	img.compile_opts = f & 16 ? (char *)arena_ptr(in) : NULL;
	img.link_opts = f & 32 ? (char *)arena_ptr(in) : NULL;
	bin = arena_ptr(in);
	len = (unsigned)take(in, 2);
	if (bin && len > (size_t)(in->arena + in->alen - bin))
		len = (unsigned)(in->arena + in->alen - bin);
	img.bin_begin = bin;
	img.bin_end = bin ? bin + len : NULL;
	if (version != 3 && (f & 64)) {
		img.manifest_begin = (char *)arena_ptr(in);
		img.manifest_end = img.manifest_begin ?
			img.manifest_begin + take8(in) % 2 : NULL;
	}
	if (take8(in) % 3 == 0) {
		if (build_old_entries(in, o, &bt->es) < 0)
			return -1;
	} else if (build_llvm_entries(in, o, &bt->es) < 0) {
		return -1;
	}
	img.entries_begin = bt->es.b;
	img.entries_end = bt->es.e;
	if (build_sets(in, o, &img.props_begin, &img.props_end) < 0)
		return -1;

	bt->version = version;
	bt->kind = img.kind;
	bt->format = img.format;
	if (version == 3 && img.kind == DEVIMG_LLVM_OFFLOAD_KIND_SYCL) {
		bt->kind = DEVIMG_KIND_SYCL;
		bt->format = llvm_format(img.format);
	}
	bt->target = img.target;
	bt->bin_size = bin ? len : 0;
	if (version != 3) {
		memcpy(at, &img, V2_SIZE);
		return 0;
	}
	v3 = (struct devimg_device_image_v3){
		.version = img.version,
		.kind = img.kind,
		.format = img.format,
		.target = img.target,
		.compile_opts = img.compile_opts,
		.link_opts = img.link_opts,
		.bin_begin = img.bin_begin,
		.bin_end = img.bin_end,
		.entries_begin = img.entries_begin,
		.entries_end = img.entries_end,
		.props_begin = img.props_begin,
		.props_end = img.props_end,
	};
	memcpy(at, &v3, V3_SIZE);
	return 0;
}

static void check_image(struct devimg_image *img, const struct built *bt,
			size_t i)
{
	size_t j;

	FUZZ_ASSERT(devimg_image_version(img) == bt->version,
		    "image %zu: version %u, built %u", i,
		    devimg_image_version(img), bt->version);
	FUZZ_ASSERT(devimg_image_kind(img) == bt->kind,
		    "image %zu: kind %u, built %u", i, devimg_image_kind(img),
		    bt->kind);
	FUZZ_ASSERT(devimg_image_format(img) == bt->format,
		    "image %zu: format %u, built %u", i,
		    devimg_image_format(img), bt->format);
	FUZZ_ASSERT(!strcmp(devimg_image_target(img), bt->target),
		    "image %zu: target", i);
	FUZZ_ASSERT(devimg_image_bin_size(img) == bt->bin_size,
		    "image %zu: %zu bytes, built %zu", i,
		    devimg_image_bin_size(img), bt->bin_size);
	FUZZ_ASSERT(devimg_image_entry_count(img) == bt->es.n,
		    "image %zu: %zu entries, built %zu of %zu bytes", i,
		    devimg_image_entry_count(img), bt->es.n, bt->es.elem);
	for (j = 0; j < bt->es.n; j++)
		FUZZ_ASSERT(!strcmp(devimg_image_entry_name(img, j),
				    bt->es.names[j]), "image %zu: entry %zu",
			    i, j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct devimg_device_binaries desc = { 0 };
	struct devimg_image *imgs[MAX_IMAGES];
	struct built built[MAX_IMAGES];
	unsigned versions[MAX_IMAGES], before;
	FUZZ_OWNED(o, OWNED_ROOM);
	struct in in = { data, size, NULL, size + 1 };
	size_t count, total = 0, off = 0, n = 0, i;
	unsigned char *arr;
	unsigned v;

	fuzz_log_setup();
	in.arena = fuzz_own(&o, malloc(in.alen));
	if (!in.arena)
		return 0;
	if (size)
		memcpy(in.arena, data, size);
	in.arena[size] = '\0';

	count = 1 + take8(&in) % MAX_IMAGES;
	for (i = 0; i < count; i++) {
		v = take8(&in);
		versions[i] = v < 0xf0 ? (v % 4 ? 3 : 1 + v / 4 % 2) :
					 (unsigned)take(&in, 2);
		total += versions[i] == 3 ? V3_SIZE : V2_SIZE;
	}
	arr = fuzz_own(&o, calloc(1, total));
	if (!arr)
		goto out;
	memset(built, 0, sizeof(built));
	for (i = 0; i < count; i++) {
		if (build_image(&in, &o, arr + off, versions[i], &built[i]) < 0)
			goto out;
		off += versions[i] == 3 ? V3_SIZE : V2_SIZE;
	}
	desc.version = DEVIMG_BINARIES_VERSION;
	desc.count = (uint16_t)count;
	desc.images = (struct devimg_device_image *)arr;

	before = fuzz_rejections;
	__sycl_register_lib(&desc);
	FUZZ_ASSERT(devimg_registry_images(imgs, MAX_IMAGES, &n) == 0,
		    "registry");
	if (n == 0) {
		FUZZ_ASSERT(fuzz_rejections - before == 1, "%u rejections",
			    fuzz_rejections - before);
	} else {
		FUZZ_ASSERT(fuzz_rejections == before, "accepted and rejected");
		FUZZ_ASSERT(n == count, "%zu images registered of %zu", n,
			    count);
		for (i = 0; i < n; i++) {
			check_image(imgs[i], &built[i], i);
			fuzz_inspect_image(imgs[i]);
		}
		fuzz_select(imgs, n);
	}
	__sycl_unregister_lib(&desc);
	for (i = 0; i < n; i++) {
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
