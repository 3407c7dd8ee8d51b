/* SPDX-License-Identifier: MIT */
/*
 * What the files of the plugin set share and nothing else sees: a bound
 * plugin, the set and the notes of what discovery found, the trace
 * lines, and the helpers each file offers the others. Each file has one
 * job, and calls only those below it:
 *
 *   plugins.c           the set's API (plugins.h): load, count, get, find,
 *                       account, free; goes through the notes on demand
 *   plugin-discovery.c  searches the folders, notes the files to open
 *   plugin-binding.c    checks what init filled, binds into the set
 *   plugin-start.c      opens the files, runs the inits (on threads),
 *                       keeps modules mapped, frees a plugin
 *   plugin-notes.c      the notes: trace lines and files, in order
 *   plugin-names.c      what a plugin file's name says
 *   plugin-calls.c      the traced calls into bound plugins, the trace
 *                       lines (plugin_trace())
 */
#ifndef DEVIMG_LOADER_PLUGIN_PRIVATE_H
#define DEVIMG_LOADER_PLUGIN_PRIVATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "loader/backend/account.h"
#include "plugins/devimg_plugin.h"

struct devimg_plugins_config;
struct devimg_selector;

struct devimg_plugin {
	char *file;
	void *handle;
	int trace;
	struct devimg_plugin_ops ops;
};

/*
 * What discovery found, in order: a trace line, or a file to open and
 * start. Files are opened and started when a plugin past those bound is
 * asked for (devimg_plugins_get()), one at a time, or all that remain
 * (devimg_plugins_count()), their inits at once, one thread each; then
 * the notes are gone through in order, so that traces and devices keep
 * the order of the files.
 */
struct plugin_note {
	char *text;			/* a trace line, or NULL */
	char *file;			/* a file to open, or NULL */
	struct devimg_plugin *p;	/* a plugin to start, or NULL */
	devimg_plugin_init_fn init;
	int rc;				/* what init returned; 1: not run */
	bool beside;			/* starts at once with the others */
	bool threaded;
	pthread_t thread;
	char msg[1024];			/* the plugin's message after init */
};

struct devimg_plugins {
	/* Held while binding, and to read what is bound. */
	pthread_mutex_t lock;
	unsigned count;
	unsigned capacity;
	struct devimg_plugin **list;
	/* File names seen so far, to let earlier folders shadow later ones. */
	unsigned nseen;
	char **seen;
	int trace;
	/* While discovering: the selector (NULL: every plugin). */
	struct devimg_selector *sel;
	/* What discovery found; those before next are gone through. */
	unsigned nnotes;
	unsigned next;
	struct plugin_note *notes;
	/* What became of each folder and file, under lock (account.h). */
	struct account account;
};

/* A table must reach at least this far: through launch, the last required. */
#define DEVIMG_PLUGIN_OPS_MIN DEVIMG_PLUGIN_OPS_MIN_SIZE

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

/* plugin-names.c */

/* The file name of a path: "devimg-opencl.so". */
const char *plugin_base_name(const char *file);
/* The backend a plugin's file name says: "opencl" for devimg-opencl.so. */
void plugin_backend_of_name(const char *name, char *buf, size_t size);
/* The same for a path. */
void plugin_backend_of_file(const char *file, char *buf, size_t size);

/* plugin-notes.c */

/*
 * A level-1 trace line in a note of its own, escaped as by
 * plugin_trace(); nothing when ps does not trace. Out of memory, the
 * line is lost.
 */
void plugin_note_text(struct devimg_plugins *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same line kept in n, in place of the one it held. */
void plugin_note_set(struct devimg_plugins *ps, struct plugin_note *n,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A file to open and start in its turn. Returns 0 or -ENOMEM. */
int plugin_note_file(struct devimg_plugins *ps, const char *file);

/* plugin-discovery.c */

/*
 * Search the folders cfg names, in order, under its selector: notes of
 * what was found in ps, nothing opened. Returns 0 or -ENOMEM.
 */
int plugin_discover(struct devimg_plugins *ps,
		    const struct devimg_plugins_config *cfg);

/* plugin-start.c */

/*
 * Open the file of n and find its entry point, to start it: n->p, or a
 * line in n->text saying why not. Returns 0 whether it is to start or
 * was skipped, -ENOMEM only.
 */
int plugin_open(struct devimg_plugins *ps, struct plugin_note *n);
/*
 * Start the plugins of notes [from, to): run their inits, at once where
 * they may; what each returned in its note.
 */
void plugin_start_range(struct devimg_plugins *ps, unsigned from,
			unsigned to);
/* Keep the library of file mapped until exit. */
void plugin_keep_mapped(const char *file);
/* Close and free p; initialised: call its fini() first. */
void plugin_free(struct devimg_plugin *p, bool initialised);

/* plugin-binding.c */

/*
 * Go through notes [from, to) in order: emit the lines, bind the started
 * plugins or skip them with their reason. Returns 0 or -ENOMEM.
 */
int plugin_bind_range(struct devimg_plugins *ps, unsigned from,
		      unsigned to);
/* Whether a table that init filled but we reject still has a usable fini. */
bool plugin_can_fini(const struct devimg_plugin_ops *ops);

#endif
