// SPDX-License-Identifier: MIT
/*
 * DEVIMG_DEVICE_SELECTOR: parsing (string -> filters) and matching
 * (filters x device -> keep?). See selector.h for the grammar.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "loader/backend/device-selector.h"

enum backend {
	BACKEND_ANY,
	BACKEND_OPENCL,
	BACKEND_LEVEL_ZERO,
	BACKEND_CUDA,
	BACKEND_UNKNOWN,	/* a device's backend outside the grammar */
};

static const char *const backend_names[] = {
	[BACKEND_ANY] = "*",
	[BACKEND_OPENCL] = "opencl",
	[BACKEND_LEVEL_ZERO] = "level_zero",
	[BACKEND_CUDA] = "cuda",
};

enum kind {
	KIND_ALL,		/* *    every root device */
	KIND_TYPE,		/* gpu  root devices of a type */
	KIND_INDEX,		/* N    root device N */
	KIND_SUB,		/* N.M  sub-device M of N */
	KIND_SUB_ALL,		/* N.*, *.*  every sub-device of N, of all */
};

#define ANY_INDEX UINT_MAX

/* One device of one term: "opencl:0,gpu" gives two. */
struct filter {
	bool discard;
	enum backend backend;
	enum kind kind;
	enum devimg_plugin_device_type type;
	unsigned index;		/* ANY_INDEX for *.* */
	unsigned sub;
};

struct devimg_selector {
	unsigned count;
	unsigned capacity;
	unsigned naccept;
	struct filter *filters;
};

/* A piece of the selector string being parsed. */
struct span {
	const char *text;	/* the whole string, for positions */
	size_t start;
	size_t end;
};

static size_t span_len(struct span s)
{
	return s.end - s.start;
}

static const char *span_ptr(struct span s)
{
	return s.text + s.start;
}

static bool span_is(struct span s, const char *word)
{
	return span_len(s) == strlen(word) &&
	       !strncasecmp(span_ptr(s), word, span_len(s));
}

/* The first c in s at or after its start, or s.end. */
static size_t span_find(struct span s, char c)
{
	const char *p = memchr(span_ptr(s), c, span_len(s));

	return p ? (size_t)(p - s.text) : s.end;
}

