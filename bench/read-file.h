/* SPDX-License-Identifier: MIT */
/*
 * The launch benchmarks' input files: the whole of path, with a NUL after
 * its bytes (a PTX text is a string), its size in *size (may be NULL);
 * NULL when it cannot be read or is empty.
 */
#ifndef DEVIMG_BENCH_READ_FILE_H
#define DEVIMG_BENCH_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

static inline void *bench_read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		buf = calloc(1, (size_t)len + 1);
		if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
			free(buf);
			buf = NULL;
		}
		if (buf && size)
			*size = (size_t)len;
	}
	fclose(f);
	return buf;
}

#endif
