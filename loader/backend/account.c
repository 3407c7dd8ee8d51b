// SPDX-License-Identifier: MIT
/*
 * Short accounts of device enumeration (account.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "loader/backend/account.h"

void account_add(struct account *a, const char *fmt, ...)
{
	static const char more[] = "...";
	size_t room = sizeof(a->text) - sizeof(more);
	va_list ap;
	int n;

	/* Already cut: nothing more goes in. */
	if (a->len >= room)
		return;
	if (a->len) {
		snprintf(a->text + a->len, room - a->len, "; ");
		a->len = strlen(a->text);
	}
	va_start(ap, fmt);
	n = vsnprintf(a->text + a->len, room - a->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= room - a->len) {
		memcpy(a->text + room - 1, more, sizeof(more));
		a->len = room;
		return;
	}
	a->len += (size_t)n;
}
