/* SPDX-License-Identifier: MIT */
/*
 * The operations of a plugin's table (struct devimg_plugin_ops,
 * devimg_plugin.h) as one list, in the table's order: plugin-binding.c
 * checks a table against it, plugins.h declares the traced
 * devimg_plugin_<op>() of each and plugin-calls.c defines them from it.
 *
 * DEVIMG_PLUGIN_OPS(REQ, OPT) is REQ(...) for each operation of the
 * minimum table, then OPT(...) for each optional one appended after it,
 * each with the same arguments:
 *   name    the member of the table
 *   kind    what devimg_plugin_<name>(p, ...) does:
 *             call     returns the plugin's int (an optional operation
 *                      the table lacks: -ENOTSUP, with the loader's
 *                      message); at trace level 2, after the call,
 *                      "<backend>: <name><trace> = <result>", and when
 *                      it failed the error's name and the message
 *             release  returns nothing; "<backend>: <name>(<handle>)"
 *                      before the call
 *             info     returns borrowed properties; after the call
 *                      "<backend>: <name>(<handle>) -> "<their name>""
 *             own      written by hand in plugin-calls.c (launch: it
 *                      says why)
 *             none     there is none: the loader calls it itself
 *   ret     what it returns
 *   params  the table's parameters, which come after p: (type name, ...)
 *   args    their names, to pass them on: (name, ...)
 *   trace   for a call, what follows the name on its trace line: a format
 *           and its arguments, which may use the parameters, rc (the
 *           result), OUT() and VAL() (plugin-calls.c); () for the others
 */
#ifndef DEVIMG_LOADER_PLUGIN_OPS_H
#define DEVIMG_LOADER_PLUGIN_OPS_H

#include <inttypes.h>

#include "plugins/devimg_plugin.h"

