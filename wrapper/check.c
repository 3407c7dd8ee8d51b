// SPDX-License-Identifier: MIT
/*
 * devimg-dump --check: a lint of .props files. The reader takes a file as
 * DPC++'s tools take it, and tells each place where they would silently
 * drop or change what the text says; those, and what they refuse, are the
 * findings.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "wrapper/check.h"
#include "util/escape.h"
#include "props/props.h"
#include "util/errmsg.h"

#define PROG "devimg-dump"

struct check_ctx {
	const char *path;
	unsigned long findings;
};

/* msg quotes input text escaped already; only the path needs it. */
static void on_note(void *ctx, size_t line, const char *msg)
{
	struct check_ctx *c = ctx;

	c->findings++;
	esc_fprintf(stdout, NULL, "%s", c->path);
	printf(":%zu: %s\n", line, msg);
}

/* A finding whose text names input unescaped: all of it is escaped. */
static void finding(struct check_ctx *c, size_t line, const char *msg)
{
	c->findings++;
	esc_fprintf(stdout, NULL, "%s:%zu: %s\n", c->path, line, msg);
}

/*
 * DPC++'s runtime places a constant's leaves right but starts the next
 * constant where the constant's last leaf ends: a last leaf that is not
 * the furthest makes the constants overlap in the blob.
 */
static void check_last_leaf(struct check_ctx *c, const struct props_prop *pr,
			    const struct props_spec_const *sc)
{
	const struct props_spec_desc *d = &sc->descs[sc->ndescs - 1];
	char msg[512];

	if (d->offset + d->size == sc->size)
		return;
	snprintf(msg, sizeof(msg),
		 "set '%s' property '%s': the last leaf ends at byte %" PRIu32
		 " of %" PRIu32 ": DPC++'s runtime starts the next constant there",
		 PROPS_SET_SPEC_CONSTS, pr->name, d->offset + d->size,
		 sc->size);
	finding(c, pr->line, msg);
}

/* 1 when pr is a byte array; else a finding and 0. */
static int need_bytes(struct check_ctx *c, const char *set,
		      const struct props_prop *pr)
{
	char msg[512];

	if (pr->type == PROPS_BYTE_ARRAY)
		return 1;
	snprintf(msg, sizeof(msg),
		 "set '%s' property '%s': type %d, expected 2 (BYTE_ARRAY)",
		 set, pr->name, (int)pr->type);
	finding(c, pr->line, msg);
	return 0;
}

/* The spec constants as the runtime lays them, with their defaults. */
static void check_spec(struct check_ctx *c, const struct props *p)
{
	const struct props_set *sc = props_find_set(p, PROPS_SET_SPEC_CONSTS);
	const struct props_set *sd = props_find_set(p, PROPS_SET_SPEC_DEFAULTS);
	const struct props_prop *all = NULL, *pr;
	struct errmsg perr = { 0 };
	struct props_spec_const *consts;
	size_t i, n = 0;
	uint32_t total;

	if (!sc || !sc->nprops)
		return;
	if (sd)
		all = props_set_find(sd, PROPS_SPEC_DEFAULTS_PROP);
	consts = calloc(sc->nprops, sizeof(*consts));
	if (!consts)
		return;
	for (i = 0; i < sc->nprops; i++) {
		pr = &sc->props[i];
		if (!need_bytes(c, PROPS_SET_SPEC_CONSTS, pr))
			continue;
		if (props_spec_decode(pr->name, pr->data, pr->size, &consts[n],
				      &perr) < 0) {
			finding(c, pr->line, perr.msg);
			continue;
		}
		check_last_leaf(c, pr, &consts[n]);
		n++;
	}
	if (n == sc->nprops && all &&
	    need_bytes(c, PROPS_SET_SPEC_DEFAULTS, all) &&
	    props_spec_layout(consts, n, all->data, all->size, &total,
			      &perr) < 0)
		finding(c, all->line, perr.msg);
	for (i = 0; i < n; i++)
		props_spec_const_fini(&consts[i]);
	free(consts);
}

static int check_file(const char *path)
{
	struct errmsg perr = { 0 };
	struct check_ctx c = { .path = path };
	struct props *p = NULL;
	int r;

	r = props_read_file_noted(path, &p, &perr, on_note, &c);
	if (r == 0)
		check_spec(&c, p);
	props_free(p);
	if (r == -EINVAL || r == -ERANGE) {
		esc_fprintf(stdout, NULL, "%s\n", perr.msg);
		return 1;
	}
	if (r < 0) {
		esc_fprintf(stderr, NULL, PROG ": %s\n", perr.msg);
		return 1;
	}
	return c.findings != 0;
}

int check_props_files(char **files, int n)
{
	int i, status = 0;

	for (i = 0; i < n; i++)
		if (check_file(files[i]))
			status = 1;
	return status;
}
