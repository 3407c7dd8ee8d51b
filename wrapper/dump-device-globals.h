/* SPDX-License-Identifier: MIT */
/*
 * devimg-dump's view of the "SYCL/device globals" set (docs/formats.md,
 * docs/dump-json.md): each property, named by a global's unique id, shown
 * as its size and device_image_scope flag.
 */
#ifndef DEVIMG_WRAPPER_DUMP_DEVICE_GLOBALS_H
#define DEVIMG_WRAPPER_DUMP_DEVICE_GLOBALS_H

#include <stdio.h>

#include "wrapper/json.h"
#include "props/props.h"
#include "wrapper/index-reader.h"

/*
 * When p is a byte array of the device-globals set: print
 * "size N, image scope yes|no" and return 1, or, when its value cannot be
 * decoded, put the reason (naming set, property and field) in why and
 * return 0 so that the caller shows the raw bytes with it. 0, why
 * untouched, for any other property.
 */
int dump_global_text(FILE *f, const char *set, const struct devimg_prop *p,
		     struct errmsg *why);
/* The same for JSON: the members "size" and "image_scope", or why. */
void dump_global_json(struct json_writer *w, const char *set,
		      const struct devimg_prop *p, struct errmsg *why);

#endif
