/* SPDX-License-Identifier: MIT */
/*
 * A SYCLBIN writer for the tests, independent of props/syclbin.c: it lays
 * the bytes out as DPC++'s runtime writer does (sycl/source/detail/
 * syclbin.cpp, SYCLBIN::write): the 56-byte file header, one abstract-module
 * header, the IR-module headers then the native-image headers (32 bytes
 * each), the metadata byte table (global, module, IR, native), zeros to a
 * multiple of 8, the binary byte table (IR bytes, native bytes), zeros to a
 * multiple of 8; in its envelope, an OffloadBinary version 2 header, one
 * 40-byte entry (image kind 7, offload kind 8, no strings) and the file
 * right after it at offset 72. Metadata is .props text with byte arrays in
 * the least-significant-first base64 of docs/formats.md, encoded here.
 */
#ifndef DEVIMG_TESTS_SYCLBIN_FIXTURE_H
#define DEVIMG_TESTS_SYCLBIN_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fx_le(unsigned char *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* "NAME=2|" and the byte array (bit-count header + s) in LSB-first base64. */
static void fx_bytes(char *out, const char *name, const char *s)
{
	static const char a[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t n = strlen(s), len = n + 8, i;
	unsigned char raw[512];
	char *o;

	fx_le(raw, (uint64_t)n * 8, 8);
	memcpy(raw + 8, s, n);
	o = out + sprintf(out, "%s=2|", name);
	/* six bits a character, least significant first */
	for (i = 0; i < len * 8; i += 6) {
		unsigned v = 0, k;

		for (k = 0; k < 6 && i + k < len * 8; k++)
			v |= (unsigned)(raw[(i + k) / 8] >> ((i + k) % 8) & 1) << k;
		*o++ = a[v];
	}
	*o++ = '\n';
	*o = '\0';
}

struct fx_image {
	const void *data;
	size_t size;
	char meta[1024];
};

/*
 * Returns a malloc'ed file of *size bytes: state, one abstract module whose
 * metadata is "[SYCL/kernel names]" with each kernel "=1|1" then extra
 * (more .props text, may be ""), one IR module (ir, SPIR-V, target
 * spir64-unknown-unknown) and, when nat is not NULL, one native image.
 */
static unsigned char *fx_syclbin(int envelope, uint32_t state,
				 const char *const *kernels, size_t nk,
				 const char *extra, const void *ir, size_t irn,
				 const void *nat, size_t natn,
				 const char *triple, const char *arch,
				 size_t *size)
{
	char global[128], am[4096], *p = am;
	struct fx_image img[2];
	size_t nimg = nat ? 2 : 1, msz, bsz, hb, total, mo, bo, i, off;
	unsigned char *b, *f;

	sprintf(global, "[SYCLBIN/global metadata]\nstate=1|%u\n",
		(unsigned)state);
	p += sprintf(p, "[SYCL/kernel names]\n");
	for (i = 0; i < nk; i++)
		p += sprintf(p, "%s=1|1\n", kernels[i]);
	strcpy(p, extra);
	img[0].data = ir;
	img[0].size = irn;
	strcpy(img[0].meta, "[SYCLBIN/ir module metadata]\ntype=1|0\n");
	fx_bytes(img[0].meta + strlen(img[0].meta), "target",
		 "spir64-unknown-unknown");
	if (nat) {
		img[1].data = nat;
		img[1].size = natn;
		strcpy(img[1].meta,
		       "[SYCLBIN/native device code image metadata]\n");
		fx_bytes(img[1].meta + strlen(img[1].meta), "arch", arch);
		fx_bytes(img[1].meta + strlen(img[1].meta), "target", triple);
	}
	msz = strlen(global) + strlen(am);
	bsz = 0;
	for (i = 0; i < nimg; i++) {
		msz += strlen(img[i].meta);
		bsz += img[i].size;
	}
	hb = 56 + 32 * (1 + nimg);
	total = hb + (msz + 7) / 8 * 8 + (bsz + 7) / 8 * 8;
	off = envelope ? 72 : 0;
	b = calloc(1, off + total);
	if (!b)
		return NULL;
	f = b + off;
	fx_le(f, 0x53594249, 4);
	fx_le(f + 4, 1, 4);
	fx_le(f + 8, 1, 4);
	fx_le(f + 12, 1, 4);
	fx_le(f + 16, nimg - 1, 4);
	fx_le(f + 24, msz, 8);
	fx_le(f + 32, bsz, 8);
	fx_le(f + 40, 0, 8);
	fx_le(f + 48, strlen(global), 8);
	/* abstract module 0: IR 0 of 1, native 0 of nimg - 1 */
	fx_le(f + 56, strlen(global), 8);
	fx_le(f + 64, strlen(am), 8);
	fx_le(f + 72, 1, 4);
	fx_le(f + 76, 0, 4);
	fx_le(f + 80, nimg - 1, 4);
	fx_le(f + 84, 0, 4);
	memcpy(f + hb, global, strlen(global));
	memcpy(f + hb + strlen(global), am, strlen(am));
	mo = strlen(global) + strlen(am);
	bo = 0;
	for (i = 0; i < nimg; i++) {
		unsigned char *h = f + 88 + 32 * i;

		fx_le(h, mo, 8);
		fx_le(h + 8, strlen(img[i].meta), 8);
		fx_le(h + 16, bo, 8);
		fx_le(h + 24, img[i].size, 8);
		memcpy(f + hb + mo, img[i].meta, strlen(img[i].meta));
		memcpy(f + hb + (msz + 7) / 8 * 8 + bo, img[i].data,
		       img[i].size);
		mo += strlen(img[i].meta);
		bo += img[i].size;
	}
	if (envelope) {
		memcpy(b, "\x10\xff\x10\xad", 4);
		fx_le(b + 4, 2, 4);
		fx_le(b + 8, 72 + total, 8);
		fx_le(b + 16, 32, 8);
		fx_le(b + 24, 1, 8);
		fx_le(b + 32, 7, 2);
		fx_le(b + 34, 8, 2);
		fx_le(b + 56, 72, 8);
		fx_le(b + 64, total, 8);
	}
	*size = off + total;
	return b;
}

#endif
