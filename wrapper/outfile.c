// SPDX-License-Identifier: MIT
/* Output files written whole or not at all (outfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/errmsg.h"
#include "wrapper/outfile.h"

#define TEMP_PREFIX ".devimg-"

/*
 * The temporary name now on disk, for a signal handler to remove: the one
 * piece of process-wide state, because a handler can reach nothing else.
 * One output is written at a time.
 */
static volatile sig_atomic_t have_temp;
static char temp_path[PATH_MAX];

/* The message in err; -1. */
static int out_fail(struct errmsg *err, const char *fmt, ...)
	DEVIMG_PRINTF(2, 3);

static int out_fail(struct errmsg *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	errmsg_vset(err, fmt, ap);
	va_end(ap);
	return -1;
}

/* Remove the named temporary file, then die of the signal as before. */
static void remove_temp_on_signal(int sig)
{
	if (have_temp)
		unlink(temp_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

void out_catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], remove_temp_on_signal);
}

static void temp_set(const char *path)
{
	have_temp = 0;
	memcpy(temp_path, path, strlen(path) + 1);
	have_temp = 1;
}

static void temp_clear(void)
{
	have_temp = 0;
}

/* Split path into its folder (o->dir) and checked last component. */
static int split_path(struct out_file *o, const char *path,
		      struct errmsg *err)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dirlen = slash ? (size_t)(slash - path) : 0;

	if (!*base)
		return out_fail(err, "%s: %s", path, strerror(EISDIR));
	if (strlen(base) > NAME_MAX)
		return out_fail(err,
				"%s: file name too long (%zu bytes, at most %d)",
				path, strlen(base), NAME_MAX);
	if (!slash)
		strcpy(o->dir, ".");
	else if (dirlen == 0)
		strcpy(o->dir, "/");
	else if (dirlen >= sizeof(o->dir))
		return out_fail(err, "%s: %s", path, strerror(ENAMETOOLONG));
	else
		snprintf(o->dir, sizeof(o->dir), "%.*s", (int)dirlen, path);
	return 0;
}

int out_open(struct out_file *o, const char *path, struct errmsg *err)
{
	mode_t mask;
	int e;

	o->fd = -1;
	o->anon = 0;
	o->path = path;
	o->tmp[0] = '\0';
	if (split_path(o, path, err))
		return -1;
#ifdef O_TMPFILE
	/* Named later through /proc/self/fd: without /proc, a named file. */
	o->fd = open(o->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
	if (o->fd >= 0 && access("/proc/self/fd", X_OK) == 0) {
		o->anon = 1;
		return 0;
	}
	if (o->fd >= 0)
		close(o->fd);
#endif
	snprintf(o->tmp, sizeof(o->tmp), "%s/" TEMP_PREFIX "XXXXXX", o->dir);
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		e = errno;
		o->tmp[0] = '\0';
		return out_fail(err,
				"%s: cannot create a temporary file beside it: %s",
				path, strerror(e));
	}
	temp_set(o->tmp);
	mask = umask(0);
	umask(mask);
	if (fchmod(o->fd, 0666 & ~mask) < 0) {
		e = errno;
		out_abort(o);
		return out_fail(err, "%s: %s", path, strerror(e));
	}
	return 0;
}

/* Give the unnamed file a short temporary name in its folder. */
static int link_anon(struct out_file *o)
{
	char proc[64];
	unsigned n;
	int r;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	for (n = 0; n < 1000; n++) {
		snprintf(o->tmp, sizeof(o->tmp), "%s/" TEMP_PREFIX "%u.%u",
			 o->dir, (unsigned)getpid(), n);
		temp_set(o->tmp);
		r = linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp,
			   AT_SYMLINK_FOLLOW);
		if (r == 0)
			return 0;
		temp_clear();
		if (errno != EEXIST)
			break;
	}
	o->tmp[0] = '\0';
	return -1;
}

int out_commit(struct out_file *o, struct errmsg *err)
{
	int e;

	if (o->anon && link_anon(o) < 0) {
		e = errno;
		out_abort(o);
		return out_fail(err, "%s: cannot name the file: %s",
				o->path, strerror(e));
	}
	if (close(o->fd) < 0) {
		e = errno;
		o->fd = -1;
		out_abort(o);
		return out_fail(err, "%s: %s", o->path, strerror(e));
	}
	o->fd = -1;
	if (rename(o->tmp, o->path) < 0) {
		e = errno;
		out_abort(o);
		return out_fail(err, "%s: %s", o->path, strerror(e));
	}
	temp_clear();
	o->tmp[0] = '\0';
	return 0;
}

void out_abort(struct out_file *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
	temp_clear();
}
