/* SPDX-License-Identifier: MIT */
/*
 * Image selection as a pure function of the device's capabilities (and,
 * for device requirements, its features) and what is known of each
 * candidate; devimg_select_image_with() fills the candidates from image
 * records (guessing formats from bytes on first use, decoding "SYCL/device
 * requirements") and calls select_pick_with().
 */
#ifndef DEVIMG_SELECT_H
#define DEVIMG_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/registry/registry.h"

/* An image's "SYCL/device requirements", as selection checks them. */
struct select_reqs {
	int error;			/* < 0: could not be read (errno) */
	const uint32_t *aspects;
	size_t naspects;
	uint32_t sub_group_size;	/* 0: none */
	unsigned wg_dims;		/* 0: none */
	uint64_t wg_size[3];
};

struct select_cand {
	const char *target;
	unsigned kind;
	unsigned format;		/* as declared */
	enum image_content content;	/* CONTENT_UNKNOWN when not looked at */
	unsigned ptx_sm;		/* 0: unknown */
	size_t size;
	bool stale;			/* bytes needed but unregistered */
	const char *unz_error;		/* compressed, could not expand */
	const struct select_reqs *reqs;	/* NULL: requires nothing */
};

/* Whether the target is one the backend and device type can take. */
bool select_target_fits(const struct devimg_device_caps *dev,
			const char *target);

/* As devimg_select_image(), over described candidates. */
int select_pick(const struct devimg_device_caps *dev,
		const struct select_cand *c, size_t n, size_t *chosen,
		char (*why)[DEVIMG_REASON_MAX]);
/* As devimg_select_image_with(): feat NULL ignores requirements. */
int select_pick_with(const struct devimg_device_caps *dev,
		     const struct devimg_device_features *feat,
		     const struct select_cand *c, size_t n, size_t *chosen,
		     char (*why)[DEVIMG_REASON_MAX]);

#endif
