/* SPDX-License-Identifier: MIT */
/*
 * The device globals of the registered images (globals.c): one record per
 * unique id, kept for the life of the process, with the images that
 * define it now. Images are read on the first request after they were
 * registered; their "SYCL/device globals" values are decoded then.
 */
#ifndef DEVIMG_GLOBALS_H
#define DEVIMG_GLOBALS_H

#include <stddef.h>

#include "libdevimg-internal.h"

#define GLOBALS_SET "SYCL/device globals"

struct devimg_global {
	struct hash_node node;		/* in the map of ids */
	uint32_t hash;
	uint32_t size;
	bool known;			/* size and scope come from an image */
	bool image_scope;
	struct devimg_image **defs;	/* registered, in id order; no refs */
	size_t ndefs;
	size_t cap;
	char id[];
};

/*
 * A snapshot of the images that define g now (references), in
 * registration order; free it with images_drop(). -ENOENT (none: the
 * message is set), -ENOMEM.
 */
int globals_defs(const struct devimg_global *g, struct devimg_image ***imgs,
		 size_t *n);
/*
 * The records img defines (borrowed: records live for the process), in
 * the order of its set; *n 0 when none. -ENOMEM.
 */
int globals_of_image(struct devimg_image *img,
		     const struct devimg_global ***out, size_t *n);
/*
 * registry.c: img was just unregistered (the registry's write lock is
 * held): the records it defined forget it.
 */
void globals_image_gone(struct devimg_image *img);

/* registry.c: the id of the newest image settled; 0 when none. */
uint64_t registry_newest_id(void);

#endif
