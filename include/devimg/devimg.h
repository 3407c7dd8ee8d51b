/* SPDX-License-Identifier: MIT */
/*
 * libdevimg: the registry of device images embedded in loaded programs and
 * libraries, image selection per device, specialization constants, and
 * kernel dispatch through plugins (contexts, queues, buffers, kernels,
 * launches, kernel bundles).
 *
 * Conventions (as in libkmod):
 *  - Objects are opaque and reference counted: _new and the registry's
 *    look-ups give a reference, _ref takes one more, _unref drops one and
 *    returns NULL when the object was freed. _get functions borrow.
 *  - A function that can fail returns 0 or a negative errno value and
 *    passes results through out-parameters, which are left untouched on
 *    failure. devimg_strerror() names every code. Errors with more context
 *    than the code (which field, which value, what was expected) are also
 *    logged through the log function (see "Logging").
 *  - A struct the caller fills or receives by pointer starts with
 *    size_t size, set by the caller to sizeof the struct it has. Below
 *    the struct's DEVIMG_0.1 size: -EINVAL, the message (logged, and
 *    devimg_last_error()) naming the struct and both sizes. Larger (a
 *    newer header): accepted; only the fields the library knows are read
 *    or written, fields past size read as 0, and no more than size bytes
 *    are written (size itself stays). Fields are only ever appended.
 *  - Lists: one an object owns is read by count + get(i) (borrowed, valid
 *    while the object lives; NULL or an invalid value past the end);
 *    plain records an object owns may come as one borrowed array + its
 *    count (property sets, spec constants); the registry, which other
 *    threads change as libraries load, is read as a snapshot into the
 *    caller's array (items, max, *n) with references taken. Arrays of
 *    library-owned records (devimg_property_info, devimg_propset_info,
 *    devimg_spec_const_info, devimg_spec_leaf, devimg_spec_native) keep
 *    their 0.1 layout, so they grow only through new functions;
 *    devimg_param_desc is DPC++'s kernel_param_desc_t and never changes.
 *    docs/design.md, "API conventions", says why.
 *  - Strings returned by an image getter are owned by the image record and
 *    stay valid while the caller holds a reference, also after the library
 *    that carried the image was unloaded. The exceptions are the image and
 *    manifest bytes, which stay in the loaded file: they are valid only
 *    while the image is registered (devimg_image_is_registered()); use
 *    devimg_image_bin_copy() to keep them.
 *
 * Thread safety: every function may be called from any thread, also while
 * other threads load and unload libraries (which registers and unregisters
 * their images). An image object, once obtained, is never mutated except
 * for its registered flag and lazily built, then immutable, caches.
 * devimg_spec_values objects are not locked: use one from one thread at a
 * time.
 */
#ifndef DEVIMG_DEVIMG_H
#define DEVIMG_DEVIMG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <devimg/descriptor.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The registration ABI. Wrapped objects call these from their constructor
 * and destructor (DPC++'s names, so objects made by either toolchain work
 * with either runtime). Neither can report an error to its caller: a
 * descriptor that fails validation is rejected whole (none of its images is
 * registered), the problem is logged at DEVIMG_LOG_ERR and kept for
 * devimg_registry_status(). Registration costs O(images), not O(kernel
 * names): it validates the descriptor's structure and queues it; the
 * first call that reads the registry (any devimg_registry_*() function,
 * hence any kernel lookup) validates the queued descriptors' entries,
 * copies the strings the registry keeps and indexes the names, so a
 * descriptor with a bad entry is rejected then, with the same outcome.
 * Registration decodes no property value and reads no image's bytes,
 * with one exception: LLVM's blob form (an OffloadBinary passed instead of
 * a descriptor) whose body is zlib- or zstd-compressed is expanded here,
 * as its image records live inside that body.
 * Registering a descriptor that is already registered is ignored (logged
 * as a warning); unregistering one that is not registered (never,
 * rejected, or already unregistered) is harmless.
 */
void __sycl_register_lib(struct devimg_device_binaries *desc);
void __sycl_unregister_lib(struct devimg_device_binaries *desc);

/* ---- errors ---- */

/* A name for a 0 or negative errno value; never NULL. */
const char *devimg_strerror(int err);

/* ---- logging ---- */

/* syslog priorities. */
enum {
	DEVIMG_LOG_ERR = 3,
	DEVIMG_LOG_WARNING = 4,
	DEVIMG_LOG_INFO = 6,
	DEVIMG_LOG_DEBUG = 7,
};

/*
 * A log function receives one message per call; format has no trailing
 * newline. It may be called from any thread, but never with a lock of the
 * library held, so it may call back into libdevimg.
 */
typedef void (*devimg_log_fn)(void *data, int priority, const char *file,
			      int line, const char *fn, const char *format,
			      va_list args);

/*
 * Replace the log function (NULL restores the default, which writes
 * "libdevimg: <message>" lines to stderr, and the plugin trace lines of
 * DEVIMG_TRACE as "devimg: <message>"). Process-wide.
 */
void devimg_set_log_fn(devimg_log_fn fn, void *data);
/*
 * Messages up to this priority are logged. The default comes from the
 * environment (read once, at first use): DEVIMG_TRACE unset or 0:
 * DEVIMG_LOG_ERR; 1: DEVIMG_LOG_INFO (and plugin discovery); 2 or more:
 * DEVIMG_LOG_DEBUG (and every plugin call).
 */
int devimg_get_log_priority(void);
void devimg_set_log_priority(int priority);

/* ---- the registry ---- */

/*
 * 0 when every descriptor handed to __sycl_register_lib() so far was
 * registered whole; otherwise the negative errno of the first rejection
 * (-EINVAL: the descriptor failed validation, or one image of an
 * OffloadBinary blob did, e.g. a malformed "symbols" table, while the
 * blob's other images registered; -ENOMEM).
 */
