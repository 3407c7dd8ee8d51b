// SPDX-License-Identifier: MIT
/*
 * The loader's way of calling a bound plugin (plugins.h): one traced
 * devimg_plugin_<op>() per operation, the plugin's messages and the
 * loader's own for an absent optional operation, and the trace lines of
 * discovery (plugin_trace()). Calls no other file of the plugin set.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "libdevimg-internal.h"
#include "plugin-private.h"
#include "plugins.h"

/*
 * Through the log (devimg_set_log_fn() sees it), every argument escaped:
 * names, paths and messages come from outside.
 */
void plugin_trace(int level, int wanted, const char *fmt, ...)
{
	char buf[TRACE_MAX];
	va_list ap;

	if (level < wanted)
		return;
	va_start(ap, fmt);
	esc_vsnprintf(buf, sizeof(buf), NULL, fmt, ap);
	va_end(ap);
	devimg_trace_text(TRACE_PRIORITY(wanted), __FILE__, __LINE__, __func__,
			  buf);
}

static _Thread_local const char *last_text;

/*
 * The loader's own message when the calling thread's last call was to an
 * optional operation the plugin lacks; it stands for the plugin's message
 * until that thread next asks for one.
 */
static _Thread_local char absent_text[512];
static _Thread_local const struct devimg_plugin *absent_from;

static int absent_op(struct devimg_plugin *p, const char *op)
{
	esc_snprintf(absent_text, sizeof(absent_text), NULL,
			   "the %s plugin (%s) has no %s operation",
			   p->ops.backend, p->file, op);
	absent_from = p;
	return -ENOTSUP;
}

static const char *message_of(const struct devimg_plugin *p)
{
	return absent_from == p ? absent_text : p->ops.last_error();
}

const char *devimg_plugin_last_error(const struct devimg_plugin *p)
{
	last_text = message_of(p);
	absent_from = NULL;
	return last_text;
}

const char *devimg_plugin_last_text(void)
{
	return last_text;
}

bool devimg_plugin_can_link(const struct devimg_plugin *p)
{
	return p->ops.program_compile && p->ops.program_link;
}

int devimg_plugin_need_link(struct devimg_plugin *p)
{
	if (!p->ops.program_compile)
		return absent_op(p, "program_compile");
	if (!p->ops.program_link)
		return absent_op(p, "program_link");
	return 0;
}

/* ---- level 2: one line per call ---- */

#define TRACING(p) ((p)->trace >= 2)
/* An out-parameter handle, printable once the call succeeded. */
#define OUT(rc, out) ((rc) == 0 && (out) ? (const void *)*(out) : NULL)

