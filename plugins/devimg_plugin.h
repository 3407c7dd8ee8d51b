/* SPDX-License-Identifier: MIT */
/*
 * The devimg backend plugin interface.
 *
 * A plugin is a shared object named devimg-<backend>.so that exports one
 * symbol, devimg_plugin_init(), which fills a versioned table of function
 * pointers. The loader owns every policy decision (which image, which cache
 * entry, native or emulated specialization constants, which devices a
 * context sees); a plugin only translates these calls to its vendor API.
 * A plugin never sees property sets, descriptors or the device selector.
 *
 * Conventions for every operation in the table:
 *  - Handles are opaque pointers owned by the plugin. Platforms and devices
 *    live from a successful devimg_plugin_init() until fini(); every other
 *    handle lives until its own *_release() operation.
 *  - Results come back through out-parameters, written only on success.
 *  - The return value is 0 or a negative errno value:
 *      -EINVAL   a bad argument (index, size, handle of the wrong kind)
 *      -ENOMEM   host or device memory or resources exhausted
 *      -ENODEV   device or platform not found or not available
 *      -ENOENT   no kernel of that name in the program
 *      -ENOEXEC  program creation or build failed (bad binary, build log)
 *      -ENOTSUP  the backend or this device cannot do it (e.g. no SPIR-V)
 *      -EIO      any other backend failure
 *    and the plugin leaves a one-paragraph message for the calling thread,
 *    read with last_error(): the vendor call that failed, the vendor's error
 *    name and number (e.g. "CL_BUILD_PROGRAM_FAILURE (-11)") and, for build
 *    failures, the build log.
 *  - Operations may be called from several threads at once as far as the
 *    vendor API allows it for the handles involved; the error message is
 *    per thread.
 */
#ifndef DEVIMG_PLUGIN_H
#define DEVIMG_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Bumped on any incompatible change of this header. Compatible growth only
 * appends to the structures below, which carry their size for that reason.
 */
#define DEVIMG_PLUGIN_ABI_VERSION 1u

/* The one symbol a plugin exports, and the file names the loader tries. */
#define DEVIMG_PLUGIN_ENTRY "devimg_plugin_init"
#define DEVIMG_PLUGIN_PREFIX "devimg-"
#define DEVIMG_PLUGIN_SUFFIX ".so"

#if defined(__GNUC__)
#define DEVIMG_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define DEVIMG_PLUGIN_EXPORT
#endif

struct devimg_plugin_platform;
struct devimg_plugin_device;
struct devimg_plugin_context;
struct devimg_plugin_queue;
struct devimg_plugin_mem;
struct devimg_plugin_program;
struct devimg_plugin_kernel;

enum devimg_plugin_device_type {
	DEVIMG_PLUGIN_DEVICE_OTHER = 0,
	DEVIMG_PLUGIN_DEVICE_CPU = 1,
	DEVIMG_PLUGIN_DEVICE_GPU = 2,
	DEVIMG_PLUGIN_DEVICE_ACCELERATOR = 3,	/* FPGAs included */
};

/* Image formats a device accepts (devimg_plugin_device_info.formats). */
enum {
	/* SPIR-V through program_create_il() */
	DEVIMG_PLUGIN_FORMAT_SPIRV = 1u << 0,
	/* SPIR 1.2 LLVM bitcode through program_create_binary(SPIR) */
	DEVIMG_PLUGIN_FORMAT_SPIR = 1u << 1,
	/* the device's own binaries through program_create_binary(NATIVE) */
	DEVIMG_PLUGIN_FORMAT_NATIVE = 1u << 2,
	/* PTX text through program_create_binary(NATIVE): CUDA, NVIDIA OpenCL */
	DEVIMG_PLUGIN_FORMAT_PTX = 1u << 3,
};

/* What a device can do natively (devimg_plugin_device_info.caps). */
enum {
	/* program_set_spec_const() works on programs made from IL */
	DEVIMG_PLUGIN_CAP_SPEC_CONSTANTS = 1u << 0,
	/* launch() honours a non-zero global offset by itself */
	DEVIMG_PLUGIN_CAP_GLOBAL_OFFSET = 1u << 1,
	/*
	 * program_link() of an object compiled after program_set_spec_const()
	 * loses those values (the driver links the module's defaults): the
	 * loader builds a link of one image directly instead.
	 */
	DEVIMG_PLUGIN_CAP_LINK_DROPS_SPEC_CONSTANTS = 1u << 2,
};

