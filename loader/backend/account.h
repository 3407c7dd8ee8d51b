/* SPDX-License-Identifier: MIT */
/*
 * A short account of what device enumeration found: which folders were
 * searched, which plugins were bound or skipped and why, what platforms
 * and devices each backend reported and what the device selector kept.
 * Kept whatever the trace level, so that "no device" can say why
 * (devimg_device_get()). Phrases are joined by "; " and the text stops,
 * ending in "...", when it would pass ACCOUNT_MAX. The text is raw: whoever
 * prints it escapes it (escape.h).
 */
#ifndef DEVIMG_LOADER_ACCOUNT_H
#define DEVIMG_LOADER_ACCOUNT_H

#include <stddef.h>

#define ACCOUNT_MAX 1536

struct account {
	size_t len;
	char text[ACCOUNT_MAX];
};

/* Append a phrase. */
void account_add(struct account *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
