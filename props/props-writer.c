// SPDX-License-Identifier: MIT
/*
 * The .props writer, in the form DPC++'s PropertySetRegistry::write uses.
 * It refuses (-EINVAL, nothing written) what the reader could not read
 * back as the same model: no set at all, names with '\n', property names
 * that are empty, hold '=' or start with '[', a name twice where the
 * reader would merge, types the reader refuses (strings among them), and
 * byte arrays whose header does not match the payload.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "props/internal.h"

/* Base64 is written in pieces of this many input bytes (a multiple of 3). */
#define WRITE_CHUNK 3072u

static int valid_prop(const struct props_prop *pr)
{
	uint64_t bits;

	if (!pr->name[0] || pr->name[0] == '[' || strpbrk(pr->name, "=\n"))
		return 0;
	switch (pr->type) {
	case PROPS_UINT32:
		return 1;
	case PROPS_BYTE_ARRAY:
		return !props_bytes_check(pr->data, pr->size, &bits, NULL);
	default:
		return 0;
	}
}

/* 1 when new, 0 when the name was seen, -ENOMEM. */
static int index_new(struct props_index *ix, const struct props *p,
		     size_t set, const char *name, size_t idx)
{
	size_t seen;

	if (props_index_get(ix, p, set, name, &seen))
		return 0;
	return props_index_put(ix, p, set, idx) < 0 ? -ENOMEM : 1;
}

/* 1 valid, 0 not, -ENOMEM. */
static int valid_props(const struct props *p)
{
	struct props_index ix = { 0 };
	const struct props_set *s;
	size_t i, j;
	int r = p->nsets != 0;

	for (i = 0; r > 0 && i < p->nsets; i++) {
		s = &p->sets[i];
		if (!s->name[0] || strchr(s->name, '\n'))
			r = 0;
		else
			r = index_new(&ix, p, PROPS_INDEX_SETS, s->name, i);
		for (j = 0; r > 0 && j < s->nprops; j++)
			r = valid_prop(&s->props[j]) ?
				    index_new(&ix, p, i, s->props[j].name, j) :
				    0;
	}
	props_index_fini(&ix);
	return r;
}

static int write_b64(const unsigned char *data, size_t size, FILE *f)
{
	char out[WRITE_CHUNK / 3 * 4];
	size_t n, len;

	while (size) {
		n = size < WRITE_CHUNK ? size : WRITE_CHUNK;
		len = props_b64_encoded_len(n);
		props_b64_encode(data, n, out);
		if (fwrite(out, 1, len, f) != len)
			return -EIO;
		data += n;
		size -= n;
	}
	return 0;
}

static int write_prop(const struct props_prop *pr, FILE *f)
{
	if (fprintf(f, "%s=%d|", pr->name, (int)pr->type) < 0)
		return -EIO;
	switch (pr->type) {
	case PROPS_UINT32:
		if (fprintf(f, "%" PRIu32, pr->u32) < 0)
			return -EIO;
		break;
	case PROPS_BYTE_ARRAY:
		if (write_b64(pr->data, pr->size, f) < 0)
			return -EIO;
		break;
	default:
		return -EINVAL;
	}
	return fputc('\n', f) == EOF ? -EIO : 0;
}

static int write_props_of(const struct props_set *s, FILE *f)
{
	size_t j;
	int r;

	for (j = 0; j < s->nprops; j++) {
		r = write_prop(&s->props[j], f);
		if (r < 0)
			return r;
	}
	return 0;
}

int props_write(const struct props *p, FILE *f)
{
	const struct props_set *s;
	size_t i;
	int r;

	r = valid_props(p);
	if (r <= 0)
		return r < 0 ? r : -EINVAL;
	for (i = 0; i < p->nsets; i++) {
		s = &p->sets[i];
		if (fprintf(f, "[%s]\n", s->name) < 0)
			return -EIO;
		r = write_props_of(s, f);
		if (r < 0)
			return r;
	}
	return ferror(f) ? -EIO : 0;
}

/* The set is checked as the one set of a model would be. */
int props_write_set_text(const struct props_set *s, FILE *f)
{
	const struct props one = {
		.sets = (struct props_set *)s, .nsets = 1, .cap = 1,
	};
	int r;

	r = valid_props(&one);
	if (r <= 0)
		return r < 0 ? r : -EINVAL;
	r = write_props_of(s, f);
	if (r < 0)
		return r;
	return ferror(f) ? -EIO : 0;
}
