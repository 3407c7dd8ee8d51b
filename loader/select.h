/* SPDX-License-Identifier: MIT */
/*
 * Image selection as a pure function of the device's capabilities and what
 * is known of each candidate; devimg_select_image() fills the candidates
 * from image records (guessing formats from bytes on first use) and calls
 * select_pick().
 */
#ifndef DEVIMG_SELECT_H
#define DEVIMG_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "libdevimg-internal.h"

struct select_cand {
	const char *target;
	unsigned kind;
	unsigned format;		/* as declared */
	enum image_content content;	/* CONTENT_UNKNOWN when not looked at */
	unsigned ptx_sm;		/* 0: unknown */
	size_t size;
	bool stale;			/* bytes needed but unregistered */
};

/* Whether the target is one the backend and device type can take. */
bool select_target_fits(const struct devimg_device_caps *dev,
			const char *target);

/* As devimg_select_image(), over described candidates. */
int select_pick(const struct devimg_device_caps *dev,
		const struct select_cand *c, size_t n, size_t *chosen,
		char (*why)[DEVIMG_REASON_MAX]);

#endif