int devimg_registry_status(void);
/* How many registration problems were seen (the first 16 are kept). */
unsigned devimg_registry_problem_count(void);
/*
 * Problem i (0 = first): its errno in *err (may be NULL) and its message,
 * truncated and NUL-terminated, in buf (may be NULL when size is 0).
 * -ENOENT when i is not a kept problem.
 */
int devimg_registry_problem(unsigned i, int *err, char *buf, size_t size);

struct devimg_image;

/*
 * The registered images, in registration order. Fills imgs with up to max
 * references (each to be dropped with devimg_image_unref()) and sets *n to
 * the number of registered images; when *n > max, the first max were given.
 * imgs may be NULL when max is 0. Never fails except -EINVAL for NULL n.
 */
int devimg_registry_images(struct devimg_image **imgs, size_t max, size_t *n);

/*
 * The registered images that define the kernel (or symbol) name, in
 * registration order: as devimg_registry_images(). -ENOENT (and *n = 0)
 * when no registered image defines it; -EINVAL for NULL name or n.
 * Lookup cost does not depend on the number of registered names, and
 * listing costs O(the images that define the name).
 */
int devimg_registry_find_kernel(const char *name, struct devimg_image **imgs,
				size_t max, size_t *n);

/* ---- images ---- */

struct devimg_image *devimg_image_ref(struct devimg_image *img);
struct devimg_image *devimg_image_unref(struct devimg_image *img);

/* 1 while the image's descriptor is registered, 0 after. */
int devimg_image_is_registered(const struct devimg_image *img);
/* Unique per process, in registration order, never reused; starts at 1. */
uint64_t devimg_image_id(const struct devimg_image *img);
/* The image's index in its descriptor. */
unsigned devimg_image_index(const struct devimg_image *img);
/*
 * The descriptor the image came from, to compare only: it must not be
 * dereferenced once the image is unregistered.
 */
const struct devimg_device_binaries *
devimg_image_descriptor(const struct devimg_image *img);

/* Fields of the descriptor, copied when the registry indexed it. */
unsigned devimg_image_version(const struct devimg_image *img);
enum devimg_offload_kind devimg_image_kind(const struct devimg_image *img);
/* The format the descriptor declares (DEVIMG_FORMAT_NONE: guess). */
enum devimg_image_format devimg_image_format(const struct devimg_image *img);
const char *devimg_image_target(const struct devimg_image *img);
/* Never NULL: "" when the descriptor had NULL. */
const char *devimg_image_compile_opts(const struct devimg_image *img);
const char *devimg_image_link_opts(const struct devimg_image *img);
size_t devimg_image_bin_size(const struct devimg_image *img);
size_t devimg_image_manifest_size(const struct devimg_image *img);

/*
 * The format, guessed from the first bytes when the descriptor declares
 * DEVIMG_FORMAT_NONE: SPIR-V magic 0x07230203 gives DEVIMG_FORMAT_SPIRV,
 * LLVM bitcode 'BC' 0xC0DE gives DEVIMG_FORMAT_LLVMBC, ELF and PTX text
 * give DEVIMG_FORMAT_NATIVE, anything else stays DEVIMG_FORMAT_NONE. Reads
 * the image bytes on the first call only (then cached). -ESTALE when the
 * guess was needed but the image is no longer registered.
 * A DEVIMG_FORMAT_COMPRESSED image (devimg_image_format() says so) is
 * expanded first, once, and its expanded bytes guessed the same way;
 * -EBADMSG when its zstd frame is corrupt or does not record its content
 * size, -EFBIG when that size is above DEVIMG_LIMIT_DECOMPRESSED,
 * -EOPNOTSUPP when libzstd.so.1 (loaded on the first compressed image)
 * cannot be loaded.
 */
int devimg_image_guess_format(struct devimg_image *img,
			      enum devimg_image_format *fmt);

/*
 * The image bytes, borrowed from the loaded file: valid only while the
 * image stays registered, i.e. while the caller keeps its library loaded.
 * -ESTALE when the image is no longer registered. For a compressed image,
 * the expanded bytes (made on first use, freed when it is unregistered),
 * or devimg_image_guess_format()'s errors; devimg_image_bin_size() is the
 * size of the stored (compressed) bytes.
 */
int devimg_image_bin(const struct devimg_image *img, const void **bytes,
		     size_t *size);
/*
 * A malloc'ed copy of the image bytes (free() it), safe against concurrent
 * unloading. -ESTALE when no longer registered, -ENOMEM. An empty image
 * gives a non-NULL pointer and size 0.
 */
int devimg_image_bin_copy(struct devimg_image *img, void **bytes,
			  size_t *size);
/* The manifest bytes: as devimg_image_bin(); NULL and 0 when none. */
int devimg_image_manifest(const struct devimg_image *img, const void **bytes,
			  size_t *size);

/* Offload entries (kernel and symbol names), in descriptor order. */
size_t devimg_image_entry_count(const struct devimg_image *img);
/* NULL when i is out of range. */
const char *devimg_image_entry_name(const struct devimg_image *img, size_t i);

/*
 * Property sets. Copied from the descriptor on the first call that needs
 * them, then owned by the image record like the strings above. Values are
 * as in the descriptor:
 *  UINT32:     u32; data NULL, size 0.
 *  BYTE_ARRAY: data/size: the 8-byte little-endian bit count, then the
 *              payload (size >= 8).
 *  STRING:     data NUL-terminated, size its length without the NUL.
 */
struct devimg_property_info {
	const char *name;
	enum devimg_property_type type;
	uint32_t u32;
	const unsigned char *data;
	uint64_t size;
};

struct devimg_propset_info {
	const char *name;
	const struct devimg_property_info *props;
	size_t nprops;
};

