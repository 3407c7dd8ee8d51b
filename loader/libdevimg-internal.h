/* SPDX-License-Identifier: MIT */
/*
 * What the loader's files share and the installed header does not show.
 */
#ifndef DEVIMG_LIBDEVIMG_INTERNAL_H
#define DEVIMG_LIBDEVIMG_INTERNAL_H

#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <devimg/devimg.h>

#include "hash.h"

#define DEVIMG_EXPORT __attribute__((visibility("default")))

#define DEVIMG_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))

/* ---- error.c ---- */

/*
 * The error channel: record the calling thread's message for
 * devimg_last_error() (format's arguments escaped; lines, a plugin's
 * message or NULL, keeping its lines), log that text at priority and
 * return err. Every exported function that fails goes through it, so
 * that its message names what failed; a successful call leaves the
 * message alone.
 */
int devimg_vfail(int err, int priority, const char *file, int line,
		 const char *fn, const char *lines, const char *format,
		 va_list ap) DEVIMG_PRINTF(7, 0);
int devimg_fail_at(int err, int priority, const char *file, int line,
		   const char *fn, const char *format, ...) DEVIMG_PRINTF(6, 7);

/* A priority never logged: the message of a failure logged once before. */
#define DEVIMG_LOG_QUIET INT_MAX

/*
 * "return fail_dbg(-ENOENT, "image %llu: ...", ...);". The priority goes by
 * the kind of error, not by the wing: a failure returned to the caller,
 * who has its code and devimg_last_error(), is logged at DEBUG
 * (fail_dbg(), dispatch_error()); ERR is for what no caller is told (a
 * descriptor rejected inside a constructor), WARNING for what is left
 * out and goes on (a platform without a context).
 */
#define devimg_fail(err, prio, ...)					\
	devimg_fail_at(err, prio, __FILE__, __LINE__, __func__, __VA_ARGS__)
#define fail_err(err, ...) devimg_fail(err, DEVIMG_LOG_ERR, __VA_ARGS__)
#define fail_warn(err, ...) devimg_fail(err, DEVIMG_LOG_WARNING, __VA_ARGS__)
#define fail_dbg(err, ...) devimg_fail(err, DEVIMG_LOG_DEBUG, __VA_ARGS__)
/*
 * How many failures the calling thread recorded so far: whether a callee
 * set a message already.
 */
unsigned error_count(void);
/*
 * Between error_hold() and error_release() (nested, per thread), failures
 * are logged but leave devimg_last_error() alone: for a call whose failure
 * is an answer (no such property, an image that does not fit) inside one
 * that may still succeed.
 */
void error_hold(void);
void error_release(void);
/* "<fn>: NULL argument"; -EINVAL. */
int fail_null(const char *fn);
struct devimg_image;
/* "image N (index I): no longer registered ..."; -ESTALE. */
int image_stale(const struct devimg_image *img);

/*
 * devimg_vfail() at DEVIMG_LOG_DEBUG, for the build and dispatch wings
 * (dispatch_error()). Returns err.
 */
int error_vset(int err, const char *lines, const char *format, va_list ap)
	DEVIMG_PRINTF(3, 0);
/* Put "<format>: " before the calling thread's message; returns err. */
int error_vprefix(int err, const char *lines, const char *format, va_list ap)
	DEVIMG_PRINTF(3, 0);

/* ---- env.c ---- */

/* The environment variables the library reads (man/devimg.3). */
enum devimg_env {
	DEVIMG_ENV_TRACE,
	DEVIMG_ENV_DEVICE_SELECTOR,
	DEVIMG_ENV_PLUGIN_PATH,
	DEVIMG_ENV_PLUGIN_PATH_ONLY,
	DEVIMG_ENV_DUMP_IMAGES,
	DEVIMG_ENV_COUNT
};

/*
 * The variable's value, read on the first call for it and kept until the
 * process ends (never freed); NULL when unset or in a set-user-ID program.
 */
const char *devimg_env(enum devimg_env var);

/*
 * Public structs the caller fills or receives carry their size first
 * (docs/design.md, "API conventions"). min is the struct's DEVIMG_0.1
 * size, DEVIMG_SIZE_0_1() of its last 0.1 member.
 */
#define DEVIMG_SIZE_0_1(type, last)					\
	(offsetof(struct type, last) + sizeof(((struct type *)0)->last))

/*
 * 0 when a caller's struct name of size bytes holds its DEVIMG_0.1
 * fields (size >= min); otherwise -EINVAL, the calling thread's message
 * (logged too) naming the struct and both sizes.
 */
int api_struct_size(const char *name, size_t size, size_t min);

/*
 * The caller's input struct src (size first) as the library's dst of
 * dst_size bytes: the prefix both know, fields past the caller's size 0.
 */
static inline void api_struct_read(void *dst, size_t dst_size,
				   const void *src)
{
	size_t n = *(const size_t *)src;

	memset(dst, 0, dst_size);
	memcpy(dst, src, n < dst_size ? n : dst_size);
	*(size_t *)dst = dst_size;
}

