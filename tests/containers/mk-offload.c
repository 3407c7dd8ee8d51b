// SPDX-License-Identifier: MIT
/*
 * mk-offload: write an OffloadBinary for the tests with the library's
 * writer.
 *
 *   mk-offload VERSION OUT [IMAGE-KIND OFFLOAD-KIND TRIPLE ARCH FILE]...
 *
 * IMAGE-KIND and OFFLOAD-KIND are numbers or LLVM's names ("spv",
 * "cubin", ...; "openmp", "sycl", ...); TRIPLE and ARCH become the
 * "triple" and "arch" strings ("-": left out).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "offload-binary.h"

static unsigned kind(const char *s, unsigned (*from_name)(const char *))
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	return *end ? from_name(s) : (unsigned)v;
}

static void *slurp(const char *path, size_t *n)
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

int main(int argc, char **argv)
{
	struct offload_image_in in[8];
	struct offload_string strs[8][2];
	struct props_error err = { "" };
	unsigned char *out;
	size_t n = 0, size, k;
	FILE *f;
	int i;

	if (argc < 3 || (argc - 3) % 5 || (argc - 3) / 5 > 8) {
		fputs("usage: mk-offload VERSION OUT [IMAGE-KIND OFFLOAD-KIND TRIPLE ARCH FILE]...\n",
		      stderr);
		return 2;
	}
	for (i = 3; i < argc; i += 5, n++) {
		memset(&in[n], 0, sizeof(in[n]));
		in[n].image_kind = (uint16_t)kind(argv[i],
						   offload_image_kind_from_name);
		in[n].offload_kind = (uint16_t)kind(argv[i + 1],
						     offload_kind_from_name);
		in[n].image = slurp(argv[i + 4], &in[n].image_size);
		in[n].strings = strs[n];
		k = 0;
		if (strcmp(argv[i + 2], "-"))
			strs[n][k++] = (struct offload_string){
				"triple", argv[i + 2], strlen(argv[i + 2]) };
		if (strcmp(argv[i + 3], "-"))
			strs[n][k++] = (struct offload_string){
				"arch", argv[i + 3], strlen(argv[i + 3]) };
		in[n].nstrings = k;
	}
	if (offload_binary_write(in, n, (unsigned)atoi(argv[1]), &out, &size,
				 &err)) {
		fprintf(stderr, "mk-offload: %s\n", err.msg);
		return 1;
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(out, 1, size, f) != size || fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	for (k = 0; k < n; k++)
		free((void *)in[k].image);
	free(out);
	return 0;
}