/*
 * All property sets, in descriptor order. -ESTALE when the image was
 * unregistered before the first call; -ENOMEM; -EOVERFLOW (logged once)
 * when their copy would take more than PTRDIFF_MAX bytes, which every
 * function reading the sets then returns; -EINVAL for an OffloadBinary
 * blob's image whose property-set text does not parse.
 */
int devimg_image_propsets(struct devimg_image *img,
			  const struct devimg_propset_info **sets, size_t *n);
/*
 * The first property named name in the first set named set. -ENOENT when
 * absent; otherwise as devimg_image_propsets().
 */
int devimg_image_find_property(struct devimg_image *img, const char *set,
			       const char *name,
			       const struct devimg_property_info **prop);

/* ---- specialization constants ---- */

/* One scalar leaf: its SpecId (0xffffffff: padding), offset and size. */
struct devimg_spec_leaf {
	uint32_t id;
	uint32_t offset;
	uint32_t size;
};

struct devimg_spec_const_info {
	const char *name;		/* the symbolic id */
	uint32_t size;			/* bytes of a value */
	uint32_t blob_offset;		/* in the defaults and emulated buffer */
	const struct devimg_spec_leaf *leaves;
	size_t nleaves;
};

/*
 * The image's spec constants in SpecId order (the order of the defaults
 * blob), decoded from "SYCL/specialization constants" and "... default
 * values" on the first call, then cached. *defaults and *size: the default
 * values blob (payload only; NULL and 0 when the image has no constants).
 * -EINVAL (logged with the set and property) when the properties are
 * malformed or the defaults blob does not match the constants' sizes;
 * -ESTALE, -ENOMEM as devimg_image_propsets(). Either out pair may be NULL.
 */
int devimg_image_spec_consts(struct devimg_image *img,
			     const struct devimg_spec_const_info **consts,
			     size_t *n, const void **defaults, size_t *size);

/* User-set values of one image's spec constants. */
struct devimg_spec_values;

/* -EINVAL for NULL arguments, or as devimg_image_spec_consts(). */
int devimg_spec_values_new(struct devimg_image *img,
			   struct devimg_spec_values **out);
struct devimg_spec_values *devimg_spec_values_ref(struct devimg_spec_values *v);
struct devimg_spec_values *
devimg_spec_values_unref(struct devimg_spec_values *v);

/*
 * Set the constant symbolic_id from size bytes at value. -ENOENT when the
 * image has no such constant; -EINVAL when size is not the constant's size
 * (the message, logged at DEVIMG_LOG_ERR, names both sizes). A later call
 * for the same constant replaces the value. The bytes of value's padding
 * (leaves without a SpecId) are not taken: the defaults' stay.
 */
int devimg_spec_values_set(struct devimg_spec_values *v,
			   const char *symbolic_id, size_t size,
			   const void *value);

/* What the native path sets: SpecId id to size bytes at value. */
struct devimg_spec_native {
	uint32_t id;
	uint32_t size;
	const void *value;
};

/*
 * The native path: one entry per non-padding leaf of every constant the
 * user set, in SpecId order of the constants; unset constants keep the
 * module's defaults. The list and its value pointers are owned by v and
 * valid until the next devimg_spec_values_set() or the last unref.
 * *n is 0 (and *list NULL) when nothing was set. -ENOMEM.
 */
int devimg_spec_values_native(struct devimg_spec_values *v,
			      const struct devimg_spec_native **list,
			      size_t *n);
/*
 * The emulated path: the buffer passed as the kernel's implicit last
 * argument, every constant at its blob_offset, holding the user's value
 * where set and the default otherwise. Owned by v (valid as above).
 * NULL and 0 when the image has no constants.
 */
int devimg_spec_values_buffer(struct devimg_spec_values *v, const void **buf,
			      size_t *size);

/* ---- image selection ---- */

enum devimg_backend {
	DEVIMG_BACKEND_OPENCL = 1,
	DEVIMG_BACKEND_LEVEL_ZERO = 2,
	DEVIMG_BACKEND_CUDA = 3,
};

enum devimg_device_type {
	DEVIMG_DEVICE_CPU = 1,
	DEVIMG_DEVICE_GPU = 2,
	DEVIMG_DEVICE_ACCELERATOR = 3,
};

/* What selection needs to know about a device. */
struct devimg_device_caps {
	size_t size;		/* sizeof(struct devimg_device_caps) */
	enum devimg_backend backend;
	enum devimg_device_type type;
	int spirv;		/* ingests SPIR-V (IL version, cl_khr_il_program) */
	int spir;		/* ingests SPIR 1.2 bitcode (cl_khr_spir) */
	unsigned cuda_cc;	/* compute capability * 10 (80 = 8.0); 0: unknown */
	int ptx;		/* takes PTX as a native binary (NVIDIA OpenCL) */
};

/* "opencl", "level_zero", "cuda"; "unknown" otherwise. */
const char *devimg_backend_name(enum devimg_backend backend);

#define DEVIMG_REASON_MAX 160

/*
 * Choose among candidate images (typically those of
 * devimg_registry_find_kernel(), in that order) by DPC++'s rules: an image
 * qualifies when its target is for the backend and device type and its
 * (guessed) format can be ingested; among those, OpenCL takes the first
 * spir64_x86_64 (CPU), spir64_gen (GPU) or spir64_fpga (accelerator)
 * image, else the last spir64 image; Level Zero the first spir64_gen,
 * else the last spir64; CUDA the first nvptx64 (PTX for a newer sm than
 * the device's is rejected when cuda_cc is known). An OpenCL device that
 * takes PTX (NVIDIA's) also takes nvptx64 images: after its own target,
 * before the spir64 fallback.
 *
 * *chosen: the index of the chosen image. reasons (may be NULL): n
 * strings; reasons[i] is "" for the chosen image and otherwise says why
 * image i was not taken ("image 2 (target nvptx64): not for backend
 * opencl"). Returns 0; -ENOEXEC when no image qualifies; -ENOENT when n is
 * 0; -EINVAL for NULL arguments, an unknown backend or device type, or a
 * dev->size below the DEVIMG_0.1 size.
 * Guessing a format reads the image's first bytes (see
 * devimg_image_guess_format()); an unregistered image whose format is
 * still unknown is rejected.
 */
