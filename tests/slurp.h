/* SPDX-License-Identifier: MIT */
/*
 * A whole file read into memory, for the test programs that take their
 * inputs from files the build or the shell test made: slurp() ends the
 * program when the file cannot be read, read_file() returns NULL.
 */
#ifndef DEVIMG_TESTS_SLURP_H
#define DEVIMG_TESTS_SLURP_H

#include <stdio.h>
#include <stdlib.h>

/*
 * The bytes of path (with one spare byte after them), their count in n;
 * NULL, errno set, when it cannot be opened or read.
 */
static inline void *slurp_or_null(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(b = malloc((size_t)len + 1)) ||
	    fread(b, 1, (size_t)len, f) != (size_t)len) {
		free(b);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*n = (size_t)len;
	return b;
}

/* slurp_or_null(), or the program ends with perror's line, status 1. */
static inline void *slurp(const char *path, size_t *n)
{
	void *b = slurp_or_null(path, n);

	if (!b) {
		perror(path);
		exit(1);
	}
	return b;
}

/* slurp_or_null(), and NULL for an empty file too. */
static inline void *read_file(const char *path, size_t *size)
{
	size_t n;
	void *b = slurp_or_null(path, &n);

	if (b && !n) {
		free(b);
		return NULL;
	}
	if (b)
		*size = n;
	return b;
}

#endif
