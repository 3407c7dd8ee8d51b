/* SPDX-License-Identifier: MIT */
/*
 * Internals of the Level Zero plugin: the handles behind the opaque types
 * of devimg_plugin.h and the helpers its files share.
 *
 * Platforms are Level Zero drivers, devices their root devices. A queue is
 * a command queue with one command list that collects commands until a
 * blocking copy, queue_finish() or the release of an object a pending
 * command may use submits it and waits. Programs are modules, created and
 * built in one step at program_build(), so that the spec constants set
 * before it and the build flags reach zeModuleCreate() together; compiled
 * at program_compile() the same way, and linked with zeModuleDynamicLink()
 * into a program of its own at program_link().
 */
#ifndef DEVIMG_LEVEL_ZERO_H
#define DEVIMG_LEVEL_ZERO_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <ze_api.h>

#include "plugins/devimg_plugin.h"
#include "plugins/common/plugin-support.h"
#include "plugins/common/plugin-globals.h"

/* The experimental extension that gives kernels a global offset. */
#define LZ_GLOBAL_OFFSET_EXT "ZE_experimental_global_offset"

struct devimg_plugin_platform {
	ze_driver_handle_t id;
	struct devimg_plugin_platform_info info;
	char name[32];
	char vendor[64];
	char version[64];
	bool global_offset;	/* reports LZ_GLOBAL_OFFSET_EXT */
	unsigned ndevices;
	struct devimg_plugin_device *devices;
};

struct devimg_plugin_device {
	ze_device_handle_t id;
	struct devimg_plugin_device_info info;
	char name[ZE_MAX_DEVICE_NAME];
	char vendor[64];
	char version[32];
	char driver_version[32];
	uint32_t compute_ordinal;	/* UINT32_MAX: no compute queues */
};

struct devimg_plugin_context {
	ze_context_handle_t id;
	struct devimg_plugin_platform *platform;
	struct devimg_plugin_device *device;	/* where buffers live */
	pthread_mutex_t lock;			/* guards queues */
	struct devimg_plugin_queue *queues;
	/* guards module groups and serialises zeModuleDynamicLink() */
	pthread_mutex_t link_lock;
};

struct devimg_plugin_queue {
	ze_command_queue_handle_t id;
	ze_command_list_handle_t list;
	struct devimg_plugin_context *ctx;
	struct devimg_plugin_device *device;
	pthread_mutex_t lock;		/* guards list and pending */
	unsigned pending;		/* commands appended, not submitted */
	struct devimg_plugin_queue *prev, *next;
};

struct devimg_plugin_mem {
	void *ptr;
	size_t size;
	struct devimg_plugin_context *ctx;
};

/*
 * A module and every module it was dynamically linked with. A linked
 * module calls code in the others, and Level Zero links a module once,
 * so they are destroyed together when the last reference to any of them
 * goes (refs and membership under the context's link_lock).
 */
struct lz_group {
	unsigned refs;
	struct lz_module *first;
};

struct lz_module {
	ze_module_handle_t id;
	struct lz_group *group;
	struct lz_module *next;		/* in its group */
};

enum lz_program_state {
	LZ_PROGRAM_NEW,		/* the input, spec constants */
	LZ_PROGRAM_BUILT,	/* program_build(): one module */
	LZ_PROGRAM_COMPILED,	/* program_compile(): one module to link */
	LZ_PROGRAM_LINKED,	/* program_link(): the objects' modules */
};

struct devimg_plugin_program {
	struct devimg_plugin_context *ctx;
	struct devimg_plugin_device *device;
	ze_module_format_t format;
	unsigned char *bytes;		/* the input, until built or compiled */
	size_t size;
	uint32_t nconsts;
	uint32_t *const_ids;
	void **const_values;
	enum lz_program_state state;
	/* references; kernel_create() looks in them in this order */
	unsigned nmodules;
	struct lz_module **modules;
	struct lz_module *own;		/* modules of a built or compiled one */
	ze_module_build_log_handle_t log;	/* of zeModuleCreate() */
	ze_module_build_log_handle_t link_log;	/* of zeModuleDynamicLink() */
};

struct devimg_plugin_kernel {
	ze_kernel_handle_t id;
	struct devimg_plugin_program *prog;
	char *name;
	uint32_t nargs;
	uint32_t offset[3];	/* the global offset it carries now */
};

/* The name of a Level Zero result, "ZE_RESULT_ERROR_DEVICE_LOST". */
const char *lz_result_name(ze_result_t res);
/* The negative errno value devimg_plugin.h gives a Level Zero result. */
int lz_errno(ze_result_t res);