int devimg_select_image(const struct devimg_device_caps *dev,
			struct devimg_image *const *imgs, size_t n,
			size_t *chosen, char (*reasons)[DEVIMG_REASON_MAX]);

/* ---- dispatch: contexts, devices, queues, buffers, kernels ---- */

/*
 * Every exported function that fails (returns a negative errno, or NULL
 * where that is its failure) also leaves a message for the calling
 * thread naming what failed (the image, kernel, set and property, spec
 * constant or argument; for dispatch, which image was rejected and why,
 * the plugin's error with the build log); __sycl_register_lib() and
 * __sycl_unregister_lib() too. devimg_last_error() returns it: the last
 * failure's. It is never NULL ("" before the first failure); successful
 * calls leave it alone.
 */
const char *devimg_last_error(void);

struct devimg_ctx;
struct devimg_device;
struct devimg_queue;
struct devimg_buf;
struct devimg_kernel;

/*
 * A context over the devices that DEVIMG_DEVICE_SELECTOR keeps, from the
 * plugins found on DEVIMG_PLUGIN_PATH and in the plugin folder (bound once
 * per process), with one backend context per platform. Devices are
 * numbered in plugin order (the files' names: cuda, level_zero, opencl),
 * then in each backend's order; device 0 is the default device. No
 * plugin or no device is no error: devimg_device_count() is then 0.
 * -EINVAL when DEVIMG_DEVICE_SELECTOR is outside its grammar (the message
 * names the column), -ENOMEM.
 *
 * Backends start when needed: the context goes through the plugins only
 * as far as the device asked for. devimg_ctx_new() starts the plugins up
 * to the first that keeps a device; devimg_device_get(ctx, i) those up to
 * device i; devimg_device_count() all the others, side by side. A program
 * that uses the default device starts one backend.
 */
int devimg_ctx_new(struct devimg_ctx **out);
struct devimg_ctx *devimg_ctx_ref(struct devimg_ctx *ctx);
/* NULL when the context was freed; queues, buffers, kernels hold it. */
struct devimg_ctx *devimg_ctx_unref(struct devimg_ctx *ctx);
/*
 * How many programs the context made: builds, compiles and links (cache
 * misses), for tests and for checking that dispatch does not build.
 */
unsigned devimg_ctx_stat_builds(const struct devimg_ctx *ctx);

unsigned devimg_device_count(struct devimg_ctx *ctx);
/* Borrowed, valid as long as the context; NULL when i is out of range. */
struct devimg_device *devimg_device_get(struct devimg_ctx *ctx, unsigned i);
const char *devimg_device_name(const struct devimg_device *dev);
/*
 * The backend its plugin names: "opencl", "level_zero", "cuda", or the
 * name a plugin for another backend gives itself.
 */
const char *devimg_device_backend(const struct devimg_device *dev);
/*
 * What image selection sees of dev, written into caps up to caps->size.
 * -EINVAL for NULL arguments or a caps->size below the DEVIMG_0.1 size.
 */
int devimg_device_caps(const struct devimg_device *dev,
		       struct devimg_device_caps *caps);

/* An in-order queue. -EINVAL, -ENOMEM, or the backend's error. */
int devimg_queue_new(struct devimg_device *dev, struct devimg_queue **out);
/* Wait for everything queued on q. The backend's error (-EIO ...). */
int devimg_queue_finish(struct devimg_queue *q);
struct devimg_queue *devimg_queue_ref(struct devimg_queue *q);
struct devimg_queue *devimg_queue_unref(struct devimg_queue *q);

/*
 * Device memory of size > 0 bytes, usable by every device of dev's
 * platform. -EINVAL (size 0, NULL), -ENOMEM, or the backend's error.
 */
int devimg_buf_new(struct devimg_device *dev, size_t size,
		   struct devimg_buf **out);
/*
 * Blocking copies in queue order. -EINVAL when off/n leave the buffer or
 * the buffer is of another platform than q's device.
 */
int devimg_buf_write(struct devimg_queue *q, struct devimg_buf *b, size_t off,
		     size_t n, const void *src);
int devimg_buf_read(struct devimg_queue *q, struct devimg_buf *b, size_t off,
		    size_t n, void *dst);
size_t devimg_buf_size(const struct devimg_buf *b);
struct devimg_buf *devimg_buf_ref(struct devimg_buf *b);
struct devimg_buf *devimg_buf_unref(struct devimg_buf *b);

/*
 * The kernel called name for dev: the image is chosen among the
 * registered images that define name (devimg_select_image() with dev's
 * caps), its program built with the image's compile and link options, or
 * taken from the device's program cache (keyed by image, native
 * spec-constant values and options: a program is built once per context).
 * Errors: -ENOENT when no registered image defines name (the message names
 * it); -ENOEXEC when no image is compatible with dev (the message gives
 * each image's rejection reason) or the build failed (the message holds
 * the plugin's error and build log); -ESTALE when the chosen image was
 * unregistered meanwhile; -EINVAL when its spec-constant properties are
 * malformed; -ENOMEM; the backend's error otherwise.
 */
int devimg_kernel_new(struct devimg_device *dev, const char *name,
		      struct devimg_kernel **out);
struct devimg_kernel *devimg_kernel_ref(struct devimg_kernel *k);
struct devimg_kernel *devimg_kernel_unref(struct devimg_kernel *k);
/*
 * How many arguments the user sets: the kernel's own, without the
 * loader's implicit ones. UINT_MAX when the backend cannot tell.
 */
