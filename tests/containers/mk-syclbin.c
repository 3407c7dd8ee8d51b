// SPDX-License-Identifier: MIT
/*
 * mk-syclbin: a SYCLBIN laid out as DPC++'s runtime writes it
 * (syclbin-fixture.h), without the library.
 *
 *   mk-syclbin bare|envelope STATE OUT IR.spv KERNEL,KERNEL... \
 *              [NATIVE TRIPLE ARCH]
 *
 * and the shapes of the reader's bounds (syclbin-fixture.h fx_many() and
 * fx_v2()), SHAPE "honest" or a comma list of overlap, stair, share-am,
 * share-ir, share-bytes, shift-ir, tiny:
 *
 *   mk-syclbin many MODULES IRMODULES SHAPE OUT
 *   mk-syclbin v2 MODULES IRMODULES PROPERTIES SHAPE OUT
 */
#include "tests/containers/syclbin-fixture.h"
#include "tests/slurp.h"

static unsigned shape_of(char *list)
{
	static const char *const names[] = {
		"overlap", "stair", "share-am", "share-ir", "share-bytes",
		"shift-ir", "tiny", "fat",
	};
	unsigned shape = 0, i;
	char *tok;

	/* bit i of the shape is names[i]: FX_OVERLAP to FX_FAT */
	for (tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (!strcmp(tok, "honest"))
			continue;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(tok, names[i]))
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			fprintf(stderr, "mk-syclbin: unknown shape %s\n", tok);
			exit(2);
		}
		shape |= 1u << i;
	}
	return shape;
}

static int write_out(const char *path, unsigned char *b, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!b || !f || fwrite(b, 1, size, f) != size || fclose(f)) {
		perror(path);
		return 1;
	}
	free(b);
	return 0;
}

int main(int argc, char **argv)
{
	const char *kernels[64];
	size_t nk = 0, irn, natn = 0, size;
	void *ir, *nat = NULL;
	unsigned char *b;
	char *list, *tok;
	FILE *f;

	if (argc == 6 && !strcmp(argv[1], "many")) {
		b = fx_many((uint32_t)atol(argv[2]), (uint32_t)atol(argv[3]),
			    shape_of(argv[4]), &size);
		return write_out(argv[5], b, size);
	}
	if (argc == 7 && !strcmp(argv[1], "v2")) {
		b = fx_v2((uint32_t)atol(argv[2]), (uint32_t)atol(argv[3]),
			  (uint32_t)atol(argv[4]), shape_of(argv[5]), &size);
		return write_out(argv[6], b, size);
	}
	if (argc != 6 && argc != 9) {
		fputs("usage: mk-syclbin bare|envelope STATE OUT IR KERNELS [NATIVE TRIPLE ARCH]\n"
		      "       mk-syclbin many MODULES IRMODULES SHAPE OUT\n"
		      "       mk-syclbin v2 MODULES IRMODULES PROPERTIES SHAPE OUT\n",
		      stderr);
		return 2;
	}
	list = argv[5];
	for (tok = strtok(list, ","); tok && nk < 64; tok = strtok(NULL, ","))
		kernels[nk++] = tok;
	ir = slurp(argv[4], &irn);
	if (argc == 9)
		nat = slurp(argv[6], &natn);
	b = fx_syclbin(!strcmp(argv[1], "envelope"), (uint32_t)atoi(argv[2]),
		       kernels, nk, "", ir, irn, nat, natn,
		       argc == 9 ? argv[7] : "", argc == 9 ? argv[8] : "",
		       &size);
	f = fopen(argv[3], "wb");
	if (!b || !f || fwrite(b, 1, size, f) != size || fclose(f)) {
		perror(argv[3]);
		return 1;
	}
	free(b);
	free(ir);
	free(nat);
	return 0;
}
