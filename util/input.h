/* SPDX-License-Identifier: MIT */
/*
 * Opening and reading the tools' input files: never blocking (a FIFO or a
 * device given by mistake is refused, not waited on), only regular files
 * whose size is their length (not those of /proc or /sys), and never more
 * bytes than a named limit (util/devimg_limits.h), checked before reading.
 */
#ifndef DEVIMG_UTIL_INPUT_H
#define DEVIMG_UTIL_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct errmsg;

/*
 * Open path for reading as an input of the tools: opened non-blocking (a
 * FIFO without a writer cannot hang the open), then accepted only as a
 * regular file of at most limit bytes (one of devimg_limits.h's
 * DEVIMG_LIMIT_*_FILE) whose size is its length; the descriptor comes
 * back blocking, with the size in *size. Refused, with err naming path:
 * a directory (-EISDIR), a device, FIFO or socket (-EINVAL, "not a
 * regular file (character device)"), a file of /proc, /sys and the like
 * (-EINVAL), a file over the limit (-EFBIG, by its size: nothing is read).
 * Returns the descriptor or a negative errno.
 */
int input_open(const char *path, uint64_t limit, uint64_t *size,
	       struct errmsg *err);
/*
 * Read a whole input opened as input_open() does into a malloc'ed
 * buffer, NUL-terminated (not counted in *len); a file that grows past
 * the size it had when opened is refused (-EFBIG).
 */
int input_read(const char *path, uint64_t limit, char **buf,
	       size_t *len, struct errmsg *err);

/* Read a whole text input, DEVIMG_LIMIT_TEXT_FILE bytes at most. */
int input_slurp(const char *path, char **buf, size_t *len,
		struct errmsg *err);

#endif