unsigned devimg_kernel_arg_count(const struct devimg_kernel *k);
/* The image the kernel was built from (borrowed). */
struct devimg_image *devimg_kernel_image(const struct devimg_kernel *k);

/*
 * Arguments, recorded and kept until replaced: i counts the kernel's own
 * arguments (-EINVAL beyond them). By value (size bytes copied now), a
 * buffer (referenced until replaced or the kernel is freed; -EINVAL when
 * of another platform), or size bytes of work-group local memory. The
 * backend's error when it rejects the size.
 */
int devimg_kernel_set_arg(struct devimg_kernel *k, unsigned i, size_t size,
			  const void *value);
int devimg_kernel_set_arg_buf(struct devimg_kernel *k, unsigned i,
			      struct devimg_buf *b);
int devimg_kernel_set_arg_local(struct devimg_kernel *k, unsigned i,
				size_t size);
/*
 * Set a specialization constant of the kernel's image for the next
 * launches. Native path (a SPIR-V image on a device that sets constants
 * itself): the next launch uses a program built with the values, from the
 * cache when built before. Emulated path: the next launch refreshes the
 * kernel's implicit last argument, a buffer of all values, without a
 * rebuild. -ENOENT: no such constant; -EINVAL: size is not its size.
 */
int devimg_kernel_set_spec_const(struct devimg_kernel *k,
				 const char *symbolic_id, size_t size,
				 const void *value);

/*
 * Enqueue k on q over dims (1 to 3) dimensions: global_size work-items
 * numbered from global_offset (NULL: zero), in work-groups of local_size
 * (NULL: the backend picks). Arguments are captured now; wait with
 * devimg_queue_finish(). -EINVAL: bad dims, an argument not set, q not on
 * the kernel's device, or a range no backend is given: in a dimension,
 * offset + global size - 1 past SIZE_MAX or a local size that is 0 or
 * does not divide the global size, or a product of the global sizes past
 * SIZE_MAX (the message names the dimension); -ENOTSUP: a non-zero
 * offset the device cannot
 * honour; the backend's error otherwise. Thread safety: a kernel's
 * arguments are locked from setting them to the launch, so threads may
 * launch kernels on their own queues; a thread that sets arguments and
 * launches needs a kernel of its own to be sure the launch sees its
 * arguments. A changed emulated spec constant is written through the
 * launching queue: finish other queues still running the kernel first.
 */
int devimg_launch(struct devimg_queue *q, struct devimg_kernel *k,
		  unsigned dims, const size_t *global_offset,
		  const size_t *global_size, const size_t *local_size);

/* ---- launch metadata from the device compiler ---- */

/*
 * What the device compiler says about kernels beyond their names, read
 * from the image's property sets (docs/launch-metadata.md):
 *  - "SYCL/kernel param opt": arguments the optimizer eliminated. The
 *    kernel in the image lacks them; devimg_kernel_set_arg*() and
 *    devimg_kernel_set_args() still take the original numbering, accept
 *    an eliminated argument and drop it, and pass the others under their
 *    new numbers. devimg_kernel_arg_count() counts the original
 *    arguments, eliminated ones included, and an eliminated argument
 *    need not be set before a launch.
 *  - "SYCL/program metadata" "<kernel>@reqd_work_group_size": the
 *    work-group size devimg_launch() uses when given no local size, and
 *    the only one it accepts otherwise (-EINVAL, the message names both
 *    sizes).
 *  - "SYCL/device requirements": aspects, sub-group and work-group
 *    sizes a device must support; devimg_kernel_new() passes over an
 *    image whose requirements the device does not meet and says why.
 * devimg_kernel_new() fails with -EINVAL (the message says which
 * property) when the chosen image's mask or required size is malformed,
 * or when the arguments its mask keeps are not the built kernel's.
 */

/* Aspects, numbered as DPC++'s sycl::aspect (sycl/info/aspects.def). */
enum devimg_aspect {
	DEVIMG_ASPECT_CPU = 1,
	DEVIMG_ASPECT_GPU = 2,
	DEVIMG_ASPECT_ACCELERATOR = 3,
	DEVIMG_ASPECT_CUSTOM = 4,
	DEVIMG_ASPECT_FP16 = 5,
	DEVIMG_ASPECT_FP64 = 6,
	DEVIMG_ASPECT_IMAGE = 9,
	DEVIMG_ASPECT_ONLINE_COMPILER = 10,
	DEVIMG_ASPECT_ONLINE_LINKER = 11,
	DEVIMG_ASPECT_QUEUE_PROFILING = 12,
	DEVIMG_ASPECT_USM_DEVICE_ALLOCATIONS = 13,
	DEVIMG_ASPECT_USM_HOST_ALLOCATIONS = 14,
	DEVIMG_ASPECT_USM_SHARED_ALLOCATIONS = 15,
	DEVIMG_ASPECT_USM_SYSTEM_ALLOCATIONS = 17,
	DEVIMG_ASPECT_USM_ATOMIC_HOST_ALLOCATIONS = 26,
	DEVIMG_ASPECT_USM_ATOMIC_SHARED_ALLOCATIONS = 27,
	DEVIMG_ASPECT_ATOMIC64 = 28,
};

/* "fp64" for 6; NULL for an aspect devimg has no name for. */
const char *devimg_aspect_name(uint32_t aspect);

/*
 * Which arguments of kernel the optimizer eliminated in img: *nargs is
 * the kernel's argument count before elimination, and argument i was
 * eliminated when bit i % 8 of mask[i / 8] is set. mask is owned by the
 * image (as property values are). -ENOENT when img has no mask for
 * kernel (nothing was eliminated); -EINVAL (logged with the image and
 * kernel) when the property is not a byte array; -EINVAL for NULL
 * arguments; -ESTALE, -ENOMEM as devimg_image_propsets().
 */
