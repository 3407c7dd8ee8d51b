// SPDX-License-Identifier: MIT
/*
 * The notes of what discovery found (struct plugin_note): trace lines
 * and files to open, kept in order until the set goes through them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "loader/backend/plugin-private.h"

static struct plugin_note *note_new(struct devimg_plugins *ps)
{
	struct plugin_note *n;

	/* A few per folder: one more each time. */
	n = realloc(ps->notes, (ps->nnotes + 1) * sizeof(*n));
	if (!n)
		return NULL;
	ps->notes = n;
	n += ps->nnotes++;
	memset(n, 0, sizeof(*n));
	n->rc = 1;
	return n;
}

/*
 * A level-1 trace line, kept in n to be emitted in its turn; escaped as by
 * plugin_trace(). Out of memory, the line is lost.
 */
static void note_vset(struct devimg_plugins *ps, struct plugin_note *n,
		      const char *fmt, va_list ap)
{
	char buf[TRACE_MAX];

	if (ps->trace < 1)
		return;
	esc_vsnprintf(buf, sizeof(buf), NULL, fmt, ap);
	free(n->text);
	n->text = strdup(buf);
}

void plugin_note_set(struct devimg_plugins *ps, struct plugin_note *n,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	note_vset(ps, n, fmt, ap);
	va_end(ap);
}

void plugin_note_text(struct devimg_plugins *ps, const char *fmt, ...)
{
	struct plugin_note *n;
	va_list ap;

	if (ps->trace < 1 || !(n = note_new(ps)))
		return;
	va_start(ap, fmt);
	note_vset(ps, n, fmt, ap);
	va_end(ap);
}

int plugin_note_file(struct devimg_plugins *ps, const char *file)
{
	char *copy = strdup(file);
	struct plugin_note *n = copy ? note_new(ps) : NULL;

	if (!n) {
		free(copy);
		return -ENOMEM;
	}
	n->file = copy;
	return 0;
}
