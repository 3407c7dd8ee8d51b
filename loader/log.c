// SPDX-License-Identifier: MIT
/*
 * The log function and priority. Process-wide because registration runs
 * before any context exists; guarded by a mutex, initialized statically so
 * that logging works before the library's constructors ran.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "libdevimg-internal.h"

static void log_stderr(void *data, int priority, const char *file, int line,
		       const char *fn, const char *format, va_list args)
	DEVIMG_PRINTF(6, 0);

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
	char buf[1024];

	/* One write per message keeps lines of several threads whole. */
	vsnprintf(buf, sizeof(buf), format, args);
	if (priority >= DEVIMG_LOG_DEBUG)
		fprintf(stderr, "libdevimg: %s:%d %s: %s\n", file, line, fn,
			buf);
	else
		fprintf(stderr, "libdevimg: %s\n", buf);
}

static int priority_from_env(void)
{
	const char *s = secure_getenv("DEVIMG_TRACE");
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

void devimg_log(int priority, const char *file, int line, const char *fn,
		const char *format, ...)
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

void devimg_msg_set(struct devimg_msg *m, int err, const char *format, ...)
{
	va_list args;

	m->err = err;
	va_start(args, format);
	vsnprintf(m->text, sizeof(m->text), format, args);
	va_end(args);
}