static int fail(struct devimg_selector_error *err, size_t pos,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(struct devimg_selector_error *err, size_t pos,
		const char *fmt, ...)
{
	size_t len;
	va_list ap;

	if (!err)
		return -EINVAL;
	err->pos = pos;
	len = (size_t)snprintf(err->msg, sizeof(err->msg), "column %zu: ",
			       pos + 1);
	if (len >= sizeof(err->msg))
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(err->msg + len, sizeof(err->msg) - len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Quote at most this much of a term in a message. */
#define SHOW(s) (int)(span_len(s) < 64 ? span_len(s) : 64), span_ptr(s)

static int add(struct devimg_selector *sel, const struct filter *f)
{
	if (sel->count == sel->capacity) {
		unsigned cap = sel->capacity ? 2 * sel->capacity : 8;
		struct filter *filters;

		filters = realloc(sel->filters, cap * sizeof(*filters));
		if (!filters)
			return -ENOMEM;
		sel->filters = filters;
		sel->capacity = cap;
	}
	sel->filters[sel->count++] = *f;
	if (!f->discard)
		sel->naccept++;
	return 0;
}

/* A decimal number filling s; false when s is not one or too large. */
static bool parse_number(struct span s, unsigned *out)
{
	unsigned long v = 0;
	size_t i;

	if (span_len(s) == 0)
		return false;
	for (i = s.start; i < s.end; i++) {
		if (s.text[i] < '0' || s.text[i] > '9')
			return false;
		v = v * 10 + (unsigned long)(s.text[i] - '0');
		if (v >= ANY_INDEX)
			return false;
	}
	*out = (unsigned)v;
	return true;
}

static bool all_digits(struct span s)
{
	size_t i;

	for (i = s.start; i < s.end; i++)
		if (s.text[i] < '0' || s.text[i] > '9')
			return false;
	return span_len(s) > 0;
}

/* The part of a device before any '.': *, a type or a number. */
static int parse_top(struct span top, struct span term, struct filter *f,
		     struct devimg_selector_error *err)
{
	if (span_is(top, "*")) {
		f->kind = KIND_ALL;
		return 0;
	}
	f->kind = KIND_TYPE;
	if (span_is(top, "cpu")) {
		f->type = DEVIMG_PLUGIN_DEVICE_CPU;
		return 0;
	}
	if (span_is(top, "gpu")) {
		f->type = DEVIMG_PLUGIN_DEVICE_GPU;
		return 0;
	}
	if (span_is(top, "fpga")) {
		f->type = DEVIMG_PLUGIN_DEVICE_ACCELERATOR;
		return 0;
	}
	f->kind = KIND_INDEX;
	if (parse_number(top, &f->index))
		return 0;
	if (all_digits(top))
		return fail(err, top.start,
			    "device number '%.*s' too large in term '%.*s'",
			    SHOW(top), SHOW(term));
	if (span_len(top) == 0)
		return fail(err, top.start, "missing device in term '%.*s'",
			    SHOW(term));
	return fail(err, top.start,
		    "unknown device '%.*s' in term '%.*s' (expected *, cpu, gpu, fpga, N, N.M or N.*)",
		    SHOW(top), SHOW(term));
}

/* The part after the '.': a sub-device number or '*'. */
static int parse_sub(struct span sub, struct span top, struct span term,
		     struct filter *f, struct devimg_selector_error *err)
{
	if (f->kind == KIND_TYPE)
		return fail(err, top.start,
			    "sub-devices need a device number, not the type '%.*s', in term '%.*s'",
			    SHOW(top), SHOW(term));
	if (span_is(sub, "*")) {
		if (f->kind == KIND_ALL)
			f->index = ANY_INDEX;
		f->kind = KIND_SUB_ALL;
		return 0;
	}
	if (!parse_number(sub, &f->sub))
		return fail(err, sub.start,
			    "bad sub-device '%.*s' in term '%.*s' (expected a number or *)",
			    SHOW(sub), SHOW(term));
	if (f->kind == KIND_ALL)
		return fail(err, top.start,
			    "a sub-device number needs a device number, not '*', in term '%.*s'",
			    SHOW(term));
	f->kind = KIND_SUB;
	return 0;
}

static int parse_device(struct span dev, struct span term, struct filter *f,
			struct devimg_selector_error *err)
{
	size_t dot = span_find(dev, '.');
	struct span top = { dev.text, dev.start, dot };
	struct span sub = { dev.text, dot + 1, dev.end };
	int rc;

	if (span_len(dev) == 0)
		return fail(err, dev.start, "empty device in term '%.*s'",
			    SHOW(term));
	f->type = DEVIMG_PLUGIN_DEVICE_OTHER;
	f->index = 0;
	f->sub = 0;
	rc = parse_top(top, term, f, err);
	if (rc < 0 || dot == dev.end)
		return rc;
	if (span_find(sub, '.') != sub.end)
		return fail(err, span_find(sub, '.'),
			    "only one level of sub-devices (N.M, N.*) in term '%.*s'",
			    SHOW(term));
	return parse_sub(sub, top, term, f, err);
}

static int parse_backend(struct span be, struct span term, struct filter *f,
			 struct devimg_selector_error *err)
{
	size_t i;

	for (i = 0; i < sizeof(backend_names) / sizeof(backend_names[0]); i++) {
		if (span_is(be, backend_names[i])) {
			f->backend = (enum backend)i;
			return 0;
		}
	}
	if (span_len(be) == 0)
		return fail(err, be.start, "missing backend in term '%.*s'",
			    SHOW(term));
	return fail(err, be.start,
		    "unknown backend '%.*s' in term '%.*s' (expected *, opencl, level_zero or cuda)",
		    SHOW(be), SHOW(term));
}

static int parse_devices(struct devimg_selector *sel, struct span devs,
			 struct span term, struct filter *f,
			 struct devimg_selector_error *err)
{
	size_t start = devs.start;
	int rc;

	if (span_len(devs) == 0)
		return fail(err, devs.start,
			    "no devices after ':' in term '%.*s' (try '%.*s*')",
			    SHOW(term), SHOW(term));
	for (;;) {
		struct span rest = { devs.text, start, devs.end };
		size_t comma = span_find(rest, ',');
		struct span dev = { devs.text, start, comma };

		rc = parse_device(dev, term, f, err);
		if (rc == 0)
			rc = add(sel, f);
		if (rc < 0 || comma == devs.end)
			return rc;
		start = comma + 1;
	}
}

static int parse_term(struct devimg_selector *sel, struct span term,
		      struct devimg_selector_error *err)
{
	struct filter f = { .discard = false };
	struct span body = term;
	struct span be, devs, rest;
	size_t colon;
	int rc;

	if (span_len(term) == 0)
		return fail(err, term.start, "empty term");
	if (span_ptr(term)[0] == '!') {
		f.discard = true;
		body.start++;
	} else if (sel->count > sel->naccept) {
		return fail(err, term.start,
			    "accepting term '%.*s' after a discarding term: '!' terms come last",
			    SHOW(term));
	}
	colon = span_find(body, ':');
	if (colon == body.end)
		return fail(err, body.start,
			    "missing ':' in term '%.*s' (try '%.*s:*')",
			    SHOW(term), SHOW(term));
	rest = (struct span){ term.text, colon + 1, body.end };
	if (span_find(rest, ':') != rest.end)
		return fail(err, span_find(rest, ':'),
			    "too many ':' in term '%.*s'", SHOW(term));
	be = (struct span){ term.text, body.start, colon };
	devs = rest;
	rc = parse_backend(be, term, &f, err);
	if (rc < 0)
		return rc;
	return parse_devices(sel, devs, term, &f, err);
}

void devimg_selector_free(struct devimg_selector *sel)
{
	if (!sel)
		return;
	free(sel->filters);
	free(sel);
}

int devimg_selector_parse(const char *text, struct devimg_selector **out,
			  struct devimg_selector_error *err)
{
	struct devimg_selector *sel;
	size_t start = 0, len;
	int rc = 0;

	sel = calloc(1, sizeof(*sel));
	if (!sel)
		return -ENOMEM;
	if (err) {
		err->pos = 0;
		err->msg[0] = '\0';
	}
	len = text ? strlen(text) : 0;
	while (len && rc == 0) {
		struct span all = { text, start, len };
		size_t semi = span_find(all, ';');

		rc = parse_term(sel, (struct span){ text, start, semi }, err);
		if (semi == len)
			break;
		start = semi + 1;
	}
	if (rc < 0) {
		devimg_selector_free(sel);
		return rc;
	}
	*out = sel;
	return 0;
}

static enum backend backend_of(const char *name)
{
	size_t i;

	for (i = BACKEND_OPENCL;
	     name && i < sizeof(backend_names) / sizeof(backend_names[0]); i++)
		if (!strcasecmp(name, backend_names[i]))
			return (enum backend)i;
	return BACKEND_UNKNOWN;
}

/* sub < 0: the root device itself. */
static bool matches(const struct filter *f, enum backend be, unsigned index,
		    long sub, enum devimg_plugin_device_type type)
{
	if (f->backend != BACKEND_ANY && f->backend != be)
		return false;
	switch (f->kind) {
	case KIND_ALL:
		return sub < 0;
	case KIND_TYPE:
		return sub < 0 && f->type == type;
	case KIND_INDEX:
		return sub < 0 && f->index == index;
	case KIND_SUB:
		return sub >= 0 && f->index == index && f->sub == sub;
	case KIND_SUB_ALL:
		return sub >= 0 && (f->index == ANY_INDEX || f->index == index);
	}
	return false;
}

static bool keep(const struct devimg_selector *sel, const char *backend,
		 unsigned index, long sub, enum devimg_plugin_device_type type)
{
	enum backend be = backend_of(backend);
	bool accepted;
	unsigned i;

	if (!sel)
		return sub < 0;
	/* Only discarding terms, or none at all: start from "*:*". */
	accepted = sel->naccept == 0 && sub < 0;
	for (i = 0; i < sel->count; i++) {
		const struct filter *f = &sel->filters[i];

		if (!matches(f, be, index, sub, type))
			continue;
		if (f->discard)
			return false;
		accepted = true;
	}
	return accepted;
}

bool devimg_selector_keep(const struct devimg_selector *sel,
			  const char *backend, unsigned index,
			  enum devimg_plugin_device_type type)
{
	return keep(sel, backend, index, -1, type);
}

bool devimg_selector_keep_sub(const struct devimg_selector *sel,
			      const char *backend, unsigned index,
			      unsigned sub,
			      enum devimg_plugin_device_type type)
{
	return keep(sel, backend, index, (long)sub, type);
}

bool devimg_selector_wants_sub_devices(const struct devimg_selector *sel,
				       const char *backend, unsigned index)
{
	enum backend be = backend_of(backend);
	unsigned i;

	for (i = 0; sel && i < sel->count; i++) {
		const struct filter *f = &sel->filters[i];

		if (f->discard || (f->backend != BACKEND_ANY && f->backend != be))
			continue;
		if ((f->kind == KIND_SUB || f->kind == KIND_SUB_ALL) &&
		    (f->index == ANY_INDEX || f->index == index))
			return true;
	}
	return false;
}

/* The root devices of be that f matches, all of them. */
static bool covers_backend(const struct filter *f, enum backend be)
{
	return (f->backend == BACKEND_ANY || f->backend == be) &&
	       f->kind == KIND_ALL;
}

bool devimg_selector_may_keep_backend(const struct devimg_selector *sel,
				      const char *backend)
{
	enum backend be = backend_of(backend);
	unsigned i;

	if (!sel || be == BACKEND_UNKNOWN)
		return true;
	for (i = 0; i < sel->count; i++) {
		const struct filter *f = &sel->filters[i];

		if (!f->discard &&
		    (f->backend == BACKEND_ANY || f->backend == be))
			return true;
	}
	if (sel->naccept)
		return false;
	/* Discarding terms only: roots are kept unless one drops them all. */
	for (i = 0; i < sel->count; i++)
		if (covers_backend(&sel->filters[i], be))
			return false;
	return true;
}

bool devimg_selector_known_backend(const char *backend)
{
	return backend_of(backend) != BACKEND_UNKNOWN;
}
