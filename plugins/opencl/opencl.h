/* SPDX-License-Identifier: MIT */
/*
 * Internals of the OpenCL plugin: the handles behind the opaque types of
 * devimg_plugin.h and the helpers its files share.
 */
#ifndef DEVIMG_OPENCL_H
#define DEVIMG_OPENCL_H

#define CL_TARGET_OPENCL_VERSION 300
/* clCreateCommandQueue: the one queue constructor every version has. */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdbool.h>

#include "plugins/devimg_plugin.h"
#include "plugins/common/plugin-support.h"

/*
 * Entry points newer than OpenCL 1.2, resolved at run time so that the
 * plugin loads with any ICD loader and builds with any 1.2+ header.
 */
typedef cl_program (CL_API_CALL *ocl_create_with_il_fn)(cl_context ctx,
							const void *il,
							size_t size,
							cl_int *err);
typedef cl_int (CL_API_CALL *ocl_set_spec_const_fn)(cl_program prog,
						    cl_uint id, size_t size,
						    const void *value);

struct devimg_plugin_platform {
	cl_platform_id id;
	struct devimg_plugin_platform_info info;
	char *name;
	char *vendor;
	char *version;
	unsigned ndevices;
	struct devimg_plugin_device *devices;
};

struct devimg_plugin_device {
	cl_device_id id;
	struct devimg_plugin_device_info info;
	char *name;
	char *vendor;
	char *version;
	char *driver_version;
	ocl_create_with_il_fn create_with_il;	/* NULL: no SPIR-V */
	ocl_set_spec_const_fn set_spec_const;	/* NULL: no spec constants */
	/*
	 * Program variables (device-globals.c): whether the device lists each
	 * extension, and its entry points for the platform (NULL: none).
	 */
	bool access_listed, pointers_listed;
	void *write_global, *read_global, *global_pointer;
};

/*
 * Where a program is on its way to kernels: built by program_build() or
 * program_link(), or compiled into an object for program_link() (which
 * program_build() must not then rebuild).
 */
enum ocl_program_state {
	OCL_PROGRAM_CREATED,
	OCL_PROGRAM_COMPILED,
	OCL_PROGRAM_BUILT,
};

/*
 * Contexts, queues, buffers and kernels are the OpenCL objects themselves,
 * cast to the opaque types; a program carries what its build needs.
 */
struct devimg_plugin_program {
	cl_program id;
	struct devimg_plugin_device *device;
	bool spir;		/* SPIR 1.2 bitcode: build with -x spir */
	bool from_il;		/* SPIR-V: spec constants can be set */
	enum ocl_program_state state;
};

/* "OpenCL X.Y ..." as X * 100 + Y * 10; 0 when unreadable. */
unsigned ocl_parse_version(const char *version);

/* The name of an OpenCL error code, "CL_BUILD_PROGRAM_FAILURE". */
const char *ocl_error_name(cl_int err);
/* The negative errno value devimg_plugin.h gives an OpenCL error code. */
int ocl_errno(cl_int err);

/*
 * Set the calling thread's message to the formatted text followed by
 * ": NAME (code)" and return ocl_errno(err).
 */
int ocl_fail(cl_int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Platforms and devices (devices.c). */
int ocl_platforms_init(void);
void ocl_platforms_fini(void);
int ocl_platform_list(unsigned capacity,
		      struct devimg_plugin_platform **platforms,
		      unsigned *count);

/* Programs (program.c). */
int ocl_program_create_il(struct devimg_plugin_context *ctx,
			  struct devimg_plugin_device *device, const void *il,
			  size_t size, struct devimg_plugin_program **out);
int ocl_program_create_binary(struct devimg_plugin_context *ctx,
			      struct devimg_plugin_device *device,
			      enum devimg_plugin_binary_kind kind,
			      const void *binary, size_t size,
			      struct devimg_plugin_program **out);
int ocl_program_set_spec_const(struct devimg_plugin_program *prog,
			       uint32_t id, size_t size, const void *value);
int ocl_program_build(struct devimg_plugin_program *prog,
		      const char *options);
int ocl_program_compile(struct devimg_plugin_program *prog,
			const char *options);
int ocl_program_link(struct devimg_plugin_context *ctx,
		     struct devimg_plugin_device *device, unsigned n,
		     struct devimg_plugin_program *const *progs,
		     const char *options, struct devimg_plugin_program **out);
int ocl_program_build_log(struct devimg_plugin_program *prog, char *buf,
			  size_t capacity, size_t *len);
int ocl_program_binary(struct devimg_plugin_program *prog, void *buf,
		       size_t capacity, size_t *len);
void ocl_program_release(struct devimg_plugin_program *prog);

/* Whether word is one of the space-separated words of list (words.c). */
bool ocl_has_word(const char *list, const char *word);

/* Program variables and buffer addresses (device-globals.c). */
/* Find dev's extensions for them, once, as its platform lists them. */
void ocl_globals_find(struct devimg_plugin_device *dev,
		      cl_platform_id platform, const char *extensions);
int ocl_global_info(struct devimg_plugin_program *prog, const char *name,
		    size_t *size);
int ocl_global_write(struct devimg_plugin_queue *q,
		     struct devimg_plugin_program *prog, const char *name,
		     size_t off, size_t n, const void *src, int blocking);
int ocl_global_read(struct devimg_plugin_queue *q,
		    struct devimg_plugin_program *prog, const char *name,
		    size_t off, size_t n, void *dst, int blocking);
int ocl_mem_address(struct devimg_plugin_mem *mem, uint64_t *addr);

#endif
