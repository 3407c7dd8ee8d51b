// SPDX-License-Identifier: MIT
/*
 * The SYCLBIN and OffloadBinary readers (props/syclbin.c,
 * props/offload-binary.c) on one buffer: the input read as a SYCLBIN, and
 * as a section of OffloadBinary blobs back to back. A failure leaves one
 * line naming the input; a SYCLBIN that reads is written again by
 * syclbin_write() (same modules, images and metadata) and must read back
 * the same.
 */
#include <errno.h>

#include "fuzz/fuzz.h"
#include "props/syclbin.h"
#include "util/errmsg.h"

#define FNAME "fuzz.syclbin"

static void check_failure(int r, const struct errmsg *err)
{
	FUZZ_ASSERT(r == -EINVAL || r == -ENOMEM || r == -EOPNOTSUPP ||
		    r == -EOVERFLOW, "error %d", r);
	fuzz_check_msg(err->msg, sizeof(err->msg), FNAME ":");
}

/* Write sb again (as a bare file) and read it back: the same model. */
static void rewrite(const struct syclbin *sb)
{
	struct syclbin_module_in *mods;
	struct syclbin_image_in *imgs;
	struct errmsg err = { 0 };
	struct syclbin *again;
	unsigned char *out;
	size_t i, j, k = 0, n = 0, size;
	int r;

	for (i = 0; i < sb->nmodules; i++)
		n += sb->modules[i].nir + sb->modules[i].nnative;
	mods = calloc(sb->nmodules + 1, sizeof(*mods));
	imgs = calloc(n + 1, sizeof(*imgs));
	FUZZ_ASSERT(mods && imgs, "out of memory");
	for (i = 0; i < sb->nmodules; i++) {
		const struct syclbin_module *m = &sb->modules[i];

		mods[i].meta = m->meta;
		mods[i].images = &imgs[k];
		for (j = 0; j < m->nir + m->nnative; j++, k++) {
			const struct syclbin_image *si = j < m->nir ?
				&m->ir[j] : &m->native[j - m->nir];

			imgs[k] = (struct syclbin_image_in){
				j >= m->nir, si->target, si->arch, si->data,
				si->size };
		}
		mods[i].nimages = m->nir + m->nnative;
	}
	r = syclbin_write(sb->state, mods, sb->nmodules, SYCLBIN_FORM_BARE,
			  &out, &size, &err);
	/* metadata read from text always writes back as text */
	FUZZ_ASSERT(r == 0, "rewrite failed: %s", err.msg);
	r = syclbin_parse(out, size, FNAME, &again, &err);
	FUZZ_ASSERT(r == 0, "rewritten file does not read: %s", err.msg);
	FUZZ_ASSERT(again->nmodules == sb->nmodules, "modules differ");
	FUZZ_ASSERT(again->state == sb->state, "state differs");
	for (i = 0; i < sb->nmodules; i++) {
		const struct syclbin_module *a = &sb->modules[i];
		const struct syclbin_module *b = &again->modules[i];

		FUZZ_ASSERT(props_equal(a->meta, b->meta), "metadata differs");
		FUZZ_ASSERT(a->nir == b->nir && a->nnative == b->nnative,
			    "images differ");
		for (j = 0; j < a->nir; j++)
			FUZZ_ASSERT(a->ir[j].size == b->ir[j].size &&
				    !memcmp(a->ir[j].data, b->ir[j].data,
					    a->ir[j].size), "IR bytes differ");
		for (j = 0; j < a->nnative; j++)
			FUZZ_ASSERT(a->native[j].size == b->native[j].size &&
				    !memcmp(a->native[j].data, b->native[j].data,
					    a->native[j].size),
				    "native bytes differ");
	}
	syclbin_free(again);
	free(out);
	free(imgs);
	free(mods);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errmsg err = { 0 };
	struct offload_binary *ob;
	struct syclbin *sb;
	size_t off = 0, prev;
	int r;

	r = syclbin_parse(data, size, FNAME, &sb, &err);
	if (r < 0) {
		FUZZ_ASSERT(!sb, "output on failure");
		check_failure(r, &err);
	} else {
		rewrite(sb);
		syclbin_free(sb);
	}
	while (off < size) {
		memset(&err, 0, sizeof(err));
		prev = off;
		r = offload_binary_parse_at(data, size, &off, FNAME, &ob, &err);
		if (r < 0) {
			FUZZ_ASSERT(!ob && off == prev, "output on failure");
			check_failure(r, &err);
			break;
		}
		FUZZ_ASSERT(off > prev && off <= size && (off % 8 == 0 || off == size),
			    "offset %zu after %zu", off, prev);
		FUZZ_ASSERT(ob->nentries > 0, "a blob without entries");
		offload_binary_free(ob);
	}
	return 0;
}