/* Kinds of binary for program_create_binary(). */
enum devimg_plugin_binary_kind {
	DEVIMG_PLUGIN_BINARY_NATIVE = 0,
	DEVIMG_PLUGIN_BINARY_SPIR = 1,	/* SPIR 1.2 bitcode, built as SPIR */
};

/* Flags of mem_create(); 0 is read-write. */
enum {
	DEVIMG_PLUGIN_MEM_READ_ONLY = 1u << 0,
	DEVIMG_PLUGIN_MEM_WRITE_ONLY = 1u << 1,
};

/*
 * Properties of a platform. Strings belong to the plugin and stay valid
 * until fini(). size is sizeof the structure the plugin filled: fields
 * appended by a later ABI are read only when size covers them.
 */
struct devimg_plugin_platform_info {
	size_t size;
	const char *name;
	const char *vendor;
	const char *version;
};

/* Properties of a device; same ownership and size rules as above. */
struct devimg_plugin_device_info {
	size_t size;
	const char *name;
	const char *vendor;
	const char *version;		/* e.g. "OpenCL 3.0 PoCL ..." */
	const char *driver_version;
	const char *backend;		/* "opencl", "level_zero", "cuda" */
	struct devimg_plugin_platform *platform;
	enum devimg_plugin_device_type type;
	unsigned formats;		/* DEVIMG_PLUGIN_FORMAT_* */
	unsigned caps;			/* DEVIMG_PLUGIN_CAP_* */
	unsigned max_compute_units;
	size_t max_work_group_size;
	size_t max_work_item_sizes[3];
	uint64_t local_mem_size;	/* bytes of work-group local memory */
	uint64_t global_mem_size;
	unsigned address_bits;
	unsigned cc_major;		/* CUDA compute capability, else 0 */
	unsigned cc_minor;
	/*
	 * Appended: read only when size covers them. Aspects by DPC++'s
	 * numbers (sycl/info/aspects.def, DEVIMG_PLUGIN_ASPECT_*): bit n of
	 * aspects set when the device has aspect n, bit n of aspects_known
	 * set when the plugin determined it either way; the loader takes
	 * cpu, gpu, accelerator and custom from type itself. A plugin that
	 * leaves aspects_known 0 (or whose size stops before it) reports no
	 * aspects, which the loader does not assume then.
	 */
	uint64_t aspects;
	uint64_t aspects_known;
	unsigned nsub_group_sizes;	/* 0: unknown */
	uint32_t sub_group_sizes[8];
};

/* Aspect numbers the plugins determine (DPC++'s sycl::aspect). */
enum {
	DEVIMG_PLUGIN_ASPECT_CPU = 1,
	DEVIMG_PLUGIN_ASPECT_GPU = 2,
	DEVIMG_PLUGIN_ASPECT_ACCELERATOR = 3,
	DEVIMG_PLUGIN_ASPECT_CUSTOM = 4,
	DEVIMG_PLUGIN_ASPECT_FP16 = 5,
	DEVIMG_PLUGIN_ASPECT_FP64 = 6,
	DEVIMG_PLUGIN_ASPECT_IMAGE = 9,
	DEVIMG_PLUGIN_ASPECT_ONLINE_COMPILER = 10,
	DEVIMG_PLUGIN_ASPECT_ONLINE_LINKER = 11,
	DEVIMG_PLUGIN_ASPECT_QUEUE_PROFILING = 12,
	DEVIMG_PLUGIN_ASPECT_USM_DEVICE_ALLOCATIONS = 13,
	DEVIMG_PLUGIN_ASPECT_USM_HOST_ALLOCATIONS = 14,
	DEVIMG_PLUGIN_ASPECT_USM_SHARED_ALLOCATIONS = 15,
	DEVIMG_PLUGIN_ASPECT_USM_SYSTEM_ALLOCATIONS = 17,
	DEVIMG_PLUGIN_ASPECT_USM_ATOMIC_HOST_ALLOCATIONS = 26,
	DEVIMG_PLUGIN_ASPECT_USM_ATOMIC_SHARED_ALLOCATIONS = 27,
	DEVIMG_PLUGIN_ASPECT_ATOMIC64 = 28,
};

