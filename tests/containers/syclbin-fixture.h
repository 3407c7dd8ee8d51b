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

/* ---- shapes for the reader's bounds: many modules, shared ranges ---- */

/* A growing byte buffer; fx_put() returns where the bytes went. */
struct fx_buf {
	unsigned char *p;
	size_t n, cap;
	int failed;
};

static inline size_t fx_put(struct fx_buf *b, const void *d, size_t n)
{
	size_t at = b->n;

	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		unsigned char *p;

		while (cap < b->n + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->failed = 1;
			return at;
		}
		b->p = p;
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->n, d, n);
	b->n += n;
	return at;
}

static inline size_t fx_puts(struct fx_buf *b, const char *s)
{
	return fx_put(b, s, strlen(s));
}

static inline void fx_pad8(struct fx_buf *b)
{
	static const unsigned char z[8];

	fx_put(b, z, (8 - b->n % 8) % 8);
}

/* Shapes of fx_many() and fx_v2(). */
#define FX_OVERLAP 1u		/* every module names every IR module header */
#define FX_STAIR 2u		/* module i names IR module headers i and i+1 */
#define FX_SHARE_AM 4u		/* one metadata blob for every module */
#define FX_SHARE_IR 8u		/* one metadata blob for every IR module */
#define FX_SHARE_BYTES 16u	/* one byte range for every IR module */
#define FX_SHIFT_IR 32u		/* IR module j's metadata starts j bytes in */
#define FX_TINY 64u		/* each module's and IR module's metadata "[A]" */
#define FX_FAT 128u		/* FX_SHARE_IR's metadata: 100,000 more lines */

/* IR module metadata as DPC++ writes it, then extra "pN=1|1" lines. */
static inline void fx_ir_meta(struct fx_buf *b, uint32_t extra)
{
	char line[1024];
	uint32_t i;

	fx_puts(b, "[SYCLBIN/ir module metadata]\ntype=1|0\n");
	fx_bytes(line, "target", "spir64-unknown-unknown");
	fx_puts(b, line);
	for (i = 0; i < extra; i++) {
		sprintf(line, "p%u=1|1\n", (unsigned)i);
		fx_puts(b, line);
	}
}

/*
 * A bare SYCLBIN of nam abstract modules and nir IR modules (no native
 * image), in state 2. Without a shape, as DPC++'s runtime writes one:
 * module i holds IR modules [i * nir / nam, (i + 1) * nir / nam), each
 * module and each IR module its own metadata (module i's kernel "k<i>")
 * and each IR module its own 8 bytes. FX_OVERLAP and FX_STAIR make the
 * modules' IR module ranges overlap; FX_SHARE_* point every header of a
 * kind at one range; FX_SHIFT_IR makes IR module j's metadata range start
 * j bytes into one blob (ranges that overlap without being equal);
 * FX_TINY gives each module and IR module metadata of its own of the
 * fewest bytes that parse, "[A]" (the most metadata a byte of file holds);
 * FX_FAT (with FX_SHARE_IR) makes the one IR module metadata 1.1 MB.
 */
