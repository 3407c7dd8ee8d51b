// SPDX-License-Identifier: MIT
/*
 * devimg-dump --check: a lint of .props files. The reader takes a file as
 * DPC++'s tools take it, and tells each place where they would silently
 * drop or change what the text says; those, and what they refuse, are the
 * findings.
 */
#include <errno.h>
#include <stdio.h>

#include "check.h"
#include "escape.h"
#include "props.h"

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
	props_fprintf_esc(stdout, NULL, "%s", c->path);
	printf(":%zu: %s\n", line, msg);
}

static int check_file(const char *path)
{
	struct props_error perr = { { 0 } };
	struct check_ctx c = { .path = path };
	struct props *p = NULL;
	int r;

	r = props_read_file_noted(path, &p, &perr, on_note, &c);
	props_free(p);
	if (r == -EINVAL || r == -ERANGE) {
		props_fprintf_esc(stdout, NULL, "%s\n", perr.msg);
		return 1;
	}
	if (r < 0) {
		props_fprintf_esc(stderr, NULL, PROG ": %s\n", perr.msg);
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
