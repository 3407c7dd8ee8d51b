// SPDX-License-Identifier: MIT
/*
 * mk-syclbin: a SYCLBIN laid out as DPC++'s runtime writes it
 * (syclbin-fixture.h), without the library.
 *
 *   mk-syclbin bare|envelope STATE OUT IR.spv KERNEL,KERNEL... \
 *              [NATIVE TRIPLE ARCH]
 */
#include "syclbin-fixture.h"
#include "../slurp.h"

int main(int argc, char **argv)
{
	const char *kernels[64];
	size_t nk = 0, irn, natn = 0, size;
	void *ir, *nat = NULL;
	unsigned char *b;
	char *list, *tok;
	FILE *f;

	if (argc != 6 && argc != 9) {
		fputs("usage: mk-syclbin bare|envelope STATE OUT IR KERNELS [NATIVE TRIPLE ARCH]\n",
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
