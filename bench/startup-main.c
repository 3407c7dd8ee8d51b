// SPDX-License-Identifier: MIT
/*
 * The start-up benchmark's program, linked with one wrapped object (of
 * either form) or none, always against the shared libdevimg:
 *
 *   startup-main --start          return at once (the timed start-up:
 *                                 load, registration, exit, unregistration)
 *   startup-main --check N FIRST LAST
 *                                 check that the registry holds N kernel
 *                                 names, FIRST and LAST among them; print
 *                                 "registered N kernels, first read T us"
 *                                 (exit 1 if not)
 *
 * The check reads the registry, which indexes what registration queued
 * (its first read is timed: the work registration left for later); the
 * --start runs never read it, as a program that launches nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <devimg/devimg.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int has_kernel(const char *name)
{
	struct devimg_image *img;
	size_t n = 0;

	if (devimg_registry_find_kernel(name, &img, 1, &n) || n != 1)
		return 0;
	devimg_image_unref(img);
	return 1;
}

int main(int argc, char **argv)
{
	struct devimg_image *img;
	unsigned long want;
	size_t n = 0, total = 0;
	double t0, read_us;

	if (argc == 2 && strcmp(argv[1], "--start") == 0)
		return 0;
	if (argc != 5 || strcmp(argv[1], "--check") != 0) {
		fprintf(stderr,
			"usage: startup-main --start | --check N FIRST LAST\n");
		return 2;
	}
	want = strtoul(argv[2], NULL, 10);
	t0 = now_us();
	if (devimg_registry_status() != 0) {
		fprintf(stderr, "startup-main: registration failed\n");
		return 1;
	}
	read_us = now_us() - t0;
	if (devimg_registry_images(&img, 1, &n) != 0) {
		fprintf(stderr, "startup-main: cannot list the registry\n");
		return 1;
	}
	if (n) {
		total = devimg_image_entry_count(img);
		devimg_image_unref(img);
	}
	if (want && (n != 1 || total != want || !has_kernel(argv[3]) ||
		     !has_kernel(argv[4]))) {
		fprintf(stderr,
			"startup-main: %zu images, %zu kernels, expected 1 image of %lu kernels with %s and %s\n",
			n, total, want, argv[3], argv[4]);
		return 1;
	}
	if (!want && n) {
		fprintf(stderr, "startup-main: %zu images, expected none\n", n);
		return 1;
	}
	printf("registered %zu kernels, first read %.1f us\n", total, read_us);
	return 0;
}
