/* SPDX-License-Identifier: MIT */
/*
 * Internals of the CUDA plugin: the handles behind the opaque types of
 * devimg_plugin.h and the helpers its files share.
 */
#ifndef DEVIMG_CUDA_PLUGIN_H
#define DEVIMG_CUDA_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>

#include "plugins/devimg_plugin.h"
#include "plugins/common/plugin-support.h"
#include "plugins/common/plugin-globals.h"
#include "plugins/cuda/driver.h"

/* The driver's entry points; valid while cu_driver_loaded(). */
extern struct cu_driver cu;

struct devimg_plugin_platform {
	struct devimg_plugin_platform_info info;
	char version[32];		/* "CUDA 12.4" from cuDriverGetVersion */
	unsigned ndevices;
	struct devimg_plugin_device *devices;
};

struct devimg_plugin_device {
	CUdevice id;
	int ordinal;
	struct devimg_plugin_device_info info;
	char name[256];
	char version[16];		/* "sm_90" */
	int max_block[3];
	int max_grid[3];
	int shared_default;		/* bytes per block without opting in */
	int shared_optin;		/* bytes per block when opted in */
	bool managed;			/* concurrent managed memory access */
};

/*
 * A context is the primary context of each of its devices, retained; a
 * context over several devices allocates managed memory (cuda.c says why).
 */
struct devimg_plugin_context {
	unsigned n;
	struct devimg_plugin_device **devices;
	CUcontext *primary;
};

struct devimg_plugin_queue {
	CUstream stream;
	CUcontext ctx;
	struct devimg_plugin_device *device;
};

struct devimg_plugin_mem {
	CUdeviceptr ptr;
	size_t size;
	CUcontext ctx;			/* current while it is freed */
};

/*
 * A program is the image until program_build() loads it as a module of
 * the device's primary context; the JIT's logs stay for build_log. A
 * compiled program is the image and its options, kept for
 * program_link(), which makes a new program of the linked cubin.
 */
struct devimg_plugin_program {
	struct devimg_plugin_device *device;
	CUcontext ctx;
	char *image;			/* a copy, NUL-terminated for PTX */
	size_t size;
	const char *kind;		/* "PTX", "cubin", "fatbin" */
	CUmodule module;		/* NULL until built */
	char *log;			/* NULL until a build ran */
	char *options;			/* NULL until compiled */
};

/* cuda.c: the primary context of device in ctx; NULL when not in ctx. */
CUcontext cu_primary_of(struct devimg_plugin_context *ctx,
			struct devimg_plugin_device *device);

/*
 * cuda.c: copy n bytes on q's stream between device memory at dev and the
 * host, from src when dst is NULL, else into dst; wait when blocking. The
 * messages name what (before "offset N"; "" for a buffer).
 */
int cu_copy(struct devimg_plugin_queue *q, CUdeviceptr dev, void *dst,
	    const void *src, size_t n, int blocking, const char *what,
	    size_t offset);

/* device-globals.c: device globals of built programs, buffers' addresses. */
PLUGIN_GLOBAL_OPS(cu);

/* kernel.c */
int cu_kernel_create(struct devimg_plugin_program *prog, const char *name,
		     struct devimg_plugin_kernel **out);
int cu_kernel_arg_count(struct devimg_plugin_kernel *k, unsigned *count);
int cu_kernel_set_arg_value(struct devimg_plugin_kernel *k, unsigned index,
			    size_t size, const void *value);
int cu_kernel_set_arg_mem(struct devimg_plugin_kernel *k, unsigned index,
			  struct devimg_plugin_mem *mem);
int cu_kernel_set_arg_local(struct devimg_plugin_kernel *k, unsigned index,
			    size_t size);
void cu_kernel_release(struct devimg_plugin_kernel *k);
int cu_launch(struct devimg_plugin_queue *q, struct devimg_plugin_kernel *k,
	      unsigned dims, const size_t *global_offset,
	      const size_t *global_size, const size_t *local_size);

/* program.c */
int cu_program_create_il(struct devimg_plugin_context *ctx,
			 struct devimg_plugin_device *device, const void *il,
			 size_t size, struct devimg_plugin_program **out);
int cu_program_create_binary(struct devimg_plugin_context *ctx,
			     struct devimg_plugin_device *device,
			     enum devimg_plugin_binary_kind kind,
			     const void *binary, size_t size,
			     struct devimg_plugin_program **out);
int cu_program_set_spec_const(struct devimg_plugin_program *prog,
			      uint32_t id, size_t size, const void *value);
int cu_program_build(struct devimg_plugin_program *prog,
		     const char *options);
int cu_program_build_log(struct devimg_plugin_program *prog, char *buf,
			 size_t capacity, size_t *len);
int cu_program_binary(struct devimg_plugin_program *prog, void *buf,
		      size_t capacity, size_t *len);
void cu_program_release(struct devimg_plugin_program *prog);
int cu_program_compile(struct devimg_plugin_program *prog,
		       const char *options);
int cu_program_link(struct devimg_plugin_context *ctx,
		    struct devimg_plugin_device *device, unsigned n,
		    struct devimg_plugin_program *const *progs,
		    const char *options, struct devimg_plugin_program **out);

/* devices.c */
int cu_platforms_init(void);
void cu_platforms_fini(void);
int cu_platform_list(unsigned capacity,
		     struct devimg_plugin_platform **platforms,
		     unsigned *count);

/* driver.c: open libcuda once and resolve its entry points. */
int cu_driver_open(void);
bool cu_driver_loaded(void);

/*
 * Make ctx current on the calling thread unless it already is; what the
 * message says on failure names what for.
 */
int cu_make_current(CUcontext ctx, const char *what);
/*
 * The context cu_make_current() last found or made current on this
 * thread (NULL: none yet, or it failed). Code outside the plugin may have
 * switched since: only launches trust it (kernel.c), and make the context
 * current and try again when the driver says it was not.
 */
extern _Thread_local CUcontext cu_known_current;

/* errors.c */
/* The name of a driver result, "CUDA_ERROR_INVALID_PTX". */
const char *cu_error_name(CUresult err);
/* The negative errno value devimg_plugin.h gives a driver result. */
int cu_errno(CUresult err);
/*
 * Set the calling thread's message to the formatted text followed by
 * ": NAME (code)" and return cu_errno(err).
 */
int cu_fail(CUresult err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