int devimg_image_kernel_arg_mask(struct devimg_image *img, const char *kernel,
				 const unsigned char **mask, size_t *nargs);

/*
 * The work-group size kernel requires in img: *dims (0 to 3) values in
 * size[], dimension 0 first (the order of devimg_launch()'s local_size),
 * size[] filled with 1 past *dims; *dims is 0 when the property is an
 * empty list, which DPC++'s runtime reads as no requirement. -ENOENT when
 * img sets none; -EINVAL (logged) when the property is not 0 to 3
 * non-zero uint32 values; the rest as devimg_image_kernel_arg_mask().
 */
int devimg_image_reqd_work_group_size(struct devimg_image *img,
				      const char *kernel, unsigned *dims,
				      size_t size[3]);

/*
 * An image's "SYCL/device requirements" (0 where it states none). The
 * aspects it requires (DPC++'s numbers, in property order) are owned by
 * the image like its property sets; NULL when naspects is 0.
 */
struct devimg_image_reqs {
	size_t size;			/* sizeof(struct devimg_image_reqs) */
	const uint32_t *aspects;
	size_t naspects;
	uint32_t sub_group_size;	/* reqd_sub_group_size */
	unsigned wg_dims;		/* reqd_work_group_size(_uint64_t) */
	uint64_t wg_size[3];		/* 1 past wg_dims */
	unsigned work_group_num_dim;
};

/*
 * Decode img's device requirements into *reqs (decoded on the first
 * successful call, then cached). An image without the set requires
 * nothing. -EINVAL (logged with the image and property) when a property
 * has the wrong type or size; -EINVAL for NULL img or reqs, or a
 * reqs->size below the DEVIMG_0.1 size; -ESTALE, -ENOMEM as
 * devimg_image_propsets().
 */
int devimg_image_requirements(struct devimg_image *img,
			      struct devimg_image_reqs *reqs);

/*
 * What a device offers against images' requirements. Aspects are bits of
 * 64-bit masks by DPC++ number (bit n: aspect n; aspects from 64 on are
 * never known). aspects_known says which bits of aspects are facts: a
 * plugin that reports no aspects (aspects_reported 0, e.g. one built
 * against an older plugin interface) leaves only cpu, gpu, accelerator
 * and custom known, from the device type. 0 and empty lists: unknown.
 */
struct devimg_device_features {
	size_t size;		/* sizeof(struct devimg_device_features) */
	uint64_t aspects;
	uint64_t aspects_known;
	int aspects_reported;
	unsigned nsub_group_sizes;
	uint32_t sub_group_sizes[8];
	size_t max_work_group_size;
	size_t max_work_item_sizes[3];
};

/*
 * dev's features, written up to features->size. -EINVAL for NULL
 * arguments or a features->size below the DEVIMG_0.1 size.
 */
int devimg_device_features(const struct devimg_device *dev,
			   struct devimg_device_features *features);

/*
 * devimg_select_image(), and when features is not NULL an image also
 * qualifies only when the device meets its "SYCL/device requirements":
 * every required aspect is known to be present (one the device lacks
 * gives "image 0 (target spir64): needs aspect fp16, device lacks it";
 * one that is not known is not assumed either), its reqd_sub_group_size
 * is one of the device's sub-group sizes, its required work-group size
 * fits the device's limits where those are known. An image whose
 * requirements cannot be decoded, or cannot be read any more (it was
 * unregistered before), is rejected with that reason. devimg_select_image()
 * is this function with features NULL: it does not look at requirements.
 */
int devimg_select_image_with(const struct devimg_device_caps *dev,
			     const struct devimg_device_features *features,
			     struct devimg_image *const *imgs, size_t n,
			     size_t *chosen,
			     char (*reasons)[DEVIMG_REASON_MAX]);

/*
 * Kernel parameter descriptors, as the integration header of DPC++ lays
 * them out (kernel_param_desc_t): kind, information that depends on the
 * kind, and the offset of the parameter in the captured object, the bytes
 * of the kernel's closure. Entry i describes argument i (original
 * numbering). Kinds keep DPC++'s kernel_param_kind_t numbers; devimg
 * takes these:
 *  ACCESSOR (0): info is the access target (low 11 bits) | dimensions
 *    << 11. Targets GLOBAL_BUFFER (2014) and CONSTANT_BUFFER (2015): the
 *    object holds at offset a struct devimg_buf * (devimg's accessor is
 *    its buffer handle), passed as a buffer argument. Target LOCAL
 *    (2016): the object holds a size_t, bytes of work-group local memory.
 *  STD_LAYOUT (1): info bytes at offset, passed by value.
 *  POINTER (3): devimg has no shared virtual memory: the object holds a
 *    struct devimg_buf * and the kernel gets a pointer to its start.
 *  SPEC_CONST_BUFFER (4): the kernel's implicit spec-constant buffer;
 *    only as the last entry, and nothing is read for it (the loader
 *    passes its own buffer).
 *  WORK_GROUP_MEMORY (6): as ACCESSOR with target LOCAL.
 * SAMPLER (2), STREAM (5) and other kinds and targets give -ENOTSUP.
 * One accessor is one kernel argument here: a kernel lowered DPC++'s way,
 * with the accessor's ranges and offset as further arguments, lists them
 * as STD_LAYOUT entries of their own.
 */
enum devimg_param_kind {
	DEVIMG_PARAM_ACCESSOR = 0,
	DEVIMG_PARAM_STD_LAYOUT = 1,
	DEVIMG_PARAM_SAMPLER = 2,
	DEVIMG_PARAM_POINTER = 3,
	DEVIMG_PARAM_SPEC_CONST_BUFFER = 4,
	DEVIMG_PARAM_STREAM = 5,
	DEVIMG_PARAM_WORK_GROUP_MEMORY = 6,
};

