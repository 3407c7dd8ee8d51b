// SPDX-License-Identifier: MIT
/*
 * compress-main LIBRARY KERNEL ROUNDS: open LIBRARY, time the first
 * devimg_image_bin() of the image defining KERNEL (for a compressed image,
 * its expansion) and a second one, close it; ROUNDS times. Prints the
 * medians in microseconds and the image's stored and real sizes.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <devimg/devimg.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	size_t n, size = 0, stored = 0;
	double *first, *again;
	int rounds, i;

	if (argc != 4 || (rounds = atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: %s LIBRARY KERNEL ROUNDS\n", argv[0]);
		return 2;
	}
	first = calloc(rounds, sizeof(*first));
	again = calloc(rounds, sizeof(*again));
	if (!first || !again)
		return 1;
	for (i = 0; i < rounds; i++) {
		struct devimg_image *img;
		const void *bytes;
		void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
		double t0, t1, t2;

		if (!lib || devimg_registry_find_kernel(argv[2], &img, 1, &n)) {
			fprintf(stderr, "%s: cannot open or find %s\n",
				argv[1], argv[2]);
			return 1;
		}
		stored = devimg_image_bin_size(img);
		t0 = now_us();
		if (devimg_image_bin(img, &bytes, &size))
			return 1;
		t1 = now_us();
		if (devimg_image_bin(img, &bytes, &size))
			return 1;
		t2 = now_us();
		first[i] = t1 - t0;
		again[i] = t2 - t1;
		devimg_image_unref(img);
		dlclose(lib);
	}
	qsort(first, rounds, sizeof(*first), cmp_double);
	qsort(again, rounds, sizeof(*again), cmp_double);
	printf("%zu stored bytes, %zu real: first use %.1f us", stored, size,
	       first[rounds / 2]);
	if (stored != size && first[rounds / 2] > 0)
		printf(" (%.0f MB/s expanded)", size / first[rounds / 2]);
	printf(", then %.3f us (median of %d)\n", again[rounds / 2], rounds);
	free(first);
	free(again);
	return 0;
}
