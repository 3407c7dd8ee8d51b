/* SPDX-License-Identifier: MIT */
/*
 * What the files of the plugin set share and nothing else sees: a bound
 * plugin and the trace lines. plugins.c finds, starts and binds plugins;
 * plugin-calls.c calls them and writes the trace lines.
 */
#ifndef DEVIMG_LOADER_PLUGIN_PRIVATE_H
#define DEVIMG_LOADER_PLUGIN_PRIVATE_H

#include "plugins/devimg_plugin.h"

struct devimg_plugin {
	char *file;
	void *handle;
	int trace;
	struct devimg_plugin_ops ops;
};

/* A trace line of level wanted (1 or 2) goes to the log at this priority. */
#define TRACE_PRIORITY(wanted) \
	((wanted) >= 2 ? DEVIMG_LOG_DEBUG : DEVIMG_LOG_INFO)

/* The longest trace line; longer ones are cut between two escapes. */
#define TRACE_MAX 4096

/*
 * A trace line when level (the plugin set's trace level) reaches wanted:
 * through the log, every argument escaped (escape.h).
 */
void plugin_trace(int level, int wanted, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
