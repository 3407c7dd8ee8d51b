/* SPDX-License-Identifier: MIT */
/*
 * slurp(): a whole file read into memory, for the test programs that take
 * their inputs from files the build or the shell test made. A file that
 * cannot be read ends the program with perror's line, exit status 1.
 */
#ifndef DEVIMG_TESTS_SLURP_H
#define DEVIMG_TESTS_SLURP_H

#include <stdio.h>
#include <stdlib.h>

/* The bytes of path (with one spare byte after them), their count in n. */
static inline void *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(b = malloc((size_t)len + 1)) ||
	    fread(b, 1, (size_t)len, f) != (size_t)len) {
		perror(path);
		exit(1);
	}
	fclose(f);
	*n = (size_t)len;
	return b;
}

#endif
