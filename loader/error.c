// SPDX-License-Identifier: MIT
/*
 * The library's error channel: names of the error codes it returns
 * (thread-safe, no locale) and the calling thread's last detailed
 * message, devimg_last_error().
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "util/escape.h"
#include "loader/libdevimg-internal.h"

static const struct {
	int err;
	const char *text;
} errors[] = {
	{ 0, "success" },
	{ EINVAL, "invalid argument or malformed input" },
	{ ENOMEM, "out of memory" },
	{ ENOENT, "not found" },
	{ EACCES, "access forbidden" },
	{ EEXIST, "already registered" },
	{ ESTALE, "image no longer registered (its library was unloaded)" },
	{ ENOEXEC, "no image compatible with the device" },
	{ ERANGE, "value out of range" },
	{ ENODEV, "no such device" },
	{ ENOSYS, "not supported" },
	/* EOPNOTSUPP too (the same number on Linux): the message says which. */
	{ ENOTSUP, "not supported by the device, its backend or this system" },
	{ EPROTO, "plugin interface version mismatch" },
	{ EIO, "input/output error" },
	{ EBUSY, "busy" },
	{ EOVERFLOW, "size overflow" },
	{ EAGAIN, "try again" },
	{ EBADMSG, "compressed image cannot be expanded" },
	{ EFBIG, "compressed image too large once expanded" },
};

DEVIMG_EXPORT const char *devimg_strerror(int err)
{
	size_t i;

	for (i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		if (errors[i].err == -err)
			return errors[i].text;
	}
	return "unknown error";
}

/*
 * Every argument escaped (escape.h): names, targets, options and device
 * names come from outside. A plugin's message, which may end in a build
 * log, keeps its lines; nothing else does.
 */
static _Thread_local char last_error[4096];
static _Thread_local unsigned last_error_count;
static _Thread_local unsigned held;

void error_hold(void)
{
	held++;
}

void error_release(void)
{
	held--;
}

unsigned error_count(void)
{
	return last_error_count;
}

/*
 * The one way a failure reaches the caller: the message recorded for
 * devimg_last_error() and the same text logged at the call site's
 * priority.
 */
int devimg_vfail(int err, int priority, const char *file, int line,
		 const char *fn, const char *lines, const char *format,
		 va_list ap)
{
	char text[sizeof(last_error)];

	if (held) {
		/* Logged as ever, the caller's message left alone. */
		if (devimg_log_enabled(priority)) {
			esc_vsnprintf(text, sizeof(text), lines, format,
				      ap);
			devimg_log_text(priority, file, line, fn, text);
		}
		return err;
	}
	esc_vsnprintf(last_error, sizeof(last_error), lines, format, ap);
	last_error_count++;
	if (devimg_log_enabled(priority))
		devimg_log_text(priority, file, line, fn, last_error);
	return err;
}

int devimg_fail_at(int err, int priority, const char *file, int line,
		   const char *fn, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	err = devimg_vfail(err, priority, file, line, fn, NULL, format, ap);
	va_end(ap);
	return err;
}

int fail_null(const char *fn)
{
	return fail_dbg(-EINVAL, "%s: NULL argument", fn);
}

int image_stale(uint64_t id, unsigned index)
{
	return fail_dbg(-ESTALE, "image %llu (index %u): no longer registered (its library was unloaded)",
			(unsigned long long)id, index);
}

int error_vset(int err, const char *lines, const char *format, va_list ap)
{
	return devimg_vfail(err, DEVIMG_LOG_DEBUG, __FILE__, __LINE__,
			    __func__, lines, format, ap);
}

static int error_setf(int err, const char *lines, const char *format, ...)
	DEVIMG_PRINTF(3, 4);

static int error_setf(int err, const char *lines, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	err = error_vset(err, lines, format, ap);
	va_end(ap);
	return err;
}

int error_vprefix(int err, const char *lines, const char *format, va_list ap)
{
	char prefix[512];
	size_t pl, keep;

	esc_vsnprintf(prefix, sizeof(prefix), lines, format, ap);
	pl = strlen(prefix) + 2;
	if (pl >= sizeof(last_error))
		return error_setf(err, lines, "%s", prefix);
	keep = esc_cut(last_error, sizeof(last_error) - 1 - pl);
	memmove(last_error + pl, last_error, keep);
	last_error[pl + keep] = '\0';
	memcpy(last_error, prefix, pl - 2);
	memcpy(last_error + pl - 2, ": ", 2);
	last_error_count++;
	log_dbg_text(last_error);
	return err;
}

int api_struct_size(const char *name, size_t size, size_t min)
{
	if (size >= min)
		return 0;
	return fail_dbg(-EINVAL, "struct %s: size %zu is below its DEVIMG_0.1 size %zu (set .size = sizeof(struct %s))",
			name, size, min, name);
}

DEVIMG_EXPORT const char *devimg_last_error(void)
{
	return last_error;
}
