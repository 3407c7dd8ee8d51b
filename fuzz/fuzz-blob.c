// SPDX-License-Identifier: MIT
/*
 * OffloadBinary blobs handed to __sycl_register_lib(), as LLVM's wrapper
 * for its new offload model hands them (loader/registry/blob.c): the
 * input is the blob, in an 8-byte aligned buffer of exactly its size.
 * What the library cannot check is made sound: the first 4 bytes are the
 * magic (else the buffer would be read as a descriptor of pointers) and a
 * header Size larger than the buffer is cut to it (the header gives the
 * blob's size; nothing else does). The images registered are read
 * through every introspection and selection call (inspect.h), then the
 * blob is unregistered.
 *
 * Oracles, besides the sanitizers: each message is one line; a rejected
 * blob logs one "rejected: descriptor ..." and registers nothing; what
 * registers is what the blob says, read independently here with
 * offload_binary_parse() and offload_symbols_decode(): one image per SYCL
 * entry that is not metadata and whose "symbols" string decodes (an entry
 * whose string does not is rejected alone, logged as "rejected image:"),
 * in order, version 3, kind sycl, the format of its image kind, target its
 * "triple", its image bytes, its decoded names as entries, and when its
 * property sets read, one set per string whose key holds a '/', named by
 * it, in order; a blob with an unknown image kind or no "triple" in a
 * SYCL entry registers none. After unregistration nothing is left and the
 * bytes are -ESTALE.
 */
#include <errno.h>

#include "fuzz/fuzz.h"
#include "fuzz/inspect.h"
#include "props/offload-binary.h"
#include "props/offload-symbols.h"
#include "util/errmsg.h"
#include "util/le.h"

#define MAX_IMAGES 64

/* LLVM's image kind as libdevimg's format; -1 when unknown. */
static int format_of(unsigned kind)
{
	switch (kind) {
	case OFFLOAD_IMAGE_NONE:
	case OFFLOAD_IMAGE_PTX:
		return DEVIMG_FORMAT_NONE;
	case OFFLOAD_IMAGE_OBJECT:
	case OFFLOAD_IMAGE_CUBIN:
	case OFFLOAD_IMAGE_FATBINARY:
		return DEVIMG_FORMAT_NATIVE;
	case OFFLOAD_IMAGE_BITCODE:
		return DEVIMG_FORMAT_LLVMBC;
	case OFFLOAD_IMAGE_SPIRV:
		return DEVIMG_FORMAT_SPIRV;
	default:
		return -1;
	}
}

static int is_sycl_image(const struct offload_entry *e)
{
	return e->offload_kind == OFFLOAD_KIND_SYCL &&
	       !(e->flags & OFFLOAD_FLAG_METADATA);
}

/* Its property sets, when they read: its strings whose key has a '/'. */
static void check_sets(struct devimg_image *img, const struct offload_entry *e,
		       size_t i)
{
	const struct devimg_propset_info *sets;
	size_t n, j, k = 0;

	if (devimg_image_propsets(img, &sets, &n) < 0)
		return;
	for (j = 0; j < e->nstrings; j++) {
		if (!strchr(e->strings[j].key, '/'))
			continue;
		FUZZ_ASSERT(k < n && !strcmp(sets[k].name, e->strings[j].key),
			    "image %zu: set %zu is not string %zu", i, k, j);
		k++;
	}
	FUZZ_ASSERT(k == n, "image %zu: %zu sets, %zu strings", i, n, k);
}

/* Registered image img is entry e of the blob, named as sy says. */
static void check_image(struct devimg_image *img, const struct offload_entry *e,
			const struct offload_symbols *sy, size_t i)
{
	const char *triple = offload_entry_string(e, "triple", NULL);
	const void *bytes;
	size_t n, j;

	FUZZ_ASSERT(devimg_image_version(img) == 3, "image %zu: version %u", i,
		    devimg_image_version(img));
	FUZZ_ASSERT(devimg_image_kind(img) == DEVIMG_KIND_SYCL,
		    "image %zu: kind %u", i, devimg_image_kind(img));
	FUZZ_ASSERT((int)devimg_image_format(img) == format_of(e->image_kind),
		    "image %zu: format %u for image kind %u", i,
		    devimg_image_format(img), e->image_kind);
	FUZZ_ASSERT(triple && !strcmp(devimg_image_target(img), triple),
		    "image %zu: target", i);
	FUZZ_ASSERT(devimg_image_bin_size(img) == e->image_size,
		    "image %zu: %zu bytes, entry %zu", i,
		    devimg_image_bin_size(img), e->image_size);
	FUZZ_ASSERT(devimg_image_bin(img, &bytes, &n) == 0 &&
		    n == e->image_size &&
		    (!n || !memcmp(bytes, e->image, n)), "image %zu: bytes", i);
	FUZZ_ASSERT(devimg_image_entry_count(img) == sy->n,
		    "image %zu: %zu entries, %zu symbols", i,
		    devimg_image_entry_count(img), sy->n);
	for (j = 0; j < sy->n; j++)
		FUZZ_ASSERT(!strcmp(devimg_image_entry_name(img, j),
				    sy->names[j]),
			    "image %zu: entry %zu", i, j);
	check_sets(img, e, i);
}