#define DEVIMG_PLUGIN_OPS(REQ, OPT)                                            \
	REQ(last_error, none, const char *, (void), (), ())                    \
	REQ(fini, none, void, (void), (), ())                                  \
	/* platforms and devices */                                            \
	REQ(platform_list, call, int,                                          \
	    (unsigned capacity, struct devimg_plugin_platform **platforms,     \
	     unsigned *count),                                                 \
	    (capacity, platforms, count),                                      \
	    ("(capacity=%u) -> count=%u", capacity, VAL(rc, count)))           \
	REQ(platform_info, info, const struct devimg_plugin_platform_info *,   \
	    (struct devimg_plugin_platform *platform), (platform), ())         \
	REQ(device_list, call, int,                                            \
	    (struct devimg_plugin_platform *platform, unsigned capacity,       \
	     struct devimg_plugin_device **devices, unsigned *count),          \
	    (platform, capacity, devices, count),                              \
	    ("(platform=%p, capacity=%u) -> count=%u", (void *)platform,       \
	     capacity, VAL(rc, count)))                                        \
	REQ(device_info, info, const struct devimg_plugin_device_info *,       \
	    (struct devimg_plugin_device *device), (device), ())               \
	/* contexts and queues */                                              \
	REQ(context_create, call, int,                                         \
	    (unsigned n, struct devimg_plugin_device *const *devices,          \
	     struct devimg_plugin_context **out),                              \
	    (n, devices, out),                                                 \
	    ("(n=%u, devices[0]=%p) -> %p", n,                                 \
	     devices && n ? (void *)devices[0] : NULL, OUT(rc, out)))          \
	REQ(context_release, release, void,                                    \
	    (struct devimg_plugin_context *ctx), (ctx), ())                    \
	REQ(queue_create, call, int,                                           \
	    (struct devimg_plugin_context *ctx,                                \
	     struct devimg_plugin_device *device,                              \
	     struct devimg_plugin_queue **out),                                \
	    (ctx, device, out),                                                \
	    ("(ctx=%p, device=%p) -> %p", (void *)ctx, (void *)device,         \
	     OUT(rc, out)))                                                    \
	REQ(queue_finish, call, int, (struct devimg_plugin_queue *q), (q),     \
	    ("(%p)", (void *)q))                                               \
	REQ(queue_release, release, void, (struct devimg_plugin_queue *q),     \
	    (q), ())                                                           \
	/* buffers */                                                          \
	REQ(mem_create, call, int,                                             \
	    (struct devimg_plugin_context *ctx, unsigned flags, size_t size,   \
	     struct devimg_plugin_mem **out),                                  \
	    (ctx, flags, size, out),                                           \
	    ("(ctx=%p, flags=%#x, size=%zu) -> %p", (void *)ctx, flags, size,  \
	     OUT(rc, out)))                                                    \
	REQ(mem_write, call, int,                                              \
	    (struct devimg_plugin_queue *q, struct devimg_plugin_mem *mem,     \
	     int blocking, size_t offset, size_t n, const void *src),          \
	    (q, mem, blocking, offset, n, src),                                \
	    ("(q=%p, mem=%p, blocking=%d, offset=%zu, n=%zu, src=%p)",         \
	     (void *)q, (void *)mem, blocking, offset, n, src))                \
	REQ(mem_read, call, int,                                               \
	    (struct devimg_plugin_queue *q, struct devimg_plugin_mem *mem,     \
	     int blocking, size_t offset, size_t n, void *dst),                \
	    (q, mem, blocking, offset, n, dst),                                \
	    ("(q=%p, mem=%p, blocking=%d, offset=%zu, n=%zu, dst=%p)",         \
	     (void *)q, (void *)mem, blocking, offset, n, dst))                \
	REQ(mem_release, release, void, (struct devimg_plugin_mem *mem),       \
	    (mem), ())                                                         \
	/* programs */                                                         \
	REQ(program_create_il, call, int,                                      \
	    (struct devimg_plugin_context *ctx,                                \
	     struct devimg_plugin_device *device, const void *il, size_t size, \
	     struct devimg_plugin_program **out),                              \
	    (ctx, device, il, size, out),                                      \
	    ("(ctx=%p, device=%p, size=%zu) -> %p", (void *)ctx,               \
	     (void *)device, size, OUT(rc, out)))                              \
	REQ(program_create_binary, call, int,                                  \
	    (struct devimg_plugin_context *ctx,                                \
	     struct devimg_plugin_device *device,                              \
	     enum devimg_plugin_binary_kind kind, const void *binary,          \
	     size_t size, struct devimg_plugin_program **out),                 \
	    (ctx, device, kind, binary, size, out),                            \
	    ("(ctx=%p, device=%p, kind=%s, size=%zu) -> %p", (void *)ctx,      \
	     (void *)device,                                                   \
	     kind == DEVIMG_PLUGIN_BINARY_SPIR ? "spir" : "native", size,      \
	     OUT(rc, out)))                                                    \
	REQ(program_set_spec_const, call, int,                                 \
	    (struct devimg_plugin_program *prog, uint32_t id, size_t size,     \
	     const void *value),                                               \
	    (prog, id, size, value),                                           \
	    ("(prog=%p, id=%" PRIu32 ", size=%zu)", (void *)prog, id, size))   \
	REQ(program_build, call, int,                                          \
	    (struct devimg_plugin_program *prog, const char *options),         \
	    (prog, options),                                                   \
	    ("(prog=%p, options=\"%s\")", (void *)prog,                        \
	     options ? options : ""))                                          \
	REQ(program_build_log, call, int,                                      \
	    (struct devimg_plugin_program *prog, char *buf, size_t capacity,   \
	     size_t *len),                                                     \
	    (prog, buf, capacity, len),                                        \
	    ("(prog=%p, capacity=%zu) -> len=%zu", (void *)prog, capacity,     \
	     VAL(rc, len)))                                                    \
	REQ(program_binary, call, int,                                         \
	    (struct devimg_plugin_program *prog, void *buf, size_t capacity,   \
	     size_t *len),                                                     \
	    (prog, buf, capacity, len),                                        \
	    ("(prog=%p, capacity=%zu) -> len=%zu", (void *)prog, capacity,     \
	     VAL(rc, len)))                                                    \
	REQ(program_release, release, void,                                    \
	    (struct devimg_plugin_program *prog), (prog), ())                  \
	/* kernels */                                                          \
	REQ(kernel_create, call, int,                                          \
	    (struct devimg_plugin_program *prog, const char *name,             \
	     struct devimg_plugin_kernel **out),                               \
	    (prog, name, out),                                                 \
	    ("(prog=%p, name=\"%s\") -> %p", (void *)prog,                     \
	     name ? name : "(null)", OUT(rc, out)))                            \
	REQ(kernel_arg_count, call, int,                                       \
	    (struct devimg_plugin_kernel *k, unsigned *count), (k, count),     \
	    ("(%p) -> %u", (void *)k, VAL(rc, count)))                         \
	REQ(kernel_set_arg_value, call, int,                                   \
	    (struct devimg_plugin_kernel *k, unsigned index, size_t size,      \
	     const void *value),                                               \
	    (k, index, size, value),                                           \
	    ("(%p, index=%u, size=%zu, value=%p)", (void *)k, index, size,     \
	     value))                                                           \
	REQ(kernel_set_arg_mem, call, int,                                     \
	    (struct devimg_plugin_kernel *k, unsigned index,                   \
	     struct devimg_plugin_mem *mem),                                   \
	    (k, index, mem),                                                   \
	    ("(%p, index=%u, mem=%p)", (void *)k, index, (void *)mem))         \
	REQ(kernel_set_arg_local, call, int,                                   \
	    (struct devimg_plugin_kernel *k, unsigned index, size_t size),     \
	    (k, index, size),                                                  \
	    ("(%p, index=%u, size=%zu)", (void *)k, index, size))              \
	REQ(kernel_release, release, void, (struct devimg_plugin_kernel *k),   \
	    (k), ())                                                           \
	/* execution */                                                        \
	REQ(launch, own, int,                                                  \
	    (struct devimg_plugin_queue *q, struct devimg_plugin_kernel *k,    \
	     unsigned dims, const size_t *global_offset,                       \
	     const size_t *global_size, const size_t *local_size),             \
	    (q, k, dims, global_offset, global_size, local_size), ())          \
	/* optional: separate compilation and linking */                       \
	OPT(program_compile, call, int,                                        \
	    (struct devimg_plugin_program *prog, const char *options),         \
	    (prog, options),                                                   \
	    ("(prog=%p, options=\"%s\")", (void *)prog,                        \
	     options ? options : ""))                                          \
	OPT(program_link, call, int,                                           \
	    (struct devimg_plugin_context *ctx,                                \
	     struct devimg_plugin_device *device, unsigned n,                  \
	     struct devimg_plugin_program *const *progs, const char *options,  \
	     struct devimg_plugin_program **out),                              \
	    (ctx, device, n, progs, options, out),                             \
	    ("(ctx=%p, device=%p, n=%u, options=\"%s\") -> %p", (void *)ctx,   \
	     (void *)device, n, options ? options : "", OUT(rc, out)))         \
	/* optional: device globals, and the address of a buffer */            \
	OPT(global_info, call, int,                                            \
	    (struct devimg_plugin_program *prog, const char *name,             \
	     size_t *size),                                                    \
	    (prog, name, size),                                                \
	    ("(prog=%p, name=\"%s\") -> size=%zu", (void *)prog, name,         \
	     VAL(rc, size)))                                                   \
	OPT(global_write, call, int,                                           \
	    (struct devimg_plugin_queue *q,                                    \
	     struct devimg_plugin_program *prog, const char *name, size_t off, \
	     size_t n, const void *src, int blocking),                         \
	    (q, prog, name, off, n, src, blocking),                            \
	    ("(q=%p, prog=%p, name=\"%s\", off=%zu, n=%zu, src=%p, blocking=%d)", \
	     (void *)q, (void *)prog, name, off, n, src, blocking))            \
	OPT(global_read, call, int,                                            \
	    (struct devimg_plugin_queue *q,                                    \
	     struct devimg_plugin_program *prog, const char *name, size_t off, \
	     size_t n, void *dst, int blocking),                               \
	    (q, prog, name, off, n, dst, blocking),                            \
	    ("(q=%p, prog=%p, name=\"%s\", off=%zu, n=%zu, dst=%p, blocking=%d)", \
	     (void *)q, (void *)prog, name, off, n, dst, blocking))            \
	OPT(mem_address, call, int,                                            \
	    (struct devimg_plugin_mem *mem, uint64_t *addr), (mem, addr),      \
	    ("(mem=%p) -> %#" PRIx64, (void *)mem, VAL(rc, addr)))

/* An entry's params, args or trace without their parentheses. */
#define DEVIMG_PLUGIN_UNPAREN(...) __VA_ARGS__

/*
 * The declaration of devimg_plugin_<name>() (plugins.h), for each kind
 * of operation that has one.
 */
#define DEVIMG_PLUGIN_DECLARE(op, kind, ret, params, args, trace)              \
	DEVIMG_PLUGIN_DECLARE_##kind(op, ret, params)
#define DEVIMG_PLUGIN_DECLARE_call(op, ret, params)                            \
	ret devimg_plugin_##op(struct devimg_plugin *p,                        \
			       DEVIMG_PLUGIN_UNPAREN params);
#define DEVIMG_PLUGIN_DECLARE_release DEVIMG_PLUGIN_DECLARE_call
#define DEVIMG_PLUGIN_DECLARE_info DEVIMG_PLUGIN_DECLARE_call
#define DEVIMG_PLUGIN_DECLARE_own DEVIMG_PLUGIN_DECLARE_call
#define DEVIMG_PLUGIN_DECLARE_none(op, ret, params)

#endif
