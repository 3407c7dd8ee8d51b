// SPDX-License-Identifier: MIT
/*
 * The loader's way of calling a bound plugin (plugins.h): one traced
 * devimg_plugin_<op>() per operation, made from the list of plugin-ops.h
 * (launch's written by hand), the plugin's messages and the loader's own
 * for an absent optional operation, and the trace lines of discovery
 * (plugin_trace()). Calls no other file of the plugin set.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "loader/libdevimg-internal.h"
#include "loader/backend/plugin-private.h"
#include "loader/backend/plugin-ops.h"
#include "loader/backend/plugins.h"

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
/* An out-parameter value (a count, a size), printable the same way. */
#define VAL(rc, out) ((rc) == 0 && (out) ? *(out) : 0)

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

static void trace_info(struct devimg_plugin *p, const char *op,
		       const void *handle, const char *name)
{
	plugin_trace(p->trace, 2, "%s: %s(%p) -> \"%s\"", p->ops.backend, op,
		     handle, name);
}

/*
 * The devimg_plugin_<op>() of plugin-ops.h, one macro for each kind of
 * operation, as the list says; call is how to reach the plugin's: a
 * required operation is always there, an optional one may be absent.
 */
#define UNPAREN DEVIMG_PLUGIN_UNPAREN
#define CALL_REQUIRED(p, op, args) (p)->ops.op args
#define CALL_OPTIONAL(p, op, args)                                             \
	((p)->ops.op ? (p)->ops.op args : absent_op(p, #op))

#define WRAP_call(call, op, ret, params, args, trace)                          \
	ret devimg_plugin_##op(struct devimg_plugin *p, UNPAREN params)        \
	{                                                                      \
		ret rc = call(p, op, args);                                    \
                                                                               \
		if (TRACING(p))                                                \
			trace_call(p, rc, #op UNPAREN trace);                  \
		return rc;                                                     \
	}
#define WRAP_release(call, op, ret, params, args, trace)                       \
	ret devimg_plugin_##op(struct devimg_plugin *p, UNPAREN params)        \
	{                                                                      \
		trace_void(p, #op, UNPAREN args);                              \
		call(p, op, args);                                             \
	}
#define WRAP_info(call, op, ret, params, args, trace)                          \
	ret devimg_plugin_##op(struct devimg_plugin *p, UNPAREN params)        \
	{                                                                      \
		ret info = call(p, op, args);                                  \
                                                                               \
		if (TRACING(p))                                                \
			trace_info(p, #op, UNPAREN args,                       \
				   info ? info->name : "(null)");              \
		return info;                                                   \
	}
#define WRAP_own(...)
#define WRAP_none(...)

#define WRAP_REQUIRED(op, kind, ...)                                           \
	WRAP_##kind(CALL_REQUIRED, op, __VA_ARGS__)
#define WRAP_OPTIONAL(op, kind, ...)                                           \
	WRAP_##kind(CALL_OPTIONAL, op, __VA_ARGS__)
DEVIMG_PLUGIN_OPS(WRAP_REQUIRED, WRAP_OPTIONAL)

/*
 * launch, the one operation written by hand ("own" in plugin-ops.h), as
 * the steady path: untraced, a tail call, so that the plugin returns
 * straight to the caller; traced, its ranges formatted out of its way
 * (trace_launch()).
 */
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
