// SPDX-License-Identifier: MIT
/*
 * mk-sycl-blob: an OffloadBinary whose entries carry a "symbols" string,
 * written with the library's writer, for the devimg-dump tests.
 *
 *   mk-sycl-blob VERSION OUT [IMAGE-KIND OFFLOAD-KIND TRIPLE SYMBOLS FILE]...
 *
 * IMAGE-KIND and OFFLOAD-KIND are numbers or LLVM's names ("spv", "bc";
 * "sycl", "openmp"); OFFLOAD-KIND with "+meta" appended sets the metadata
 * flag. TRIPLE "-" leaves the "triple" string out. SYMBOLS is "-" (no
 * "symbols" string) or FORM:NAME,NAME... in one of the forms LLVM's tools
 * write (docs/formats.md, section 1): "table" (u32 count, {u32 offset,
 * u32 length} per name, the NUL-ended names), "lines" (joined by '\n'),
 * "nul" (joined by NUL, NUL-ended); or "badtable", a table whose count (3)
 * needs a header longer than the string.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "props/offload-binary.h"
#include "tests/slurp.h"
#include "util/errmsg.h"

#define MAX_ENTRIES 8

static unsigned kind(const char *s, unsigned (*from_name)(const char *))
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	return *end ? from_name(s) : (unsigned)v;
}

static void put32(char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (char)(v >> (8 * i));
}

/* The "symbols" value for spec, malloc'ed, its length in *len. */
static char *symbols(const char *spec, size_t *len)
{
	const char *colon = strchr(spec, ':'), *names, *p;
	size_t n = 1, form_len, i, hdr, off;
	char *out, *q;

	if (!strcmp(spec, "badtable")) {
		*len = 12;
		out = calloc(1, *len);
		put32(out, 3);
		return out;
	}
	if (!colon) {
		fprintf(stderr, "mk-sycl-blob: SYMBOLS '%s': FORM:NAMES expected\n",
			spec);
		exit(2);
	}
	form_len = (size_t)(colon - spec);
	names = colon + 1;
	for (p = names; *p; p++)
		n += *p == ',';
	/* The longest form: the table's header, the names, n NULs. */
	hdr = 4 + 8 * n;
	out = calloc(1, hdr + strlen(names) + n + 1);
	if (!out)
		exit(1);
	if (!strncmp(spec, "table", form_len)) {
		put32(out, (uint32_t)n);
		off = hdr;
		for (i = 0, p = names; i < n; i++) {
			size_t l = strcspn(p, ",");

			put32(out + 4 + 8 * i, (uint32_t)off);
			put32(out + 8 + 8 * i, (uint32_t)l);
			memcpy(out + off, p, l);
			off += l + 1;
			p += l + (p[l] == ',');
		}
		*len = off;
		return out;
	}
	strcpy(out, names);
	*len = strlen(names);
	for (q = out; q < out + *len; q++)
		if (*q == ',')
			*q = !strncmp(spec, "lines", form_len) ? '\n' : '\0';
	if (strncmp(spec, "lines", form_len))
		(*len)++;	/* nul: NUL-ended */
	return out;
}

int main(int argc, char **argv)
{
	struct offload_image_in in[MAX_ENTRIES];
	struct offload_string strs[MAX_ENTRIES][2];
	struct errmsg err = { 0 };
	unsigned char *out;
	size_t n = 0, size, k;
	char *plus;
	FILE *f;
	int i;

	if (argc < 3 || (argc - 3) % 5 || (argc - 3) / 5 > MAX_ENTRIES) {
		fputs("usage: mk-sycl-blob VERSION OUT [IMAGE-KIND OFFLOAD-KIND TRIPLE SYMBOLS FILE]...\n",
		      stderr);
		return 2;
	}
	for (i = 3; i < argc; i += 5, n++) {
		memset(&in[n], 0, sizeof(in[n]));
		in[n].image_kind = (uint16_t)kind(argv[i],
						   offload_image_kind_from_name);
		plus = strstr(argv[i + 1], "+meta");
		if (plus) {
			*plus = '\0';
			in[n].flags = OFFLOAD_FLAG_METADATA;
		}
		in[n].offload_kind = (uint16_t)kind(argv[i + 1],
						     offload_kind_from_name);
		in[n].image = slurp(argv[i + 4], &in[n].image_size);
		in[n].strings = strs[n];
		k = 0;
		if (strcmp(argv[i + 2], "-"))
			strs[n][k++] = (struct offload_string){
				"triple", argv[i + 2], strlen(argv[i + 2]) };
		if (strcmp(argv[i + 3], "-")) {
			strs[n][k].key = "symbols";
			strs[n][k].value = symbols(argv[i + 3],
						   &strs[n][k].value_len);
			k++;
		}
		in[n].nstrings = k;
	}
	if (offload_binary_write(in, n, (unsigned)atoi(argv[1]), &out, &size,
				 &err)) {
		fprintf(stderr, "mk-sycl-blob: %s\n", err.msg);
		return 1;
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(out, 1, size, f) != size || fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	for (k = 0; k < n; k++) {
		free((void *)in[k].image);
		if (in[k].nstrings && !strcmp(strs[k][in[k].nstrings - 1].key,
					      "symbols"))
			free((void *)strs[k][in[k].nstrings - 1].value);
	}
	free(out);
	return 0;
}