#define DEVIMG_PLUGIN_ASPECT_BIT(n) ((uint64_t)1 << (n))

/*
 * The operation table: a fixed minimum, from abi_version through launch,
 * then optional operations appended after it. size says how far the
 * plugin's table reaches:
 *  - below DEVIMG_PLUGIN_OPS_MIN_SIZE the loader refuses the plugin at
 *    bind time, naming the first operation the table stops before (and
 *    above the size it offered);
 *  - every operation of the minimum must be set: one a backend cannot do
 *    is still there and returns -ENOTSUP with a message;
 *  - an optional operation is absent when size stops before it or when it
 *    is NULL; the loader then answers -ENOTSUP for it itself, with a
 *    message naming the operation and the plugin.
 * A plugin built against a newer header (a larger table) binds to an
 * older loader, which offers a smaller size; one built against an older
 * header binds to a newer loader, its later optional operations absent.
 */
struct devimg_plugin_ops {
	/* DEVIMG_PLUGIN_ABI_VERSION of the plugin; sizeof the table it filled. */
	unsigned abi_version;
	size_t size;

	/* The backend name, as the device selector spells it: "opencl". */
	const char *backend;

	/*
	 * Message about the last failed operation of the calling thread, or
	 * "" when there was none. Valid until that thread's next call into the
	 * plugin. May be called even when devimg_plugin_init() failed.
	 */
	const char *(*last_error)(void);

	/* Release every platform and device; the plugin may then be closed. */
	void (*fini)(void);

	/* --- platforms and devices --- */

	/*
	 * Store up to capacity platform handles in platforms (may be NULL when
	 * capacity is 0) and the total number in *count. Zero platforms is not
	 * an error.
	 */
	int (*platform_list)(unsigned capacity,
			     struct devimg_plugin_platform **platforms,
			     unsigned *count);
	/* Borrowed properties of a platform; never NULL for a valid handle. */
	const struct devimg_plugin_platform_info *(*platform_info)(
		struct devimg_plugin_platform *platform);
	/* The devices of one platform, in the vendor's order, as above. */
	int (*device_list)(struct devimg_plugin_platform *platform,
			   unsigned capacity,
			   struct devimg_plugin_device **devices,
			   unsigned *count);
	/* Borrowed properties of a device; never NULL for a valid handle. */
	const struct devimg_plugin_device_info *(*device_info)(
		struct devimg_plugin_device *device);

	/* --- contexts and queues --- */

	/*
	 * A context over n >= 1 devices, all of one platform (-EINVAL
	 * otherwise). Buffers of a context are usable on all its devices.
	 */
	int (*context_create)(unsigned n,
			      struct devimg_plugin_device *const *devices,
			      struct devimg_plugin_context **out);
	void (*context_release)(struct devimg_plugin_context *ctx);

	/* An in-order queue of ctx on device. */
	int (*queue_create)(struct devimg_plugin_context *ctx,
			    struct devimg_plugin_device *device,
			    struct devimg_plugin_queue **out);
	/* Wait until every command queued on q has completed. */
	int (*queue_finish)(struct devimg_plugin_queue *q);
	void (*queue_release)(struct devimg_plugin_queue *q);

	/* --- buffers --- */

	/* A device buffer of size > 0 bytes; flags DEVIMG_PLUGIN_MEM_*. */
	int (*mem_create)(struct devimg_plugin_context *ctx, unsigned flags,
			  size_t size, struct devimg_plugin_mem **out);
	/*
	 * Copy n bytes from host memory src to mem at offset, in queue order.
	 * Blocking: src may be reused on return. Non-blocking: src must stay
	 * untouched until queue_finish() returns.
	 */
	int (*mem_write)(struct devimg_plugin_queue *q,
			 struct devimg_plugin_mem *mem, int blocking,
			 size_t offset, size_t n, const void *src);
	/* Copy n bytes at offset of mem to dst; blocking as for mem_write. */
	int (*mem_read)(struct devimg_plugin_queue *q,
			struct devimg_plugin_mem *mem, int blocking,
			size_t offset, size_t n, void *dst);
	void (*mem_release)(struct devimg_plugin_mem *mem);

	/* --- programs --- */