/*
 * Set the calling thread's message to the formatted text followed by
 * ": NAME (0xcode)" and return lz_errno(res).
 */
int lz_fail(ze_result_t res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Drivers and devices (devices.c). */
int lz_platforms_init(void);
void lz_platforms_fini(void);
/* Why init found no platform ("" when it found some or failed). */
const char *lz_platforms_none(void);
int lz_platform_list(unsigned capacity,
		     struct devimg_plugin_platform **platforms,
		     unsigned *count);

/* Queues and copies (queue.c). */
int lz_queue_create(struct devimg_plugin_context *ctx,
		    struct devimg_plugin_device *device,
		    struct devimg_plugin_queue **out);
int lz_queue_finish(struct devimg_plugin_queue *q);
void lz_queue_release(struct devimg_plugin_queue *q);
int lz_mem_write(struct devimg_plugin_queue *q, struct devimg_plugin_mem *mem,
		 int blocking, size_t offset, size_t n, const void *src);
int lz_mem_read(struct devimg_plugin_queue *q, struct devimg_plugin_mem *mem,
		int blocking, size_t offset, size_t n, void *dst);
/*
 * Append a copy of n bytes from src to dst to q; submit it and wait when
 * blocking. what (and offset) say what it copies in messages.
 */
int lz_queue_copy(struct devimg_plugin_queue *q, void *dst, const void *src,
		  size_t n, int blocking, const char *what, size_t offset);
/*
 * Append a kernel launch to q (the kernel's group size and offset already
 * set); it is submitted with the next blocking command or finish.
 */
int lz_queue_launch(struct devimg_plugin_queue *q,
		    struct devimg_plugin_kernel *k,
		    const ze_group_count_t *groups);
/*
 * Submit and wait for the pending commands of every queue of ctx, before
 * an object they may use is destroyed.
 */
void lz_context_drain(struct devimg_plugin_context *ctx);

/* Programs (program.c). */
int lz_program_create_il(struct devimg_plugin_context *ctx,
			 struct devimg_plugin_device *device, const void *il,
			 size_t size, struct devimg_plugin_program **out);
int lz_program_create_binary(struct devimg_plugin_context *ctx,
			     struct devimg_plugin_device *device,
			     enum devimg_plugin_binary_kind kind,
			     const void *binary, size_t size,
			     struct devimg_plugin_program **out);
int lz_program_set_spec_const(struct devimg_plugin_program *prog,
			      uint32_t id, size_t size, const void *value);
int lz_program_build(struct devimg_plugin_program *prog,
		     const char *options);
int lz_program_build_log(struct devimg_plugin_program *prog, char *buf,
			 size_t capacity, size_t *len);
int lz_program_binary(struct devimg_plugin_program *prog, void *buf,
		      size_t capacity, size_t *len);
void lz_program_release(struct devimg_plugin_program *prog);
int lz_program_compile(struct devimg_plugin_program *prog,
		       const char *options);
/*
 * A program holding references to the modules of the n compiled
 * programs progs, linked with zeModuleDynamicLink(). Level Zero's link
 * takes no options: options are ignored. program_binary() of it is
 * -ENOTSUP: each module has its own binary, and the first alone would
 * build a program without the code of the others.
 */
int lz_program_link(struct devimg_plugin_context *ctx,
		    struct devimg_plugin_device *device, unsigned n,
		    struct devimg_plugin_program *const *progs,
		    const char *options, struct devimg_plugin_program **out);

/* Device globals and buffer addresses (device-globals.c). */
PLUGIN_GLOBAL_OPS(lz);

/* Kernels and launches (kernel.c). */
int lz_kernel_create(struct devimg_plugin_program *prog, const char *name,
		     struct devimg_plugin_kernel **out);
int lz_kernel_arg_count(struct devimg_plugin_kernel *k, unsigned *count);
int lz_kernel_set_arg_value(struct devimg_plugin_kernel *k, unsigned index,
			    size_t size, const void *value);
int lz_kernel_set_arg_mem(struct devimg_plugin_kernel *k, unsigned index,
			  struct devimg_plugin_mem *mem);
int lz_kernel_set_arg_local(struct devimg_plugin_kernel *k, unsigned index,
			    size_t size);
void lz_kernel_release(struct devimg_plugin_kernel *k);
int lz_launch(struct devimg_plugin_queue *q, struct devimg_plugin_kernel *k,
	      unsigned dims, const size_t *global_offset,
	      const size_t *global_size, const size_t *local_size);

#endif
