// SPDX-License-Identifier: MIT
/*
 * The log function and priority. Process-wide because registration runs
 * before any context exists; guarded by a mutex, initialized statically so
 * that logging works before the library's constructors ran.
 *
 * Names and messages in log lines and in struct errmsg come from
 * outside (descriptors, drivers, the environment): every argument of a
 * format is escaped (escape.h), newlines included, so that a log record is
 * one line and no argument can move the cursor, clear the screen or forge
 * a line of its own.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "loader/libdevimg-internal.h"

/* The longest log message; longer ones are cut between two escapes. */
#define LOG_MSG_MAX 4096

static void log_stderr(void *data, int priority, const char *file, int line,
		       const char *fn, const char *format, va_list args)
	DEVIMG_PRINTF(6, 0);

/* The record being logged is a plugin trace line (devimg_trace_text()). */
static _Thread_local bool trace_line;

static struct {
	pthread_mutex_t lock;
	pthread_once_t once;
	devimg_log_fn fn;
	void *data;
	atomic_int priority;
} log_state = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.once = PTHREAD_ONCE_INIT,
	.fn = log_stderr,
};

static void log_stderr(void *data, int priority, const char *file, int line,
		       const char *fn, const char *format, va_list args)
{
	char buf[LOG_MSG_MAX];

	/* One write per message keeps lines of several threads whole. */
	if ((size_t)vsnprintf(buf, sizeof(buf), format, args) >= sizeof(buf))
		buf[esc_cut(buf, sizeof(buf) - 1)] = '\0';
	if (trace_line)
		fprintf(stderr, "libdevimg: %s\n", buf);
	else if (priority >= DEVIMG_LOG_DEBUG)
		fprintf(stderr, "libdevimg: %s:%d %s: %s\n", file, line, fn,
			buf);
	else
		fprintf(stderr, "libdevimg: %s\n", buf);
}

/*
 * DEVIMG_TRACE, the one place it is parsed: unset, empty, not a number or
 * not positive: errors only; 1: DEVIMG_LOG_INFO (and plugin discovery);
 * more: DEVIMG_LOG_DEBUG (and every plugin call).
 */
static int priority_from_env(void)
{
	const char *s = devimg_env(DEVIMG_ENV_TRACE);
	long level;
	char *end;

	if (!s || !*s)
		return DEVIMG_LOG_ERR;
	level = strtol(s, &end, 10);
	if (*end || level <= 0)
		return DEVIMG_LOG_ERR;
	return level == 1 ? DEVIMG_LOG_INFO : DEVIMG_LOG_DEBUG;
}

static void log_init_once(void)
{
	atomic_store(&log_state.priority, priority_from_env());
}

DEVIMG_EXPORT int devimg_get_log_priority(void)
{
	pthread_once(&log_state.once, log_init_once);
	return atomic_load_explicit(&log_state.priority, memory_order_relaxed);
}

DEVIMG_EXPORT void devimg_set_log_priority(int priority)
{
	pthread_once(&log_state.once, log_init_once);
	atomic_store(&log_state.priority, priority);
}

DEVIMG_EXPORT void devimg_set_log_fn(devimg_log_fn fn, void *data)
{
	pthread_mutex_lock(&log_state.lock);
	log_state.fn = fn ? fn : log_stderr;
	log_state.data = fn ? data : NULL;
	pthread_mutex_unlock(&log_state.lock);
}

/* Hand the log function text that is escaped already, as "%s". */
static void log_call(int priority, const char *file, int line,
		     const char *fn, const char *format, ...)
	DEVIMG_PRINTF(5, 6);

static void log_call(int priority, const char *file, int line,
		     const char *fn, const char *format, ...)
{
	devimg_log_fn log_fn;
	void *data;
	va_list args;

	pthread_mutex_lock(&log_state.lock);
	log_fn = log_state.fn;
	data = log_state.data;
	pthread_mutex_unlock(&log_state.lock);

	va_start(args, format);
	log_fn(data, priority, file, line, fn, format, args);
	va_end(args);
}

void devimg_log(int priority, const char *file, int line, const char *fn,
		const char *format, ...)
{
	char msg[LOG_MSG_MAX];
	va_list args;

	va_start(args, format);
	esc_vsnprintf(msg, sizeof(msg), NULL, format, args);
	va_end(args);
	log_call(priority, file, line, fn, "%s", msg);
}

void devimg_log_text(int priority, const char *file, int line,
		     const char *fn, const char *text)
{
	char msg[LOG_MSG_MAX];
	size_t i, n = 0;

	/* Its kept lines as escapes too: "\n" -> "\x0a", "\t" -> "\x09". */
	for (i = 0; text[i]; i++) {
		const char *u = text + i;
		size_t len = 1;

		if (text[i] == '\n' || text[i] == '\t') {
			u = text[i] == '\n' ? "\\x0a" : "\\x09";
			len = 4;
		}
		if (len >= sizeof(msg) - n)
			break;
		memcpy(msg + n, u, len);
		n += len;
	}
	msg[esc_cut(msg, n)] = '\0';
	log_call(priority, file, line, fn, "%s", msg);
}

void devimg_trace_text(int priority, const char *file, int line,
		       const char *fn, const char *text)
{
	trace_line = true;
	log_call(priority, file, line, fn, "%s", text);
	trace_line = false;
}