static inline unsigned char *fx_many(uint32_t nam, uint32_t nir,
				     unsigned shape, size_t *size)
{
	struct fx_buf h = { 0 }, m = { 0 }, bin = { 0 }, out = { 0 };
	unsigned char hdr[56] = { 0 }, rec[32];
	size_t gsz, amo = 0, amsz = 0, iro = 0, irsz = 0, bo = 0, off, len;
	uint32_t i, j, first, count;
	char k[64];

	fx_puts(&m, "[SYCLBIN/global metadata]\nstate=1|2\n");
	gsz = m.n;
	if (shape & FX_SHARE_AM) {
		amo = fx_puts(&m, "[SYCL/kernel names]\nk=1|1\n");
		amsz = m.n - amo;
	}
	if (shape & (FX_SHARE_IR | FX_SHIFT_IR)) {
		iro = m.n;
		if (shape & FX_SHIFT_IR)
			for (j = 0; j < nir; j++)
				fx_puts(&m, "\n");
		fx_ir_meta(&m, shape & FX_FAT ? 100000 : 0);
		irsz = m.n - iro;
	}
	if (shape & FX_SHARE_BYTES)
		bo = fx_put(&bin, "\x03\x02\x23\x07shared", 10);
	for (i = 0; i < nam; i++) {
		if (shape & FX_OVERLAP) {
			first = 0;
			count = nir;
		} else if (shape & FX_STAIR) {
			first = i;
			count = i + 1 < nir ? 2 : 1;
		} else {
			first = (uint32_t)((uint64_t)i * nir / nam);
			count = (uint32_t)((uint64_t)(i + 1) * nir / nam) - first;
		}
		if (shape & FX_SHARE_AM) {
			off = amo;
			len = amsz;
		} else if (shape & FX_TINY) {
			off = fx_puts(&m, "[A]");
			len = 3;
		} else {
			sprintf(k, "[SYCL/kernel names]\nk%u=1|1\n", (unsigned)i);
			off = fx_puts(&m, k);
			len = m.n - off;
		}
		fx_le(rec, off, 8);
		fx_le(rec + 8, len, 8);
		fx_le(rec + 16, count, 4);
		fx_le(rec + 20, first, 4);
		fx_le(rec + 24, 0, 4);
		fx_le(rec + 28, 0, 4);
		fx_put(&h, rec, 32);
	}
	for (j = 0; j < nir; j++) {
		if (shape & FX_SHIFT_IR) {
			off = iro + j;
			len = irsz - j;
		} else if (shape & FX_SHARE_IR) {
			off = iro;
			len = irsz;
		} else if (shape & FX_TINY) {
			off = fx_puts(&m, "[A]");
			len = 3;
		} else {
			off = m.n;
			fx_ir_meta(&m, 0);
			len = m.n - off;
		}
		fx_le(rec, off, 8);
		fx_le(rec + 8, len, 8);
		if (!(shape & FX_SHARE_BYTES)) {
			unsigned char spv[8] = { 0x03, 0x02, 0x23, 0x07 };

			fx_le(spv + 4, j, 4);
			bo = fx_put(&bin, spv, 8);
		}
		fx_le(rec + 16, bo, 8);
		fx_le(rec + 24, shape & FX_SHARE_BYTES ? 10 : 8, 8);
		fx_put(&h, rec, 32);
	}
	fx_le(hdr, 0x53594249, 4);
	fx_le(hdr + 4, 1, 4);
	fx_le(hdr + 8, nam, 4);
	fx_le(hdr + 12, nir, 4);
	fx_le(hdr + 24, m.n, 8);
	fx_le(hdr + 32, bin.n, 8);
	fx_le(hdr + 48, gsz, 8);
	fx_put(&out, hdr, 56);
	fx_put(&out, h.p, h.n);
	fx_put(&out, m.p, m.n);
	fx_pad8(&out);
	fx_put(&out, bin.p, bin.n);
	fx_pad8(&out);
	free(h.p);
	free(m.p);
	free(bin.p);
	if (h.failed || m.failed || bin.failed || out.failed) {
		free(out.p);
		return NULL;
	}
	*size = out.n;
	return out.p;
}

/*
 * A version 2 SYCLBIN (an OffloadBinary version 2 of image kind 7
 * entries, roles in strings) in state 2: the global metadata, nam
 * am_metadata entries (module i's kernel "k<i>"), then nir "ir" entries,
 * entry j in module j % nam, whose metadata holds nprops lines besides
 * type and target. FX_SHARE_IR: every ir entry's image is one range;
 * FX_SHARE_AM: every am_metadata entry's image is one range, naming
 * nprops kernels "k<j>".
 */