/* sycl::access::target values in the low bits of an accessor's info. */
enum devimg_access_target {
	DEVIMG_ACCESS_GLOBAL_BUFFER = 2014,
	DEVIMG_ACCESS_CONSTANT_BUFFER = 2015,
	DEVIMG_ACCESS_LOCAL = 2016,
};

#define DEVIMG_PARAM_TARGET_MASK 0x7ff
#define DEVIMG_PARAM_DIMS_SHIFT 11

struct devimg_param_desc {
	int kind;
	int info;
	int offset;
};

/*
 * Set arguments 0 to n - 1 of k from params and the captured object obj
 * (obj_size bytes; any alignment). Every entry is checked first (kind,
 * target, size, offset + size within obj_size, buffer handles not NULL
 * and of k's platform, argument numbers): an error there changes nothing
 * and names the entry. Then each argument is set as by
 * devimg_kernel_set_arg*() (eliminated ones dropped); when the backend
 * rejects one, those before it stay set. -EINVAL, -ENOTSUP (an
 * unsupported kind or target), -ENOMEM, or the backend's error.
 */
int devimg_kernel_set_args(struct devimg_kernel *k,
			   const struct devimg_param_desc *params, size_t n,
			   const void *obj, size_t obj_size);

/* ---- kernel bundles ---- */

/*
 * A bundle is a set of device images of one context, each for one of its
 * devices, in one state (docs/bundles.md):
 *  INPUT       images as registered that can still be compiled: SPIR-V,
 *              SPIR bitcode and PTX; spec constants may be set.
 *  OBJECT      compiled, not linked yet.
 *  EXECUTABLE  built, or linked with the images they import symbols from
 *              ("SYCL/imported symbols" against "SYCL/exported symbols"):
 *              kernels made from it never build.
 * Bundles are immutable except for the spec constants of an input
 * bundle (set them from one thread at a time, before compiling or
 * building from it), and reference counted like the other objects. The programs they
 * hold are the context's cached ones: building a bundle and then calling
 * devimg_kernel_new() for one of its kernels builds nothing twice.
 */
enum devimg_bundle_state {
	DEVIMG_BUNDLE_INPUT = 0,
	DEVIMG_BUNDLE_OBJECT = 1,
	DEVIMG_BUNDLE_EXECUTABLE = 2,
};

struct devimg_bundle;

/*
 * Which images a new bundle takes; size is set by the caller, every other
 * field optional (0/NULL: all).
 */
struct devimg_bundle_filter {
	size_t size;		/* sizeof(struct devimg_bundle_filter) */
	/* Only the images of this descriptor (a wrapped object's). */
	const struct devimg_device_binaries *desc;
	/* Only the images that define this kernel. */
	const char *kernel;
	/* Only for these devices of the context (ndevs of them). */
	struct devimg_device *const *devs;
	unsigned ndevs;
};

/*
 * A bundle of the registered images in state: for each device of ctx (or
 * of the filter), every image that passes the filter and is compatible
 * with the device (devimg_select_image_with(), requirements included) and,
 * for INPUT and OBJECT, that can be compiled; compiled (OBJECT) or built
 * (EXECUTABLE) as by devimg_bundle_compile() and devimg_bundle_build()
 * without options. An empty bundle is no error. filter may be NULL.
 * -EINVAL (NULL ctx or out, a bad state, a device of another context, a
 * filter->size below the DEVIMG_0.1 size), the errors of compile and
 * build, -ENOMEM.
 */
int devimg_bundle_new(struct devimg_ctx *ctx, enum devimg_bundle_state state,
		      const struct devimg_bundle_filter *filter,
		      struct devimg_bundle **out);
/*
 * A bundle of the images of a SYCLBIN file (data, size bytes; copied) in
 * the file's state, as sycl::get_kernel_bundle() makes of one: each
 * abstract module's IR modules (SPIR-V, target spir64) then its native
 * images (target the first component of their triple), with the module's
 * "SYCL/kernel names" as kernels and its metadata as property sets; then
 * taken, compiled or built as devimg_bundle_new() does with the filter
 * (whose desc is ignored). The images are registered (devimg_registry_*
 * lists them) until ctx is freed. Reads the bare SYCLBIN, its
 * OffloadBinary envelope and the multi-entry version 2 (docs/formats.md).
 * -EINVAL (NULL argument; a malformed file, the message naming the
 * field), the errors of devimg_bundle_new(), -ENOMEM.
 */
int devimg_bundle_new_from_syclbin(struct devimg_ctx *ctx, const void *data,
				   size_t size,
				   const struct devimg_bundle_filter *filter,
				   struct devimg_bundle **out);
struct devimg_bundle *devimg_bundle_ref(struct devimg_bundle *b);
struct devimg_bundle *devimg_bundle_unref(struct devimg_bundle *b);

enum devimg_bundle_state devimg_bundle_state(const struct devimg_bundle *b);
/* "input", "object", "executable"; "unknown" otherwise. */
const char *devimg_bundle_state_name(enum devimg_bundle_state state);

/*
 * input -> object: every image compiled for its device with its compile
 * options and options (NULL: none), with the spec constants set on in.
 * A backend that cannot compile separately (PoCL's SPIR) keeps the image
 * uncompiled in the object bundle; linking it alone then builds it, and
 * linking it with others fails (-ENOTSUP). -EINVAL when in is not an
 * input bundle; -ENOEXEC when a compile fails (the message holds the log).
 */
int devimg_bundle_compile(struct devimg_bundle *in, const char *options,
			  struct devimg_bundle **out);
