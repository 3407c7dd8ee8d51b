/* SPDX-License-Identifier: MIT */
/*
 * The registry wing's internal declarations: image records, descriptors
 * of every layout, the registry and its lock, what an image offers
 * (property sets, spec constants, content), image selection. The wings
 * above it (the program cache, dispatch) include this; the core does not.
 */
#ifndef DEVIMG_LOADER_REGISTRY_H
#define DEVIMG_LOADER_REGISTRY_H

#include "util/hash.h"
#include "loader/libdevimg-internal.h"

/* ---- image.c: the image record ---- */

/* One offload entry of an image: its copied name keys the kernel map. */
struct image_entry {
	const char *name;
	uint32_t hash;
};

struct image_props;
struct image_spec;
struct image_unz;
struct shadow;

struct devimg_image {
	atomic_uint refcount;
	atomic_bool registered;		/* written under the registry lock */
	uint64_t id;			/* set under the registry lock */
	unsigned index;
	uint16_t version;
	uint8_t kind;
	uint8_t format;
	const struct devimg_device_binaries *desc;
	/* Descriptor memory: read only under the registry lock, registered. */
	const struct devimg_device_image *dimg;
	/* The shadow desc belongs to (layout.c, blob.c), or NULL. */
	const struct shadow *shadow;
	const unsigned char *bin;
	size_t bin_size;
	const char *manifest;
	size_t manifest_size;
	/* Copied when indexed (registry_settle), in the same allocation. */
	const char *target;
	const char *compile_opts;
	const char *link_opts;
	size_t nentries;
	struct image_entry *entries;
	/* Lazy caches: built on first use, published once, then immutable. */
	_Atomic(struct image_props *) props;
	_Atomic(struct image_spec *) spec;
	_Atomic(struct image_reqs *) reqs;	/* introspect.c */
	atomic_uint guess;		/* image-select.c: 0 = not guessed yet */
	/* decompress.c: format 4 only; freed when unregistered. */
	_Atomic(struct image_unz *) unz;
};

/* devimg_image_is_registered(), for the files below introspect.c. */
static inline bool image_is_registered(const struct devimg_image *img)
{
	return atomic_load(&((struct devimg_image *)img)->registered);
}

/*
 * A new record (refcount 1, not registered) for image index of desc, which
 * must have passed validation. NULL on ENOMEM.
 */
struct devimg_image *image_new(const struct devimg_device_binaries *desc,
			       unsigned index);
void image_free(struct devimg_image *img);

/* ---- decompress.c: compressed images, expanded on first use ---- */

struct image_unz {
	unsigned char *bytes;	/* NULL on error */
	size_t size;
	int err;		/* 0, -EBADMSG, -EFBIG, -ENOMEM, -EOPNOTSUPP */
	unsigned content;	/* as image-select.c's guess: content + 1 | sm << 8 */
	const char *why;	/* static, short: what went wrong, when err */
	char msg[200];		/* the same in detail */
};

/* What image_unz_get() copies out of the record, under the lock. */
struct image_unz_view {
	const unsigned char *bytes;	/* valid while img stays registered */
	size_t size;
	unsigned content;
	const char *why;		/* static text, or NULL */
};

/*
 * The expanded bytes of a compressed image, made on the first call and
 * kept: 0, or the error of that expansion (also logged once, and its
 * reason in out->why), or -ESTALE when img is not registered. Takes the
 * registry's read lock: call it without.
 */
int image_unz_get(struct devimg_image *img, struct image_unz_view *out);
/*
 * The bytes img stands for: its own for formats 0 to 3, the expanded ones
 * for a compressed image (image_unz_get()'s errors). Valid while img stays
 * registered; call it without the registry lock.
 */
int image_bytes(struct devimg_image *img, const unsigned char **bytes,
		size_t *size);
void image_unz_free(struct image_unz *u);
/* Free the expanded bytes; the registry's write lock is held. */
void image_unz_release(struct devimg_image *img);
/* Expansions attempted since the library was loaded (for the tests). */
extern atomic_ulong image_unz_count;

/* ---- descriptor.c: descriptor validation, its images ---- */

/*
 * 0 when desc can be registered; otherwise -EINVAL and the reason in msg.
 * Reads only the descriptor's structures and strings, never image bytes or
 * property values.
 */
int descriptor_validate(const struct devimg_device_binaries *desc,
			struct errmsg *msg);
/* The same, naming the descriptor key in messages (a shadow's original). */
int descriptor_validate_as(const struct devimg_device_binaries *desc,
			   const void *key, struct errmsg *msg);
/*
 * The image records of a validated desc (an array of desc->count, each
 * with one reference): its entries are validated (-EINVAL and the reason
 * in msg), their names copied. -ENOMEM.
 */
int descriptor_build(const struct devimg_device_binaries *desc,
		     const void *key, struct devimg_image ***imgs,
		     struct errmsg *msg);

/* ---- layout.c, blob.c: descriptors of other layouts ---- */

/*
 * A descriptor of the layout the registry reads (images of version 1 or
 * 2, 32-byte entries), built for one of another layout; its pointers lead
 * into the original, except the arrays it owns.
 */
struct offload_entry;

struct shadow {
	struct devimg_device_binaries desc;
	struct devimg_device_image *images;
	void **owned;			/* two blocks at most per image */
	size_t nowned;
	void *blob;			/* blob.c's parsed OffloadBinary */
	/*
	 * blob.c: per image, the entry of the blob it is, whose strings
	 * introspect.c reads its property sets from; NULL for other shadows.
	 */
	const struct offload_entry **entries;
	/* blob.c: the images' names are still in their "symbols" strings. */
	bool names_pending;
};

