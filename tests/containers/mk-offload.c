// SPDX-License-Identifier: MIT
/*
 * mk-offload: write an OffloadBinary for the tests with the library's
 * writer.
 *
 *   mk-offload VERSION OUT [IMAGE-KIND OFFLOAD-KIND TRIPLE ARCH FILE]...
 *
 * IMAGE-KIND and OFFLOAD-KIND are numbers or LLVM's names ("spv",
 * "cubin", ...; "openmp", "sycl", ...); TRIPLE and ARCH become the
 * "triple" and "arch" strings ("-": left out). VERSION 3z or 3Z: then
 * compressed as LLVM's OffloadBinary::write(..., Compress) does, with
 * zstd or zlib (the system's libzstd.so.1 or libz.so.1; exit 77 when it
 * cannot be loaded): the header with InflatedSize set, the rest
 * compressed, Size the header and the compressed bytes, padded to 8.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "props/offload-binary.h"
#include "tests/slurp.h"
#include "util/errmsg.h"

static unsigned kind(const char *s, unsigned (*from_name)(const char *))
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	return *end ? from_name(s) : (unsigned)v;
}

typedef size_t (*zstd_bound_fn)(size_t);
typedef size_t (*zstd_compress_fn)(void *, size_t, const void *, size_t, int);
typedef unsigned long (*z_bound_fn)(unsigned long);
typedef int (*z_compress2_fn)(unsigned char *, unsigned long *,
			      const unsigned char *, unsigned long, int);

static void put64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* The body after the 40-byte header compressed; exits 77 without a library. */
static unsigned char *compress(unsigned char *b, size_t n, char how,
			       size_t *size)
{
	void *h = dlopen(how == 'z' ? "libzstd.so.1" : "libz.so.1", RTLD_NOW);
	unsigned char *out;
	size_t cap, clen;

	if (!h) {
		printf("SKIP [tools]: cannot load the %s library\n",
		       how == 'z' ? "zstd" : "zlib");
		exit(77);
	}
	if (how == 'z') {
		zstd_bound_fn bound;
		zstd_compress_fn comp;

		*(void **)&bound = dlsym(h, "ZSTD_compressBound");
		*(void **)&comp = dlsym(h, "ZSTD_compress");
		cap = bound(n - 40);
		out = calloc(1, 40 + cap + 8);
		clen = comp(out + 40, cap, b + 40, n - 40, 3);
	} else {
		z_bound_fn bound;
		z_compress2_fn comp;
		unsigned long len;

		*(void **)&bound = dlsym(h, "compressBound");
		*(void **)&comp = dlsym(h, "compress2");
		len = bound(n - 40);
		out = calloc(1, 40 + len + 8);
		if (comp(out + 40, &len, b + 40, n - 40, 6))
			exit(1);
		clen = len;
	}
	memcpy(out, b, 40);
	put64(out + 8, 40 + clen);
	put64(out + 32, n);
	*size = (40 + clen + 7) / 8 * 8;
	dlclose(h);
	free(b);
	return out;
}

int main(int argc, char **argv)
{
	struct offload_image_in in[8];
	struct offload_string strs[8][2];
	struct errmsg err = { 0 };
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
	if (argv[1][1] == 'z' || argv[1][1] == 'Z')
		out = compress(out, size, argv[1][1], &size);
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
