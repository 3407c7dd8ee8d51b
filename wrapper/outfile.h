/* SPDX-License-Identifier: MIT */
/*
 * Output files of devimg-wrap and devimg-dump, written whole or not at all:
 * the bytes go to a temporary file in the target's folder, unnamed
 * (O_TMPFILE) where the file system allows, else with a short name
 * (".devimg-XXXXXX"), so that any name the file system takes works as the
 * output name; out_commit() gives it its name with rename(), replacing an
 * older file atomically.
 */
#ifndef DEVIMG_WRAPPER_OUTFILE_H
#define DEVIMG_WRAPPER_OUTFILE_H

#include <limits.h>
#include <stddef.h>

#include "util/errmsg.h"

struct out_file {
	int fd;			/* write here; -1 when closed */
	int anon;		/* O_TMPFILE: no name yet */
	const char *path;	/* the name to give it */
	char dir[PATH_MAX - 64];	/* the folder of path */
	char tmp[PATH_MAX];	/* its temporary name, when it has one */
};

/*
 * Create the temporary file for path (mode 0666 less the umask). Returns
 * 0, or -1 with err "PATH: reason": a last component longer than NAME_MAX,
 * a folder that does not exist or cannot be written.
 */
int out_open(struct out_file *o, const char *path, struct errmsg *err);
/* Name the file path (replacing what was there); 0, or -1 with err set. */
int out_commit(struct out_file *o, struct errmsg *err);
/* Close and remove the temporary file: nothing of it is left. */
void out_abort(struct out_file *o);
/*
 * Remove the temporary file of the output being written, if it has a
 * name, when SIGINT, SIGTERM, SIGHUP or SIGPIPE kills the program.
 */
void out_catch_signals(void);

#endif