	/*
	 * A program for device from an intermediate language: SPIR-V. -ENOTSUP
	 * when the device lacks DEVIMG_PLUGIN_FORMAT_SPIRV. The bytes are
	 * copied; the program is not built yet.
	 */
	int (*program_create_il)(struct devimg_plugin_context *ctx,
				 struct devimg_plugin_device *device,
				 const void *il, size_t size,
				 struct devimg_plugin_program **out);
	/*
	 * A program for device from a binary: the device's native format
	 * (kind NATIVE; PTX on CUDA) or SPIR 1.2 bitcode (kind SPIR: the plugin
	 * adds what the backend needs to build it as SPIR, e.g. OpenCL's
	 * "-x spir -spir-std=1.2"). -ENOTSUP when the device does not accept
	 * the kind, -ENOEXEC when the driver rejects the bytes.
	 */
	int (*program_create_binary)(struct devimg_plugin_context *ctx,
				     struct devimg_plugin_device *device,
				     enum devimg_plugin_binary_kind kind,
				     const void *binary, size_t size,
				     struct devimg_plugin_program **out);
	/*
	 * Set the specialization constant with SPIR-V SpecId id to the size
	 * bytes at value, before program_build(). Only for programs made from
	 * IL on devices with DEVIMG_PLUGIN_CAP_SPEC_CONSTANTS; -ENOTSUP
	 * otherwise, -EINVAL for an unknown id or wrong size.
	 */
	int (*program_set_spec_const)(struct devimg_plugin_program *prog,
				      uint32_t id, size_t size,
				      const void *value);
	/*
	 * Compile and link prog for its device with options (NULL or "" for
	 * none), once. -ENOEXEC on a build failure; the error message then
	 * holds the options and the build log.
	 */
	int (*program_build)(struct devimg_plugin_program *prog,
			     const char *options);
	/*
	 * Copy the build log of prog, NUL-terminated and truncated to
	 * capacity bytes, into buf (may be NULL when capacity is 0) and store
	 * the full length including the NUL in *len.
	 */
	int (*program_build_log)(struct devimg_plugin_program *prog, char *buf,
				 size_t capacity, size_t *len);
	/*
	 * Store the size of the device binary of a built program in *len and,
	 * when capacity is at least that size, copy the binary into buf (buf
	 * may be NULL when capacity is 0): ask with 0 first. The bytes can be
	 * given back to program_create_binary(NATIVE). -ENOEXEC when not built.
	 */
	int (*program_binary)(struct devimg_plugin_program *prog, void *buf,
			      size_t capacity, size_t *len);
	void (*program_release)(struct devimg_plugin_program *prog);

	/* --- kernels --- */

	/* The kernel called name of a built program; -ENOENT when absent. */
	int (*kernel_create)(struct devimg_plugin_program *prog,
			     const char *name,
			     struct devimg_plugin_kernel **out);
	/* Number of arguments of k; -ENOTSUP when the backend cannot tell. */
	int (*kernel_arg_count)(struct devimg_plugin_kernel *k, unsigned *count);
	/* Argument index of k: size bytes passed by value, copied now. */
	int (*kernel_set_arg_value)(struct devimg_plugin_kernel *k,
				    unsigned index, size_t size,
				    const void *value);
	/* Argument index of k: a buffer (a global pointer in the kernel). */
	int (*kernel_set_arg_mem)(struct devimg_plugin_kernel *k,
				  unsigned index,
				  struct devimg_plugin_mem *mem);
	/* Argument index of k: size bytes of work-group local memory. */
	int (*kernel_set_arg_local)(struct devimg_plugin_kernel *k,
				    unsigned index, size_t size);
	void (*kernel_release)(struct devimg_plugin_kernel *k);

	/* --- execution --- */

	/*
	 * Enqueue k on q over a dims-dimensional (1 to 3) range: global_size
	 * work-items in each dimension, numbered from global_offset (NULL: all
	 * zero), in work-groups of local_size (NULL: the backend picks). The
	 * arguments are captured at this call. Returns once enqueued; use
	 * queue_finish() to wait.
	 */
	int (*launch)(struct devimg_plugin_queue *q,
		      struct devimg_plugin_kernel *k, unsigned dims,
		      const size_t *global_offset, const size_t *global_size,
		      const size_t *local_size);

	/*
	 * --- optional: separate compilation and linking ---
	 * Absent (size stops before them, or NULL): the loader answers
	 * -ENOTSUP for them itself. A plugin that fills them but cannot link
	 * on some device returns -ENOTSUP with a message.
	 */