static inline unsigned char *fx_v2(uint32_t nam, uint32_t nir,
				   uint32_t nprops, unsigned shape,
				   size_t *size)
{
	struct fx_buf str = { 0 }, img = { 0 }, meta = { 0 }, out = { 0 };
	size_t ne = 1 + (size_t)nam + nir, ns = 2 * ne - 1, i, j;
	size_t role, amidx, vglobal, vam, vir, *vidx, *ioff, *isz;
	size_t eoff = 32, soff = eoff + 40 * ne, toff = soff + 24 * ns, ibase;
	unsigned char rec[40], se[24], z = 0;
	char num[32];
	int ok;

	vidx = calloc(nam + 1, sizeof(*vidx));
	ioff = calloc(ne, sizeof(*ioff));
	isz = calloc(ne, sizeof(*isz));
	ok = vidx && ioff && isz;
	if (!ok)
		goto fail;
	fx_put(&str, &z, 1);
	role = fx_put(&str, "role", 5);
	amidx = fx_put(&str, "am_index", 9);
	vglobal = fx_put(&str, "global_metadata", 15);
	vam = fx_put(&str, "am_metadata", 11);
	vir = fx_put(&str, "ir", 2);
	for (i = 0; i < nam; i++) {
		sprintf(num, "%zu", i);
		vidx[i] = fx_put(&str, num, strlen(num) + 1);
	}
	/* images, offsets from the start of the image block */
	ioff[0] = fx_puts(&img, "[SYCLBIN/global metadata]\nstate=1|2\n");
	isz[0] = img.n - ioff[0];
	for (i = 0; i < nam; i++) {
		if (shape & FX_SHARE_AM && i) {
			ioff[1 + i] = ioff[1];
			isz[1 + i] = isz[1];
			continue;
		}
		ioff[1 + i] = fx_puts(&img, "[SYCL/kernel names]\n");
		if (shape & FX_SHARE_AM) {
			for (j = 0; j < nprops; j++) {
				snprintf(num, sizeof(num), "k%zu=1|1\n", j);
				fx_puts(&img, num);
			}
		} else {
			snprintf(num, sizeof(num), "k%zu=1|1\n", i);
			fx_puts(&img, num);
		}
		isz[1 + i] = img.n - ioff[1 + i];
	}
	for (i = 0; i < nir; i++) {
		size_t e = 1 + nam + i;
		unsigned char n8[8];

		if (shape & FX_SHARE_IR && i) {
			ioff[e] = ioff[1 + nam];
			isz[e] = isz[1 + nam];
			continue;
		}
		meta.n = 0;
		fx_ir_meta(&meta, nprops);
		fx_pad8(&img);
		fx_le(n8, meta.n, 8);
		ioff[e] = fx_put(&img, n8, 8);
		fx_put(&img, meta.p, meta.n);
		fx_put(&img, "\x03\x02\x23\x07spirv", 9);
		isz[e] = img.n - ioff[e];
	}
	ibase = (toff + str.n + 7) / 8 * 8;
	{
		unsigned char hdr[32] = { 0x10, 0xff, 0x10, 0xad };

		fx_le(hdr + 4, 2, 4);
		fx_le(hdr + 8, ibase + img.n, 8);
		fx_le(hdr + 16, eoff, 8);
		fx_le(hdr + 24, ne, 8);
		fx_put(&out, hdr, 32);
	}
	for (i = 0; i < ne; i++) {
		fx_le(rec, 7, 2);
		fx_le(rec + 2, 8, 2);
		fx_le(rec + 4, 0, 4);
		/* entry 0 has one string, the others two */
		fx_le(rec + 8, soff + 24 * (i ? 2 * i - 1 : 0), 8);
		fx_le(rec + 16, i ? 2 : 1, 8);
		fx_le(rec + 24, ibase + ioff[i], 8);
		fx_le(rec + 32, isz[i], 8);
		fx_put(&out, rec, 40);
	}
	for (i = 0; i < ne; i++) {
		size_t v = !i ? vglobal : i <= nam ? vam : vir;
		size_t vl = !i ? 15 : i <= nam ? 11 : 2;

		fx_le(se, toff + role, 8);
		fx_le(se + 8, toff + v, 8);
		fx_le(se + 16, vl, 8);
		fx_put(&out, se, 24);
		if (!i)
			continue;
		v = vidx[i <= nam ? i - 1 : (i - 1 - nam) % nam];
		fx_le(se, toff + amidx, 8);
		fx_le(se + 8, toff + v, 8);
		fx_le(se + 16, strlen((const char *)str.p + v), 8);
		fx_put(&out, se, 24);
	}
	fx_put(&out, str.p, str.n);
	fx_pad8(&out);
	fx_put(&out, img.p, img.n);
	fx_pad8(&out);
	/* the Size field covers the padding too */
	if (!out.failed)
		fx_le(out.p + 8, out.n, 8);
fail:
	ok = ok && !str.failed && !img.failed && !meta.failed && !out.failed;
	free(vidx);
	free(ioff);
	free(isz);
	free(str.p);
	free(img.p);
	free(meta.p);
	if (!ok) {
		free(out.p);
		return NULL;
	}
	*size = out.n;
	return out.p;
}

#endif
