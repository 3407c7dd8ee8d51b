// SPDX-License-Identifier: MIT
/*
 * The .props writer. It refuses (-EINVAL, nothing written) what the reader
 * could not read back as the same model: names with '\n', property names
 * that are empty, hold '=' or start with '[', strings with '\n' or NUL, and
 * byte arrays whose header does not match the payload. A string ending in
 * '\r' gets "\r\n" after it, as the reader takes one "\r\n" as the end.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "internal.h"

/* Base64 is written in pieces of this many input bytes (a multiple of 3). */
#define WRITE_CHUNK 3072u

static int valid_prop(const struct props_prop *pr)
{
	char detail[256];
	uint64_t bits;

	if (!pr->name[0] || pr->name[0] == '[' || strpbrk(pr->name, "=\n"))
		return 0;
	switch (pr->type) {
	case PROPS_UINT32:
		return 1;
	case PROPS_BYTE_ARRAY:
		return !props_bytes_check(pr->data, pr->size, &bits, detail,
					  sizeof(detail));
	case PROPS_STRING:
		if (!pr->size)
			return 1;
		return !memchr(pr->data, '\n', pr->size) &&
		       !memchr(pr->data, '\0', pr->size);
	default:
		return 0;
	}
}

static int valid_props(const struct props *p)
{
	const struct props_set *s;
	size_t i, j;

	for (i = 0; i < p->nsets; i++) {
		s = &p->sets[i];
		if (!s->name[0] || strchr(s->name, '\n'))
			return 0;
		for (j = 0; j < s->nprops; j++)
			if (!valid_prop(&s->props[j]))
				return 0;
	}
	return 1;
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
		if (pr->size && fwrite(pr->data, 1, pr->size, f) != pr->size)
			return -EIO;
		if (pr->size && pr->data[pr->size - 1] == '\r' &&
		    fputc('\r', f) == EOF)
			return -EIO;
		break;
	}
	return fputc('\n', f) == EOF ? -EIO : 0;
}

int props_write(const struct props *p, FILE *f)
{
	const struct props_set *s;
	size_t i, j;
	int r;

	if (!valid_props(p))
		return -EINVAL;
	for (i = 0; i < p->nsets; i++) {
		s = &p->sets[i];
		if (fprintf(f, "[%s]\n", s->name) < 0)
			return -EIO;
		for (j = 0; j < s->nprops; j++) {
			r = write_prop(&s->props[j], f);
			if (r < 0)
				return r;
		}
	}
	return ferror(f) ? -EIO : 0;
}