	/*
	 * Compile prog (from program_create_il() or program_create_binary())
	 * for its device with options (NULL or "" for none) into an object
	 * that program_link() takes, once, instead of program_build(); spec
	 * constants set before apply. An object may import symbols that
	 * another object of the link exports. -ENOTSUP when this program
	 * cannot be compiled separately on this device (the message says
	 * why), -ENOEXEC on a compile failure (the message holds the options
	 * and the log).
	 */
	int (*program_compile)(struct devimg_plugin_program *prog,
			       const char *options);
	/*
	 * A new, built program for device from n >= 1 objects of ctx made by
	 * program_compile(), each symbol one imports resolved against what
	 * another exports, linked with options (NULL or ""; a backend whose
	 * linker takes none, Level Zero's, ignores them). kernel_create()
	 * on it finds the kernels of every object. The objects stay the
	 * caller's: it may release them once this returns, and may link them
	 * again into other programs (Level Zero links a module once: an
	 * object linked again keeps its first partners). -ENOEXEC on a link
	 * failure (an unresolved symbol, the linker's log in the message),
	 * -ENOTSUP as for program_compile(), -EINVAL when an object is not
	 * compiled.
	 */
	int (*program_link)(struct devimg_plugin_context *ctx,
			    struct devimg_plugin_device *device, unsigned n,
			    struct devimg_plugin_program *const *progs,
			    const char *options,
			    struct devimg_plugin_program **out);

	/*
	 * Device globals (sycl_ext_oneapi_device_global). name is the
	 * variable's unique id, the name the device image gives it.
	 *
	 * global_info: the size in bytes of the variable name of the built
	 * program prog. -ENOENT when prog has no such variable.
	 */
	int (*global_info)(struct devimg_plugin_program *prog,
			   const char *name, size_t *size);
	/*
	 * Copy n bytes from src into the variable name of prog at offset
	 * off, or from it into dst, in order with the work on q (q's device
	 * is prog's); with blocking set, return once the copy is done, else
	 * src must stay valid (and dst unread) until q is finished. -ENOENT
	 * when prog has no such variable, -EINVAL when off + n passes its
	 * size, -ENOTSUP when the device cannot reach program variables (the
	 * message names what is missing).
	 */
	int (*global_write)(struct devimg_plugin_queue *q,
			    struct devimg_plugin_program *prog,
			    const char *name, size_t off, size_t n,
			    const void *src, int blocking);
	int (*global_read)(struct devimg_plugin_queue *q,
			   struct devimg_plugin_program *prog,
			   const char *name, size_t off, size_t n, void *dst,
			   int blocking);
	/*
	 * The device address of mem's first byte, as a kernel sees a pointer
	 * to it: what a device global without image scope holds. -ENOTSUP
	 * when buffers have no address the host may know (OpenCL cl_mem).
	 */
	int (*mem_address)(struct devimg_plugin_mem *mem, uint64_t *addr);
};

/* The smallest table the loader binds: through launch, the last required. */
#define DEVIMG_PLUGIN_OPS_MIN_SIZE \
	offsetof(struct devimg_plugin_ops, program_compile)

/*
 * The entry point. The loader zeroes ops, sets ops->abi_version to
 * DEVIMG_PLUGIN_ABI_VERSION and ops->size to sizeof(*ops), and passes the
 * same version as abi_version. The plugin:
 *  - returns -EPROTO, touching nothing, when it does not speak abi_version;
 *  - copies its table into ops, at most ops->size bytes, then sets
 *    ops->abi_version to its own version and ops->size to what it copied;
 *  - initialises its vendor library and enumerates platforms and devices.
 * It returns 0 or a negative errno value; after a failure following the
 * copy, ops->last_error() says why. The loader rejects a plugin whose
 * version differs or whose size is below DEVIMG_PLUGIN_OPS_MIN_SIZE (see
 * struct devimg_plugin_ops for the optional operations past it).
 */
DEVIMG_PLUGIN_EXPORT int devimg_plugin_init(unsigned abi_version,
					    struct devimg_plugin_ops *ops);
typedef int (*devimg_plugin_init_fn)(unsigned abi_version,
				     struct devimg_plugin_ops *ops);

#ifdef __cplusplus
}
#endif
#endif