/*
 * The shadow of the descriptor at arg in *out, or NULL there when arg
 * needs none (a version 1 or 2 descriptor with 32-byte entries, or one
 * that descriptor_validate() rejects). -EINVAL and the reason in msg;
 * -ENOMEM.
 */
int shadow_build(const void *arg, struct shadow **out, struct errmsg *msg);
void shadow_free(struct shadow *sh);
/* A shadow of count images, zeroed; NULL on ENOMEM. */
struct shadow *shadow_new(unsigned count);
/* The devimg format of an LLVM ImageKind; UINT_MAX when unknown. */
unsigned shadow_format_of_llvm(unsigned image_kind);
/* blob.c: arg starts with the OffloadBinary magic. */
bool shadow_is_blob(const void *arg);
/*
 * The shadow of the OffloadBinary blob at arg, as shadow_build(); its
 * images' names are left in the blob (sh->names_pending).
 */
int shadow_blob(const void *arg, struct shadow **out, struct errmsg *msg);
/*
 * The names of sh's images, from their "symbols" strings, as the registry
 * settles sh (the write lock held). An image whose string is no list of
 * names is dropped, and reject(msg, arg) is told why; the others stay.
 * 0, or -ENOMEM (the reason in msg).
 */
int shadow_blob_names(struct shadow *sh, const void *key,
		      void (*reject)(const struct errmsg *msg, void *arg),
		      void *arg, struct errmsg *msg);


/* ---- registry.c ---- */

/*
 * Queue a validated desc for indexing under key (what
 * __sycl_unregister_lib() will be given: desc itself, or the original of
 * a shadow, which the registry then owns), or return -EEXIST when key is
 * registered already; -ENOMEM.
 */
int registry_add(const void *key, const struct devimg_device_binaries *desc,
		 struct shadow *sh);
/*
 * Build and index the records of every queued descriptor, rejecting those
 * whose entries fail validation. Every public function that reads the
 * registry calls it first; cheap when nothing is queued.
 */
void registry_settle(void);
/* Remove key's images (and shadow); -ENOENT when key is not registered. */
int registry_remove(const void *key);
void registry_add_problem(const struct errmsg *msg);

/*
 * lock.c: shared access to descriptor memory: while held, no image
 * changes its registered state, so a registered image's descriptor stays
 * mapped.
 * Not recursive; call nothing that takes it again.
 */
void registry_read_lock(void);
void registry_read_unlock(void);
/* lock.c: the same lock, taken to change what is registered. */
void registry_write_lock(void);
/* Drop the lock, read or write. */
void registry_unlock(void);

/*
 * A snapshot of the registered images (references) that define name, or
 * of all when name is NULL; free it with images_drop(). -ENOENT (name
 * given, none defines it), -ENOMEM. An empty snapshot (all unregistered
 * meanwhile) is NULL with *n == 0.
 */
int images_collect(const char *name, struct devimg_image ***imgs, size_t *n);
void images_drop(struct devimg_image **imgs, size_t n);

/*
 * suggest.c: for a kernel name no registered image defines, a phrase into
 * buf saying how many images (of which targets) and names were searched
 * and the closest of those names, three at most, with their images; or
 * that no image is registered. Empty out of memory.
 */
void registry_suggest(const char *name, char *buf, size_t size);

/* ---- introspect.c: lazily copied property sets ---- */

struct image_props {
	struct devimg_propset_info *sets;
	size_t nsets;
};

/*
 * The cached copy, built on first call. -ESTALE, -EOVERFLOW, -ENOMEM,
 * each with its message (devimg_fail()).
 */
int image_get_props(struct devimg_image *img, const struct image_props **out);
void image_props_free(struct image_props *p);

/* The decoded "SYCL/device requirements", aspects owned with them. */
struct image_reqs {
	struct devimg_image_reqs r;
	uint32_t aspects[];
};

/* ---- specconst.c: the spec-constant model of an image ---- */

struct image_spec {
	struct devimg_spec_const_info *consts;	/* in SpecId order */
	size_t n;
	unsigned char *defaults;
	uint32_t total;
};

/*
 * The cached model, decoded on first call. -ESTALE, -EINVAL, -ENOMEM,
 * each with its message (devimg_fail()).
 */
int image_get_spec(struct devimg_image *img, const struct image_spec **out);
void image_spec_free(struct image_spec *s);

/* ---- specvalues.c: values of an image's spec constants ---- */

/* dst's values become src's; both of one image (-EINVAL otherwise). */
int spec_values_copy(struct devimg_spec_values *dst,
		     const struct devimg_spec_values *src);

/* ---- content.c ---- */

/* What the bytes of an image look like. */
enum image_content {
	CONTENT_UNKNOWN = 0,
	CONTENT_SPIRV,
	CONTENT_LLVMBC,
	CONTENT_ELF,
	CONTENT_PTX,
};

/*
 * Classify bytes (pure). For PTX, *ptx_sm is the sm number of its
 * ".target sm_NN" line when found in the first kilobytes, else 0.
 */
enum image_content image_content_of(const void *bytes, size_t size,
				    unsigned *ptx_sm);

/* ---- image-select.c ---- */

/* img's content, looked at once and cached. -ESTALE. */
int image_content(struct devimg_image *img, enum image_content *c,
		  unsigned *sm);

#endif