/*
 * objects -> executable: for each device, every image of the n object
 * bundles that defines a kernel is linked with the images it imports
 * symbols from, found among the bundles' images for that device, then
 * among the registered ones (compiled then); link options: the image's
 * and options. Images that define no kernel are only linked into others.
 * -EINVAL: n is 0, a bundle is not an object bundle, or the bundles are
 * of different contexts; -ENOEXEC: a symbol no image exports, or the link
 * failed; -ENOTSUP: the backend cannot link (the message says why).
 */
int devimg_bundle_link(struct devimg_bundle *const *objects, size_t n,
		       const char *options, struct devimg_bundle **out);
/*
 * input -> executable: compile and link in one step; an image that
 * imports nothing is built directly (the program devimg_kernel_new()
 * would build). Errors as compile and link.
 */
int devimg_bundle_build(struct devimg_bundle *in, const char *options,
			struct devimg_bundle **out);
/*
 * The union of n >= 1 bundles of one context in one state, each image
 * once per device (in order of first appearance). -EINVAL: n is 0, the
 * states or contexts differ (the message names both).
 */
int devimg_bundle_join(struct devimg_bundle *const *bundles, size_t n,
		       struct devimg_bundle **out);

/* Images of the bundle (borrowed; i from 0): NULL when out of range. */
size_t devimg_bundle_image_count(const struct devimg_bundle *b);
struct devimg_image *devimg_bundle_image(const struct devimg_bundle *b,
					 size_t i);
struct devimg_device *devimg_bundle_image_device(const struct devimg_bundle *b,
						 size_t i);
/* Its (guessed) format; DEVIMG_FORMAT_NONE when out of range. */
enum devimg_image_format
devimg_bundle_image_format(const struct devimg_bundle *b, size_t i);
/*
 * For an executable bundle: how many images image i's program was linked
 * from (1: built alone); 0 otherwise.
 */
size_t devimg_bundle_image_linked(const struct devimg_bundle *b, size_t i);

/* 1 when an image of the bundle for dev (NULL: any device) defines name. */
int devimg_bundle_has_kernel(const struct devimg_bundle *b, const char *name,
			     const struct devimg_device *dev);
/*
 * The distinct kernel names of the bundle's images, in image order (i
 * from 0): borrowed from the images, valid as long as the bundle; NULL
 * when i is out of range.
 */
size_t devimg_bundle_kernel_count(const struct devimg_bundle *b);
const char *devimg_bundle_kernel_name(const struct devimg_bundle *b, size_t i);

/*
 * Set a spec constant on every image of an input bundle that has it; what
 * is compiled or built from the bundle carries the values. -EINVAL: not
 * an input bundle, or size is not the constant's size; -ENOENT: no image
 * of the bundle has the constant.
 */
int devimg_bundle_set_spec_const(struct devimg_bundle *b,
				 const char *symbolic_id, size_t size,
				 const void *value);

/*
 * Chooses the image for a kernel among n >= 1 images of a bundle that
 * define it for dev: returns an index below n, or a negative errno value
 * to refuse (devimg_bundle_kernel_new() then fails with it).
 */
typedef int (*devimg_image_selector_fn)(void *data,
					const struct devimg_device *dev,
					const char *kernel,
					struct devimg_image *const *imgs,
					size_t n);

/*
 * The kernel called name for dev from an executable bundle: its program
 * is the bundle's, never built here. Among the bundle's images for dev
 * that define name, selector (NULL: DPC++'s preference, as
 * devimg_select_image()) chooses. Its spec constants are the bundle's
 * and fixed (devimg_kernel_set_spec_const() fails). -EINVAL: not an
 * executable bundle, dev not of its context, or the selector's index is
 * out of range; -ENOENT: no image of the bundle defines name for dev;
 * otherwise as devimg_kernel_new().
 */
int devimg_bundle_kernel_new(struct devimg_bundle *b, struct devimg_device *dev,
			     const char *name, devimg_image_selector_fn selector,
			     void *data, struct devimg_kernel **out);

/* ---- device globals ---- */

/*
 * A device global (sycl_ext_oneapi_device_global) of the registered
 * images, as their "SYCL/device globals" property sets declare it: its
 * unique id, its size and whether it has device_image_scope. Records are
 * kept for the life of the process; once no registered image defines the
 * id any more (its library was unloaded), functions taking it give
 * -ENOENT. See devimg_global_find(3).
 */
struct devimg_global;

/* The global whose unique id is unique_id. -ENOENT: no image defines it. */
int devimg_global_find(const char *unique_id,
		       const struct devimg_global **out);
/*
 * Tie the host variable at host_addr to the global unique_id, as a SYCL
 * integration footer does for each device_global it defines; a later
 * call for the same address replaces the tie.
 */
int devimg_global_bind_host(const void *host_addr, const char *unique_id);
/* The global tied to host_addr. -ENOENT: none, or no image defines it. */
int devimg_global_find_host(const void *host_addr,
			    const struct devimg_global **out);
/* Its unique id, its size in bytes (0 for NULL), 1 with image scope. */
const char *devimg_global_id(const struct devimg_global *g);
size_t devimg_global_size(const struct devimg_global *g);
int devimg_global_image_scope(const struct devimg_global *g);
/*
 * Copy n bytes between the host and the global at offset off, on q's
 * device, in order with q's kernels. -EINVAL: a NULL, or off + n past the
 * global's size; -ENOENT: no image compatible with q's device defines it;
 * -EACCES: its host access forbids it; -ENOTSUP: the backend cannot reach
 * it (the message names what is missing).
 */
int devimg_global_write(struct devimg_queue *q, const struct devimg_global *g,
			size_t off, size_t n, const void *src);
int devimg_global_read(struct devimg_queue *q, const struct devimg_global *g,
		       size_t off, size_t n, void *dst);

#ifdef __cplusplus
}
#endif
#endif
