/* SPDX-License-Identifier: MIT */
/*
 * The loader's core, which every wing shares and the installed header does
 * not show: the error channel, the environment, the log. The registry
 * wing's declarations are in loader/registry/registry.h.
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

#include "util/errmsg.h"

#define DEVIMG_EXPORT __attribute__((visibility("default")))


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
 * (fail_dbg(), backend_fail()); ERR is for what no caller is told (a
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
/* "image N (index I): no longer registered ..."; -ESTALE. */
int image_stale(uint64_t id, unsigned index);

/*
 * devimg_vfail() at DEVIMG_LOG_DEBUG, for the wings above the registry
 * (backend_fail()). Returns err.
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

#endif
