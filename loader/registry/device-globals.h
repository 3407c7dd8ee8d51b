/* SPDX-License-Identifier: MIT */
/*
 * The device globals of the registered images: one record per
 * unique id, kept for the life of the process, with the images that
 * define it now. Images are read on the first request after they were
 * registered; their "SYCL/device globals" values are decoded then.
 */
#ifndef DEVIMG_DEVICE_GLOBALS_H
#define DEVIMG_DEVICE_GLOBALS_H

#include <stddef.h>

#include "loader/registry/registry.h"

#define GLOBALS_SET "SYCL/device globals"

struct devimg_global {
	struct hash_node node;		/* in the map of ids */
	struct devimg_global *older;	/* the list of all, newest first */
	uint32_t size;
	bool known;			/* size and scope come from an image */
	bool image_scope;
	struct devimg_image **defs;	/* registered, in id order; no refs */
	size_t ndefs;
	size_t cap;
	/* The host access image access_img gives (-1: says none); 0: none. */
	uint64_t access_img;
	int access;
	char id[];
};

/*
 * device-global-records.c: the records by id, under one lock (records_lock()),
 * taken after the registry's when both are held. records_find() and
 * records_intern() (which makes the record; NULL on ENOMEM) and
 * records_add_def() (-ENOMEM) need the lock held.
 */
void records_lock(void);
void records_unlock(void);
struct devimg_global *records_find(const char *id);
struct devimg_global *records_intern(const char *id);
int records_add_def(struct devimg_global *g, struct devimg_image *img);
/* The "SYCL/device globals" set of an image's property copy, or NULL. */
const struct devimg_propset_info *globals_set(const struct image_props *p);
/*
 * img was just unregistered (the registry's write lock is held): the
 * records it defined forget it.
 */
void globals_image_gone(struct devimg_image *img);

/* device-globals.c: reading images, for the dispatch wing. */

/*
 * The host access img's module gives g, as the dispatch wing last read
 * it (-1: no decoration names g): true when known. Ids are never reused,
 * so an answer kept stays true.
 */
bool globals_access_known(const struct devimg_global *g,
			  const struct devimg_image *img, int *access);
void globals_access_keep(const struct devimg_global *g,
			 const struct devimg_image *img, int access);

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
 * The name img's module gives g, into *out (to be freed): with mapped, the
 * one its "SYCL/program metadata" property "<id>@global_id_mapping" holds
 * when it has one, else (and without mapped) the unique id. -EINVAL (the
 * message names the image and property) when that property is not a
 * byte array holding a name; -ENOMEM.
 */
int globals_symbol(struct devimg_image *img, const struct devimg_global *g,
		   bool mapped, char **out);

/* registry.c: the id of the newest image settled; 0 when none. */
uint64_t registry_newest_id(void);

#endif