/*
 * The library's src of src_size bytes into the caller's output struct
 * dst: only the prefix both know is written; dst's size stays.
 */
static inline void api_struct_write(void *dst, const void *src,
				    size_t src_size)
{
	size_t n = *(const size_t *)dst;

	if (n > src_size)
		n = src_size;
	memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t),
	       n - sizeof(size_t));
}

/* ---- log.c ---- */

/* Every argument of format is escaped (escape.h), newlines included. */
void devimg_log(int priority, const char *file, int line, const char *fn,
		const char *format, ...) DEVIMG_PRINTF(5, 6);
/*
 * Log text escaped already, whose newlines and tabs may have been kept
 * (devimg_last_error()'s): they are escaped too, one line per record.
 */
void devimg_log_text(int priority, const char *file, int line,
		     const char *fn, const char *text);
/*
 * A plugin trace line (DEVIMG_TRACE), text escaped already: to the log
 * function as any message; the default one writes it as "libdevimg: <text>".
 */
void devimg_trace_text(int priority, const char *file, int line,
		       const char *fn, const char *text);

static inline bool devimg_log_enabled(int priority)
{
	return priority <= devimg_get_log_priority();
}

#define devimg_log_cond(prio, ...)					\
	do {								\
		if (devimg_log_enabled(prio))				\
			devimg_log(prio, __FILE__, __LINE__, __func__,	\
				   __VA_ARGS__);			\
	} while (0)

#define log_err(...) devimg_log_cond(DEVIMG_LOG_ERR, __VA_ARGS__)
#define log_warn(...) devimg_log_cond(DEVIMG_LOG_WARNING, __VA_ARGS__)
#define log_info(...) devimg_log_cond(DEVIMG_LOG_INFO, __VA_ARGS__)
#define log_dbg(...) devimg_log_cond(DEVIMG_LOG_DEBUG, __VA_ARGS__)
#define log_dbg_text(text)						\
	do {								\
		if (devimg_log_enabled(DEVIMG_LOG_DEBUG))		\
			devimg_log_text(DEVIMG_LOG_DEBUG, __FILE__,	\
					__LINE__, __func__, (text));	\
	} while (0)

/*
 * A message built before it can be logged (e.g. under a lock); its
 * arguments are escaped as devimg_log()'s.
 */
struct devimg_msg {
	int err;
	char text[256];
};

void devimg_msg_set(struct devimg_msg *m, int err, const char *format, ...)
	DEVIMG_PRINTF(3, 4);

/* ---- image.c: the image record ---- */

/* One offload entry of an image: its copied name keys the kernel map. */
struct image_entry {
	const char *name;
	uint32_t hash;
};

struct image_props;
struct image_spec;
struct image_unz;

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
	atomic_uint guess;		/* select.c: 0 = not guessed yet */
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
	unsigned content;	/* as select.c's guess: content + 1 | sm << 8 */
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
			struct devimg_msg *msg);
/* The same, naming the descriptor key in messages (a shadow's original). */
int descriptor_validate_as(const struct devimg_device_binaries *desc,
			   const void *key, struct devimg_msg *msg);
/*
 * The image records of a validated desc (an array of desc->count, each
 * with one reference): its entries are validated (-EINVAL and the reason
 * in msg), their names copied. -ENOMEM.
 */
int descriptor_build(const struct devimg_device_binaries *desc,
		     const void *key, struct devimg_image ***imgs,
		     struct devimg_msg *msg);

/* ---- layout.c, blob.c: descriptors of other layouts ---- */

/*
 * A descriptor of the layout the registry reads (images of version 1 or
 * 2, 32-byte entries), built for one of another layout; its pointers lead
 * into the original, except the arrays it owns.
 */
struct shadow {
	struct devimg_device_binaries desc;
	struct devimg_device_image *images;
	void **owned;			/* one array at most per image */
	size_t nowned;
	void *blob;			/* blob.c's parsed OffloadBinary */
};

/*
 * The shadow of the descriptor at arg in *out, or NULL there when arg
 * needs none (a version 1 or 2 descriptor with 32-byte entries, or one
 * that descriptor_validate() rejects). -EINVAL and the reason in msg;
 * -ENOMEM.
 */
int shadow_build(const void *arg, struct shadow **out, struct devimg_msg *msg);
void shadow_free(struct shadow *sh);
/* A shadow of count images, zeroed; NULL on ENOMEM. */
struct shadow *shadow_new(unsigned count);
/* The devimg format of an LLVM ImageKind; UINT_MAX when unknown. */
unsigned shadow_format_of_llvm(unsigned image_kind);
/* blob.c: arg starts with the OffloadBinary magic. */
bool shadow_is_blob(const void *arg);
/* The shadow of the OffloadBinary blob at arg, as shadow_build(). */
int shadow_blob(const void *arg, struct shadow **out, struct devimg_msg *msg);

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
void registry_add_problem(const struct devimg_msg *msg);

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
 * given, none defines it), -ENOMEM.
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

/* ---- select.c ---- */

/* img's content, looked at once and cached. -ESTALE. */
int image_content(struct devimg_image *img, enum image_content *c,
		  unsigned *sm);

#endif
