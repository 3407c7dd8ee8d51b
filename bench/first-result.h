/* SPDX-License-Identifier: MIT */
/*
 * What the raw time-to-first-result programs (bench/first-result-opencl.c,
 * bench/first-result-cuda.c) share: reading the image and saying how the
 * run ended.
 */
#ifndef DEVIMG_BENCH_FIRST_RESULT_H
#define DEVIMG_BENCH_FIRST_RESULT_H

#include <stdio.h>
#include <stdlib.h>

/* What the kernel stores; the programs check that they read it back. */
#define FIRST_VALUE 42

/*
 * The whole of path in *size bytes, followed by a NUL not counted (PTX is
 * text); NULL when it cannot be read or is empty.
 */
static inline unsigned char *first_slurp(const char *path, size_t *size)
{
	unsigned char *data = NULL, *grown;
	size_t cap = 0, got;
	FILE *f = fopen(path, "rb");

	*size = 0;
	if (!f)
		return NULL;
	do {
		if (cap - *size < 2) {
			cap = cap ? cap * 2 : 4096;
			grown = realloc(data, cap);
			if (!grown) {
				free(data);
				data = NULL;
				break;
			}
			data = grown;
		}
		got = fread(data + *size, 1, cap - *size - 1, f);
		*size += got;
	} while (got > 0);
	if (data && (ferror(f) || *size == 0)) {
		free(data);
		data = NULL;
	}
	if (data)
		data[*size] = 0;
	fclose(f);
	return data;
}

/*
 * How a run of side ("raw opencl") ended: the failed step (what, with
 * the driver's error code err) when step is not NULL, else the value read
 * back. Returns the exit status: 1 on a failed step, 2 on a wrong value,
 * 0 when it is FIRST_VALUE.
 */
static inline int first_report(const char *side, const char *step,
			       const char *what, int err, int value)
{
	if (step) {
		fprintf(stderr, "first-result: %s: %s: %s %d\n", side, step,
			what, err);
		return 1;
	}
	if (value != FIRST_VALUE) {
		fprintf(stderr, "first-result: %s: read %d, want %d\n", side,
			value, FIRST_VALUE);
		return 2;
	}
	printf("first-result: %s: %d\n", side, value);
	return 0;
}

#endif