/*
 * The images the blob should register: 0 and their entries (and decoded
 * symbols) in want, or -1 when the blob is to be rejected as a whole.
 */
static int expected(const struct offload_binary *ob,
		    const struct offload_entry **want,
		    struct offload_symbols *sy, size_t *n)
{
	struct errmsg err = { 0 };
	const char *s;
	size_t i, len, k = 0, nsycl = 0;
	int r;

	*n = 0;
	for (i = 0; i < ob->nentries; i++) {
		const struct offload_entry *e = &ob->entries[i];

		if (!is_sycl_image(e))
			continue;
		nsycl++;
		if (format_of(e->image_kind) < 0 ||
		    !offload_entry_string(e, "triple", NULL))
			return -1;
	}
	if (nsycl > 65000)
		return -1;
	for (i = 0; i < ob->nentries && k < MAX_IMAGES; i++) {
		const struct offload_entry *e = &ob->entries[i];

		if (!is_sycl_image(e))
			continue;
		memset(&sy[k], 0, sizeof(sy[k]));
		s = offload_entry_string(e, "symbols", &len);
		if (s) {
			r = offload_symbols_decode(s, len, "fuzz", &sy[k],
						   &err);
			if (r == -EINVAL)
				continue;
			FUZZ_ASSERT(r == 0, "symbols: error %d", r);
		}
		want[k++] = e;
	}
	*n = k;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct offload_entry *want[MAX_IMAGES];
	struct offload_symbols sy[MAX_IMAGES];
	struct devimg_image *imgs[MAX_IMAGES];
	struct errmsg err = { 0 };
	struct offload_binary *ob = NULL;
	unsigned before, image_before;
	size_t len = size < 16 ? 16 : size, n = 0, nwant = 0, i;
	unsigned char *buf;
	uint64_t bsz;
	int accept;

	fuzz_log_setup();
	/* malloc's alignment is at least 8; exactly len bytes for ASan. */
	buf = calloc(1, len);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	memcpy(buf, OFFLOAD_BINARY_MAGIC, OFFLOAD_BINARY_MAGIC_LEN);
	bsz = get_le64(buf + 8);
	if (bsz > len)
		put_le64(buf + 8, bsz = len);

	accept = offload_binary_parse(buf, (size_t)bsz, "fuzz", &ob,
				      &err) == 0 &&
		 expected(ob, want, sy, &nwant) == 0;
	before = fuzz_rejections;
	image_before = fuzz_image_rejections;
	__sycl_register_lib((struct devimg_device_binaries *)buf);
	FUZZ_ASSERT(devimg_registry_images(imgs, MAX_IMAGES, &n) == 0,
		    "registry");
	if (n == 0) {
		FUZZ_ASSERT(fuzz_rejections - before <= 1, "%u rejections",
			    fuzz_rejections - before);
		/* A blob of no SYCL image is an empty descriptor: refused. */
		FUZZ_ASSERT(fuzz_rejections > before || !accept || !nwant,
			    "nothing registered of %zu images, no rejection",
			    nwant);
	} else {
		FUZZ_ASSERT(accept,
			    "a blob that does not read registered %zu images",
			    n);
		FUZZ_ASSERT(fuzz_rejections == before, "accepted and rejected");
		FUZZ_ASSERT(n == nwant || (nwant == MAX_IMAGES && n > nwant),
			    "%zu images registered, expected %zu", n, nwant);
		FUZZ_ASSERT(fuzz_image_rejections - image_before <=
			    ob->nentries, "%u images rejected",
			    fuzz_image_rejections - image_before);
		if (n > MAX_IMAGES)
			n = MAX_IMAGES;
		for (i = 0; i < n; i++) {
			FUZZ_ASSERT(devimg_image_index(imgs[i]) == i,
				    "image %zu has index %u", i,
				    devimg_image_index(imgs[i]));
			check_image(imgs[i], want[i], &sy[i], i);
			fuzz_inspect_image(imgs[i]);
		}
		fuzz_select(imgs, n);
	}
	__sycl_unregister_lib((struct devimg_device_binaries *)buf);
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
	for (i = 0; accept && i < nwant; i++)
		offload_symbols_fini(&sy[i]);
	offload_binary_free(ob);
	free(buf);
	return 0;
}
