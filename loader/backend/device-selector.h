/* SPDX-License-Identifier: MIT */
/*
 * The device selector: which devices a context sees (DEVIMG_DEVICE_SELECTOR),
 * in the grammar of oneAPI's ONEAPI_DEVICE_SELECTOR:
 *
 *   selector ::= term { ";" term }          accepting terms before discarding
 *   term     ::= [ "!" ] backend ":" device { "," device }
 *   backend  ::= "*" | "opencl" | "level_zero" | "cuda"
 *   device   ::= "*" | "cpu" | "gpu" | "fpga" | N | N "." M | N "." "*"
 *                | "*" "." "*"
 *
 * Backends and device types are case-insensitive; N and M are decimal
 * device and sub-device indices, counted from 0 among the devices of one
 * backend. A device is kept when an accepting term selects it and no
 * discarding term ("!...") does; a selector of discarding terms only
 * starts from every device ("*:*"). "*", a type and N select root devices;
 * N.M, N.* and *.* select sub-devices only (the root is then not kept).
 * "fpga" is the accelerator type.
 *
 * Parsing is a pure function of the string; matching is a pure function of
 * the parsed selector and one device's backend, index and type.
 */
#ifndef DEVIMG_LOADER_SELECTOR_H
#define DEVIMG_LOADER_SELECTOR_H

#include <stdbool.h>
#include <stddef.h>

#include "plugins/devimg_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

struct devimg_selector;

struct devimg_selector_error {
	size_t pos;		/* 0-based offset of the offending text */
	char msg[256];		/* "column 9: unknown backend 'ocl' in ..." */
};

/*
 * Parse text into a selector. NULL or "" selects every root device.
 * Returns 0 and the selector in *out, -EINVAL for text outside the grammar
 * (err, when not NULL, then names the column, 1-based, the term and what
 * was expected), or -ENOMEM.
 */
int devimg_selector_parse(const char *text, struct devimg_selector **out,
			  struct devimg_selector_error *err);

void devimg_selector_free(struct devimg_selector *sel);

/*
 * Whether the root device number index of backend ("opencl"), of the given
 * type, is kept. A NULL selector keeps everything; a backend name outside
 * the grammar only matches "*".
 */
bool devimg_selector_keep(const struct devimg_selector *sel,
			  const char *backend, unsigned index,
			  enum devimg_plugin_device_type type);

/* The same for sub-device sub of that root device. */
bool devimg_selector_keep_sub(const struct devimg_selector *sel,
			      const char *backend, unsigned index,
			      unsigned sub,
			      enum devimg_plugin_device_type type);

/*
 * Whether an accepting term asks for sub-devices of that root device, i.e.
 * whether the loader has to partition it to honour the selector.
 */
bool devimg_selector_wants_sub_devices(const struct devimg_selector *sel,
				       const char *backend, unsigned index);

/*
 * Whether the selector may keep any device, root or sub-device, of backend:
 * false only when backend is one of the grammar's (opencl, level_zero,
 * cuda, in any case) and no term can select a device of it: every
 * accepting term names another backend, or, with discarding terms only,
 * one of them discards every root device of it ("!cuda:*", "!*:*").
 * A NULL selector and a backend outside the grammar give true. The loader
 * uses it to leave unopened the plugin files named for such a backend.
 */
bool devimg_selector_may_keep_backend(const struct devimg_selector *sel,
				      const char *backend);

/* Whether backend is one the grammar names (opencl, level_zero, cuda). */
bool devimg_selector_known_backend(const char *backend);

#ifdef __cplusplus
}
#endif
#endif