static void trace_call(struct devimg_plugin *p, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void trace_call(struct devimg_plugin *p, int rc, const char *fmt, ...)
{
	char buf[TRACE_MAX];
	size_t n;
	va_list ap;

	n = esc_snprintf(buf, sizeof(buf), NULL, "%s: ", p->ops.backend);
	va_start(ap, fmt);
	if (n < sizeof(buf))
		n += esc_vsnprintf(buf + n, sizeof(buf) - n, NULL, fmt,
					 ap);
	va_end(ap);
	if (n < sizeof(buf) && rc < 0)
		esc_snprintf(buf + n, sizeof(buf) - n, NULL,
				   " = %d (%s): %s", rc, strerror(-rc),
				   message_of(p));
	else if (n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, " = %d", rc);
	devimg_trace_text(DEVIMG_LOG_DEBUG, __FILE__, __LINE__, __func__, buf);
}

static void trace_void(struct devimg_plugin *p, const char *op,
		       const void *handle)
{
	plugin_trace(p->trace, 2, "%s: %s(%p)", p->ops.backend, op, handle);
}

int devimg_plugin_platform_list(struct devimg_plugin *p, unsigned capacity,
				struct devimg_plugin_platform **platforms,
				unsigned *count)
{
	int rc = p->ops.platform_list(capacity, platforms, count);

	if (TRACING(p))
		trace_call(p, rc, "platform_list(capacity=%u) -> count=%u",
			   capacity, rc == 0 && count ? *count : 0);
	return rc;
}

const struct devimg_plugin_platform_info *devimg_plugin_platform_info(
	struct devimg_plugin *p, struct devimg_plugin_platform *platform)
{
	const struct devimg_plugin_platform_info *info;

	info = p->ops.platform_info(platform);
	if (TRACING(p))
		plugin_trace(p->trace, 2, "%s: platform_info(%p) -> \"%s\"",
		      p->ops.backend, (void *)platform,
		      info ? info->name : "(null)");
	return info;
}

int devimg_plugin_device_list(struct devimg_plugin *p,
			      struct devimg_plugin_platform *platform,
			      unsigned capacity,
			      struct devimg_plugin_device **devices,
			      unsigned *count)
{
	int rc = p->ops.device_list(platform, capacity, devices, count);

	if (TRACING(p))
		trace_call(p, rc,
			   "device_list(platform=%p, capacity=%u) -> count=%u",
			   (void *)platform, capacity,
			   rc == 0 && count ? *count : 0);
	return rc;
}

const struct devimg_plugin_device_info *devimg_plugin_device_info(
	struct devimg_plugin *p, struct devimg_plugin_device *device)
{
	const struct devimg_plugin_device_info *info;

	info = p->ops.device_info(device);
	if (TRACING(p))
		plugin_trace(p->trace, 2, "%s: device_info(%p) -> \"%s\"",
		      p->ops.backend, (void *)device,
		      info ? info->name : "(null)");
	return info;
}

int devimg_plugin_context_create(struct devimg_plugin *p, unsigned n,
				 struct devimg_plugin_device *const *devices,
				 struct devimg_plugin_context **out)
{
	int rc = p->ops.context_create(n, devices, out);

	if (TRACING(p))
		trace_call(p, rc, "context_create(n=%u, devices[0]=%p) -> %p",
			   n, devices && n ? (void *)devices[0] : NULL,
			   OUT(rc, out));
	return rc;
}

void devimg_plugin_context_release(struct devimg_plugin *p,
				   struct devimg_plugin_context *ctx)
{
	trace_void(p, "context_release", ctx);
	p->ops.context_release(ctx);
}

int devimg_plugin_queue_create(struct devimg_plugin *p,
			       struct devimg_plugin_context *ctx,
			       struct devimg_plugin_device *device,
			       struct devimg_plugin_queue **out)
{
	int rc = p->ops.queue_create(ctx, device, out);

	if (TRACING(p))
		trace_call(p, rc, "queue_create(ctx=%p, device=%p) -> %p",
			   (void *)ctx, (void *)device, OUT(rc, out));
	return rc;
}

int devimg_plugin_queue_finish(struct devimg_plugin *p,
			       struct devimg_plugin_queue *q)
{
	int rc = p->ops.queue_finish(q);

	if (TRACING(p))
		trace_call(p, rc, "queue_finish(%p)", (void *)q);
	return rc;
}

void devimg_plugin_queue_release(struct devimg_plugin *p,
				 struct devimg_plugin_queue *q)
{
	trace_void(p, "queue_release", q);
	p->ops.queue_release(q);
}

int devimg_plugin_mem_create(struct devimg_plugin *p,
			     struct devimg_plugin_context *ctx, unsigned flags,
			     size_t size, struct devimg_plugin_mem **out)
{
	int rc = p->ops.mem_create(ctx, flags, size, out);

	if (TRACING(p))
		trace_call(p, rc, "mem_create(ctx=%p, flags=%#x, size=%zu) -> %p",
			   (void *)ctx, flags, size, OUT(rc, out));
	return rc;
}

int devimg_plugin_mem_write(struct devimg_plugin *p,
			    struct devimg_plugin_queue *q,
			    struct devimg_plugin_mem *mem, int blocking,
			    size_t offset, size_t n, const void *src)
{
	int rc = p->ops.mem_write(q, mem, blocking, offset, n, src);

	if (TRACING(p))
		trace_call(p, rc,
			   "mem_write(q=%p, mem=%p, blocking=%d, offset=%zu, n=%zu, src=%p)",
			   (void *)q, (void *)mem, blocking, offset, n, src);
	return rc;
}

int devimg_plugin_mem_read(struct devimg_plugin *p,
			   struct devimg_plugin_queue *q,
			   struct devimg_plugin_mem *mem, int blocking,
			   size_t offset, size_t n, void *dst)
{
	int rc = p->ops.mem_read(q, mem, blocking, offset, n, dst);

	if (TRACING(p))
		trace_call(p, rc,
			   "mem_read(q=%p, mem=%p, blocking=%d, offset=%zu, n=%zu, dst=%p)",
			   (void *)q, (void *)mem, blocking, offset, n, dst);
	return rc;
}

void devimg_plugin_mem_release(struct devimg_plugin *p,
			       struct devimg_plugin_mem *mem)
{
	trace_void(p, "mem_release", mem);
	p->ops.mem_release(mem);
}

int devimg_plugin_program_create_il(struct devimg_plugin *p,
				    struct devimg_plugin_context *ctx,
				    struct devimg_plugin_device *device,
				    const void *il, size_t size,
				    struct devimg_plugin_program **out)
{
	int rc = p->ops.program_create_il(ctx, device, il, size, out);

	if (TRACING(p))
		trace_call(p, rc,
			   "program_create_il(ctx=%p, device=%p, size=%zu) -> %p",
			   (void *)ctx, (void *)device, size, OUT(rc, out));
	return rc;
}

int devimg_plugin_program_create_binary(struct devimg_plugin *p,
					struct devimg_plugin_context *ctx,
					struct devimg_plugin_device *device,
					enum devimg_plugin_binary_kind kind,
					const void *binary, size_t size,
					struct devimg_plugin_program **out)
{
	int rc = p->ops.program_create_binary(ctx, device, kind, binary, size,
					      out);

	if (TRACING(p))
		trace_call(p, rc,
			   "program_create_binary(ctx=%p, device=%p, kind=%s, size=%zu) -> %p",
			   (void *)ctx, (void *)device,
			   kind == DEVIMG_PLUGIN_BINARY_SPIR ? "spir" : "native",
			   size, OUT(rc, out));
	return rc;
}

int devimg_plugin_program_set_spec_const(struct devimg_plugin *p,
					 struct devimg_plugin_program *prog,
					 uint32_t id, size_t size,
					 const void *value)
{
	int rc = p->ops.program_set_spec_const(prog, id, size, value);

	if (TRACING(p))
		trace_call(p, rc,
			   "program_set_spec_const(prog=%p, id=%" PRIu32 ", size=%zu)",
			   (void *)prog, id, size);
	return rc;
}

int devimg_plugin_program_build(struct devimg_plugin *p,
				struct devimg_plugin_program *prog,
				const char *options)
{
	int rc = p->ops.program_build(prog, options);

	if (TRACING(p))
		trace_call(p, rc, "program_build(prog=%p, options=\"%s\")",
			   (void *)prog, options ? options : "");
	return rc;
}

int devimg_plugin_program_build_log(struct devimg_plugin *p,
				    struct devimg_plugin_program *prog,
				    char *buf, size_t capacity, size_t *len)
{
	int rc = p->ops.program_build_log(prog, buf, capacity, len);

	if (TRACING(p))
		trace_call(p, rc,
			   "program_build_log(prog=%p, capacity=%zu) -> len=%zu",
			   (void *)prog, capacity, rc == 0 && len ? *len : 0);
	return rc;
}

int devimg_plugin_program_binary(struct devimg_plugin *p,
				 struct devimg_plugin_program *prog, void *buf,
				 size_t capacity, size_t *len)
{
	int rc = p->ops.program_binary(prog, buf, capacity, len);

	if (TRACING(p))
		trace_call(p, rc,
			   "program_binary(prog=%p, capacity=%zu) -> len=%zu",
			   (void *)prog, capacity, rc == 0 && len ? *len : 0);
	return rc;
}

int devimg_plugin_program_compile(struct devimg_plugin *p,
				  struct devimg_plugin_program *prog,
				  const char *options)
{
	int rc = p->ops.program_compile ?
		p->ops.program_compile(prog, options) :
		absent_op(p, "program_compile");

	if (TRACING(p))
		trace_call(p, rc, "program_compile(prog=%p, options=\"%s\")",
			   (void *)prog, options ? options : "");
	return rc;
}

int devimg_plugin_program_link(struct devimg_plugin *p,
			       struct devimg_plugin_context *ctx,
			       struct devimg_plugin_device *device, unsigned n,
			       struct devimg_plugin_program *const *progs,
			       const char *options,
			       struct devimg_plugin_program **out)
{
	int rc = p->ops.program_link ?
		p->ops.program_link(ctx, device, n, progs, options, out) :
		absent_op(p, "program_link");

	if (TRACING(p))
		trace_call(p, rc,
			   "program_link(ctx=%p, device=%p, n=%u, options=\"%s\") -> %p",
			   (void *)ctx, (void *)device, n,
			   options ? options : "", OUT(rc, out));
	return rc;
}

int devimg_plugin_global_info(struct devimg_plugin *p,
			      struct devimg_plugin_program *prog,
			      const char *name, size_t *size)
{
	int rc = p->ops.global_info ? p->ops.global_info(prog, name, size) :
				      absent_op(p, "global_info");

	if (TRACING(p))
		trace_call(p, rc, "global_info(prog=%p, name=\"%s\") -> size=%zu",
			   (void *)prog, name, rc == 0 && size ? *size : 0);
	return rc;
}

int devimg_plugin_global_write(struct devimg_plugin *p,
			       struct devimg_plugin_queue *q,
			       struct devimg_plugin_program *prog,
			       const char *name, size_t off, size_t n,
			       const void *src, int blocking)
{
	int rc = p->ops.global_write ?
		p->ops.global_write(q, prog, name, off, n, src, blocking) :
		absent_op(p, "global_write");

	if (TRACING(p))
		trace_call(p, rc,
			   "global_write(q=%p, prog=%p, name=\"%s\", off=%zu, n=%zu, src=%p, blocking=%d)",
			   (void *)q, (void *)prog, name, off, n, src,
			   blocking);
	return rc;
}

int devimg_plugin_global_read(struct devimg_plugin *p,
			      struct devimg_plugin_queue *q,
			      struct devimg_plugin_program *prog,
			      const char *name, size_t off, size_t n, void *dst,
			      int blocking)
{
	int rc = p->ops.global_read ?
		p->ops.global_read(q, prog, name, off, n, dst, blocking) :
		absent_op(p, "global_read");

	if (TRACING(p))
		trace_call(p, rc,
			   "global_read(q=%p, prog=%p, name=\"%s\", off=%zu, n=%zu, dst=%p, blocking=%d)",
			   (void *)q, (void *)prog, name, off, n, dst,
			   blocking);
	return rc;
}

int devimg_plugin_mem_address(struct devimg_plugin *p,
			      struct devimg_plugin_mem *mem, uint64_t *addr)
{
	int rc = p->ops.mem_address ? p->ops.mem_address(mem, addr) :
				      absent_op(p, "mem_address");

	if (TRACING(p))
		trace_call(p, rc, "mem_address(mem=%p) -> %#" PRIx64,
			   (void *)mem, rc == 0 && addr ? *addr : 0);
	return rc;
}

void devimg_plugin_program_release(struct devimg_plugin *p,
				   struct devimg_plugin_program *prog)
{
	trace_void(p, "program_release", prog);
	p->ops.program_release(prog);
}

int devimg_plugin_kernel_create(struct devimg_plugin *p,
				struct devimg_plugin_program *prog,
				const char *name,
				struct devimg_plugin_kernel **out)
{
	int rc = p->ops.kernel_create(prog, name, out);

	if (TRACING(p))
		trace_call(p, rc, "kernel_create(prog=%p, name=\"%s\") -> %p",
			   (void *)prog, name ? name : "(null)", OUT(rc, out));
	return rc;
}

int devimg_plugin_kernel_arg_count(struct devimg_plugin *p,
				   struct devimg_plugin_kernel *k,
				   unsigned *count)
{
	int rc = p->ops.kernel_arg_count(k, count);

	if (TRACING(p))
		trace_call(p, rc, "kernel_arg_count(%p) -> %u", (void *)k,
			   rc == 0 && count ? *count : 0);
	return rc;
}

int devimg_plugin_kernel_set_arg_value(struct devimg_plugin *p,
				       struct devimg_plugin_kernel *k,
				       unsigned index, size_t size,
				       const void *value)
{
	int rc = p->ops.kernel_set_arg_value(k, index, size, value);

	if (TRACING(p))
		trace_call(p, rc,
			   "kernel_set_arg_value(%p, index=%u, size=%zu, value=%p)",
			   (void *)k, index, size, value);
	return rc;
}

int devimg_plugin_kernel_set_arg_mem(struct devimg_plugin *p,
				     struct devimg_plugin_kernel *k,
				     unsigned index,
				     struct devimg_plugin_mem *mem)
{
	int rc = p->ops.kernel_set_arg_mem(k, index, mem);

	if (TRACING(p))
		trace_call(p, rc, "kernel_set_arg_mem(%p, index=%u, mem=%p)",
			   (void *)k, index, (void *)mem);
	return rc;
}

int devimg_plugin_kernel_set_arg_local(struct devimg_plugin *p,
				       struct devimg_plugin_kernel *k,
				       unsigned index, size_t size)
{
	int rc = p->ops.kernel_set_arg_local(k, index, size);

	if (TRACING(p))
		trace_call(p, rc, "kernel_set_arg_local(%p, index=%u, size=%zu)",
			   (void *)k, index, size);
	return rc;
}

void devimg_plugin_kernel_release(struct devimg_plugin *p,
				  struct devimg_plugin_kernel *k)
{
	trace_void(p, "kernel_release", k);
	p->ops.kernel_release(k);
}

static void format_range(char *buf, size_t size, unsigned dims,
			 const size_t *v)
{
	size_t used = 0;
	unsigned i;

	if (!v) {
		snprintf(buf, size, "NULL");
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < dims && i < 3 && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%zu",
					 i ? "," : "{", v[i]);
	if (used < size)
		snprintf(buf + used, size - used, "}");
}

/* The trace line of a launch, out of the launch's way. */
static __attribute__((noinline, cold)) void
trace_launch(struct devimg_plugin *p, int rc, struct devimg_plugin_queue *q,
	     struct devimg_plugin_kernel *k, unsigned dims,
	     const size_t *global_offset, const size_t *global_size,
	     const size_t *local_size)
{
	char off[80], glob[80], loc[80];

	format_range(off, sizeof(off), dims, global_offset);
	format_range(glob, sizeof(glob), dims, global_size);
	format_range(loc, sizeof(loc), dims, local_size);
	trace_call(p, rc,
		   "launch(q=%p, kernel=%p, dims=%u, offset=%s, global=%s, local=%s)",
		   (void *)q, (void *)k, dims, off, glob, loc);
}

const struct devimg_plugin_ops *devimg_plugin_untraced_ops(
	const struct devimg_plugin *p)
{
	return TRACING(p) ? NULL : &p->ops;
}

int devimg_plugin_launch(struct devimg_plugin *p,
			 struct devimg_plugin_queue *q,
			 struct devimg_plugin_kernel *k, unsigned dims,
			 const size_t *global_offset,
			 const size_t *global_size,
			 const size_t *local_size)
{
	int rc;

	/* Untraced: a tail call, the plugin returns to the caller. */
	if (!TRACING(p))
		return p->ops.launch(q, k, dims, global_offset, global_size,
				     local_size);
	rc = p->ops.launch(q, k, dims, global_offset, global_size, local_size);
	trace_launch(p, rc, q, k, dims, global_offset, global_size,
		     local_size);
	return rc;
}
