// SPDX-License-Identifier: MIT
/* The in-memory model: property sets in file order and their properties. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "props/internal.h"
#include "util/le.h"

char *props_strndup(const char *s, size_t n)
{
	char *d;

	if (n == SIZE_MAX)
		return NULL;
	d = malloc(n + 1);
	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* Make room for one more element of elsz bytes in *arr holding n of *cap. */
static int grow(void **arr, size_t *cap, size_t n, size_t elsz)
{
	size_t ncap;
	void *narr;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap : 4;
	if (n >= ncap) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / elsz)
		return -ENOMEM;
	narr = realloc(*arr, ncap * elsz);
	if (!narr)
		return -ENOMEM;
	*arr = narr;
	*cap = ncap;
	return 0;
}

struct props *props_new(void)
{
	return calloc(1, sizeof(struct props));
}

static void prop_fini(struct props_prop *pr)
{
	free(pr->name);
	free(pr->data);
}

void props_prop_replace(struct props_prop *pr, enum props_type type,
			uint32_t u32, unsigned char *data, size_t size)
{
	free(pr->data);
	pr->type = type;
	pr->u32 = u32;
	pr->data = data;
	pr->size = size;
}

static void set_fini(struct props_set *s)
{
	size_t i;

	for (i = 0; i < s->nprops; i++)
		prop_fini(&s->props[i]);
	free(s->props);
	free(s->name);
}

void props_free(struct props *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nsets; i++)
		set_fini(&p->sets[i]);
	free(p->sets);
	free(p);
}

struct props_set *props_add_set(struct props *p, const char *name)
{
	struct props_set *s;
	void *arr = p->sets;
	char *copy;

	copy = strdup(name);
	if (!copy)
		return NULL;
	if (grow(&arr, &p->cap, p->nsets, sizeof(*p->sets)) < 0) {
		free(copy);
		return NULL;
	}
	p->sets = arr;
	s = &p->sets[p->nsets++];
	memset(s, 0, sizeof(*s));
	s->name = copy;
	return s;
}

/* Append pr (its name and data become the set's) or leave it to the caller. */
static int set_append(struct props_set *s, const struct props_prop *pr)
{
	void *arr = s->props;
	int r;

	r = grow(&arr, &s->cap, s->nprops, sizeof(*s->props));
	if (r < 0)
		return r;
	s->props = arr;
	s->props[s->nprops++] = *pr;
	return 0;
}

static int add_prop(struct props_set *s, const char *name,
		    struct props_prop *pr)
{
	int r;

	pr->name = strdup(name);
	if (!pr->name)
		return -ENOMEM;
	r = set_append(s, pr);
	if (r < 0)
		free(pr->name);
	return r;
}

int props_add_u32(struct props_set *s, const char *name, uint32_t v)
{
	struct props_prop pr = { .type = PROPS_UINT32, .u32 = v };

	return add_prop(s, name, &pr);
}

int props_add_bytes_owned(struct props_set *s, const char *name,
			  unsigned char *buf, size_t size)
{
	struct props_prop pr = {
		.type = PROPS_BYTE_ARRAY, .data = buf, .size = size,
	};

	return add_prop(s, name, &pr);
}

int props_add_bytes(struct props_set *s, const char *name, const void *bytes,
		    uint64_t nbits)
{
	uint64_t payload = nbits / 8 + (nbits % 8 != 0);
	unsigned char *buf;
	int r;

	if (payload > SIZE_MAX - PROPS_BYTES_HEADER)
		return -ENOMEM;
	if (payload && !bytes)
		return -EINVAL;
	buf = malloc((size_t)payload + PROPS_BYTES_HEADER);
	if (!buf)
		return -ENOMEM;
	put_le64(buf, nbits);
	if (payload)
		memcpy(buf + PROPS_BYTES_HEADER, bytes, (size_t)payload);
	r = props_add_bytes_owned(s, name, buf,
				  (size_t)payload + PROPS_BYTES_HEADER);
	if (r < 0)
		free(buf);
	return r;
}

int props_add_string(struct props_set *s, const char *name, const char *str)
{
	struct props_prop pr = { .type = PROPS_STRING };
	size_t len = strlen(str);
	int r;

	pr.data = (unsigned char *)props_strndup(str, len);
	if (!pr.data)
		return -ENOMEM;
	pr.size = len;
	r = add_prop(s, name, &pr);
	if (r < 0)
		free(pr.data);
	return r;
}

const struct props_set *props_find_set(const struct props *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nsets; i++)
		if (!strcmp(p->sets[i].name, name))
			return &p->sets[i];
	return NULL;
}

const struct props_prop *props_set_find(const struct props_set *s,
					const char *name)
{
	size_t i;

	for (i = 0; i < s->nprops; i++)
		if (!strcmp(s->props[i].name, name))
			return &s->props[i];
	return NULL;
}

static int prop_equal(const struct props_prop *a, const struct props_prop *b)
{
	if (strcmp(a->name, b->name) || a->type != b->type)
		return 0;
	switch (a->type) {
	case PROPS_UINT32:
		return a->u32 == b->u32;
	case PROPS_BYTE_ARRAY:
	case PROPS_STRING:
		return a->size == b->size &&
		       (!a->size || !memcmp(a->data, b->data, a->size));
	default:
		return 1;
	}
}

static int set_equal(const struct props_set *a, const struct props_set *b)
{
	size_t i;

	if (strcmp(a->name, b->name) || a->nprops != b->nprops)
		return 0;
	for (i = 0; i < a->nprops; i++)
		if (!prop_equal(&a->props[i], &b->props[i]))
			return 0;
	return 1;
}

int props_equal(const struct props *a, const struct props *b)
{
	size_t i;

	if (a->nsets != b->nsets)
		return 0;
	for (i = 0; i < a->nsets; i++)
		if (!set_equal(&a->sets[i], &b->sets[i]))
			return 0;
	return 1;
}
