// SPDX-License-Identifier: MIT
/*
 * Runs a harness without libFuzzer: each FILE argument, or each file of a
 * folder argument, is read and given to LLVMFuzzerTestOneInput() once.
 * Built by the ordinary compiler, so that make check replays the seeds and
 * the stored regressions in every build, sanitized or under valgrind.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz/fuzz.h"

static int run_file(const char *path)
{
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f = fopen(path, "rb");

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			unsigned char *more;

			cap = cap ? 2 * cap : 4096;
			more = realloc(buf, cap);
			if (!more) {
				fprintf(stderr, "%s: out of memory\n", path);
				free(buf);
				fclose(f);
				return -1;
			}
			buf = more;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	/* An exact copy, so that reading past the input is an error. */
	{
		unsigned char *exact = malloc(len ? len : 1);

		if (!exact) {
			free(buf);
			return -1;
		}
		memcpy(exact, buf, len);
		free(buf);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of a folder in name order, so that runs are reproducible. */
static int run_dir(const char *dir, unsigned *count)
{
	char **names = NULL, path[4096];
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);
	int ret = 0;

	if (!d) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **more;

			cap = cap ? 2 * cap : 64;
			more = realloc(names, cap * sizeof(*names));
			if (!more) {
				ret = -1;
				break;
			}
			names = more;
		}
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			ret = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (ret == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (run_file(path) < 0)
				ret = -1;
			(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	struct stat st;
	int i, ret = 0;

	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			if (run_dir(argv[i], &count) < 0)
				ret = 1;
		} else if (run_file(argv[i]) < 0) {
			ret = 1;
		} else {
			count++;
		}
	}
	printf("%s: %u inputs\n", argv[0], count);
	return ret;
}
